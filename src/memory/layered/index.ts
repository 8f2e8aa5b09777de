/**
 * Layered memory (seed 001): section budgets, labels in the conversation's language, working memory, session
 * isolation with the warm start, void topics, and the per-message pipeline that ties retrieval to the context
 * engine. No DOM: the same code runs in the browser and in Node (the LoCoMo eval).
 */
export { BUDGET_ANCHORS, sectionBudgets, validateBudgets, type SectionBudgets } from './budgets.ts';
export { topicTerms, voidedTurns } from './deprecation.ts';
export { BASE_SYSTEM_PROMPT, LABELS, MEMORY_RULES, detectLang, systemPrompt, type Lang, type SectionLabels } from './labels.ts';
export { LayeredMemory, type HandleOptions, type LayeredMemoryOptions, type MessageInput, type TurnResult } from './pipeline.ts';
export { formatMemoryReport, type LayeredReport, type MemoryReport, type SectionUse } from './report.ts';
export { DEFAULT_GATE_OPTIONS, gate, type GateDecision, type GateOptions } from './session-gate.ts';
export { SessionWorkingMemory, isoAt, type WmItem, type WorkingMemoryOptions, type WorkingMemoryPort } from './working-memory.ts';
export { DurableWorkingMemory } from './durable-working-memory.ts';
export { namesSomeone } from './discussion-topic.ts';
export { sameSentPart, sentPartOf } from './sent-part.ts';
export { sessionKey } from './session-key.ts';

/**
 * The context engine: pure TypeScript, no DOM. Exact Qwen2.5 token counts, ChatML, seed-000 turn selection,
 * token-exact truncation and KV-cache-aware assembly, with a report for every request.
 */
export { appendedPrefix, assemble, type AssembleRequest, type AssembleResult, type ContextState, type ExtrasFor } from './assemble.ts';
export { isKeptState, keptState, restoredState, type KeptContextState } from './kept-state.ts';
export { ContextAssembler } from './assembler.ts';
export { computeBudget, type Budget, type SectionReport, type SectionUsage } from './budget.ts';
export {
  GENERATION_PROMPT,
  GENERATION_PROMPT_TOKENS,
  IM_END,
  IM_START,
  QWEN25_DEFAULT_SYSTEM_PROMPT,
  promptTokens,
  renderChatML,
  renderMessage,
  type RenderOptions,
} from './chatml.ts';
export { DEFAULT_CONTEXT_CONFIG, resolveConfig, validateConfig, type ContextConfig, type WordLists } from './config.ts';
export { promptHead } from './head.ts';
export { composeInput } from './input.ts';
export {
  QWEN_TOKENIZER_FILES,
  QWEN_TOKENS,
  createQwenTokenizer,
  createQwenTokenizerFromTables,
  loadQwenTokenCounter,
  loadQwenTokenizer,
  toQwen25,
  type QwenTokenizer,
  type QwenTokenizerBuild,
  type QwenTokenizerFile,
} from './qwen.ts';
export { QWEN_TABLES_FILE, QWEN_TABLES_FORMAT, type QwenBpeTables } from './qwen-tables.ts';
export {
  formatReport,
  type CompactionCause,
  type ContextReport,
  type ExtrasStatus,
  type PrefixReport,
  type TurnReport,
} from './report.ts';
export { isBlank, sanitizeText } from '../shared/sanitize.ts';
export { selectTurns, type ExcludeReason, type IncludeReason, type Selection, type TurnReason } from './select.ts';
export { CachedTokenCounter, type TextTokenizer, type TokenCounter, type TokenCounterStats } from './tokens.ts';
export { cutToFit, fillUnits } from './truncate.ts';

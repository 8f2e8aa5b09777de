/**
 * What the inspector draws, computed from the last request's snapshot: tokens per section (adding up exactly to
 * the window), the engine's own counters, and the rows for turns, retrieved memory and working memory.
 * Plain functions over plain data, so the numbers are testable without a DOM.
 */
import type { ChatResult } from '../../engine/protocol.ts';
import type { InspectorSnapshot } from '../controllers/chat-controller.ts';

export type SectionId = 'system' | 'working' | 'retrieval' | 'history' | 'message' | 'template' | 'answer';

export interface SectionSegment {
  id: SectionId;
  tokens: number;
  /** The budget this section counts against (null where it shares one, or has none). */
  budget: number | null;
}

export interface SectionView {
  window: number;
  promptTokens: number;
  segments: SectionSegment[];
  /** The input budget (seed 001): the message and the recent turns together. */
  inputBudget: number | null;
  inputTokens: number;
  /** Set when the message alone exceeded its room and was cut: what was sent of it, against what room. */
  messageCut: MessageCut | null;
}

export interface MessageCut {
  /** Tokens of the message as sent (marker included). */
  keptTokens: number;
  /** Room for the message: the prompt limit less the system prompt and the generation prompt. */
  room: number;
  promptLimit: number;
  reserve: number;
  sentChars: number;
  totalChars: number;
}

/**
 * Sections as sent. The context engine's counts are exact and add up to the prompt; the memory block inside the
 * last message is split into its working-memory and retrieved parts by the memory report.
 */
export function sectionView(snapshot: InspectorSnapshot): SectionView {
  const r = snapshot.report;
  const s = r.sections;
  const m = r.memory;
  const working = Math.min(m?.sections.working.tokens ?? 0, s.extras.tokens);
  const segments: SectionSegment[] = [
    { id: 'system', tokens: s.system.tokens, budget: m?.budgets.system ?? null },
    { id: 'working', tokens: working, budget: m?.budgets.working ?? null },
    { id: 'retrieval', tokens: s.extras.tokens - working, budget: m?.budgets.retrieval ?? s.extras.limit },
    { id: 'history', tokens: s.history.tokens, budget: null },
    { id: 'message', tokens: s.input.tokens - s.extras.tokens, budget: null },
    { id: 'template', tokens: s.template.tokens, budget: null },
    { id: 'answer', tokens: r.budget.total - r.promptTokens, budget: m?.budgets.reserve ?? r.budget.reserve },
  ];
  return {
    window: r.budget.total,
    promptTokens: r.promptTokens,
    segments,
    inputBudget: m?.budgets.input ?? null,
    inputTokens: s.history.tokens + s.input.tokens - s.extras.tokens,
    messageCut: messageCut(snapshot),
  };
}

function messageCut(snapshot: InspectorSnapshot): MessageCut | null {
  const r = snapshot.report;
  const cut = r.turns.at(-1)?.cut;
  if (cut === undefined) return null;
  const totalChars = snapshot.input.text.length;
  return {
    keptTokens: cut.keptTokens,
    room: r.sections.input.limit,
    promptLimit: r.budget.promptLimit,
    reserve: r.budget.reserve,
    sentChars: Math.min(totalChars, cut.keptChars ?? 0),
    totalChars,
  };
}

export interface EngineView {
  promptTokens: number;
  cachedTokens: number;
  prefilledTokens: number;
  completionTokens: number;
  ttftMs: number;
  prefillMs: number;
  decodeMs: number;
  /** Decoding speed; null when the engine reported no decode time. */
  tokensPerSecond: number | null;
  /** Which counters the backend derived instead of the engine reporting them (ChatResult.derived). */
  derived: { promptTokens: boolean; cachedTokens: boolean };
}

export function engineView(result: ChatResult): EngineView {
  const decodeSeconds = (result.timings.decodeMs > 0 ? result.timings.decodeMs : result.timings.totalMs - result.timings.ttftMs) / 1000;
  return {
    promptTokens: result.promptTokens,
    cachedTokens: result.cachedTokens,
    prefilledTokens: Math.max(0, result.promptTokens - result.cachedTokens),
    completionTokens: result.completionTokens,
    ttftMs: result.timings.ttftMs,
    prefillMs: result.timings.prefillMs,
    decodeMs: result.timings.decodeMs,
    tokensPerSecond: decodeSeconds > 0 && result.completionTokens > 0 ? result.completionTokens / decodeSeconds : null,
    derived: { promptTokens: result.derived?.includes('promptTokens') === true, cachedTokens: result.derived?.includes('cachedTokens') === true },
  };
}

export interface TurnRow {
  index: number;
  role: string;
  included: boolean;
  reason: string;
  detail: string;
  tokens: number | null;
  preview: string;
  cut: boolean;
}

export const preview = (text: string, max = 90): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return [...flat].length <= max ? flat : `${[...flat].slice(0, max - 1).join('')}…`;
};

export function turnRows(snapshot: InspectorSnapshot): TurnRow[] {
  return snapshot.report.turns.map((turn) => {
    const source = turn.index < snapshot.history.length ? snapshot.history[turn.index] : snapshot.input;
    return {
      index: turn.index,
      role: turn.role,
      included: turn.included,
      reason: turn.reason,
      detail: turn.detail,
      tokens: turn.tokens ?? null,
      preview: preview(source?.text ?? ''),
      cut: turn.cut !== undefined,
    };
  });
}

/** Fates of a retrieval candidate that put (some of) it in the prompt. */
export const INJECTED_FATES: ReadonlySet<string> = new Set(['whole', 'passage', 'sentences', 'paired']);

/** Text of the turn a working-memory item came from, within this conversation. */
export function sourceText(snapshot: InspectorSnapshot, turnId: string | null): string | null {
  if (turnId === null) return null;
  if (snapshot.input.id === turnId) return snapshot.input.text;
  return snapshot.history.find((h) => h.id === turnId)?.text ?? null;
}

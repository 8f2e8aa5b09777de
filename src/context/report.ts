/**
 * The report that comes with every assembled prompt: tokens per section against the budget, every turn in or
 * out and why, and the prefix the engine is expected to have in its KV cache already.
 */
import type { Role } from '../shared/chat.ts';
import type { Budget, SectionReport } from './budget.ts';
import type { TurnReason } from './select.ts';

export interface TurnReport {
  /** Index in the history; the current input has index `history.length`. */
  readonly index: number;
  readonly role: Role;
  readonly included: boolean;
  readonly reason: TurnReason;
  readonly detail: string;
  /** Tokens as sent (included) or as counted (excluded after counting); absent when never counted. */
  readonly tokens?: number;
  /** Set when the message was cut to fit; `keptChars` (the current input only): characters of it sent. */
  readonly cut?: { readonly originalTokens: number; readonly keptTokens: number; readonly keptChars?: number };
}

/** Why this request re-selected its turns instead of appending to the previous prompt. */
export type CompactionCause =
  /** No previous state. */
  | 'first-request'
  /** Appending would have gone over `budget - reserve`. */
  | 'over-budget'
  /** The history no longer continues what was sent (edited, regenerated, another conversation). */
  | 'history-changed'
  /** A setting that shapes the prompt changed. */
  | 'config-changed'
  /** `cacheAware` is off: every request is selected afresh. */
  | 'cache-off';

export interface PrefixReport {
  /** Leading messages identical to the previous request's. */
  readonly messages: number;
  /**
   * All previous messages kept verbatim, new ones only appended: web-llm reuses its KV cache only then.
   * False at every compaction.
   */
  readonly appendOnly: boolean;
  /**
   * Tokens at the start of this prompt that equal the start of the previous prompt: what a token-prefix cache
   * (wllama's `cache_prompt`) keeps for sure.
   */
  readonly tokens: number;
  /** Tokens of the previous reply after that prefix, also reused when the engine's own tokens re-tokenize alike. */
  readonly replyTokens: number;
  /** Tokens the engine has to prefill at worst: the prompt less `tokens`. */
  readonly newTokens: number;
}

export type ExtrasStatus = 'none' | 'sent' | 'cut' | 'dropped';

export interface ContextReport {
  /** 1 for the first request assembled with this state, then 2, 3, … */
  readonly request: number;
  readonly mode: 'append' | 'compact';
  /** Set when `mode` is 'compact'. */
  readonly compaction: CompactionCause | null;
  readonly budget: Budget;
  readonly sections: SectionReport;
  /** Exact tokens of the rendered prompt, generation prompt included. */
  readonly promptTokens: number;
  /** Every history turn and, last, the current input. */
  readonly turns: readonly TurnReport[];
  readonly prefix: PrefixReport;
  /** What became of the extras (memory) in the last user message. */
  readonly extras: ExtrasStatus;
  /** Human-readable notes: cuts, dropped extras, compactions. */
  readonly warnings: readonly string[];
}

const pad = (s: string | number, n: number): string => String(s).padEnd(n);

/** A compact text rendering for logs and the developer panel. */
export function formatReport(report: ContextReport, options: { maxTurns?: number } = {}): string {
  const s = report.sections;
  const lines = [
    `request ${report.request}: ${report.mode}${report.compaction ? ` (${report.compaction})` : ''}, ` +
      `prompt ${report.promptTokens}/${report.budget.promptLimit} tokens, answer room ${s.answer.tokens}`,
    `sections: system ${s.system.tokens}, history ${s.history.tokens}/${s.history.limit}, ` +
      `input ${s.input.tokens}/${s.input.limit} ` +
      `(extras ${s.extras.tokens}/${s.extras.limit}, ${report.extras}), template ${s.template.tokens}`,
    `prefix: ${report.prefix.messages} messages, ${report.prefix.tokens} tokens cached` +
      `${report.prefix.appendOnly ? ' (append-only)' : ''}, ` +
      `+${report.prefix.replyTokens} reply, ${report.prefix.newTokens} to prefill`,
  ];
  const turns = report.turns;
  const shown = turns.slice(Math.max(0, turns.length - (options.maxTurns ?? turns.length)));
  if (shown.length < turns.length) lines.push(`… ${turns.length - shown.length} earlier turns`);
  for (const t of shown) {
    const cut = t.cut ? ` cut ${t.cut.originalTokens}→${t.cut.keptTokens}` : '';
    const head = `${pad(`#${t.index}`, 6)}${pad(t.role, 10)}${t.included ? 'in ' : 'out'} ${pad(t.tokens ?? '-', 6)}`;
    lines.push(`  ${head}${pad(t.reason, 20)}${t.detail}${cut}`);
  }
  for (const w of report.warnings) lines.push(`  ! ${w}`);
  return lines.join('\n');
}

/**
 * The layered report: the context engine's report (tokens per section, every history turn in or out and why,
 * the KV-cache prefix) extended with the memory side — the section budgets and what each used, the session
 * rule that applied, the query as expanded, every retrieval candidate with its features, score and fate, and
 * what was voided.
 */
import type { ContextReport } from '../../context/report.ts';
import type { CandidateReport, IntentTag } from '../retrieval/index.ts';
import type { SectionBudgets } from './budgets.ts';
import type { Lang } from './labels.ts';

export interface SectionUse {
  readonly tokens: number;
  readonly budget: number;
  /** Memory sections: this turn's whole selection, held already or sent now (what the budget bounds). */
  readonly selected?: number;
}

export interface MemoryReport {
  readonly lang: Lang;
  readonly budgets: SectionBudgets;
  /**
   * Tokens per section as sent in this request (system and input include their ChatML tokens; input is the
   * message with the recent history, less the memory blocks earlier messages carry — see `block`). The retrieval
   * budget includes the part of the input section a compaction left unused (its recent turns come back as records).
   */
  readonly sections: {
    readonly system: SectionUse;
    readonly working: SectionUse;
    readonly retrieval: SectionUse;
    readonly input: SectionUse;
    readonly reserve: SectionUse;
  };
  /**
   * The memory block is append-only: this turn's memory that earlier blocks in the prompt already held (not
   * sent again) and what was sent now, as record/doc ids and working-memory items; and the tokens of earlier
   * blocks still in the prompt's history.
   */
  readonly block: {
    readonly held: { readonly records: readonly string[]; readonly working: readonly string[] };
    readonly sent: { readonly records: readonly string[]; readonly working: readonly string[] };
    /** Not sent: the turn's best memory was in the prompt already, and these did not fit without a compaction. */
    readonly deferred: readonly string[];
    readonly carriedTokens: number;
  };
  readonly gate: { readonly otherSessions: boolean; readonly docs: boolean; readonly reason: string };
  readonly query: {
    /** The heaviest terms, with their weights. */
    readonly terms: ReadonlyArray<readonly [string, number]>;
    readonly entities: readonly string[];
    readonly dates: readonly string[];
    readonly tags: readonly IntentTag[];
    readonly expandedWith: readonly string[];
    readonly thin: boolean;
    /**
     * The thing under discussion, and why: `named`, this message names it (it searches with its own words);
     * `carried`, the message names nothing, so its search adds the topic named in `sourceTurnId`. Null: none.
     */
    readonly topic: { readonly value: string; readonly why: 'named' | 'carried'; readonly sourceTurnId: string | null } | null;
  };
  readonly retrieval: {
    /** Every candidate, best first, with features, score and what became of it. */
    readonly candidates: readonly CandidateReport[];
    readonly injected: readonly string[];
    /** Turns left out of retrieval because the prompt's history already holds them. */
    readonly inHistory: readonly string[];
    /** 1, or 2 when a second pass had to drop turns the history turned out to hold. */
    readonly passes: number;
  };
  readonly working: { readonly text: string; readonly tokens: number; readonly cut: boolean };
  /** Turns this message voided (deprecated topics). */
  readonly voided: readonly string[];
  /** Whether this was a probe (nothing written). */
  readonly probe: boolean;
}

export interface LayeredReport extends ContextReport {
  readonly memory: MemoryReport;
}

const fmt = (n: number): string => n.toFixed(2);

/** A text rendering for logs and the developer panel. */
export function formatMemoryReport(report: LayeredReport, options: { maxCandidates?: number } = {}): string {
  const m = report.memory;
  const s = m.sections;
  const sel = (u: SectionUse): string => `${u.selected ?? u.tokens}/${u.budget} (${u.tokens} sent)`;
  const lines = [
    `memory (${m.lang}${m.probe ? ', probe' : ''}): system ${s.system.tokens}/${s.system.budget}, working ${sel(s.working)}, ` +
      `retrieval ${sel(s.retrieval)}, input ${s.input.tokens}/${s.input.budget}, reserve ≥ ${s.reserve.budget} ` +
      `(window ${m.budgets.window})`,
    `block: ${m.block.sent.records.length} records/docs and ${m.block.sent.working.length} working items sent, ` +
      `${m.block.held.records.length} and ${m.block.held.working.length} already in the prompt, ${m.block.deferred.length} deferred; ` +
      `earlier blocks in the history ${m.block.carriedTokens} tokens`,
    `gate: ${m.gate.reason}`,
    `query: ${m.query.terms.slice(0, 12).map(([t, w]) => (w === 1 ? t : `${t}×${fmt(w)}`)).join(' ')}` +
      `${m.query.dates.length > 0 ? ` dates ${m.query.dates.join(',')}` : ''}${m.query.tags.length > 0 ? ` tags ${m.query.tags.join(',')}` : ''}` +
      `${m.query.thin ? ' (thin: expanded from working memory)' : ''}`,
  ];
  const shown = m.retrieval.candidates.slice(0, options.maxCandidates ?? 20);
  for (const c of shown) {
    const f = c.features;
    const feats = `lex ${fmt(f.lexical)} ctx ${fmt(f.context)} sen ${fmt(f.sentence)} vec ${fmt(f.vector)} ent ${fmt(f.entities)} ` +
      `spk ${f.speaker} date ${f.date} thr ${fmt(f.thread)} rec ${fmt(f.recency)} cold ${f.cold} int ${fmt(f.intent)} stat ${f.stated}`;
    lines.push(`  #${c.rank} ${c.fate.padEnd(15)} ${fmt(c.score)} m ${fmt(c.match)} ${c.namespace === 'docs' ? 'doc ' : ''}${c.id} [${c.sources.join('+')}] ${feats} | ${c.preview}`);
  }
  if (m.retrieval.candidates.length > shown.length) lines.push(`  … ${m.retrieval.candidates.length - shown.length} more candidates`);
  if (m.retrieval.inHistory.length > 0) lines.push(`  in the prompt's history already: ${m.retrieval.inHistory.join(', ')}`);
  if (m.voided.length > 0) lines.push(`  voided: ${m.voided.join(', ')}`);
  return lines.join('\n');
}

/**
 * The layered report: the context engine's report (tokens per section, every history turn in or out and why,
 * the KV-cache prefix) extended with the memory side — the section budgets and what each used, the session
 * rule that applied, the query as expanded, every retrieval candidate with its features, score and fate, and
 * what was voided.
 */
import type { ContextReport } from '../../context/report.ts';
import type { IntentTag } from '../retrieval/intent.ts';
import type { CandidateReport } from '../retrieval/retriever.ts';
import type { SectionBudgets } from './budgets.ts';
import type { Lang } from './labels.ts';

export interface SectionUse {
  readonly tokens: number;
  readonly budget: number;
}

export interface MemoryReport {
  readonly lang: Lang;
  readonly budgets: SectionBudgets;
  /** Tokens per section as sent (system and input include their ChatML tokens; input includes the history). */
  readonly sections: {
    readonly system: SectionUse;
    readonly working: SectionUse;
    readonly retrieval: SectionUse;
    readonly input: SectionUse;
    readonly reserve: SectionUse;
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
  const lines = [
    `memory (${m.lang}${m.probe ? ', probe' : ''}): system ${s.system.tokens}/${s.system.budget}, working ${s.working.tokens}/${s.working.budget}, ` +
      `retrieval ${s.retrieval.tokens}/${s.retrieval.budget}, input ${s.input.tokens}/${s.input.budget}, reserve ≥ ${s.reserve.budget} ` +
      `(window ${m.budgets.window})`,
    `gate: ${m.gate.reason}`,
    `query: ${m.query.terms.slice(0, 12).map(([t, w]) => (w === 1 ? t : `${t}×${fmt(w)}`)).join(' ')}` +
      `${m.query.dates.length > 0 ? ` dates ${m.query.dates.join(',')}` : ''}${m.query.tags.length > 0 ? ` tags ${m.query.tags.join(',')}` : ''}` +
      `${m.query.thin ? ' (thin: expanded from working memory)' : ''}`,
  ];
  const shown = m.retrieval.candidates.slice(0, options.maxCandidates ?? 20);
  for (const c of shown) {
    const f = c.features;
    const feats = `lex ${fmt(f.lexical)} ctx ${fmt(f.context)} sen ${fmt(f.sentence)} vec ${fmt(f.vector)} ent ${fmt(f.entities)} ` +
      `spk ${f.speaker} date ${f.date} thr ${fmt(f.thread)} rec ${fmt(f.recency)} cold ${f.cold} int ${fmt(f.intent)}`;
    lines.push(`  #${c.rank} ${c.fate.padEnd(15)} ${fmt(c.score)} ${c.namespace === 'docs' ? 'doc ' : ''}${c.id} [${c.sources.join('+')}] ${feats} | ${c.preview}`);
  }
  if (m.retrieval.candidates.length > shown.length) lines.push(`  … ${m.retrieval.candidates.length - shown.length} more candidates`);
  if (m.retrieval.inHistory.length > 0) lines.push(`  in the prompt's history already: ${m.retrieval.inHistory.join(', ')}`);
  if (m.voided.length > 0) lines.push(`  voided: ${m.voided.join(', ')}`);
  return lines.join('\n');
}

/**
 * Scoring an extractor against labelled messages (the wm-dev.jsonl format). Items match exactly after light
 * normalisation: entities by type + value (the conventions' normal forms); facts by subject + value + op, case
 * and spacing ignored; deprecated topics by phrase, case, spacing and edge punctuation ignored. Counts are
 * micro-averaged over items, overall and per part.
 */
import type { Extraction } from './types.ts';

export const PARTS = ['entities', 'facts', 'deprecate'] as const;
export type Part = (typeof PARTS)[number];

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

export interface PartScore extends Counts {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

export interface Miss {
  readonly id: string;
  readonly part: Part;
  /** `missed`: labelled but not found; `spurious`: found but not labelled. */
  readonly kind: 'missed' | 'spurious';
  readonly item: string;
  readonly text: string;
}

export interface ScoreReport {
  readonly messages: number;
  readonly overall: PartScore;
  readonly parts: Readonly<Record<Part, PartScore>>;
  /** Overall score per `lang` label, when the set has one. */
  readonly byLang: Readonly<Record<string, PartScore>>;
  readonly misses: readonly Miss[];
}

export interface LabelledMessage extends Extraction {
  readonly id: string;
  readonly text: string;
  readonly lang?: string;
}

const collapse = (s: string): string => s.normalize('NFKC').trim().replace(/\s+/g, ' ');
const EDGE =
  /^[\s"'“”‘’「」『』《》()（）[\]【】,，。.;；:：!！?？、…-]+|[\s"'“”‘’「」『』《》()（）[\]【】,，。.;；:：!！?？、…-]+$/g;

/** The strings two items are compared by. */
export function itemKeys(x: Pick<Extraction, Part>): Record<Part, string[]> {
  return {
    entities: x.entities.map((e) => `${e.type}: ${collapse(e.value)}`),
    facts: x.facts.map((f) => `${collapse(f.subject).toLowerCase()} = ${collapse(f.value).toLowerCase()} (${f.op})`),
    deprecate: x.deprecate.map((d) => collapse(d).replace(EDGE, '').toLowerCase().replace(/\s+/g, '')),
  };
}

function score(c: Counts): PartScore {
  const precision = c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp);
  const recall = c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { ...c, precision, recall, f1 };
}

/** Multiset difference: what is in `a` and not matched in `b`. */
function unmatched(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(x) ?? 0;
    if (n === 0) return true;
    left.set(x, n - 1);
    return false;
  });
}

export function scoreMessages(
  pairs: readonly { readonly label: LabelledMessage; readonly got: Extraction }[],
): ScoreReport {
  const parts: Record<Part, Counts> = {
    entities: { tp: 0, fp: 0, fn: 0 },
    facts: { tp: 0, fp: 0, fn: 0 },
    deprecate: { tp: 0, fp: 0, fn: 0 },
  };
  const langs: Record<string, Counts> = {};
  const misses: Miss[] = [];
  for (const { label, got } of pairs) {
    const want = itemKeys(label);
    const have = itemKeys(got);
    const lang = (langs[label.lang ?? 'all'] ??= { tp: 0, fp: 0, fn: 0 });
    for (const part of PARTS) {
      const missed = unmatched(want[part], have[part]);
      const spurious = unmatched(have[part], want[part]);
      const tp = want[part].length - missed.length;
      for (const c of [parts[part], lang]) {
        c.tp += tp;
        c.fn += missed.length;
        c.fp += spurious.length;
      }
      for (const item of missed) misses.push({ id: label.id, part, kind: 'missed', item, text: label.text });
      for (const item of spurious) misses.push({ id: label.id, part, kind: 'spurious', item, text: label.text });
    }
  }
  const total = PARTS.reduce<Counts>(
    (t, p) => ({ tp: t.tp + parts[p].tp, fp: t.fp + parts[p].fp, fn: t.fn + parts[p].fn }),
    { tp: 0, fp: 0, fn: 0 },
  );
  return {
    messages: pairs.length,
    overall: score(total),
    parts: { entities: score(parts.entities), facts: score(parts.facts), deprecate: score(parts.deprecate) },
    byLang: Object.fromEntries(Object.entries(langs).map(([k, c]) => [k, score(c)])),
    misses,
  };
}

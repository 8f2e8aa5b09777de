/**
 * A value taken back or changed in the same message. The value set first is not the one that holds; the slot gets
 * the one that replaced it (and nothing is unset: the user either never had the first, or said it only as the old one).
 * - A correction: "The API port is 8443. Actually it's 8444.", 数据库端口是 3306，不对，是 3307, "I'm on Ubuntu 22.04 —
 *   actually no, it's Ubuntu 24.04": a value of the same kind (an amount, a date, a version, a plain number, a region
 *   code, a product of the same slot) after a correction word (`selfCorrection`), within a few words, right after a
 *   word that leads to a value (`correctedValueLeads`: 是, "it's", "make that").
 * - A change from an old value: 预算原来是15万元，…提到18万元; deadline 从周五提前到了周四; "moved the deadline from May 3
 *   to May 10": the first value follows a word that marks it old (`oldValueMarkers`), the next one of its kind a word
 *   of change (`changeLeads`).
 * Either way the new value's clause names no other slot and states rather than asks. The word lists are data
 * (vocab-triggers.ts).
 */
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import type { Lexicon } from './lexicon.ts';
import type { EntitySpan, Fact } from './types.ts';

type Kind = 'amount' | 'date' | 'version' | 'number' | 'region' | 'product';

/** How far after the correction word its value may stand ("actually no, I reinstalled last month, it's …"). */
const REACH = 48;
/** How far after the old value the new one may stand (预算原来是15万元，跟家里商量了一下，提到18万元). */
const CHANGE_REACH = 60;

const REGION = /\b[a-z]{2,}(?:-[a-z]+)+-\d+[a-z]?\b/gi;
const NUMBER = /(?<![\w.:/-])\d+(?![\w.:/-]|\.\d)/g;
const VERSION = /(?<![\w.])v?\d+(?:\.\d+)+(?![\w.])/gi;
/** "from" marks an old value only in a clause that says something changed. */
const CHANGED = /\b(?:mov|push|chang|bump|rais|lower|upgrad|increas|decreas|cut|reduc|switch|shift|extend|migrat)\w*\b/i;

function kindOf(value: string): Kind {
  if (/^\d+(?:\.\d+)? [A-Z]{3}$/.test(value)) return 'amount';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date';
  if (/^v?\d+(?:\.\d+)+$/i.test(value)) return 'version';
  if (/^\d+$/.test(value)) return 'number';
  if (/^[a-z]{2,}(?:-[a-z]+)+-\d+[a-z]?$/i.test(value)) return 'region';
  return 'product';
}

interface Spot {
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

/** Values of `kind` (for a product: of the fact's slot) in the message, in order, with their offsets. */
function spotsOf(kind: Kind, subject: string, clauses: readonly Clause[], entities: readonly EntitySpan[], lexicon: Lexicon): Spot[] {
  if (kind === 'amount' || kind === 'date') {
    return entities.filter((e) => e.type === kind).map((e) => ({ start: e.start, end: e.end, value: e.value }));
  }
  const out: Spot[] = [];
  for (const c of clauses) {
    if (kind === 'product') {
      for (const p of lexicon.products(c.text)) if (p.subject === subject) out.push({ start: c.start + p.start, end: c.start + p.valueEnd, value: p.value });
      continue;
    }
    const re = kind === 'version' ? VERSION : kind === 'number' ? NUMBER : REGION;
    for (const m of c.text.matchAll(re)) out.push({ start: c.start + m.index, end: c.start + m.index + m[0].length, value: m[0] });
  }
  return out;
}

const clauseAt = (clauses: readonly Clause[], at: number): Clause | undefined => clauses.find((c) => at >= c.start && at < c.end);

/** The clause's text before `at`, without the spaces, currency signs and 了 just before it (提前到了周四). */
function textBefore(clause: Clause, at: number): string {
  return clause.text.slice(0, at - clause.start).replace(/[\s$¥€£￥了]+$/u, '');
}

const endsWith = (lexicon: Lexicon, list: 'correctedValueLeads' | 'changeLeads' | 'oldValueMarkers', text: string): boolean =>
  lexicon.words(list, text).some((m) => m.end === text.length);

/**
 * The facts with each value that a correction or a change later in the message replaced. Facts of other kinds,
 * and values not taken back, are as found.
 */
export function selfCorrected<F extends Found<Fact>>(facts: readonly F[], clauses: readonly Clause[], entities: readonly EntitySpan[], lexicon: Lexicon): F[] {
  const corrects = clauses.some((c) => lexicon.has('selfCorrection', c.text));
  const changes = clauses.some((c) => lexicon.has('oldValueMarkers', c.text));
  if (!corrects && !changes) return [...facts];
  const markers = clauses.flatMap((c) => lexicon.words('selfCorrection', c.text).map((m) => ({ start: c.start + m.start, end: c.start + m.end })));
  return facts.map((f) => {
    if (f.item.op !== 'set') return f;
    const kind = kindOf(f.item.value);
    const spots = spotsOf(kind, f.item.subject, clauses, entities, lexicon);
    const same = (s: Spot): boolean => s.value.toLowerCase() === f.item.value.toLowerCase();
    const first = spots.find((s) => s.start >= f.at && same(s)) ?? spots.find(same);
    if (first === undefined) return f;
    let current: Spot = first;
    let value = f.item.value;
    for (;;) {
      const next: Spot | undefined = (corrects ? corrected(current, value, spots, markers) : undefined) ?? (changes ? changed(current, value, spots, clauses, lexicon) : undefined);
      if (next === undefined || !stated(next, f.item.subject, clauses)) break;
      const clause = clauseAt(clauses, next.start)!;
      const before = textBefore(clause, next.start);
      const led = endsWith(lexicon, 'correctedValueLeads', before) || endsWith(lexicon, 'changeLeads', before) || markers.some((m) => m.end <= next.start && next.start - m.end <= 2);
      if (!led) break;
      value = next.value;
      current = next;
    }
    return value === f.item.value ? f : { ...f, item: { ...f.item, value }, at: current.start };

    function stated(spot: Spot, subject: string, all: readonly Clause[]): boolean {
      const clause = clauseAt(all, spot.start);
      if (clause === undefined || clause.question || clause.tentative || clause.notOurs) return false;
      return lexicon.subjects(clause.text).every((s) => s.subject === subject);
    }
  });

  /** The first value of the kind after a correction word that follows `current`. */
  function corrected(current: Spot, value: string, spots: readonly Spot[], marks: ReadonlyArray<{ start: number; end: number }>): Spot | undefined {
    const marker = marks.find((m) => m.start >= current.end);
    if (marker === undefined) return undefined;
    return spots.find((s) => s.start >= marker.end && s.start - marker.end <= REACH && s.value.toLowerCase() !== value.toLowerCase());
  }

  /** When `current` is marked old (原来是, 从, "from" in a clause of change), the next value of its kind led by a word of change. */
  function changed(current: Spot, value: string, spots: readonly Spot[], all: readonly Clause[], lex: Lexicon): Spot | undefined {
    const clause = clauseAt(all, current.start);
    if (clause === undefined) return undefined;
    const before = textBefore(clause, current.start);
    const old = lex.words('oldValueMarkers', before).find((m) => m.end === before.length);
    const from = old !== undefined && /^from$/i.test(old.surface);
    if (old === undefined || (from && !CHANGED.test(before))) return undefined;
    const leads = (s: Spot): boolean => {
      const text = textBefore(clauseAt(all, s.start) ?? clause, s.start);
      return endsWith(lex, 'changeLeads', text) || (from && /\bto$/i.test(text));
    };
    return spots.find((s) => s.start >= current.end && s.start - current.end <= CHANGE_REACH && s.value.toLowerCase() !== value.toLowerCase() && leads(s));
  }
}

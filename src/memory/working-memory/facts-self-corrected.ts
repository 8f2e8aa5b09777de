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
import { escapeRegExp } from './text.ts';
import type { EntitySpan, Fact } from './types.ts';

type Kind = 'amount' | 'date' | 'version' | 'number' | 'region' | 'product';

/** How far after the correction word its value may stand ("actually no, I reinstalled last month, it's …"). */
const REACH = 48;
/** How far after the old value the new one may stand (预算原来是15万元，跟家里商量了一下，提到18万元). */
const CHANGE_REACH = 60;

/** A product's value with its version: Ubuntu 20.04, Python 3.12. */
const VERSIONED_PRODUCT = /^(.*\S)\s+(v?\d+(?:\.\d+)+)$/i;
const NUMBER = /(?<![\w.:/-])\d+(?![\w.:/-]|\.\d)/g;
const VERSION = /(?<![\w.])v?\d+(?:\.\d+)+(?![\w.])/gi;
/** "from" marks an old value only in a clause that says something changed. */
const CHANGED = /\b(?:mov|push|chang|bump|rais|lower|upgrad|increas|decreas|cut|reduc|switch|shift|extend|migrat)\w*\b/i;

/** Region codes as the region slot reads them (`regionPattern`, vocab-subjects.ts): anywhere, and as a whole value. */
const regionPatterns = new WeakMap<Lexicon, { any: RegExp; whole: RegExp }>();
function regions(lexicon: Lexicon): { any: RegExp; whole: RegExp } {
  let re = regionPatterns.get(lexicon);
  if (re === undefined) {
    const pattern = lexicon.vocabulary.subjects.regionPattern;
    regionPatterns.set(lexicon, (re = { any: new RegExp(pattern, 'g'), whole: new RegExp(`^(?:${pattern})$`) }));
  }
  return re;
}

function kindOf(value: string, lexicon: Lexicon): Kind {
  if (/^\d+(?:\.\d+)? [A-Z]{3}$/.test(value)) return 'amount';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date';
  if (/^v?\d+(?:\.\d+)+$/i.test(value)) return 'version';
  if (/^\d+$/.test(value)) return 'number';
  if (regions(lexicon).whole.test(value)) return 'region';
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
  // A number inside an amount, a date or an address is that entity's, not a bare value ("make that $150").
  // (Matches come in text order, so one pointer walks the entities, sorted by start, once.)
  const others = entities.filter((e) => e.type !== 'version');
  let e = 0;
  const inEntity = (start: number, end: number): boolean => {
    while (e < others.length && others[e]!.end <= start) e++;
    for (let i = e; i < others.length && others[i]!.start < end; i++) if (start < others[i]!.end) return true;
    return false;
  };
  for (const c of clauses) {
    if (kind === 'product') {
      for (const p of lexicon.products(c.text)) if (p.subject === subject) out.push({ start: c.start + p.start, end: c.start + p.valueEnd, value: p.value });
      continue;
    }
    const re = kind === 'version' ? VERSION : kind === 'number' ? NUMBER : regions(lexicon).any;
    for (const m of c.text.matchAll(re)) {
      const start = c.start + m.index;
      if (!inEntity(start, start + m[0].length)) out.push({ start, end: start + m[0].length, value: m[0] });
    }
  }
  return out;
}

/** How far after a value its correction word may begin (3306，不对; "$450. Actually, make that…"; …1万5千元。刚算了一下机票，还是改成…). */
const MARKER_REACH = 24;

/** The index of the first item starting at or after `at` (items sorted by start). */
function firstFrom<T extends { start: number }>(items: readonly T[], at: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid]!.start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first item starting at or after `at` that passes `test`, looking no further than `limit`. */
function findFrom<T extends { start: number }>(items: readonly T[], at: number, limit: number, test: (item: T) => boolean): T | undefined {
  for (let i = firstFrom(items, at); i < items.length && items[i]!.start <= limit; i++) if (test(items[i]!)) return items[i];
  return undefined;
}

function clauseAt(clauses: readonly Clause[], at: number): Clause | undefined {
  const i = firstFrom(clauses, at + 1) - 1;
  const c = clauses[i];
  return c !== undefined && at >= c.start && at < c.end ? c : undefined;
}

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
  /** The message's text from `from` to `to` (clause by clause; what lies between clauses is punctuation). */
  const textBetween = (from: number, to: number): string => {
    const parts: string[] = [];
    for (let i = Math.max(0, firstFrom(clauses, from + 1) - 1); i < clauses.length && clauses[i]!.start < to; i++) {
      const c = clauses[i]!;
      if (c.end > from) parts.push(c.text.slice(Math.max(0, from - c.start), Math.min(c.text.length, to - c.start)));
    }
    return parts.join(' ');
  };
  const markers = clauses.flatMap((c) => lexicon.words('selfCorrection', c.text).map((m) => ({ start: c.start + m.start, end: c.start + m.end })));
  // Spots by kind (and slot, for products), worked out once: a long paste has thousands of facts and clauses.
  const spotCache = new Map<string, Spot[]>();
  const spotsFor = (kind: Kind, subject: string): Spot[] => {
    const key = kind === 'product' ? `product\u0000${subject}` : kind;
    let spots = spotCache.get(key);
    if (spots === undefined) spotCache.set(key, (spots = spotsOf(kind, subject, clauses, entities, lexicon)));
    return spots;
  };
  // The runtime's name at the end of a text, by version slot ("node version" → /node\s*$/), compiled once each.
  const runtimes = new Map<string, RegExp | null>();
  const runtimeBefore = (subject: string): RegExp | null => {
    let re = runtimes.get(subject);
    if (re === undefined) {
      const named = / version$/.test(subject) ? subject.slice(0, -' version'.length) : '';
      re = named === '' ? null : new RegExp(`(?<![\\w.])${escapeRegExp(named)}\\s*$`, 'i');
      runtimes.set(subject, re);
    }
    return re;
  };
  return facts.map((f) => {
    if (f.item.op !== 'set') return f;
    const kind = kindOf(f.item.value, lexicon);
    const found = follow(f, kind, f.item.value);
    if (found !== null) return { ...f, item: { ...f.item, value: found.value }, at: found.at };
    // "the build boxes run Ubuntu 20.04 — they're actually 22.04": a product's version corrected on its own.
    const versioned = kind === 'product' ? VERSIONED_PRODUCT.exec(f.item.value) : null;
    const version = versioned === null ? null : follow(f, 'version', versioned[2]!);
    return version === null ? f : { ...f, item: { ...f.item, value: `${versioned![1]} ${version.value}` }, at: version.at };
  });

  /** The value that replaced `start` (a value of `kind` at or after the fact), or null when none did. */
  function follow(f: Found<Fact>, kind: Kind, start: string): { value: string; at: number } | null {
    const spots = spotsFor(kind, f.item.subject);
    const same = (s: Spot): boolean => s.value.toLowerCase() === start.toLowerCase();
    const first = findFrom(spots, f.at, Infinity, same) ?? spots.find(same);
    if (first === undefined) return null;
    let current: Spot = first;
    let value = start;
    const runtime = runtimeBefore(f.item.subject);
    for (;;) {
      const next: Spot | undefined = (corrects ? corrected(current, value, spots) : undefined) ?? (changes ? changed(current, value, spots) : undefined);
      if (next === undefined || !stated(next, f.item.subject)) break;
      // "Node 18 — sorry, I mean Node 20": a version's runtime named again before it leads to it like the value.
      const said = textBefore(clauseAt(clauses, next.start)!, next.start);
      const before = runtime === null ? said : said.replace(runtime, '').trimEnd();
      const at = next.start - (said.length - before.length);
      const led =
        endsWith(lexicon, 'correctedValueLeads', before) ||
        endsWith(lexicon, 'changeLeads', before) ||
        findFrom(markers, at - 40, at, (m) => m.end <= at && at - m.end <= 2) !== undefined;
      if (!led) break;
      value = next.value;
      current = next;
    }
    return value === start ? null : { value, at: current.start };

    function stated(spot: Spot, subject: string): boolean {
      const clause = clauseAt(clauses, spot.start);
      if (clause === undefined || clause.question || clause.tentative || clause.notOurs) return false;
      return lexicon.subjects(clause.text).every((s) => s.subject === subject);
    }
  }

  /** The first value of the kind after a correction word that follows `current`. */
  function corrected(current: Spot, value: string, spots: readonly Spot[]): Spot | undefined {
    const marker = findFrom(markers, current.end, current.end + MARKER_REACH, () => true);
    // "…port is 8001; the budget is 300, sorry, make that 350": a correction takes back the value just before it,
    // not one with another value or slot between them.
    if (marker === undefined || /\d/.test(textBetween(current.end, marker.start)) || lexicon.subjects(textBetween(current.end, marker.start)).length > 0) return undefined;
    return findFrom(spots, marker.end, marker.end + REACH, (s) => s.value.toLowerCase() !== value.toLowerCase());
  }

  /** When `current` is marked old (原来是, 从, "from" in a clause of change), the next value of its kind led by a word of change. */
  function changed(current: Spot, value: string, spots: readonly Spot[]): Spot | undefined {
    const clause = clauseAt(clauses, current.start);
    if (clause === undefined) return undefined;
    const before = textBefore(clause, current.start);
    const old = lexicon.words('oldValueMarkers', before).find((m) => m.end === before.length);
    const from = old !== undefined && /^from$/i.test(old.surface);
    if (old === undefined || (from && !CHANGED.test(before))) return undefined;
    const leads = (s: Spot): boolean => {
      const text = textBefore(clauseAt(clauses, s.start) ?? clause, s.start);
      return endsWith(lexicon, 'changeLeads', text) || (from && /\bto$/i.test(text));
    };
    return findFrom(spots, current.end, current.end + CHANGE_REACH, (s) => s.value.toLowerCase() !== value.toLowerCase() && leads(s));
  }
}

/**
 * A value taken back in the same message: "The API port is 8443. Actually it's 8444.", 数据库端口是 3306，不对，是 3307,
 * "My budget is $450. Actually, make that $400", 预算定在1万5千元……还是改成2万元吧. The value set first never held:
 * the slot gets the one that replaced it (and nothing is unset; the user never had the first).
 *
 * A replacement is a value of the same kind (an amount, a date, a version, a plain number, a region code) that
 * follows a correction word (`selfCorrection`) within a few words, right after a word that leads to a value
 * (`correctedValueLeads`: 是, "it's", "make that"), in a clause that names no other slot and states rather than asks.
 * Both word lists are data (vocab-triggers.ts).
 */
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import type { Lexicon } from './lexicon.ts';
import type { EntitySpan, Fact } from './types.ts';

type Kind = 'amount' | 'date' | 'version' | 'number' | 'region';

/** How far after the correction word its value may stand (不对，我刚 check 了一下，是 3.11.4). */
const REACH = 40;

const REGION = /\b[a-z]{2,}(?:-[a-z]+)+-\d+[a-z]?\b/gi;
const NUMBER = /(?<![\w.:/-])\d+(?![\w.:/-]|\.\d)/g;
const VERSION = /(?<![\w.])v?\d+(?:\.\d+)+(?![\w.])/gi;

function kindOf(value: string): Kind | null {
  if (/^\d+(?:\.\d+)? [A-Z]{3}$/.test(value)) return 'amount';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date';
  if (/^v?\d+(?:\.\d+)+$/i.test(value)) return 'version';
  if (/^\d+$/.test(value)) return 'number';
  if (/^[a-z]{2,}(?:-[a-z]+)+-\d+[a-z]?$/i.test(value)) return 'region';
  return null;
}

interface Spot {
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

/** Values of `kind` in the message, in order, with their offsets. */
function spotsOf(kind: Kind, clauses: readonly Clause[], entities: readonly EntitySpan[]): Spot[] {
  if (kind === 'amount' || kind === 'date') {
    return entities.filter((e) => e.type === kind).map((e) => ({ start: e.start, end: e.end, value: e.value }));
  }
  const re = kind === 'version' ? VERSION : kind === 'number' ? NUMBER : REGION;
  const out: Spot[] = [];
  for (const c of clauses) {
    for (const m of c.text.matchAll(re)) out.push({ start: c.start + m.index, end: c.start + m.index + m[0].length, value: m[0] });
  }
  return out;
}

const clauseAt = (clauses: readonly Clause[], at: number): Clause | undefined => clauses.find((c) => at >= c.start && at < c.end);

/**
 * The facts with each value that a correction later in the message replaced. Facts of other kinds, and values
 * not taken back, are as found.
 */
export function selfCorrected<F extends Found<Fact>>(facts: readonly F[], clauses: readonly Clause[], entities: readonly EntitySpan[], lexicon: Lexicon): F[] {
  if (!clauses.some((c) => lexicon.has('selfCorrection', c.text))) return [...facts];
  const markers = clauses.flatMap((c) => lexicon.words('selfCorrection', c.text).map((m) => ({ clause: c, start: c.start + m.start, end: c.start + m.end })));
  return facts.map((f) => {
    if (f.item.op !== 'set') return f;
    const kind = kindOf(f.item.value);
    if (kind === null) return f;
    const spots = spotsOf(kind, clauses, entities);
    const same = (s: Spot): boolean => s.value.toLowerCase() === f.item.value.toLowerCase();
    const first = spots.find((s) => s.start >= f.at && same(s)) ?? spots.find(same);
    if (first === undefined) return f;
    let current: Spot = first;
    let value = f.item.value;
    let at = f.at;
    for (;;) {
      const from: number = current.end;
      const marker: { start: number; end: number } | undefined = markers.find((m) => m.start >= from);
      if (marker === undefined) break;
      const next: Spot | undefined = spots.find((s) => s.start >= marker.end && s.start - marker.end <= REACH && s.value.toLowerCase() !== value.toLowerCase());
      if (next === undefined || !replaces(next, marker.end, f.item.subject, clauses, lexicon)) break;
      value = next.value;
      at = next.start;
      current = next;
    }
    return value === f.item.value ? f : { ...f, item: { ...f.item, value }, at };
  });
}

/** The spot stands right after a lead word (or the correction word itself), in a clause that states this slot's value. */
function replaces(spot: Spot, markerEnd: number, subject: string, clauses: readonly Clause[], lexicon: Lexicon): boolean {
  const clause = clauseAt(clauses, spot.start);
  if (clause === undefined || clause.question || clause.tentative || clause.notOurs) return false;
  const before = clause.text.slice(0, spot.start - clause.start).replace(/[\s$¥€£￥]+$/u, '');
  const led = spot.start - markerEnd <= 2 || lexicon.words('correctedValueLeads', before).some((m) => m.end === before.length);
  if (!led) return false;
  return lexicon.subjects(clause.text).every((s) => s.subject === subject);
}

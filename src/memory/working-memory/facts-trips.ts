/**
 * Trips: where the user is going sets `destination` (下个月去成都玩几天, flying to Lisbon on March 20, 改去清迈), and a
 * place they no longer go to unsets it (不去西安了). A place is a Chinese name of two to six characters followed by
 * what the trip is (玩, 旅游, 的机票…), or by the clause's end in a message about a trip, or a capitalised name in
 * Latin script. The common verbs (going to, visit, a week in) count only in a message that speaks of a trip (行程,
 * flights, itinerary…) or gives a date: "going to Costco" is an errand. A trip for work (出差, a client meeting) sets
 * nothing, as the labels' conventions file it (facts.ts checks the message). The words are data (vocab-subjects.ts).
 */
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import type { Lexicon } from './lexicon.ts';
import { alternation } from './text.ts';
import type { Fact } from './types.ts';
import type { SubjectVocabulary } from './vocab-subjects.ts';

export const DESTINATION = 'destination';

export interface TripMatchers {
  /**
   * A verb of going, then a place. Groups: 1 the verb; 2 a Chinese place before a trip word; 3 a Chinese place
   * that ends its clause; 4 and 5 a Latin one (with and without a determiner before it). `weak` holds the verbs
   * that need a trip word or a date in the message.
   */
  readonly strong: RegExp;
  readonly weak: RegExp;
  /** A place the user no longer goes to: group 1 a Chinese place, group 2 a Latin one (cancelBefore only). */
  readonly cancelBefore: RegExp;
  readonly cancelAfter: RegExp;
  readonly tripWords: RegExp;
  readonly decisionWords: RegExp;
  readonly businessWords: RegExp;
  readonly outingWords: RegExp;
  readonly notDestination: (place: string) => boolean;
  /** A Chinese place less the words that lead it (这次旅行厦门 → 厦门). */
  readonly trimLeads: (place: string) => string;
}

/**
 * A name of up to three words in Latin script (Chiang Mai, San Sebastián). The verbs are matched in any case, so
 * the pattern is too: `latinPlace` keeps the capitalised words it starts with.
 */
const LATIN_PLACE = String.raw`(\p{L}[\p{L}'’-]+(?:\s+\p{L}[\p{L}'’-]+){0,2})`;

/** The capitalised words a Latin match starts with ("Lisbon on March" → Lisbon); null when the first is not. */
function latinPlace(match: string): string | null {
  const words = match.split(/\s+/);
  const kept: string[] = [];
  for (const w of words) {
    if (!/^\p{Lu}/u.test(w)) break;
    kept.push(w);
  }
  return kept.length === 0 ? null : kept.join(' ');
}
/** A Chinese place: two to six characters, as few as the next part allows. */
const CJK_PLACE = String.raw`([\u4e00-\u9fff]{2,6}?)`;
/** Before 去, a verb it completes (插上去, 挪去, 拉去开会): no trip. */
const GO_COMPLEMENT = /[上下进出回过拿送挪转发拉跑搬放加调划移]$/;
/** A count is no place (每周去两次), though a place may start with a numeral (三亚, 九寨沟). */
const NUMERAL_START = /^[一二两三四五六七八九十几半\d]+(?:次|趟|回|遍|下|个|天|晚)/;
/** Verbs of choosing, which name a destination only when the message speaks of a trip. */
const CHOICE_VERB = /^(?:settled on|went with|decided on|picked|doing)$/i;
/** What may stand between a verb and its place: a determiner in English, nothing in Chinese. */
const EN_GAP = String.raw`\s+(?:the\s+(?=[A-Z]))?`;

export function compileTripMatchers(s: SubjectVocabulary): TripMatchers {
  // After a Chinese place: the trip (玩, 的机票) or a count of days (两天, 3天); in a message about a trip, also the
  // clause's end (改成下个月去泰国。), for a short name only (去成都见客户 names no place of its own).
  const tripBody = String.raw`${alternation(s.tripAfter)}|[一二两三四五六七八九十几\d]+\s*(?:天|日|晚|周|个晚上)`;
  const trip = `(?=${tripBody})`;
  const ending = String.raw`(?=\s*(?:$|[，。,.!！？?；;：:、]|\s+(?:trip|玩)))`;
  const after = `(?:${CJK_PLACE}${trip}|([\u4e00-\u9fff]{2,4})${ending})`;
  const place = (verbs: readonly string[]): RegExp =>
    new RegExp(String.raw`(${alternation(verbs)})(?:\s*${after}|${EN_GAP}${LATIN_PLACE}|\s*${LATIN_PLACE})`, 'giu');
  const leads = [...s.tripPlaceLeads].sort((a, b) => b.length - a.length);
  const zhStops = s.notDestinations.filter((w) => /[\u4e00-\u9fff]/.test(w));
  const latinStops = new Set(s.notDestinations.filter((w) => !/[\u4e00-\u9fff]/.test(w)).map((w) => w.toLowerCase()));
  return {
    strong: place(s.tripVerbs),
    weak: place(s.tripVerbsWithContext),
    cancelBefore: new RegExp(String.raw`(?:${alternation(s.tripCancelBefore)})(?:\s*${CJK_PLACE}(?=了|${tripBody}|\s*(?:$|[，。,.!！？?；;]))|${EN_GAP}${LATIN_PLACE})`, 'giu'),
    cancelAfter: new RegExp(String.raw`(?:^|[，,\s]|(?<=[了吧的]))${CJK_PLACE}\s*(?:这次|也|就|今年|明年|这周末|暂时|先)?(?:${alternation(s.tripCancelAfter)})`, 'giu'),
    tripWords: new RegExp(alternation(s.tripWords), 'i'),
    decisionWords: new RegExp(alternation(s.tripDecisionWords), 'i'),
    businessWords: new RegExp(alternation(s.businessTripWords), 'i'),
    outingWords: new RegExp(alternation(s.outingWords), 'i'),
    trimLeads: (p) => {
      let place = p;
      const leadOf = (x: string): string | undefined => leads.find((w) => x.startsWith(w) && x.length - w.length >= 2);
      for (let lead = leadOf(place); lead !== undefined; lead = leadOf(place)) place = place.slice(lead.length);
      return place;
    },
    // (A one-character stop word stops a name that starts with it; a longer one, a name that holds it: 协和医院.)
    notDestination: (p) =>
      /[\u4e00-\u9fff]/.test(p)
        ? NUMERAL_START.test(p) || zhStops.some((w) => (w.length === 1 ? p.startsWith(w) : p.includes(w)))
        : latinStops.has(p.split(/\s+/)[0]!.toLowerCase()),
  };
}

/**
 * How a message speaks of trips: of one anywhere (its clauses' texts), of one for work, and of one decided or changed
 * (the labels' conventions file a destination only then: a trip mentioned is no decision about the user's life).
 */
export function tripsSpokenOf(clauses: readonly Clause[], m: TripMatchers): { trip: boolean; business: boolean; decided: boolean } {
  return {
    trip: clauses.some((c) => m.tripWords.test(c.text)),
    // (A meal or a gathering counts the same: the place is a restaurant, not a destination.)
    business: clauses.some((c) => m.businessWords.test(c.text) || m.outingWords.test(c.text)),
    // (A place given up anywhere in the message makes the one gone to a change: 出发去云南，海南不去了.)
    decided: clauses.some((c) => m.decisionWords.test(c.text) || c.text.search(m.cancelBefore) >= 0 || c.text.search(m.cancelAfter) >= 0),
  };
}

export interface TripContext {
  /** The message speaks of a trip: the common verbs count, and a place may end its clause. */
  readonly tripContext: boolean;
  /** The clause's sentence gives a date ("Going to Lisbon on March 28"): the common verbs count too. */
  readonly dated: boolean;
}

/**
 * The destinations a clause sets or unsets. `tripContext`: the message speaks of a trip, so the common verbs count.
 * A product name in a place's position ("going to Render") is no place.
 */
export function findTripFacts(clause: Clause, m: TripMatchers, lexicon: Lexicon, context: TripContext): Found<Fact>[] {
  const { tripContext, dated } = context;
  const text = clause.text;
  const out: Found<Fact>[] = [];
  const products = lexicon.products(text);
  // A product named where the place stands, about as long as it ("going to Render", 去 Vercel 部署).
  const isProduct = (start: number, value: string): boolean => products.some((p) => p.start <= start && start < p.end && p.surface.length >= value.length - 1);
  const cancelled: Array<{ start: number; end: number }> = [];
  const add = (op: Fact['op'], written: string, at: number): void => {
    const value = m.trimLeads(written);
    const start = at + written.length - value.length;
    if (m.notDestination(value) || isProduct(start, value)) return;
    // Part of an address (alerts go to Alerts@ops…, docs.example.com): no place.
    if (/^(?:@|\.\w|:\/\/|\/)/.test(text.slice(start + value.length))) return;
    if (out.some((f) => f.item.value === value)) return;
    out.push({ item: { subject: DESTINATION, value, op }, at: clause.start + start });
  };
  for (const re of [m.cancelBefore, m.cancelAfter]) {
    for (const hit of text.matchAll(re)) {
      const value = hit[1] ?? (hit[2] === undefined ? undefined : latinPlace(hit[2]));
      if (value === undefined || value === null) continue;
      const start = hit.index + hit[0].indexOf(value);
      cancelled.push({ start: hit.index, end: hit.index + hit[0].length });
      add('unset', value, start);
    }
  }
  const verbs = tripContext || dated ? [m.strong, m.weak] : [m.strong];
  for (const re of verbs) {
    for (const hit of text.matchAll(re)) {
      if (cancelled.some((c) => hit.index >= c.start && hit.index < c.end)) continue;
      if (hit[1] === '去' && GO_COMPLEMENT.test(text.slice(0, hit.index))) continue;
      // A place that only ends its clause needs a message about a trip.
      if (hit[3] !== undefined && !tripContext) continue;
      // A choice ("decided on the Garmin Forerunner 265 over…", "went with the Kindle") names a place only in a message
      // about a trip; a date alone does not make it one.
      if (CHOICE_VERB.test(hit[1]!) && !tripContext) continue;
      const latin = hit[4] ?? hit[5];
      const value = hit[2] ?? hit[3] ?? (latin === undefined ? null : latinPlace(latin));
      if (value === null || value === undefined) continue;
      // 去 GitHub 上看: a Latin name after a Chinese verb is a place only in a message about a trip.
      if (latin !== undefined && /[\u4e00-\u9fff]/.test(hit[1]!) && !tripContext) continue;
      add('set', value, hit.index + hit[0].lastIndexOf(value));
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

/**
 * Events and when they are: one slot per event, overwritten when it moves. "Standup moved to next Tuesday 9:30am"
 * sets `standup = 2026-10-13 09:30`; "weekly sync 改到下周二 10:30" sets `weekly sync`; 周会改到周四下午3点 sets
 * `weekly meeting` (a Chinese event noun of the vocabulary). The event opens the clause, a link word follows it
 * (is, moved to, 改到, 约在…), and the date or time follows the link at once. The value is the date, the time, or
 * both ("2026-10-13 09:30"); a range of times is kept as one ("10:00-11:30").
 */
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import type { SubjectVocabulary } from './vocab-subjects.ts';
import { alternation } from './text.ts';
import type { EntitySpan, Fact } from './types.ts';

export interface EventMatchers {
  /** An English event of one to three words at the clause's start, then a link: group 1 is the event. */
  readonly english: RegExp;
  /** A Chinese clause's start up to a link: group 1 is what comes before it. */
  readonly chinese: RegExp;
  readonly nouns: ReadonlyArray<readonly [string, string]>;
  readonly notEvents: ReadonlySet<string>;
}

/** Words that only lead into a clause: OK, so, also, btw, remember. */
const LEAD = /^\s*(?:(?:ok(?:ay)?|so|also|and|btw|fyi|oh|note|heads up|remember|reminder|reminder that|update)\s*[,:]?\s+)*/i;
/** Between a date and the time that goes with it: "next Monday at 10am", 下周二 10:30, "Tuesday, 9:30am". */
const DATE_TO_TIME = /^\s*(?:,\s*)?(?:at\s+|@\s*|的)?$/i;
/** Between two times of a range: 10:00 到 11:30, 8am to 11am, 10-11:30. */
const RANGE = /^\s*(?:-|–|~|到|至|to|and|until|till)\s*$/i;
const PREPOSITION = '(?:to|for|with|in|at|from|of|on|by|about)';
/** The value may start a few characters after the link: a space, "on", "at". */
const MAX_LEAD_GAP = 4;

export function compileEventMatchers(s: SubjectVocabulary): EventMatchers {
  const latinLinks = s.eventLinks.filter((w) => /^[A-Za-z']/.test(w));
  const cjkLinks = s.eventLinks.filter((w) => !/^[A-Za-z']/.test(w));
  return {
    english: new RegExp(
      `^(?:(?:the|our|my|your|his|her|their|this week's|next week's|tomorrow's|today's)\\s+)?(?:[A-Za-z]+'s\\s+)?` +
        `((?!${PREPOSITION}\\b)[A-Za-z][A-Za-z-]*(?:\\s+(?!${PREPOSITION}\\b)[A-Za-z][A-Za-z-]*){0,2}?)` +
        // "My flight to Lisbon is…": the event is the words before the preposition.
        `(?:\\s+${PREPOSITION}\\s+[A-Za-z][\\w-]*(?:\\s+[A-Za-z][\\w-]*)?)?` +
        `\\s*(?:${alternation(latinLinks)})\\s*(?:on|at)?\\s*`,
      'i',
    ),
    chinese: new RegExp(`^(.{1,16}?)\\s*(?:${alternation(cjkLinks)})\\s*`),
    nouns: Object.entries(s.eventNouns).sort((a, b) => b[0].length - a[0].length),
    notEvents: new Set(s.notEvents.map((w) => w.toLowerCase())),
  };
}

/** `entities` are the clause's own, with offsets in the clause. */
export function findEventFacts(clause: Clause, entities: readonly EntitySpan[], m: EventMatchers): Found<Fact>[] {
  const lead = LEAD.exec(clause.text)![0].length;
  const text = clause.text.slice(lead);
  const local = entities.map((e) => ({ ...e, start: e.start - lead, end: e.end - lead })).filter((e) => e.start >= 0);
  const named = eventAt(text, local, m);
  if (named === null) return [];
  const value = whenAfter(text, named.linkEnd, local);
  if (value === null) return [];
  return [{ item: { subject: named.subject, value, op: 'set' }, at: clause.start + lead }];
}

function eventAt(text: string, entities: readonly EntitySpan[], m: EventMatchers): { subject: string; linkEnd: number } | null {
  const english = m.english.exec(text);
  if (english !== null) {
    const event = english[1]!.toLowerCase().replace(/\s+/g, ' ');
    // "Today is Friday", "the time is 3pm": words about time itself, or a date inside the name, name no event.
    const aboutTime = m.notEvents.has(event) || event.split(' ').some((w) => m.notEvents.has(w));
    if (!aboutTime && !entities.some((e) => e.start < english[1]!.length)) return { subject: event, linkEnd: english[0].length };
  }
  const chinese = m.chinese.exec(text);
  if (chinese === null || entities.some((e) => e.start < chinese[1]!.length)) return null;
  const before = chinese[1]!.trim();
  // A Latin name (weekly sync 改到…), or a Chinese phrase that ends in an event noun (周末的聚餐改到…).
  if (/^[A-Za-z][A-Za-z -]{0,30}$/.test(before) && !m.notEvents.has(before.toLowerCase()))
    return { subject: before.toLowerCase().replace(/\s+/g, ' '), linkEnd: chinese[0].length };
  const noun = m.nouns.find(([word]) => before.endsWith(word));
  return noun === undefined ? null : { subject: noun[1], linkEnd: chinese[0].length };
}

/** The date and time said right after the link, as one value; null when none starts there. */
function whenAfter(text: string, from: number, entities: readonly EntitySpan[]): string | null {
  const after = entities.filter((e) => e.start >= from && (e.type === 'date' || e.type === 'time')).sort((a, b) => a.start - b.start);
  const first = after[0];
  if (first === undefined || first.start - from > MAX_LEAD_GAP || /[,，;；.。]/.test(text.slice(from, first.start))) return null;
  let date = first.type === 'date' ? first : undefined;
  let time = first.type === 'time' ? first : undefined;
  let last = first;
  const next = after[1];
  if (next !== undefined && next.type !== first.type && DATE_TO_TIME.test(text.slice(first.end, next.start).replace(/\s*(?:上午|下午|晚上|早上|中午|凌晨)\s*$/, ''))) {
    if (next.type === 'time') time = next;
    else date = next;
    last = next;
  }
  let times = time?.value;
  const end = after.find((e) => e.start >= last.end && e.type === 'time');
  if (time !== undefined && end !== undefined && RANGE.test(text.slice(last.end, end.start))) times = `${time.value}-${end.value}`;
  return [date?.value, times].filter((x) => x !== undefined).join(' ');
}

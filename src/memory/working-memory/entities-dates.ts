/**
 * Dates as ISO `YYYY-MM-DD`, relative ones resolved in the message's own calendar: 明天, 下周三, 3月5日,
 * next Friday, in 3 days. A year alone, 下周 and 下个月 are not dates.
 */
import type { EntityScan } from './entity-scan.ts';
import {
  addDays,
  isoDate,
  isValidDate,
  nearestMonth,
  nearestYear,
  shiftMonth,
  weekdayDate,
  weekdayOf,
  type YMD,
} from './instant.ts';
import { parseCount, parseNumber, ZH_NUMERAL_CHARS } from './numbers.ts';
import { alternation, escapeRegExp } from './text.ts';
import type { DateVocabulary } from './vocab-dates.ts';

const MONTHLY = /\b(?:every|each|a|per)\s+month\b|\bmonthly\b/i;

/** Between the two ends of a range of days: 18号到20号, 18日-20日. */
const RANGE_BEFORE = /\s*(?:到|至|-|~|～|—|–)\s*$/;
const ZH_SMALL = `(\\d{1,2}|[${ZH_NUMERAL_CHARS}]{1,3})`;
const NUMERIC_DATE = /(?<![\w.\/-])(19\d{2}|20\d{2})([-/.])(\d{1,2})\2(\d{1,2})(?!\d)(?![-/.]\d)/g;
const ZH_FULL_DATE = new RegExp(
  `(?<![\\d${ZH_NUMERAL_CHARS}])(?:(\\d{4})\\s*年\\s*)?${ZH_SMALL}\\s*月\\s*${ZH_SMALL}\\s*(?:日|号)`,
  'g',
);
// Counts are bounded and start where a number starts: an unbounded \d+ retried at every digit is quadratic.
const ZH_DURATION = new RegExp(
  `(?:(?<![超不])(过)\\s*(\\d{1,4}|[${ZH_NUMERAL_CHARS}]{1,4})\\s*(天|日)|(?<![\\d${ZH_NUMERAL_CHARS}])(\\d{1,4}|[${ZH_NUMERAL_CHARS}]{1,4})\\s*(天|日|周|个星期|星期|个礼拜|礼拜)\\s*(以后|之后|后|以前|之前|前))`,
  'g',
);

export interface DateMatchers {
  readonly vocab: DateVocabulary;
  readonly zhMonthRelative: RegExp;
  readonly zhBareDay: RegExp;
  readonly zhWeekday: RegExp;
  readonly relativeDay: RegExp;
  readonly enMonthDay: RegExp;
  readonly enDayMonth: RegExp;
  readonly enWeekday: RegExp;
  readonly enIn: RegExp;
  readonly enAgo: RegExp;
  readonly enSlash: RegExp;
  readonly enBareOrdinal: RegExp;
  /** "the 15th of next month", "the 3rd of this month". */
  readonly enOrdinalOfMonth: RegExp;
  readonly recurrence: RegExp;
}

export function compileDateMatchers(vocab: DateVocabulary, dayNounFollowers: string): DateMatchers {
  const months = Object.keys(vocab.enMonths)
    .sort((a, b) => b.length - a.length)
    .join('|');
  const counts = ['(?<!\\d)\\d{1,4}', ...Object.keys(vocab.enCounts).map(escapeRegExp)].join('|');
  const enUnits = Object.keys(vocab.enDurationUnits).join('|');
  const weekdays = Object.keys(vocab.enWeekdays)
    .sort((a, b) => b.length - a.length)
    .join('|');
  const prefixes = Object.keys(vocab.enWeekPrefixes)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  const zhPrefixes = Object.keys(vocab.zhWeekPrefixes)
    .sort((a, b) => b.length - a.length)
    .join('|');
  const followers = escapeRegExp(dayNounFollowers);
  return {
    vocab,
    zhMonthRelative: new RegExp(
      `(${Object.keys(vocab.zhMonthPrefixes)
        .sort((a, b) => b.length - a.length)
        .join('|')})\\s*${ZH_SMALL}\\s*(?:号|日)`,
      'g',
    ),
    zhBareDay: new RegExp(
      `(?<![\\d${ZH_NUMERAL_CHARS}月周期拜第几多.:/-])${ZH_SMALL}\\s*(?:号|日)(?![${followers}\\d])`,
      'g',
    ),
    zhWeekday: new RegExp(
      `(?<![\\d${ZH_NUMERAL_CHARS}几])(${zhPrefixes})?\\s*(?:周|星期|礼拜)\\s*([${Object.keys(vocab.zhWeekdays).join('')}])(?![次个遍回趟年小])`,
      'g',
    ),
    relativeDay: new RegExp(alternation(Object.keys(vocab.relativeDays)), 'gi'),
    enMonthDay: new RegExp(
      `(?<![A-Za-z])(${months})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?(?![\\w:])`,
      'gi',
    ),
    enDayMonth: new RegExp(
      `(?<![\\w.])(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${months})(?![A-Za-z])(?:\\.?,?\\s+(\\d{4}))?`,
      'gi',
    ),
    enWeekday: new RegExp(`(?<![A-Za-z])(?:(${prefixes})\\s+)?(${weekdays})(?![A-Za-z])`, 'gi'),
    enIn: new RegExp(`(?<![A-Za-z])in\\s+(${counts})\\s+(${enUnits})(?![A-Za-z])(?!\\s+or\\b)`, 'gi'),
    // ("a week before" counts from some other day — the birthday, the launch — not from today: no date.)
    enAgo: new RegExp(
      `(?<![A-Za-z])(${counts})\\s+(${enUnits})\\s+(ago|later|from now|from today|after today)(?![A-Za-z])`,
      'gi',
    ),
    // 2/14 is a date only after a word that introduces one (on 2/14, by 3/1); month first, as in both US and Chinese use.
    enSlash:
      /(?<![A-Za-z])(?:(?:on|by|until|till|before|after|since|from|due|starting|effective)\s+|deadline\s*(?:is|是|:|：)?\s*|截止(?:日期)?(?:是|到)?\s*)(\d{1,2})\/(\d{1,2})(?![\w\/]|\.\d)/gi,
    // "for the 30th", "by the 2nd.": a day of the month said alone, after a word that introduces a date, and before a
    // stop or a word that ends the phrase (not "the 3rd floor", "the 5th chapter").
    enBareOrdinal:
      /(?<![A-Za-z])(?:on|for|by|to|until|till|before|after|from|due|starting)\s+the\s+(\d{1,2})(?:st|nd|rd|th)(?=\s*(?:[,.;:!?)]|$)|\s+(?:at|and|or|but|so|when|if|then|instead|please|morning|afternoon|evening|night|latest|at the latest)\b)/gi,
    enOrdinalOfMonth: /(?<![A-Za-z])(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\s+of\s+(next|this|last)\s+month\b/gi,
    recurrence: new RegExp(`(?:${alternation(vocab.recurrenceWords)})\\s*$`, 'i'),
  };
}

/**
 * A bare weekday right beside a calendar date names that date's day (3月13日（周五）, "Friday, March 13", 3月13日
 * Friday): it is no date of its own, when it is that date's weekday (6月12号，周四下午 names another day). (A
 * calendar date is written with a digit or 月; relative ones are not.)
 */
function besideCalendarDate(scan: EntityScan, start: number, end: number, weekday: number): boolean {
  const text = scan.text;
  return scan.found.some(
    (e) =>
      e.type === 'date' &&
      e.relative !== true &&
      /[\d月]/.test(text.slice(e.start, e.end)) &&
      weekdayOf(ymdOf(e.value)) === weekday &&
      ((e.end <= start && /^[\s,，、(（]*$/.test(text.slice(e.end, start))) || (e.start >= end && /^[\s,，、)）]*$/.test(text.slice(end, e.start)))),
  );
}

const ymdOf = (iso: string): YMD => ({ year: +iso.slice(0, 4), month: +iso.slice(5, 7), day: +iso.slice(8, 10) });

/** `relative`: said relative to the day of writing (yesterday, last Friday, 3天前), not a calendar date or a bare weekday. */
function add(scan: EntityScan, date: YMD | null, start: number, end: number, relative = false): void {
  if (date !== null && isValidDate(date.year, date.month, date.day)) scan.add('date', isoDate(date), start, end, start, relative);
}

/** 2026-03-04, 2026/3/4, 2026.03.04: before versions and paths read them. */
export function scanNumericDates(scan: EntityScan): void {
  for (const m of scan.text.matchAll(NUMERIC_DATE)) {
    add(scan, { year: +m[1]!, month: +m[3]!, day: +m[4]! }, m.index, m.index + m[0].length);
  }
}

export function scanWordDates(scan: EntityScan, m: DateMatchers): void {
  const text = scan.text;
  const today: YMD = scan.now;
  const small = (s: string): number | null => parseNumber(s);
  const recurring = (at: number): boolean => m.recurrence.test(text.slice(Math.max(0, at - 6), at));

  // Full dates by where they end: a bare day right after one, across 到 or a dash, is in its month (4月18号到20号).
  const fullDates = new Map<number, { year: number; month: number; day: number }>();
  for (const x of text.matchAll(ZH_FULL_DATE)) {
    const month = small(x[2]!);
    const day = small(x[3]!);
    if (month === null || day === null) continue;
    const date = x[1] !== undefined ? { year: +x[1], month, day } : nearestYear(today, month, day);
    add(scan, date, x.index, x.index + x[0].length);
    if (date !== null) fullDates.set(x.index + x[0].length, date);
  }
  for (const x of text.matchAll(m.zhMonthRelative)) {
    const day = small(x[2]!);
    if (day !== null)
      add(scan, shiftMonth(today, m.vocab.zhMonthPrefixes[x[1]!]!, day), x.index, x.index + x[0].length, true);
  }
  for (const x of text.matchAll(m.enOrdinalOfMonth)) {
    const day = Number(x[1]);
    const shift = { next: 1, this: 0, last: -1 }[x[2]!.toLowerCase() as 'next' | 'this' | 'last'];
    if (day >= 1 && day <= 31) add(scan, shiftMonth(today, shift, day), x.index, x.index + x[0].length, true);
  }
  for (const x of text.matchAll(m.enBareOrdinal)) {
    const day = Number(x[1]);
    // "Rent is due on the 1st, $1,450 a month": a day of every month is no date.
    if (day < 1 || day > 31 || MONTHLY.test(text.slice(Math.max(0, x.index - 60), x.index + x[0].length + 60))) continue;
    const at = x.index + x[0].indexOf('the');
    add(scan, nearestMonth(today, day), at, x.index + x[0].length);
  }
  for (const x of text.matchAll(m.zhBareDay)) {
    const day = small(x[1]!);
    if (day === null || day < 1 || day > 31) continue;
    const range = RANGE_BEFORE.exec(text.slice(Math.max(0, x.index - 4), x.index));
    const from = range === null ? undefined : fullDates.get(x.index - range[0].length);
    const date = from !== undefined && day > from.day ? { ...from, day } : nearestMonth(today, day);
    add(scan, date, x.index, x.index + x[0].length);
  }
  for (const x of text.matchAll(m.zhWeekday)) {
    if (recurring(x.index)) continue;
    if (x[1] === undefined && besideCalendarDate(scan, x.index, x.index + x[0].length, m.vocab.zhWeekdays[x[2]!]!)) continue;
    const week = x[1] === undefined ? null : m.vocab.zhWeekPrefixes[x[1]]!;
    add(scan, weekdayDate(today, m.vocab.zhWeekdays[x[2]!]!, week), x.index, x.index + x[0].length, week !== null);
  }
  for (const x of text.matchAll(ZH_DURATION)) {
    const count = parseNumber(x[2] ?? x[4]!);
    if (count === null || count > 3660) continue;
    const unit = x[1] !== undefined ? 1 : m.vocab.zhDurationUnits[x[5]!]!;
    const sign = x[6] !== undefined && x[6].includes('前') ? -1 : 1;
    add(scan, addDays(today, sign * count * unit), x.index, x.index + x[0].length, true);
  }
  for (const x of text.matchAll(m.relativeDay)) {
    const offset = m.vocab.relativeDays[x[0]] ?? m.vocab.relativeDays[x[0].toLowerCase().replace(/\s+/g, ' ')];
    if (offset !== undefined) add(scan, addDays(today, offset), x.index, x.index + x[0].length, true);
  }
  scanEnglishDates(scan, m, today, recurring);
}

function scanEnglishDates(scan: EntityScan, m: DateMatchers, today: YMD, recurring: (at: number) => boolean): void {
  const text = scan.text;
  const month = (s: string): number | undefined => m.vocab.enMonths[s.toLowerCase()];
  for (const x of text.matchAll(m.enMonthDay)) {
    const mo = month(x[1]!);
    // "may 10x" is a verb; the month is written May.
    if (mo === undefined || x[1] === 'may') continue;
    const date = x[3] !== undefined ? { year: +x[3], month: mo, day: +x[2]! } : nearestYear(today, mo, +x[2]!);
    add(scan, date, x.index, x.index + x[0].length);
  }
  for (const x of text.matchAll(m.enDayMonth)) {
    const mo = month(x[2]!);
    if (mo === undefined || x[2] === 'may') continue;
    const date = x[3] !== undefined ? { year: +x[3], month: mo, day: +x[1]! } : nearestYear(today, mo, +x[1]!);
    add(scan, date, x.index, x.index + x[0].length);
  }
  for (const x of text.matchAll(m.enWeekday)) {
    const prefix = x[1]?.toLowerCase().replace(/\s+/g, ' ');
    const name = x[2]!;
    // An abbreviation counts only capitalised and after a word that makes it a day (next Fri): "sun", "wed" are words.
    if (!name.toLowerCase().endsWith('day') && (prefix === undefined || !/^[A-Z]/.test(name))) continue;
    if (prefix === undefined && recurring(x.index)) continue;
    const weekday = m.vocab.enWeekdays[name.toLowerCase()];
    if (weekday === undefined) continue;
    if (prefix === undefined && besideCalendarDate(scan, x.index, x.index + x[0].length, weekday)) continue;
    const week = prefix === undefined ? null : (m.vocab.enWeekPrefixes[prefix] ?? null);
    // Said on a Sunday, "last Friday" is two days ago: English counts that week from Sunday (on any other day
    // the Monday-first week gives the same day). 上周五 keeps the Monday-first calendar.
    const date = week === -1 && weekdayOf(today) === 7 ? addDays(today, weekday === 7 ? -7 : weekday - 7) : weekdayDate(today, weekday, week);
    add(scan, date, x.index, x.index + x[0].length, prefix !== undefined);
  }
  for (const x of text.matchAll(m.enSlash)) {
    const start = x.index + x[0].indexOf(x[1]!, x[0].length - x[1]!.length - x[2]!.length - 1);
    add(scan, nearestYear(today, +x[1]!, +x[2]!), start, x.index + x[0].length);
  }
  for (const x of text.matchAll(m.enIn)) {
    const count = parseCount(x[1]!, m.vocab.enCounts);
    const unit = m.vocab.enDurationUnits[x[2]!.toLowerCase()];
    if (count !== null && unit !== undefined && count <= 3660)
      add(scan, addDays(today, count * unit), x.index, x.index + x[0].length, true);
  }
  for (const x of text.matchAll(m.enAgo)) {
    const count = parseCount(x[1]!, m.vocab.enCounts);
    const unit = m.vocab.enDurationUnits[x[2]!.toLowerCase()];
    const sign = /^(?:ago|before)$/i.test(x[3]!) ? -1 : 1;
    if (count !== null && unit !== undefined && count <= 3660)
      add(scan, addDays(today, sign * count * unit), x.index, x.index + x[0].length, true);
  }
}

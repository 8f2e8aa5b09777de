/**
 * The relative times a message names, resolved in the calendar of the day it was written: days (yesterday, last
 * Friday, 3天前 — the relative dates the entity rules find) and coarser periods (last week, 上个月, 去年, two years
 * ago), which are not dates by the labels' conventions but still say when. A calendar date ("May 7", 5月7日) and a
 * bare weekday ("on Friday": the last one or the next?) are not relative mentions. Pure, no DOM.
 */
import type { DateMention } from '../../shared/date-mention.ts';
import { isoDate, shiftMonth, type YMD } from './instant.ts';
import { parseCount, ZH_NUMERAL_CHARS } from './numbers.ts';
import { alternation } from './text.ts';
import type { EntitySpan } from './types.ts';
import type { DateVocabulary } from './vocab-dates.ts';

export interface DateMentionMatchers {
  readonly vocab: DateVocabulary;
  readonly periods: RegExp;
  readonly enAgo: RegExp;
  readonly zhAgo: RegExp;
  /** A month of a year by the calendar: July 2022, Jul. 2022, 2022年7月. */
  readonly enMonthYear: RegExp;
  readonly zhMonthYear: RegExp;
}

export function compileDateMentionMatchers(vocab: DateVocabulary): DateMentionMatchers {
  const counts = ['\\d{1,3}', ...Object.keys(vocab.enCounts)].join('|');
  const latinUnits = Object.keys(vocab.periodUnitsAgo).filter((u) => /^[a-z]+$/i.test(u));
  const zhUnits = Object.keys(vocab.periodUnitsAgo).filter((u) => !/^[a-z]+$/i.test(u));
  return {
    vocab,
    periods: new RegExp(alternation(Object.keys(vocab.relativePeriods)), 'gi'),
    enAgo: new RegExp(`(?<![A-Za-z])(${counts})\\s+(${latinUnits.join('|')})\\s+ago(?![A-Za-z])`, 'gi'),
    zhAgo: new RegExp(`(?<![\\d${ZH_NUMERAL_CHARS}])(\\d{1,3}|[${ZH_NUMERAL_CHARS}]{1,3})\\s*(${zhUnits.join('|')})(?:以前|之前|前)`, 'g'),
    enMonthYear: new RegExp(`(?<![A-Za-z])(${Object.keys(vocab.enMonths).sort((a, b) => b.length - a.length).join('|')})\\.?,?\\s+((?:19|20)\\d{2})(?!\\d)`, 'gi'),
    zhMonthYear: /(?<!\d)((?:19|20)\d{2})\s*年\s*(\d{1,2})\s*月(?!\s*\d)/g,
  };
}

/** Whether a stretch of the text overlaps none of the date entities (a date claims its words first). */
function outsideDates(spans: readonly EntitySpan[]): (start: number, end: number) => boolean {
  const dates = spans.filter((s) => s.type === 'date');
  return (start, end) => !dates.some((s) => s.start < end && start < s.end);
}

/**
 * The mentions in `text` (the entity rules' normalised text, with their `spans`), in text order. A day that is
 * the writing day itself (today, tonight) says nothing its heading does not.
 */
export function findDateMentions(text: string, today: YMD, spans: readonly EntitySpan[], m: DateMentionMatchers): DateMention[] {
  const found: Array<DateMention & { readonly start: number }> = [];
  const todayIso = isoDate(today);
  for (const s of spans) {
    if (s.type === 'date' && s.relative === true && s.value !== todayIso) found.push({ start: s.start, phrase: text.slice(s.start, s.end), when: { kind: 'day', iso: s.value } });
  }
  const free = outsideDates(spans);
  const period = (start: number, phrase: string, unit: 'week' | 'weekend' | 'month' | 'year', offset: number): void => {
    if (!free(start, start + phrase.length)) return;
    if (unit === 'year') found.push({ start, phrase, when: { kind: 'year', year: today.year + offset } });
    else if (unit === 'month') {
      const month = shiftMonth(today, offset, 1);
      if (month !== null) found.push({ start, phrase, when: { kind: 'month', iso: isoDate(month).slice(0, 7) } });
    } else if (offset === -1 || offset === 1) found.push({ start, phrase, when: { kind: unit, offset, anchor: todayIso } });
  };
  for (const x of text.matchAll(m.periods)) {
    const p = m.vocab.relativePeriods[x[0]] ?? m.vocab.relativePeriods[x[0].toLowerCase().replace(/\s+/g, ' ')];
    if (p !== undefined) period(x.index, x[0], p.unit, p.offset);
  }
  for (const re of [m.enAgo, m.zhAgo]) {
    for (const x of text.matchAll(re)) {
      const count = parseCount(x[1]!, m.vocab.enCounts);
      const unit = m.vocab.periodUnitsAgo[x[2]!.toLowerCase()];
      if (count !== null && count > 0 && count <= 100 && unit !== undefined) period(x.index, x[0], unit, -count);
    }
  }
  return found.sort((a, b) => a.start - b.start).map(({ phrase, when }) => ({ phrase, when }));
}

/**
 * The months `text` names (`YYYY-MM`): by the calendar (July 2022, 2022年7月) or relative to the day of writing
 * (last month, 上个月: `mentions`). A month inside a full date (1 May 2022) is that date's, not a month of its own;
 * a month without its year ("in July") is left out: which July is a guess.
 */
export function findMonths(text: string, spans: readonly EntitySpan[], mentions: readonly DateMention[], m: DateMentionMatchers): string[] {
  const months = new Set<string>();
  const free = outsideDates(spans);
  const add = (year: number, month: number | undefined, start: number, end: number): void => {
    if (month !== undefined && month >= 1 && month <= 12 && free(start, end)) months.add(`${year}-${String(month).padStart(2, '0')}`);
  };
  // "may 2023" in lower case is a verb before a number; the month is written May.
  for (const x of text.matchAll(m.enMonthYear)) if (x[1] !== 'may') add(Number(x[2]), m.vocab.enMonths[x[1]!.toLowerCase()], x.index, x.index + x[0].length);
  for (const x of text.matchAll(m.zhMonthYear)) add(Number(x[1]), Number(x[2]), x.index, x.index + x[0].length);
  for (const { when } of mentions) if (when.kind === 'month') months.add(when.iso);
  return [...months];
}

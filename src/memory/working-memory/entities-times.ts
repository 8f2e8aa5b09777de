/**
 * Times of day as 24 h `HH:MM`. A time needs am/pm, a Chinese time of day (下午3点) or `HH:MM`:
 * a bare 3点 is not one, and neither is a ratio like 16:9.
 */
import type { EntityScan } from './entity-scan.ts';
import { parseNumber, ZH_NUMERAL_CHARS } from './numbers.ts';
import { pad2 } from './instant.ts';
import { alternation, escapeRegExp } from './text.ts';
import type { DateVocabulary } from './vocab-dates.ts';

type Period = 'am' | 'pm' | 'night' | 'noon' | 'small';

const HOUR = `(\\d{1,2}|[${ZH_NUMERAL_CHARS}]{1,3})`;
// A minute in one Chinese numeral needs its 分 (8点一分); 早上8点一开放 is "as soon as it opens at eight".
const MINUTES = `(?:\\s*(半|一刻|三刻|整|(\\d{1,2}|[${ZH_NUMERAL_CHARS}]{2,3}|[${ZH_NUMERAL_CHARS}](?=\\s*分))\\s*分?))?`;
const RANGE_TAIL = new RegExp(`^\\s*(?:到|至|-|~|～|—|–)\\s*${HOUR}\\s*(?:点|时)${MINUTES}`);
const EN_TIME = /(?<![\w:.])(\d{1,2})(?::([0-5]\d))?\s?(am|pm|a\.m\.|p\.m\.)(?![A-Za-z])/gi;
const CLOCK = /(?<![\w:.\/])([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d(?:\.\d+)?)?(?![\w:]|\.\d)/g;

export interface TimeMatchers {
  readonly zh: RegExp;
  readonly ratio: RegExp;
  readonly periods: Readonly<Record<string, Period>>;
}

export function compileTimeMatchers(vocab: DateVocabulary, ratioWords: readonly string[]): TimeMatchers {
  const periods = Object.keys(vocab.zhPeriods)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  return {
    zh: new RegExp(`(${periods})\\s*(?:的)?\\s*${HOUR}\\s*(?:(?:点|时)(?:钟)?${MINUTES}|:([0-5]\\d))`, 'g'),
    periods: vocab.zhPeriods,
    ratio: new RegExp(`(?:${alternation(ratioWords)})[^。;；!?！？]{0,22}$`, 'i'),
  };
}

/** An hour said with a time of day, in 24 h: 晚上12点 = 00:00, 下午3点 = 15:00, 中午1点 = 13:00. */
export function toHour24(hour: number, period: Period): number | null {
  if (hour < 0 || hour > 24) return null;
  if (hour > 12) return hour <= 23 && period !== 'am' ? hour : null;
  switch (period) {
    case 'am':
      return hour === 12 ? 0 : hour;
    case 'pm':
      return hour === 12 ? 12 : hour + 12;
    case 'noon':
      return hour >= 1 && hour <= 5 ? hour + 12 : hour;
    case 'small':
      return hour === 12 ? 0 : hour;
    case 'night':
      // 晚上10点 = 22:00, 晚上12点 = 00:00, 夜里2点 = 02:00.
      if (hour === 12) return 0;
      return hour <= 4 ? hour : hour + 12;
  }
}

function minutesOf(token: string | undefined, digits: string | undefined): number | null {
  if (token === undefined || token === '整') return 0;
  if (token === '半') return 30;
  if (token === '一刻') return 15;
  if (token === '三刻') return 45;
  const n = parseNumber(digits ?? '');
  return n !== null && Number.isInteger(n) && n >= 0 && n < 60 ? n : null;
}

export function scanTimes(scan: EntityScan, m: TimeMatchers): void {
  const text = scan.text;
  for (const match of text.matchAll(m.zh)) {
    const period = m.periods[match[1]!];
    const hourRaw = parseNumber(match[2]!);
    if (period === undefined || hourRaw === null) continue;
    const minute = match[5] !== undefined ? Number(match[5]) : minutesOf(match[3], match[4]);
    const hour = toHour24(hourRaw, period);
    if (hour === null || minute === null) continue;
    // The time of day stays unclaimed (今晚 / 明早 in it are dates too), and the time is placed at its number.
    const numberStart = match.index + match[0].indexOf(match[2]!, match[1]!.length);
    let end = match.index + match[0].length;
    if (!scan.add('time', `${pad2(hour)}:${pad2(minute)}`, numberStart, end)) continue;
    // 晚上10点到12点: the second hour shares the first one's time of day.
    const tail = RANGE_TAIL.exec(text.slice(end, end + 16));
    if (tail !== null) {
      const h2 = parseNumber(tail[1]!);
      const min2 = minutesOf(tail[2], tail[3]);
      const hour2 =
        h2 === null
          ? null
          : toHour24(h2, period === 'small' || period === 'am' ? period : h2 < hourRaw ? 'small' : period);
      const start2 = end + tail[0].indexOf(tail[1]!);
      end += tail[0].length;
      if (hour2 !== null && min2 !== null) scan.add('time', `${pad2(hour2)}:${pad2(min2)}`, start2, end);
    }
  }
  for (const match of text.matchAll(EN_TIME)) {
    const h = Number(match[1]);
    const minute = match[2] === undefined ? 0 : Number(match[2]);
    if (h < 1 || h > 12) continue;
    const pm = match[3]!.toLowerCase().startsWith('p');
    const hour = pm ? (h === 12 ? 12 : h + 12) : h === 12 ? 0 : h;
    scan.add('time', `${pad2(hour)}:${pad2(minute)}`, match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(CLOCK)) {
    if (m.ratio.test(text.slice(Math.max(0, match.index - 30), match.index))) continue;
    scan.add('time', `${pad2(Number(match[1]))}:${match[2]}`, match.index, match.index + match[0].length);
  }
}

/** Words for dates and times, Chinese and English. Data only. */

export interface DateVocabulary {
  /** Day words and their offset from today: 明天 +1, 前天 -2, tomorrow +1. */
  readonly relativeDays: Readonly<Record<string, number>>;
  /** Weekday names, 1 = Monday … 7 = Sunday. Chinese ones follow 周 / 星期 / 礼拜. */
  readonly zhWeekdays: Readonly<Record<string, number>>;
  readonly enWeekdays: Readonly<Record<string, number>>;
  /** Before 周X: which calendar week (下周三 = Wednesday of next week). */
  readonly zhWeekPrefixes: Readonly<Record<string, number>>;
  /** Before an English weekday; `null` = the next one on or after today. */
  readonly enWeekPrefixes: Readonly<Record<string, number | null>>;
  /** Before 周X / a weekday these mean a repetition (每周三, every Friday), not a date. */
  readonly recurrenceWords: readonly string[];
  /** Month names and abbreviations. */
  readonly enMonths: Readonly<Record<string, number>>;
  /** 下个月5号: month offsets. */
  readonly zhMonthPrefixes: Readonly<Record<string, number>>;
  /** Days per unit in "in 3 days", "两周后". */
  readonly enDurationUnits: Readonly<Record<string, number>>;
  readonly zhDurationUnits: Readonly<Record<string, number>>;
  /** Count words: "in three days", "a week from now". */
  readonly enCounts: Readonly<Record<string, number>>;
  /**
   * Chinese times of day and how they turn an hour into 24 h: `pm` adds 12 (下午3点 = 15:00), `night` adds 12
   * except 12 → 0 and small hours (晚上12点 = 00:00), `am` keeps it (12 → 0), `noon` maps 1–5 to the afternoon.
   */
  readonly zhPeriods: Readonly<Record<string, 'am' | 'pm' | 'night' | 'noon' | 'small'>>;
  /**
   * Weeks, weekends, months and years said relative to the day of writing (上周, last month, 去年): not dates, but
   * noted beside a record for a question about when. Offsets count units from the writing day's own.
   */
  readonly relativePeriods: Readonly<Record<string, { readonly unit: 'week' | 'weekend' | 'month' | 'year'; readonly offset: number }>>;
  /** Units of "3 years ago", 两年前 (days and weeks are dates: `enDurationUnits`). */
  readonly periodUnitsAgo: Readonly<Record<string, 'month' | 'year'>>;
}

export const DATE_VOCABULARY: DateVocabulary = {
  relativeDays: {
    今天: 0, 今日: 0, 今儿: 0, 今晚: 0, 今早: 0, 今夜: 0, 今天晚上: 0,
    明天: 1, 明日: 1, 明儿: 1, 明早: 1, 明晚: 1, 后天: 2, 大后天: 3,
    昨天: -1, 昨日: -1, 昨儿: -1, 昨晚: -1, 昨夜: -1, 前天: -2, 大前天: -3,
    today: 0, tonight: 0, 'this morning': 0, tomorrow: 1, tmrw: 1, tmr: 1, yesterday: -1, 'last night': -1,
    'the day after tomorrow': 2, 'day after tomorrow': 2, 'the day before yesterday': -2, 'day before yesterday': -2,
  },
  zhWeekdays: {
    一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 日: 7, 天: 7, '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7,
  },
  enWeekdays: {
    monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, sunday: 7,
    mon: 1, tue: 2, tues: 2, wed: 3, thu: 4, thur: 4, thurs: 4, fri: 5, sat: 6, sun: 7,
  },
  zhWeekPrefixes: {
    下下个: 2, 下下: 2, 下个: 1, 下: 1, 这个: 0, 这: 0, 本: 0, 上个: -1, 上: -1, 上上个: -2, 上上: -2,
  },
  enWeekPrefixes: { next: 1, this: 0, last: -1, coming: null, 'this coming': null },
  recurrenceWords: ['每', '每个', '隔', 'every', 'each'],
  enMonths: {
    january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6,
    july: 7, jul: 7, august: 8, aug: 8, september: 9, sep: 9, sept: 9, october: 10, oct: 10, november: 11, nov: 11,
    december: 12, dec: 12,
  },
  zhMonthPrefixes: { 下个月: 1, 下月: 1, 这个月: 0, 这月: 0, 本月: 0, 当月: 0, 上个月: -1, 上月: -1 },
  enDurationUnits: { day: 1, days: 1, week: 7, weeks: 7, fortnight: 14 },
  zhDurationUnits: { 天: 1, 日: 1, 周: 7, 个星期: 7, 星期: 7, 个礼拜: 7, 礼拜: 7 },
  enCounts: {
    a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
    eleven: 11, twelve: 12, fourteen: 14, fifteen: 15, twenty: 20, thirty: 30,
  },
  zhPeriods: {
    凌晨: 'small', 半夜: 'small', 深夜: 'night', 夜里: 'night', 夜间: 'night', 晚上: 'night', 今晚: 'night', 明晚: 'night',
    昨晚: 'night', 今夜: 'night', 晚间: 'night', 傍晚: 'pm', 晚: 'night', 下午: 'pm', 午后: 'pm', 中午: 'noon',
    上午: 'am', 早上: 'am', 早晨: 'am', 清晨: 'am', 今早: 'am', 明早: 'am', 早: 'am',
  },
  relativePeriods: {
    'last week': { unit: 'week', offset: -1 },
    'next week': { unit: 'week', offset: 1 },
    'last weekend': { unit: 'weekend', offset: -1 }, 'next weekend': { unit: 'weekend', offset: 1 },
    'last month': { unit: 'month', offset: -1 }, 'this month': { unit: 'month', offset: 0 },
    'next month': { unit: 'month', offset: 1 },
    'last year': { unit: 'year', offset: -1 }, 'this year': { unit: 'year', offset: 0 },
    'next year': { unit: 'year', offset: 1 },
    上周: { unit: 'week', offset: -1 }, 上星期: { unit: 'week', offset: -1 }, 上个星期: { unit: 'week', offset: -1 },
    上礼拜: { unit: 'week', offset: -1 }, 上个礼拜: { unit: 'week', offset: -1 },
    下周: { unit: 'week', offset: 1 }, 下星期: { unit: 'week', offset: 1 }, 下个星期: { unit: 'week', offset: 1 },
    下礼拜: { unit: 'week', offset: 1 }, 下个礼拜: { unit: 'week', offset: 1 },
    上周末: { unit: 'weekend', offset: -1 }, 下周末: { unit: 'weekend', offset: 1 },
    上个月: { unit: 'month', offset: -1 }, 上月: { unit: 'month', offset: -1 }, 这个月: { unit: 'month', offset: 0 },
    本月: { unit: 'month', offset: 0 }, 下个月: { unit: 'month', offset: 1 }, 下月: { unit: 'month', offset: 1 },
    前年: { unit: 'year', offset: -2 }, 去年: { unit: 'year', offset: -1 }, 今年: { unit: 'year', offset: 0 },
    明年: { unit: 'year', offset: 1 }, 后年: { unit: 'year', offset: 2 },
  },
  periodUnitsAgo: { month: 'month', months: 'month', year: 'year', years: 'year', 个月: 'month', 年: 'year' },
};

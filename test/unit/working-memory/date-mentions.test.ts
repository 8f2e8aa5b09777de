import { describe, expect, it } from 'vitest';
import { createExtractor } from '../../../src/memory/working-memory/index.ts';

const x = createExtractor();
/** Friday 1 March 2024, morning, in UTC+8. */
const NOW = '2024-03-01T09:30:00+08:00';
const mentions = (text: string) => x.dateMentions(text, NOW).map((m) => [m.phrase, m.when]);

describe('relative times a message names', () => {
  it('resolves days said relative to the day of writing, in both languages', () => {
    expect(mentions('I renewed it yesterday, and the disk filled up last Friday.')).toEqual([
      ['yesterday', { kind: 'day', iso: '2024-02-29' }],
      ['last Friday', { kind: 'day', iso: '2024-02-23' }],
    ]);
    expect(mentions('前天迁完的库，三天前开始的，下周三再看。')).toEqual([
      ['前天', { kind: 'day', iso: '2024-02-28' }],
      ['三天前', { kind: 'day', iso: '2024-02-27' }],
      ['下周三', { kind: 'day', iso: '2024-03-06' }],
    ]);
    expect(mentions('The backup ran 2 days ago; the audit is in two weeks.')).toEqual([
      ['2 days ago', { kind: 'day', iso: '2024-02-28' }],
      ['in two weeks', { kind: 'day', iso: '2024-03-15' }],
    ]);
  });

  it('resolves weeks, weekends, months and years, without splitting a day off them', () => {
    expect(mentions('Last week was the migration, last weekend the cleanup; last year we had none, 3 years ago either.')).toEqual([
      ['Last week', { kind: 'week', offset: -1, anchor: '2024-03-01' }],
      ['last weekend', { kind: 'weekend', offset: -1, anchor: '2024-03-01' }],
      ['last year', { kind: 'year', year: 2023 }],
      ['3 years ago', { kind: 'year', year: 2021 }],
    ]);
    // 上周五 is a day; 上周 alone a week; 上个月 in January is December of the year before.
    expect(mentions('上周五上线，上周忙着加班，上周末休息，去年也这样，两年前换的工作，下个月再说。')).toEqual([
      ['上周五', { kind: 'day', iso: '2024-02-23' }],
      ['上周', { kind: 'week', offset: -1, anchor: '2024-03-01' }],
      ['上周末', { kind: 'weekend', offset: -1, anchor: '2024-03-01' }],
      ['去年', { kind: 'year', year: 2023 }],
      ['两年前', { kind: 'year', year: 2022 }],
      ['下个月', { kind: 'month', iso: '2024-04' }],
    ]);
    expect(x.dateMentions('上个月的账单', '2024-01-15T10:00:00+08:00').map((m) => m.when)).toEqual([{ kind: 'month', iso: '2023-12' }]);
  });

  it('leaves calendar dates, bare weekdays and the day itself alone', () => {
    // "on Friday" may be the last one or the next: nothing is noted rather than a guess.
    expect(mentions('See you on Friday, or 周五, on 5 March, 3月5日 or 2024-03-05. Today works too, 今天也行。')).toEqual([]);
    expect(mentions('No time words here at all.')).toEqual([]);
    expect(mentions('')).toEqual([]);
  });

  it('reads the day in the offset the message was written in', () => {
    // 23:30 on 29 February in UTC-5 is already 1 March in UTC: "yesterday" is the 28th for its writer.
    expect(x.dateMentions('yesterday', '2024-02-29T23:30:00-05:00').map((m) => m.when)).toEqual([{ kind: 'day', iso: '2024-02-28' }]);
  });
});

describe('months a question names', () => {
  it('reads calendar months with their year, and months relative to the day of writing', () => {
    expect(x.monthsNamed('What did we ship in July 2023, and in Sept. 2022?', NOW)).toEqual(['2023-07', '2022-09']);
    expect(x.monthsNamed('2023年11月做了哪些变更？上个月呢？', NOW)).toEqual(['2023-11', '2024-02']);
  });

  it('leaves a month inside a full date, and a month without its year, alone', () => {
    expect(x.monthsNamed('What happened on 3 May 2023?', NOW)).toEqual([]);
    expect(x.monthsNamed('2023年5月3日发生了什么？', NOW)).toEqual([]);
    expect(x.monthsNamed('What did we do in July?', NOW)).toEqual([]);
    expect(x.monthsNamed('you may 2024 be right', NOW)).toEqual([]);
  });
});

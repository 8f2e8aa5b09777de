import { describe, expect, it } from 'vitest';
import { toLocalTime } from '../../../src/memory/working-memory/instant.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import { run, values } from './helpers.ts';

const dates = (text: string, now: string): string[] => values(text, 'date', now);
const times = (text: string, now = '2026-03-04T10:00:00+08:00'): string[] => values(text, 'time', now);

describe('relative dates in Chinese', () => {
  const wed = '2026-03-04T10:00:00+08:00';
  it('resolves day words', () => {
    expect(dates('今天下午3点、明天、后天、大后天', wed)).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07']);
    expect(dates('昨天晚上和前天和大前天', wed)).toEqual(['2026-03-03', '2026-03-02', '2026-03-01']);
    expect(dates('今晚8点和明早', wed)).toEqual(['2026-03-04', '2026-03-05']);
  });

  it('reads 下周X as that weekday of next calendar week (Monday first)', () => {
    expect(dates('下周三开会', wed)).toEqual(['2026-03-11']);
    expect(dates('下周一和下周日', wed)).toEqual(['2026-03-09', '2026-03-15']);
    expect(dates('这周五、本周一、上周二、下下周二', wed)).toEqual([
      '2026-03-06',
      '2026-03-02',
      '2026-02-24',
      '2026-03-17',
    ]);
    // From a Saturday, next week's Wednesday is four days on, across the month boundary.
    expect(dates('下周三去成都', '2026-02-28T21:15:00+08:00')).toEqual(['2026-03-04']);
  });

  it('puts the bare day that ends a range in the month of the day that starts it', () => {
    expect(dates('6月28号到30号在上海', wed)).toEqual(['2026-06-28', '2026-06-30']);
    expect(dates('4月3日至5日休假', wed)).toEqual(['2026-04-03', '2026-04-05']);
    // A bare day on its own is the nearest such day.
    expect(dates('6号交', wed)).toEqual(['2026-03-06']);
  });

  it('takes a bare weekday as the next one, today included', () => {
    expect(dates('周五交', wed)).toEqual(['2026-03-06']);
    expect(dates('星期一见', wed)).toEqual(['2026-03-09']);
    expect(dates('周三之前', wed)).toEqual(['2026-03-04']);
  });

  it('resolves month-day and counts, across month and year ends', () => {
    expect(dates('3月5日和4月1号', wed)).toEqual(['2026-03-05', '2026-04-01']);
    expect(dates('三月二十号', wed)).toEqual(['2026-03-20']);
    expect(dates('后天就是1月2号了', '2026-12-31T20:00:00+08:00')).toEqual(['2027-01-02']);
    expect(dates('12月28日那单', '2027-01-03T09:00:00+08:00')).toEqual(['2026-12-28']);
    expect(dates('3天后出发，两周后回来，5天前付的款', wed)).toEqual(['2026-03-07', '2026-03-18', '2026-02-27']);
    // 超过 7 天 is a length of time, not a day (过 7 天 is one).
    expect(dates('清理超过 7 天的备份，过 7 天再检查', wed)).toEqual(['2026-03-11']);
    expect(dates('下个月5号交房租，本月15日体检', '2026-12-20T09:00:00+08:00')).toEqual(['2027-01-05', '2026-12-15']);
    expect(dates('2025年12月31日买的', wed)).toEqual(['2025-12-31']);
    expect(dates('明天是2月29日吗', '2028-02-28T12:00:00+08:00')).toEqual(['2028-02-29']);
  });

  it('does not make dates of years, weeks, months, repetitions or numbered things', () => {
    for (const text of [
      '2026年我们要上云',
      '下周有空吗',
      '下个月再说',
      '每周三例会',
      '5号楼',
      '地铁3号线',
      '一周三次',
      '3日内',
    ]) {
      expect(dates(text, wed)).toEqual([]);
    }
  });
});

describe('relative dates in English', () => {
  const wed = '2026-03-04T10:00:00+08:00';
  it('resolves day words, weekdays and counts', () => {
    expect(dates('today at 3pm, tomorrow and yesterday', wed)).toEqual(['2026-03-04', '2026-03-05', '2026-03-03']);
    expect(dates('the day after tomorrow', wed)).toEqual(['2026-03-06']);
    expect(dates('It crashed last night, the fix went out at 9:15 this morning.', wed)).toEqual(['2026-03-03', '2026-03-04']);
    expect(dates('due Friday', wed)).toEqual(['2026-03-06']);
    expect(dates('next Friday', wed)).toEqual(['2026-03-13']);
    expect(dates('last Monday and this Sunday', wed)).toEqual(['2026-02-23', '2026-03-08']);
    // On a Sunday, "last Friday" is two days ago and "last Sunday" a week ago; 上周五 stays last calendar week's.
    const sunday = '2026-03-08T10:00:00+08:00';
    expect(dates('last Friday', sunday)).toEqual(['2026-03-06']);
    expect(dates('last Sunday', sunday)).toEqual(['2026-03-01']);
    expect(dates('上周五', sunday)).toEqual(['2026-02-27']);
    expect(dates('in 3 days, in two weeks, 5 days ago', wed)).toEqual(['2026-03-07', '2026-03-18', '2026-02-27']);
    // "a week before" counts from another day (the party, the launch), not from today.
    expect(dates('Remind me a week before the party.', wed)).toEqual([]);
    expect(dates('by next Fri.', wed)).toEqual(['2026-03-13']);
  });

  it('resolves month names to the nearest year', () => {
    expect(dates('coming home January 3', '2026-12-30T09:30:00+08:00')).toEqual(['2027-01-03']);
    expect(dates('paid on Mar 3 and on 2nd of March', wed)).toEqual(['2026-03-03', '2026-03-02']);
    expect(dates('Meeting on Jan. 15th, 2027', wed)).toEqual(['2027-01-15']);
    expect(dates('signed up on 2/14', wed)).toEqual(['2026-02-14']);
  });

  it('leaves words that only look like dates', () => {
    for (const text of [
      'You may 10x it',
      'every Friday',
      'on Fridays',
      'next week',
      'the sun is out',
      'in a day or two',
    ]) {
      expect(dates(text, wed)).toEqual([]);
    }
  });
});

describe('time zones', () => {
  it('keeps today only with a clock time, a rule that starts from it, or a due day, as labellers write it', () => {
    const wed = '2026-03-04T10:00:00+08:00';
    // Said in passing, the message's own day is no date worth keeping.
    expect(dates('今天好累，陪我聊聊天吧。', wed)).toEqual([]);
    expect(dates('The build server has been flaky since this morning.', wed)).toEqual([]);
    expect(dates('今晚加班，晚饭随便吃点。', wed)).toEqual([]);
    expect(dates('今天早上9点开始接口一直超时。', wed)).toEqual(['2026-03-04']);
    expect(dates('The demo is tonight at 8pm.', wed)).toEqual(['2026-03-04']);
    expect(dates('今天的例会改到下午5:15。', wed)).toEqual(['2026-03-04']);
    expect(dates('今天好累，晚上8点还要加班。', wed)).toEqual([]);
    // Still a day the message names, for retrieval to index beside its dates.
    expect(run('今天好累，陪我聊聊天吧。', wed).passingDates).toEqual(['2026-03-04']);
    expect(run('今天早上9点开始接口一直超时。', wed).passingDates).toBeUndefined();
    expect(dates('从今天起，日志都按 UTC 记。', wed)).toEqual(['2026-03-04']);
    expect(dates('Starting today, all reviews need two approvals.', wed)).toEqual(['2026-03-04']);
    expect(dates('周报今天下班前要交。', wed)).toEqual(['2026-03-04']);
    expect(dates('The invoice is due today.', wed)).toEqual(['2026-03-04']);
  });

  it('reads the calendar in the message’s own offset', () => {
    // 23:30 in New York is already the next day in UTC; "tomorrow" is still New York's tomorrow.
    expect(dates('tomorrow', '2026-03-04T23:30:00-05:00')).toEqual(['2026-03-05']);
    // 01:00 in Shanghai is the previous day in UTC.
    expect(dates('明天', '2026-03-05T01:00:00+08:00')).toEqual(['2026-03-06']);
    expect(dates('due today', '2026-03-04T20:00:00Z')).toEqual(['2026-03-04']);
    expect(dates('next Monday', '2026-03-08T23:59:00+14:00')).toEqual(['2026-03-09']);
  });

  it('rejects a now that is not a time', () => {
    expect(() => toLocalTime('yesterday')).toThrow(AssistantError);
    expect(() => toLocalTime('2026-02-30T10:00:00Z')).toThrow(/calendar/);
  });
});

describe('times', () => {
  it('turns Chinese times of day into 24 h', () => {
    expect(times('下午3点半开会，晚上8:30之前交')).toEqual(['15:30', '20:30']);
    expect(times('晚上11点到凌晨2点维护')).toEqual(['23:00', '02:00']);
    expect(times('晚上十点到十二点，中午12点半吃饭，上午九点一刻')).toEqual(['22:00', '00:00', '12:30', '09:15']);
    expect(times('下午2点到4点')).toEqual(['14:00', '16:00']);
    expect(times('前天晚上9点起就一直告警')).toEqual(['21:00']);
    // A minute in one Chinese numeral needs its 分: 8点一开放 is "once it opens at eight".
    expect(times('早上8点一开放就满了，晚上七点五分再试，下午三点二十五截止')).toEqual(['08:00', '19:05', '15:25']);
  });

  it('turns am/pm into 24 h', () => {
    expect(times('at 4:15pm, 9am and 12am, arriving 7:20 P.M.')).toEqual(['16:15', '09:00', '00:00', '19:20']);
  });

  it('keeps HH:MM and drops seconds', () => {
    expect(times('2026-03-04 23:59:07 日志')).toEqual(['23:59']);
    expect(times('at 9:05')).toEqual(['09:05']);
  });

  it('needs a time of day or HH:MM, and is not a ratio', () => {
    for (const text of [
      '3点见',
      'ratio 16:9',
      '比例 4:3',
      'The ratio should be 4:3, not 16:10.',
      'at 5',
      'score 24:10',
    ]) {
      expect(times(text)).toEqual([]);
    }
  });
});

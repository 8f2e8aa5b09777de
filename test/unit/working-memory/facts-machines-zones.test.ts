/**
 * Found by reading misses of the helpers' labelled batches (issue 19, thirteenth round): a product named right after
 * a correction opener, a machine's system said with "actually" or 这台, and a time zone said where a place would be.
 * Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts } from './helpers.ts';

describe('the right value named after the user says they misspoke', () => {
  it('sets the product that follows 不对 / 说错了 / sorry', () => {
    expect(facts('不对，是 Rocky Linux 9，不是 8。')).toEqual(['os=Rocky Linux 9']);
    expect(facts('说错了，是 MariaDB 11。')).toEqual(['database=MariaDB 11']);
    expect(facts("Sorry, it's Fedora 40, not Ubuntu.")).toEqual(['os=Fedora 40']);
    // An opener that says nothing was wrong is no correction, and a sentence that compares two names sets neither.
    expect(facts('我不是说 Redis 不好，是 Memcached 更简单。')).toEqual([]);
  });
});

describe("a machine's system", () => {
  it('is read with an adverb after the copula, or said of 这台', () => {
    expect(facts('The build server is actually Alpine 3.19.')).toEqual(['os=Alpine 3.19']);
    expect(facts('这台是 Debian 12。')).toEqual(['os=Debian 12']);
  });
});

describe('a time zone said where a place would be', () => {
  it('is the time zone, whole, and no location', () => {
    expect(facts('我人在 UTC+9，提醒都按这个来。')).toEqual(['timezone=UTC+9']);
    expect(facts("I'm based in Europe/Lisbon time, so book the call for 10am my time.")).toEqual(['timezone=Europe/Lisbon']);
    expect(facts('I live in Lisbon.')).toEqual(['location=Lisbon']);
  });

  it('is read from the clock the timestamps keep', () => {
    expect(facts('Build logs and their timestamps should use UTC.')).toEqual(['timezone=UTC']);
    expect(facts('回复里的时间统一用 UTC+8。')).toEqual(['timezone=UTC+8']);
  });
});

describe('an alert that arrived is no alerting tool', () => {
  it('does not set the slot to the error or state an alert named; a tool after the same colon still counts', () => {
    expect(facts('群里刚来了个告警：DeadlineExceededError，重试就好了。')).toEqual([]);
    expect(facts('值班群收到一条报警：OOMKilled。')).toEqual([]);
    expect(facts('告警：PagerDuty，我们就用这个。')).toEqual(['alerting=PagerDuty']);
  });
});

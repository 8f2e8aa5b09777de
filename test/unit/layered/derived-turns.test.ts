/**
 * The derivations a page load reads back from the store (src/ui/controllers/derived-turns.ts) are only right while
 * the rules that made them are unchanged. This pins the derivation of a set of examples to DERIVATION_VERSION: when
 * extraction, key terms or intent tags change what they return, this fails until the version is bumped (which
 * makes every kept record a miss) and the pin below is updated with it.
 */
import { describe, expect, it } from 'vitest';
import { hashString } from '../../../src/memory/embedders/hash.ts';
import { SessionWorkingMemory } from '../../../src/memory/layered/working-memory.ts';
import { DERIVATION_VERSION, deriveTurn, stampOf } from '../../../src/ui/controllers/derived-turns.ts';

/** The version and the hash of the examples' derivations it was pinned with. */
const PINNED = '8:1l9p5';

const T = Date.UTC(2025, 2, 6, 9, 30); // a Thursday
const EXAMPLES = [
  'The staging database is PostgreSQL 15 on 10.0.4.21, port 5433.',
  'Forget the Redis cache plan, we are not doing it.',
  '我们下周三把缓存迁到 Redis 7，负责人是小林，联系邮箱 lin@example.org。',
  '明天上午十点开会，地点改到三楼会议室。',
  'How do I rotate the TLS certificate on the gateway? It expires on 2025-04-01.',
  'Thanks, that fixed it!',
  'The nightly export failed last night and again this morning.',
  'Our private registry is at registry.lab.lan:5000. Remind me a week before the cert expires.',
  '我们6月8号到10号在杭州团建。',
  '这次团建预算1万5千元，不对，是2万元。套餐原价¥3,199，128 元的耳机另付。',
  'The review is booked for the 20th. Rent is due on the 1st, $900 a month. 酒店订好了，1200元一晚。',
  '评审定在3月14日（周五），周四先彩排。',
  '选课系统早上8点一开放就卡，下午三点二十五再试。',
  'The core switch moves to firmware 15.2.7b on Sunday.',
];

const derivations = () => {
  const wm = new SessionWorkingMemory();
  return EXAMPLES.map((text) => deriveTurn(text, T, stampOf(text, 'w1024|0'), wm));
};

describe('the kept per-message derivations', () => {
  it('work out entities, dates and intents from the kept text', () => {
    const [server, , plan, , question] = derivations();
    expect(server!.entities).toEqual(expect.arrayContaining(['ipv4:10.0.4.21']));
    expect(server!.head).toBe(EXAMPLES[0]!.length);
    expect(plan!.dates).toEqual(['2025-03-12']);
    expect(question!.dates).toEqual(['2025-04-01']);
    expect(question!.tags.length).toBeGreaterThan(0);
    // "last night" is the day before and "this morning" the day itself, as 昨晚 and 今早 are: said in passing, today
    // is no entity of the extraction, but retrieval still indexes it (a question about that day finds the turn).
    expect(derivations()[6]!.dates).toEqual(['2025-03-05', '2025-03-06']);
    // The bare day after a range's first date is in that date's month.
    expect(derivations()[8]!.dates).toEqual(['2025-06-08', '2025-06-10']);
    // A weekday written beside its own date is that date; another weekday is a day of its own.
    expect(derivations()[11]!.dates).toEqual(['2025-03-14', '2025-03-06']);
    // 8点一开放 is "as soon as it opens at eight", not 8:01.
    expect(derivations()[12]!.entities).toEqual(expect.arrayContaining(['time:08:00', 'time:15:25']));
    expect(derivations()[12]!.entities).not.toContain('time:08:01');
  });

  it('are pinned to DERIVATION_VERSION: a change of the rules needs a bump', () => {
    const hash = hashString(JSON.stringify(derivations().map(({ stamp: _, ...rest }) => rest))).toString(36);
    expect(
      `${DERIVATION_VERSION}:${hash}`,
      'The derivation of these examples changed: bump DERIVATION_VERSION in src/ui/controllers/derived-turns.ts ' +
        '(kept records of the old rules are then worked out again) and pin the new version and hash here.',
    ).toBe(PINNED);
  });
});

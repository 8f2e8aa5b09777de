import { describe, expect, it } from 'vitest';
import { topicTerms, voidedTurns } from '../../../src/memory/layered/deprecation.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { DAY, T0, chat, injected, pipeline } from './helpers.ts';

describe('void topics', () => {
  it('never retrieves a deprecated topic again, in this session or a later one', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('For the event pipeline, let us use Pulsar with three brokers on 10.0.0.5.');
    await c.bot('Pulsar with 3 brokers works; set replication factor 3 on 10.0.0.5.');
    for (let i = 0; i < 4; i++) {
      await c.user(`Unrelated question ${i}: how do I format a date in Python?`);
      await c.bot('Use datetime.strftime.');
    }
    const drop = await c.user("Let's drop the Pulsar idea and use NATS instead.");
    expect(drop.report.memory.voided).toEqual(expect.arrayContaining(['S1/1', 'S1/2']));
    await c.bot('OK, NATS it is.');
    const ask = await c.user('How many Pulsar brokers on 10.0.0.5 did we plan?');
    expect(ask.report.memory.retrieval.candidates.map((x) => x.id)).not.toContain('S1/1');
    expect(ask.extras).not.toContain('three brokers');
    expect(ask.extras).not.toContain('replication factor');

    const later = chat(memory, 'u', 'S2', T0 + DAY);
    let last;
    for (const text of ['hi', 'back to the event pipeline', 'Pulsar brokers on 10.0.0.5 with replication factor 3, NATS?']) {
      last = await later.user(text);
      await later.bot('Sure.');
    }
    expect(last!.report.memory.gate.otherSessions).toBe(true);
    for (const id of injected(last!)) expect(['S1/1', 'S1/2']).not.toContain(id);
    expect(last!.extras).not.toContain('three brokers');
  });

  it('an anaphoric declaration voids the thread it ends', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('证书过期导致 HTTPS 访问失败，怎么排查？');
    await c.bot('先用 openssl 检查证书的有效期。');
    const drop = await c.user('这个问题不算了，换个话题。');
    expect(drop.report.memory.voided).toEqual(expect.arrayContaining(['S1/1', 'S1/2', 'S1/3']));
    await c.bot('好的。');
    await c.user('新问题：怎么配置 Redis 持久化？');
    await c.bot('开启 AOF。');
    const ask = await c.user('证书过期怎么排查来着？');
    expect(ask.report.memory.retrieval.candidates.map((x) => x.id)).not.toContain('S1/1');
    expect(ask.extras).not.toContain('openssl');
  });

  it('names a topic by its content words, not by "idea" or "这个问题"', () => {
    expect(topicTerms('Pulsar idea')).toEqual(['pulsar']);
    expect(topicTerms('这个问题')).toEqual([]);
    expect(topicTerms('that plan')).toEqual([]);
    const turn = (id: string, text: string, seq: number): TurnEntry => ({
      id, userId: 'u', sessionId: 's', seq, role: 'user', time: T0 + seq, text, entities: [], dates: [], tags: [],
    });
    const turns = [turn('1', 'use pulsar', 1), turn('2', 'redis cache', 2), turn('3', 'drop the pulsar idea', 3)];
    expect(voidedTurns('pulsar idea', turns[2]!, turns, 0).sort()).toEqual(['1', '3']);
  });
});

import { describe, expect, it } from 'vitest';
import {
  activeItems,
  applyExtraction,
  createWorkingMemory,
  isDeprecated,
  pinItem,
  pruneExpired,
  type FactItem,
  type WorkingMemoryState,
} from '../../../src/memory/working-memory/state.ts';
import { resolveWorkingMemoryConfig } from '../../../src/memory/working-memory/config.ts';
import { WorkingMemory } from '../../../src/memory/working-memory/working-memory.ts';
import type { Extraction } from '../../../src/memory/working-memory/types.ts';
import { AssistantError } from '../../../src/shared/errors.ts';

const T0 = '2026-03-04T10:00:00+08:00';
const HOUR = 3_600_000;
const at = (hours: number): string => new Date(Date.parse(T0) + hours * HOUR).toISOString();
const x = (partial: Partial<Extraction>): Extraction => ({ entities: [], facts: [], deprecate: [], ...partial });
const fact = (state: WorkingMemoryState, subject: string): FactItem | undefined =>
  state.items.find((i): i is FactItem => i.type === 'fact' && i.subject === subject);

describe('applying extractions', () => {
  it('records entities, facts and topics with their turn, time and expiry', () => {
    const s = applyExtraction(
      createWorkingMemory(),
      x({
        entities: [{ type: 'ipv4', value: '10.0.0.1' }],
        facts: [{ subject: 'database', value: 'PostgreSQL', op: 'set' }],
        deprecate: ['Kafka 方案'],
      }),
      { turnId: 't1', at: T0 },
    );
    expect(s.items).toHaveLength(3);
    const ip = s.items.find((i) => i.type === 'ipv4')!;
    expect(ip).toMatchObject({
      id: 'ipv4:10.0.0.1',
      value: '10.0.0.1',
      turnId: 't1',
      offsetMinutes: 480,
      pinned: false,
    });
    expect(ip.expiresAt - ip.at).toBe(24 * HOUR);
    expect(s.items.find((i) => i.type === 'deprecation')).toMatchObject({ value: 'Kafka 方案', keys: ['kafka'] });
  });

  it('overwrites a fact slot and keeps a short history (Nginx → 算了还是用 Apache)', () => {
    const wm = new WorkingMemory();
    wm.observe('我们计划用Nginx做反向代理。', { turnId: 't1', at: T0 });
    wm.observe('算了还是用Apache。', { turnId: 't2', at: at(0.05) });
    const web = fact(wm.state, 'web server')!;
    expect(web).toMatchObject({ value: 'Apache', op: 'set', turnId: 't2' });
    expect(web.history.map((h) => [h.value, h.turnId])).toEqual([['Nginx', 't1']]);
    const config = resolveWorkingMemoryConfig({ historyLimit: 2 });
    let s = createWorkingMemory();
    for (const [i, v] of ['A', 'B', 'C', 'D'].entries()) {
      s = applyExtraction(
        s,
        x({ facts: [{ subject: 'cache', value: v, op: 'set' }] }),
        { turnId: `t${i}`, at: at(i) },
        config,
      );
    }
    expect(fact(s, 'cache')!.history.map((h) => h.value)).toEqual(['C', 'B']);
  });

  it('unsets with and without a replacement', () => {
    const wm = new WorkingMemory();
    wm.observe('缓存用 Redis。', { turnId: 't1', at: T0 });
    wm.observe('Redis 不用了，we will just use an in-memory cache.', { turnId: 't2', at: at(1) });
    expect(fact(wm.state, 'cache')).toMatchObject({ value: 'in-memory', op: 'set' });
    expect(fact(wm.state, 'cache')!.history.map((h) => `${h.op}:${h.value}`)).toEqual(['unset:Redis', 'set:Redis']);

    wm.observe('消息队列用 Kafka。', { turnId: 't3', at: at(2) });
    wm.observe("We don't use Kafka anymore.", { turnId: 't4', at: at(3) });
    expect(fact(wm.state, 'message queue')).toMatchObject({ value: 'Kafka', op: 'unset', turnId: 't4' });

    // Dropping a value the slot does not hold leaves the slot alone.
    wm.apply(x({ facts: [{ subject: 'cache', value: 'Memcached', op: 'unset' }] }), { turnId: 't5', at: at(4) });
    expect(fact(wm.state, 'cache')).toMatchObject({ value: 'in-memory', op: 'set' });
  });

  it('refreshes an entity mentioned again', () => {
    let s = applyExtraction(createWorkingMemory(), x({ entities: [{ type: 'date', value: '2026-03-11' }] }), {
      turnId: 't1',
      at: T0,
    });
    s = applyExtraction(s, x({ entities: [{ type: 'date', value: '2026-03-11' }] }), { turnId: 't2', at: at(20) });
    const item = s.items[0]!;
    expect(s.items).toHaveLength(1);
    expect(item.turnId).toBe('t2');
    expect(item.firstAt).toBe(Date.parse(T0));
    expect(item.expiresAt).toBe(Date.parse(at(44)));
  });
});

describe('expiry and pins', () => {
  const s0 = applyExtraction(
    createWorkingMemory(),
    x({
      entities: [
        { type: 'ipv4', value: '10.0.0.1' },
        { type: 'url', value: 'https://x.io' },
      ],
    }),
    { turnId: 't1', at: T0 },
  );
  const pinned = pinItem(s0, 'url:https://x.io');

  it('expires 24 h after the last mention, pinned items never', () => {
    expect(
      activeItems(pinned, at(23.9))
        .map((i) => i.id)
        .sort(),
    ).toEqual(['ipv4:10.0.0.1', 'url:https://x.io']);
    expect(activeItems(pinned, at(24)).map((i) => i.id)).toEqual(['url:https://x.io']);
    expect(activeItems(pinned, at(24 * 365)).map((i) => i.id)).toEqual(['url:https://x.io']);
    expect(pruneExpired(pinned, at(25)).items.map((i) => i.id)).toEqual(['url:https://x.io']);
  });

  it('takes the time to live from the config', () => {
    const config = resolveWorkingMemoryConfig({ ttlMs: HOUR });
    const s = applyExtraction(
      createWorkingMemory(),
      x({ entities: [{ type: 'ipv4', value: '1.2.3.4' }] }),
      { turnId: 't', at: T0 },
      config,
    );
    expect(activeItems(s, at(0.99))).toHaveLength(1);
    expect(activeItems(s, at(1))).toHaveLength(0);
    expect(() => resolveWorkingMemoryConfig({ ttlMs: -1 })).toThrow(AssistantError);
  });

  it('pins what the user asks to remember', () => {
    const wm = new WorkingMemory();
    wm.observe('请记住：我们的生产环境在 ap-southeast-1。', { turnId: 't1', at: T0 });
    expect(wm.active(at(100)).map((i) => i.id)).toEqual(['fact:region']);
    expect(wm.pin('fact:region', false)).toBe(true);
    expect(wm.active(at(100))).toEqual([]);
    expect(wm.pin('nope')).toBe(false);
  });

  it('caps the number of items, keeping pinned and recent ones', () => {
    const config = resolveWorkingMemoryConfig({ maxItems: 3 });
    let s = applyExtraction(
      createWorkingMemory(),
      x({ entities: [{ type: 'ipv4', value: '10.0.0.0' }] }),
      { turnId: 't0', at: T0 },
      config,
    );
    s = pinItem(s, 'ipv4:10.0.0.0');
    for (let i = 1; i <= 5; i++) {
      s = applyExtraction(
        s,
        x({ entities: [{ type: 'ipv4', value: `10.0.0.${i}` }] }),
        { turnId: `t${i}`, at: at(i) },
        config,
      );
    }
    expect(s.items.map((i) => i.value).sort()).toEqual(['10.0.0.0', '10.0.0.4', '10.0.0.5']);
  });
});

describe('deprecated topics', () => {
  it('tells retrieval which texts are about a void topic', () => {
    const wm = new WorkingMemory();
    wm.observe('之前说的 Kafka 方案先放弃，日志收集先用 Filebeat。', { turnId: 't1', at: T0 });
    expect(wm.isDeprecated('Kafka 集群怎么扩容？')).toBe(true);
    expect(wm.isDeprecated('we set up kafka-connect yesterday')).toBe(true);
    expect(wm.isDeprecated('Kafkaesque bureaucracy')).toBe(false);
    expect(wm.isDeprecated('Filebeat 配置')).toBe(false);
    expect(wm.isDeprecated('Kafka', at(25))).toBe(false);
    // A topic named only by pointing has no words to match.
    wm.observe('这个问题作废，重新来。', { turnId: 't2', at: at(1) });
    expect(wm.isDeprecated('这个问题怎么解决')).toBe(false);
  });

  it('turns a fact about a void topic into a dropped one, and setting it again revives it', () => {
    const wm = new WorkingMemory();
    wm.observe('消息队列用 Kafka。', { turnId: 't1', at: T0 });
    wm.observe('Forget the Kafka idea, we will stick with RabbitMQ.', { turnId: 't2', at: at(1) });
    expect(fact(wm.state, 'message queue')).toMatchObject({ value: 'RabbitMQ', op: 'set' });
    expect(isDeprecated(wm.state, 'Kafka')).toBe(true);
    wm.observe('还是换回 Kafka 吧。', { turnId: 't3', at: at(2) });
    expect(fact(wm.state, 'message queue')).toMatchObject({ value: 'Kafka', op: 'set' });
    expect(isDeprecated(wm.state, 'Kafka')).toBe(false);
  });
});

describe('serialisation', () => {
  it('round-trips through JSON', () => {
    const wm = new WorkingMemory();
    wm.observe('数据库换成PostgreSQL，下周三前迁完，预算 2000 元。', { turnId: 't1', at: T0 });
    wm.observe('之前的 Kafka 方案作废。请记住 10.0.0.1。', { turnId: 't2', at: at(1) });
    wm.pin('date:2026-03-11');
    const json = JSON.stringify(wm);
    const back = WorkingMemory.fromJSON(json);
    expect(back.state).toEqual(wm.state);
    expect(back.render('en', at(2))).toBe(wm.render('en', at(2)));
    expect(WorkingMemory.fromJSON(JSON.parse(json)).state).toEqual(wm.state);
  });

  it('rejects damaged data with a message naming the field', () => {
    expect(() => WorkingMemory.fromJSON('{')).toThrow(/not JSON/);
    expect(() => WorkingMemory.fromJSON({ version: 2, items: [] })).toThrow(/version/);
    expect(() => WorkingMemory.fromJSON({ version: 1, items: [{ type: 'ipv4' }] })).toThrow(/items\[0\]/);
    const bad = {
      version: 1,
      items: [
        {
          id: 'a',
          type: 'weird',
          value: 'x',
          turnId: 't',
          at: 0,
          offsetMinutes: 0,
          firstAt: 0,
          expiresAt: 1,
          pinned: false,
        },
      ],
    };
    expect(() => WorkingMemory.fromJSON(bad)).toThrow(/type/);
    try {
      WorkingMemory.fromJSON('[]');
    } catch (error) {
      expect((error as AssistantError).code).toBe('invalid_input');
    }
  });
});

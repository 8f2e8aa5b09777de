/**
 * Working memory kept in a record store: what one page learned, another page (a reload, a tab) reads back, and
 * seed 001's rules (overwrite, 24 h expiry, pinning, void topics) hold across that, under an injected clock. The
 * store here is an in-memory stand-in of MemoryStore's two methods; the IndexedDB path runs in
 * test/browser/app/working-memory-reload.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DurableWorkingMemory, recordsOf, snapshotOf, type StoredWorkingItem, type WorkingItemStore } from '../../../src/memory/layered/durable-working-memory.ts';
import { sessionKey } from '../../../src/memory/layered/session-key.ts';
import { DAY, HOUR, T0 } from './helpers.ts';

class MapStore implements WorkingItemStore {
  readonly records = new Map<string, StoredWorkingItem>();
  writes = 0;
  async listWorkingItems(sessionId: string | null): Promise<StoredWorkingItem[]> {
    return [...this.records.values()].filter((r) => r.sessionId === null || r.sessionId === sessionId).map((r) => structuredClone(r));
  }
  async replaceSessionWorkingItems(sessionId: string, items: readonly StoredWorkingItem[]): Promise<void> {
    this.writes++;
    for (const [id, r] of this.records) if (r.sessionId === sessionId) this.records.delete(id);
    for (const item of items) this.records.set(item.id, structuredClone(item));
  }
}

/** One page's view: load, observe a user message at `now`, save. */
async function say(wm: DurableWorkingMemory, key: string, text: string, now: number, turnId = `t${now}`): Promise<void> {
  await wm.load(key);
  wm.observe(key, wm.extract(text, now), now, turnId);
  await wm.save(key);
}

const values = (wm: DurableWorkingMemory, key: string, now: number): string[] => wm.items(key, now).map((i) => `${i.kind}:${i.value}`);

describe('working memory in the record store', () => {
  const key = sessionKey('local', 'conversation-1');

  it('the topic under discussion is read back by a new page, with the message that named it; a newly named one replaces it', async () => {
    const store = new MapStore();
    const first = new DurableWorkingMemory(store);
    await first.load(key);
    first.observe(key, { ...first.extract('你知道临江灯塔吗？', T0), topic: '临江灯塔' }, T0, 'turn-a');
    await first.save(key);
    const second = new DurableWorkingMemory(store);
    await second.load(key);
    expect(second.items(key, T0 + HOUR).find((i) => i.kind === 'topic')).toMatchObject({ value: '临江灯塔', sourceTurnId: 'turn-a' });
    // A message naming nothing leaves it; one naming another thing replaces it.
    second.observe(key, second.extract('门票多少钱？', T0 + HOUR), T0 + HOUR, 'turn-b');
    second.observe(key, { ...second.extract('那北坡茶园呢？', T0 + 2 * HOUR), topic: '北坡茶园' }, T0 + 2 * HOUR, 'turn-c');
    await second.save(key);
    const third = new DurableWorkingMemory(store);
    await third.load(key);
    expect(third.items(key, T0 + 3 * HOUR).filter((i) => i.kind === 'topic')).toEqual([expect.objectContaining({ value: '北坡茶园', sourceTurnId: 'turn-c' })]);
  });

  it('a page whose copy was dropped between load and save (a correction made meanwhile) leaves the store as it is', async () => {
    const store = new MapStore();
    const page = new DurableWorkingMemory(store);
    await say(page, key, 'The staging box is 10.0.0.7 and we use PostgreSQL 15.', T0, 'turn-a');
    const stored = [...store.records.values()];
    expect(stored.length).toBeGreaterThan(0);
    const writes = store.writes;
    await page.load(key);
    page.observe(key, page.extract('We moved to MySQL 8.', T0 + HOUR), T0 + HOUR, 'turn-b');
    page.forget('conversation-1');
    await page.save(key);
    expect(store.writes).toBe(writes);
    expect([...store.records.values()]).toEqual(stored);
  });

  it('a new page reads back what the last one learned, with its source turn', async () => {
    const store = new MapStore();
    const first = new DurableWorkingMemory(store);
    await say(first, key, 'The staging box is 10.0.0.7 and we use PostgreSQL 15.', T0, 'turn-a');
    const reloaded = new DurableWorkingMemory(store);
    await reloaded.load(key);
    expect(reloaded.items(key, T0 + HOUR)).toEqual(first.items(key, T0 + HOUR));
    expect(reloaded.items(key, T0 + HOUR).find((i) => i.value === '10.0.0.7')?.sourceTurnId).toBe('turn-a');
    expect(reloaded.render(key, 'en', T0 + HOUR)).toBe(first.render(key, 'en', T0 + HOUR));
    // The records carry the store's session id, so deleting the conversation deletes them.
    expect([...store.records.values()].every((r) => r.sessionId === 'conversation-1')).toBe(true);
  });

  it('a fact overwritten on one page stays overwritten on the next', async () => {
    const store = new MapStore();
    await say(new DurableWorkingMemory(store), key, '我们计划用Nginx做反向代理', T0);
    await say(new DurableWorkingMemory(store), key, '算了，还是用Apache吧', T0 + HOUR);
    const third = new DurableWorkingMemory(store);
    await third.load(key);
    const text = third.render(key, 'zh', T0 + 2 * HOUR);
    expect(text).toContain('reverse proxy = Apache');
    expect(text).not.toContain('Nginx');
  });

  it('expiry is decided by the clock, not by the page: 24 h after the last mention, across reloads; pinned items stay', async () => {
    const store = new MapStore();
    await say(new DurableWorkingMemory(store), key, 'The staging box is 10.0.0.7.', T0);
    await say(new DurableWorkingMemory(store), key, 'Remember this: the deadline is 2024-03-20.', T0 + HOUR);
    const later = new DurableWorkingMemory(store);
    await later.load(key);
    expect(values(later, key, T0 + 23 * HOUR)).toContain('entity:10.0.0.7');
    const nextDay = new DurableWorkingMemory(store);
    await nextDay.load(key);
    const left = values(nextDay, key, T0 + DAY + 1);
    expect(left).not.toContain('entity:10.0.0.7');
    expect(left.some((v) => v.includes('2024-03-20'))).toBe(true);
    // A re-mention on a later page refreshes it for another day.
    const again = new DurableWorkingMemory(store);
    await say(again, key, 'Still on 10.0.0.7.', T0 + 20 * HOUR);
    const after = new DurableWorkingMemory(store);
    await after.load(key);
    expect(values(after, key, T0 + DAY + 19 * HOUR)).toContain('entity:10.0.0.7');
  });

  it('void topics keep their order, and a message that changes nothing writes nothing', async () => {
    const store = new MapStore();
    const wm = new DurableWorkingMemory(store);
    await say(wm, key, 'Forget the Apache plan.', T0);
    await say(wm, key, '这个Redis方案不用了', T0 + 1);
    const writes = store.writes;
    await say(wm, key, 'ok', T0 + 2);
    expect(store.writes).toBe(writes);
    const reloaded = new DurableWorkingMemory(store);
    await reloaded.load(key);
    expect(reloaded.deprecated(key)).toEqual(wm.deprecated(key));
    expect(reloaded.deprecated(key)).toHaveLength(2);
  });

  it('forget() makes the next load read the store again (another tab wrote, or the conversation was deleted)', async () => {
    const store = new MapStore();
    const tabA = new DurableWorkingMemory(store);
    const tabB = new DurableWorkingMemory(store);
    await tabA.load(key);
    await say(tabB, key, 'The API runs on 10.1.2.3.', T0);
    await tabA.load(key);
    expect(values(tabA, key, T0)).toEqual([]);
    tabA.forget('conversation-1');
    await tabA.load(key);
    expect(values(tabA, key, T0)).toContain('entity:10.1.2.3');
  });

  it('records and snapshots round-trip, and records of another session or kind are left alone', () => {
    const wm = new DurableWorkingMemory(new MapStore());
    wm.observe(key, wm.extract('Order #A123456 ships to 10.0.0.9; forget the Cassandra plan.', T0), T0, 't1');
    const snapshot = (wm as unknown as { _inner: { exportSession(k: string): ReturnType<typeof snapshotOf> } })._inner.exportSession(key);
    const records = recordsOf('conversation-1', snapshot);
    const foreign: StoredWorkingItem = { ...records[0]!, id: 'other|x', sessionId: 'other' };
    const note: StoredWorkingItem = { ...records[0]!, id: 'conversation-1|note', kind: 'preference' };
    expect(snapshotOf('conversation-1', [...records, foreign, note])).toEqual(snapshot);
  });
});

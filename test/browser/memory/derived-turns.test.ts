/**
 * What the memory works out from each stored message is kept in the store (derived-turns.ts): the next page load
 * reads it instead of working it out again, gets exactly the same records, and works out again only what changed
 * (an edited text, another window, a damaged record). Deleting a conversation deletes its records.
 */
import { describe, expect, it } from 'vitest';
import { SessionWorkingMemory } from '../../../src/memory/layered/working-memory.ts';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import { ConversationChunkStore, layeredWritesDone } from '../../../src/ui/controllers/layered-store.ts';
import { LOCAL_USER } from '../../../src/ui/data/visible-turns.ts';
import { openStore } from './helpers.ts';
import { scratch } from './scratch.ts';

const { stores, fresh } = scratch();

/** The app's records over the store, keeping the first `keep` characters of each text, under `setting`. */
const chunkStore = (store: MemoryStore, setting = 'w1024|0', keep = Infinity) =>
  new ConversationChunkStore(store, new SessionWorkingMemory(), new Set(), (text) => text.slice(0, keep), setting);

/** A small conversation with entities, dates and intents to work out. */
async function seed(store: MemoryStore): Promise<{ sessionId: string; ids: string[] }> {
  const session = await store.createSession({ title: 'ops' });
  const texts = [
    'The staging database is PostgreSQL 15 on 10.0.4.21, port 5433.',
    'Noted: PostgreSQL 15 at 10.0.4.21:5433.',
    '我们下周三（2025-03-12）把缓存迁到 Redis 7，负责人是小林。',
    '好的，2025-03-12 迁移 Redis 7。',
    'How do I rotate the TLS certificate on the gateway?',
  ];
  const ids: string[] = [];
  for (const [i, content] of texts.entries()) ids.push((await store.appendTurn({ sessionId: session.id, role: i % 2 === 0 ? 'user' : 'assistant', content })).id);
  return { sessionId: session.id, ids };
}

describe("the memory's per-message derivations in the store", () => {
  it('a reload reads them instead of working them out, and gets the same records', async () => {
    const { name, store } = await fresh('derived-reload');
    await seed(store);
    const first = chunkStore(store);
    const worked = await first.listTurns(LOCAL_USER);
    expect(first.derivations).toEqual({ read: 0, worked: 5 });
    expect(worked.some((t) => t.entities.length > 0 && t.dates.length > 0)).toBe(true);
    await layeredWritesDone(store);
    await store.close();

    const again = await openStore(name);
    stores.push(again);
    const second = chunkStore(again);
    expect(await second.listTurns(LOCAL_USER)).toEqual(worked);
    expect(second.derivations).toEqual({ read: 5, worked: 0 });
  });

  it('works out again only an edited text, a damaged record, or everything under another setting', async () => {
    const { store } = await fresh('derived-misses');
    const { sessionId, ids } = await seed(store);
    await chunkStore(store).listTurns(LOCAL_USER);
    await layeredWritesDone(store);

    await store.updateTurn(ids[0]!, { content: 'The staging database moved to MySQL 8 on 10.0.4.22.' });
    // One entry of the conversation's record damaged.
    const record = (await store.listLayeredSide('derived')).get(sessionId) as Record<string, unknown>;
    await store.putLayeredSide([{ kind: 'derived', id: sessionId, data: { ...record, [ids[2]!]: { stamp: 'x', head: 'long' } } }]);
    const edited = chunkStore(store);
    const turns = await edited.listTurns(LOCAL_USER);
    expect(edited.derivations).toEqual({ read: 3, worked: 2 });
    expect(turns[0]!.text).toContain('MySQL 8');
    expect(turns[0]!.entities.join(' ')).toContain('10.0.4.22');
    // The same records as working everything out afresh.
    await layeredWritesDone(store);
    const afresh = chunkStore(store, 'another setting');
    expect(await afresh.listTurns(LOCAL_USER)).toEqual(turns);
    expect(afresh.derivations).toEqual({ read: 0, worked: 5 });

    // A shorter kept part (a smaller window) is another setting: the text kept follows it.
    await layeredWritesDone(store);
    const narrow = chunkStore(store, 'w16|0', 16);
    const short = await narrow.listTurns(LOCAL_USER);
    expect(narrow.derivations.worked).toBe(5);
    expect(short.every((t) => t.text.length <= 16)).toBe(true);
  });

  it('are one record per conversation, and deleting a conversation deletes its record', async () => {
    const { store } = await fresh('derived-delete');
    const kept = await seed(store);
    const dropped = await seed(store);
    await chunkStore(store).listTurns(LOCAL_USER);
    await layeredWritesDone(store);
    // One record per conversation, holding each of its turns.
    const records = await store.listLayeredSide('derived');
    expect([...records.keys()].sort()).toEqual([kept.sessionId, dropped.sessionId].sort());
    expect(Object.keys(records.get(kept.sessionId) as object).sort()).toEqual([...kept.ids].sort());
    await store.deleteSession(dropped.sessionId);
    expect([...(await store.listLayeredSide('derived')).keys()]).toEqual([kept.sessionId]);
  });
});

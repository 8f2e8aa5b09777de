/**
 * The layered memory's side state (session gates, void turns, heat) in IndexedDB, with the app's ChunkStore over
 * the real MemoryStore: it survives a reload, an older version's localStorage copy is moved in once, damaged
 * records are ignored, and deleting a conversation deletes its state.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SessionWorkingMemory } from '../../../src/memory/layered/working-memory.ts';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import type { HeatEntry, SessionEntry } from '../../../src/memory/retrieval/records.ts';
import { ConversationChunkStore, LAYERED_STORAGE_KEY, layeredWritesDone } from '../../../src/ui/controllers/layered-store.ts';
import { LOCAL_USER } from '../../../src/ui/data/visible-turns.ts';
import { openStore } from './helpers.ts';
import { scratch } from './scratch.ts';

const { stores, fresh } = scratch();
afterEach(() => localStorage.removeItem(LAYERED_STORAGE_KEY));

const heat = (chances: number): HeatEntry => ({ chances, recalls: 1, missStreak: 0, lastRecalledAt: 1_000 });
const gate = (sessionId: string): SessionEntry => ({ userId: LOCAL_USER, sessionId, startedAt: 1, lastAt: 2, userTurns: 3, entities: ['ipv4:10.0.0.7'], historyOpen: true });
const chunkStore = (store: MemoryStore) => new ConversationChunkStore(store, new SessionWorkingMemory());

describe('the layered memory state in the store', () => {
  it('survives a reload: gates, void marks and heat written by one page are read by the next', async () => {
    const { name, store } = await fresh('layered-side');
    const session = await store.createSession({ title: 'ops' });
    const turn = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'Scrap the Redis plan.' });
    const first = chunkStore(store);
    await first.listTurns(LOCAL_USER);
    await first.putSession(gate(session.id));
    await first.putTurn({ ...(await first.listTurns(LOCAL_USER))[0]!, deprecatedAt: 5_000 });
    await first.putHeat(new Map([[turn.id, heat(4)]]));
    // Written in the background, in order (a prompt never waits for them).
    await layeredWritesDone(store);
    await store.close();

    const again = await openStore(name);
    stores.push(again);
    const second = chunkStore(again);
    expect(await second.listSessions(LOCAL_USER)).toEqual([gate(session.id)]);
    expect((await second.listTurns(LOCAL_USER))[0]!.deprecatedAt).toBe(5_000);
    expect(await second.listHeat([turn.id])).toEqual(new Map([[turn.id, heat(4)]]));
    // Nothing in localStorage: it holds UI preferences only.
    expect(localStorage.getItem(LAYERED_STORAGE_KEY)).toBeNull();
  });

  it("moves an older version's localStorage copy into the store once, and removes it there", async () => {
    const { store } = await fresh('layered-move');
    const session = await store.createSession({ title: 'old' });
    const turn = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'hello' });
    localStorage.setItem(
      LAYERED_STORAGE_KEY,
      JSON.stringify({ sessions: { [session.id]: gate(session.id) }, deprecated: { [turn.id]: 7 }, heat: { [turn.id]: heat(2), broken: { chances: 'x' } } }),
    );
    const moved = chunkStore(store);
    expect((await moved.listTurns(LOCAL_USER))[0]!.deprecatedAt).toBe(7);
    expect(await moved.listSessions(LOCAL_USER)).toEqual([gate(session.id)]);
    expect(await moved.listHeat([turn.id, 'broken'])).toEqual(new Map([[turn.id, heat(2)]]));
    expect(localStorage.getItem(LAYERED_STORAGE_KEY)).toBeNull();
    // From the store now, for a page that never saw localStorage.
    expect(await chunkStore(store).listHeat([turn.id])).toEqual(new Map([[turn.id, heat(2)]]));
  });

  it('ignores a damaged record, and deleting a conversation deletes its gate, void marks and heat', async () => {
    const { store } = await fresh('layered-delete');
    const keep = await store.createSession({ title: 'keep' });
    const drop = await store.createSession({ title: 'drop' });
    const kept = await store.appendTurn({ sessionId: keep.id, role: 'user', content: 'a' });
    const dropped = await store.appendTurn({ sessionId: drop.id, role: 'user', content: 'b' });
    await store.putLayeredSide([
      { kind: 'session', id: keep.id, data: gate(keep.id) },
      { kind: 'session', id: drop.id, data: gate(drop.id) },
      { kind: 'heat', id: kept.id, data: heat(1) },
      { kind: 'heat', id: dropped.id, data: heat(9) },
      { kind: 'deprecated', id: dropped.id, data: 3 },
      { kind: 'session', id: 'damaged', data: { sessionId: 5 } },
    ]);
    await store.deleteSession(drop.id);
    expect([...(await store.listLayeredSide('session')).keys()].sort()).toEqual([keep.id, 'damaged'].sort());
    expect([...(await store.listLayeredSide('heat')).keys()]).toEqual([kept.id]);
    expect((await store.listLayeredSide('deprecated')).size).toBe(0);
    const view = chunkStore(store);
    expect(await view.listSessions(LOCAL_USER)).toEqual([gate(keep.id)]);
  });
});

/**
 * The retrieval index saved in the store (issue 17): a page load restores it instead of reading every conversation
 * again, reads again only the conversations that changed since, and gives the prompts a memory built from the
 * records gives. A damaged or stale save is noticed; a page killed in the middle of a save leaves a consistent
 * next load. Over the app's own planner and store, with the real tokenizer, in Chromium.
 */
import { describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import { packState, unpackState } from '../../../src/memory/store/state-codec.ts';
import { MemoryPlanner } from '../../../src/ui/controllers/memory-planner.ts';
import { layeredWritesDone } from '../../../src/ui/controllers/layered-store.ts';
import { DEFAULT_SETTINGS, type AppSettings } from '../../../src/ui/data/settings.ts';
import { countReads, openStore, rawDB } from './helpers.ts';
import { openPeer } from './peer-client.ts';
import { scratch } from './scratch.ts';

const { stores, fresh } = scratch();
const SNAPSHOT_KEY = 'layered:snapshot:index';
/** The docs' saved index, a record of its own. */
const DOCS_SNAPSHOT_KEY = 'layered:snapshot:index-docs';
const T = Date.UTC(2025, 4, 12, 9);

const plannerOver = (store: MemoryStore, settings: AppSettings = DEFAULT_SETTINGS) => new MemoryPlanner(() => ({ store: Promise.resolve(store), settings }));

/** Three conversations of our own (ops, travel, zh/en), `rounds` exchanges each. */
async function seed(store: MemoryStore, rounds = 6): Promise<string[]> {
  const ids: string[] = [];
  for (const [s, topic] of ['ops', 'trip', 'mixed'].entries()) {
    const session = await store.createSession({ title: topic });
    ids.push(session.id);
    const turns = Array.from({ length: rounds }, (_, i) =>
      s === 0
        ? [`The billing-api ${i} listens on port ${8000 + i}; its log is /var/log/billing-${i}.log.`, `Port ${8000 + i} for billing-api ${i}, noted.`]
        : s === 1
          ? [`Day ${i + 1}: the glass bridge opens at ${8 + i}:00, dinner near pier ${i + 2}.`, `The glass bridge at ${8 + i}:00 on day ${i + 1}.`]
          : [`把 report-worker ${i} 部署到 eu-west-${i + 1}，证书 ${i + 3} 月到期。`, `好的，report-worker ${i} 在 eu-west-${i + 1}。`],
    ).flat();
    await store.importTurns(session.id, turns.map((content, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content })));
  }
  return ids;
}


const QUESTIONS = ['Which port does billing-api 3 use?', 'When does the glass bridge open on day 2?', 'report-worker 4 部署在哪里？'];

/** A first page: the memory built from the store and its index saved, then the store closed. */
async function savedIndex(store: MemoryStore): Promise<MemoryPlanner> {
  const first = plannerOver(store);
  await first.warm();
  await first.saveIndexNow();
  await layeredWritesDone(store);
  await store.close();
  return first;
}

/** The prompts the three questions would get (nothing is kept). */
async function prompts(planner: MemoryPlanner, sessionIds: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const [i, q] of QUESTIONS.slice(0, sessionIds.length).entries()) out.push(JSON.stringify(await planner.probe(sessionIds[i]!, q, T + i)));
  return out;
}

/** A page load: the store opened again and a new planner. */
async function reload(name: string): Promise<{ store: MemoryStore; planner: MemoryPlanner; reads: Map<string, number> }> {
  const store = await openStore(name);
  stores.push(store);
  const reads = countReads(store);
  return { store, planner: plannerOver(store), reads };
}

/** The prompts of a memory built from the records alone, on a copy of the reads (the save deleted first). */
async function rebuiltPrompts(name: string, sessionIds: readonly string[]): Promise<string[]> {
  const db = await rawDB(name);
  const saved: unknown = await db.get('meta', SNAPSHOT_KEY);
  await db.delete('meta', SNAPSHOT_KEY);
  const { store, planner } = await reload(name);
  const out = await prompts(planner, sessionIds);
  expect(planner.indexStats.restored).toBe(false);
  await layeredWritesDone(store);
  await store.close();
  if (saved !== undefined) await db.put('meta', saved);
  db.close();
  return out;
}

describe("a conversation's write count (what a saved index is checked against)", () => {
  it('grows with every write to its turns, in their transaction, but not with a streaming reply\'s partial text; edits count rewrites of finished turns', async () => {
    const { store } = await fresh('session-rev');
    const session = await store.createSession({ title: 'counts' });
    const rev = async (): Promise<number> => (await store.getSession(session.id))!.rev ?? 0;
    const edits = async (): Promise<number> => (await store.getSession(session.id))!.edits ?? 0;
    expect(await rev()).toBe(0);
    const asked = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'Where is the backup bucket?' });
    expect(await rev()).toBe(1);
    await store.importTurns(session.id, [{ role: 'assistant', content: 'It is nightly-dumps.' }]);
    expect(await rev()).toBe(2);
    const writer = await store.startReply(session.id, { replyTo: asked.id });
    expect(await rev()).toBe(3);
    writer.append('The bucket is ');
    await writer.flush();
    writer.append('nightly-dumps.');
    await writer.flush();
    expect(await rev()).toBe(3);
    await writer.complete();
    const finished = await rev();
    expect(finished).toBeGreaterThan(3);
    // Appends, an import and a reply finishing are not edits of a finished turn; hiding one is.
    expect(await edits()).toBe(0);
    await store.updateTurn(asked.id, { tags: ['hidden'] });
    expect(await rev()).toBe(finished + 1);
    expect(await edits()).toBe(1);
  });
});

describe('the saved retrieval index', () => {
  it('a page load restores it, reads no conversation again, and gets the prompts of a memory built from the records', async () => {
    const { name, store } = await fresh('snapshot-restore');
    const sessions = await seed(store);
    const first = plannerOver(store);
    await first.warm();
    expect(first.indexStats.restored).toBe(false);
    await first.saveIndexNow();
    expect(first.indexStats.saves).toBe(1);
    await layeredWritesDone(store);
    await store.close();

    const expected = await rebuiltPrompts(name, sessions);
    const { planner, reads } = await reload(name);
    expect(await prompts(planner, sessions)).toEqual(expected);
    expect(planner.indexStats.restored).toBe(true);
    expect(planner.indexStats.readAgain).toEqual([]);
    expect([...reads.values()].reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('after the save: turns appended to a conversation (in another tab) are read alone, one rewritten reads its conversation again; the prompts match', async () => {
    const { name, store } = await fresh('snapshot-stale');
    const sessions = await seed(store);
    const first = plannerOver(store);
    await first.warm();
    await first.saveIndexNow();
    // Written after the save, by another page: the saved index does not hold it.
    const peer = await openPeer();
    await peer.send({ op: 'open', name });
    await peer.send({ op: 'append', sessionId: sessions[1]!, contents: ['Day 9: the glass bridge is closed for repairs; take the ferry instead.'] });
    await peer.send({ op: 'close' });
    peer.kill();
    // And a finished turn of another conversation hidden (as a regenerate does): that one is read again whole.
    const hidden = (await store.listTurns(sessions[2]!)).at(-1)!;
    await store.updateTurn(hidden.id, { tags: ['hidden'] });
    await layeredWritesDone(store);
    await store.close();

    const expected = await rebuiltPrompts(name, sessions);
    const { planner, reads } = await reload(name);
    expect(await prompts(planner, sessions)).toEqual(expected);
    expect(planner.indexStats.restored).toBe(true);
    expect(planner.indexStats.appended).toEqual([sessions[1]]);
    expect(planner.indexStats.readAgain).toEqual([sessions[2]]);
    expect(reads.get(sessions[0]!) ?? 0).toBe(0);
    expect(expected[1]).toContain('closed for repairs');
    expect(expected[2]).not.toContain(hidden.content);
  });

  it('a reply still streaming when the index was saved, finished after, is read at the next load', async () => {
    const { name, store } = await fresh('snapshot-streaming');
    const sessions = await seed(store);
    const asked = await store.appendTurn({ sessionId: sessions[0]!, role: 'user', content: 'Where does billing-api 5 write its log?' });
    const writer = await store.startReply(sessions[0]!, { replyTo: asked.id });
    writer.append('billing-api 5 writes to ');
    await writer.flush();
    const first = plannerOver(store);
    await first.warm();
    await first.saveIndexNow();
    writer.append('/srv/logs/billing-5-archive.log.');
    await writer.complete();
    await layeredWritesDone(store);
    await store.close();

    const expected = await rebuiltPrompts(name, sessions);
    const { planner } = await reload(name);
    expect(await prompts(planner, sessions)).toEqual(expected);
    expect(planner.indexStats.appended).toEqual([sessions[0]]);
    expect(planner.indexStats.readAgain).toEqual([]);
    expect(JSON.stringify(await planner.probe(sessions[0]!, 'Where is the billing-5 archive log?', T + 9))).toContain('billing-5-archive');
  });

  it('a conversation this page changed is saved as it is once it matches its records, and a deleted one leaves', async () => {
    const { name, store } = await fresh('snapshot-here');
    const sessions = await seed(store);
    const first = plannerOver(store);
    await first.warm();
    // A message and its reply, as the chat writes and plans them.
    const asked = await store.appendTurn({ sessionId: sessions[0]!, role: 'user', content: 'Move billing-api 2 to port 9002, please.' });
    await first.plan({ sessionId: sessions[0]!, turn: { id: asked.id, text: asked.content, time: asked.createdAt }, again: false });
    const reply = await store.appendTurn({ sessionId: sessions[0]!, role: 'assistant', content: 'billing-api 2 now listens on port 9002.' });
    await first.recordReply(sessions[0]!, reply.id, reply.content, reply.createdAt);
    await store.deleteSession(sessions[2]!);
    first.forgetConversation(sessions[2]!);
    await first.saveIndexNow();
    await layeredWritesDone(store);
    await store.close();

    const live = sessions.slice(0, 2);
    const expected = await rebuiltPrompts(name, live);
    const { planner, reads } = await reload(name);
    expect(await prompts(planner, live)).toEqual(expected);
    expect(planner.indexStats.readAgain).toEqual([]);
    expect([...reads.values()].reduce((a, b) => a + b, 0)).toBe(0);
    expect(expected[0]).toContain('9002');
  });

  it('a damaged save is noticed: the memory is built from the records, with the same prompts, and saved again', async () => {
    const { name, store } = await fresh('snapshot-damaged');
    const sessions = await seed(store);
    await savedIndex(store);
    const expected = await rebuiltPrompts(name, sessions);

    // The state's references out of range, in a body that still unpacks.
    const db = await rawDB(name);
    const record = (await db.get('meta', SNAPSHOT_KEY)) as { data: { body: Blob } };
    const body = unpackState(await record.data.body.arrayBuffer()) as { state: { users: Array<[string, { shard: { turns: { postingSlots: Int32Array } } }]> } };
    body.state.users[0]![1].shard.turns.postingSlots.fill(123_456);
    record.data.body = packState(body);
    await db.put('meta', record);
    db.close();

    const { planner } = await reload(name);
    expect(await prompts(planner, sessions)).toEqual(expected);
    expect(planner.indexStats.restored).toBe(false);
    await planner.saveIndexNow();
    const { planner: next } = await reload(name);
    expect(await prompts(next, sessions)).toEqual(expected);
    expect(next.indexStats.restored).toBe(true);
  });

  it("the docs are saved apart: a message's save rewrites the conversations only, and damaged docs are indexed again, the conversations still restored", async () => {
    const { name, store } = await fresh('snapshot-docs');
    const sessions = await seed(store);
    await store.putDoc({ docId: 'guide/gateway.md', source: 'guide/gateway.md', texts: ['The gateway sends billing-api 3 traffic through the canary pool on port 8003.', '玻璃桥每周一闭馆检修，day 2 照常开放。'] });
    await savedIndex(store);
    const expected = await rebuiltPrompts(name, sessions);
    expect(expected[0]).toContain('canary pool');
    const savedAt = async (key: string): Promise<number> => {
      const db = await rawDB(name);
      const record = (await db.get('meta', key)) as { data: { savedAt: number } } | undefined;
      db.close();
      return record?.data.savedAt ?? -1;
    };
    const docsSavedAt = await savedAt(DOCS_SNAPSHOT_KEY);
    expect(docsSavedAt).toBeGreaterThan(0);

    // A page load restores both; a message there, then its save: the conversations' record only is written again.
    const { store: second, planner } = await reload(name);
    expect(await prompts(planner, sessions)).toEqual(expected);
    expect(planner.indexStats).toMatchObject({ restored: true, docsRestored: true });
    const conversationsSavedAt = await savedAt(SNAPSHOT_KEY);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const asked = await second.appendTurn({ sessionId: sessions[0]!, role: 'user', content: 'billing-api 3 now also answers on port 9103.' });
    await planner.plan({ sessionId: sessions[0]!, turn: { id: asked.id, text: asked.content, time: asked.createdAt }, again: false });
    await planner.saveIndexNow();
    await layeredWritesDone(second);
    expect(await savedAt(SNAPSHOT_KEY)).toBeGreaterThan(conversationsSavedAt);
    expect(await savedAt(DOCS_SNAPSHOT_KEY)).toBe(docsSavedAt);
    await second.close();
    const afterMessage = await rebuiltPrompts(name, sessions);

    // The docs' record damaged (references out of range, in a body that still unpacks).
    const db = await rawDB(name);
    const record = (await db.get('meta', DOCS_SNAPSHOT_KEY)) as { data: { body: Blob } };
    const body = unpackState(await record.data.body.arrayBuffer()) as { state: { docs: { shard: { turns: { postingSlots: Int32Array } } } } };
    body.state.docs.shard.turns.postingSlots.fill(123_456);
    record.data.body = packState(body);
    await db.put('meta', record);
    db.close();
    const { planner: third } = await reload(name);
    expect(await prompts(third, sessions)).toEqual(afterMessage);
    expect(third.indexStats).toMatchObject({ restored: true, docsRestored: false });
    // Saved again, the docs come from their record at the next load.
    await third.saveIndexNow();
    const { planner: fourth } = await reload(name);
    expect(await prompts(fourth, sessions)).toEqual(afterMessage);
    expect(fourth.indexStats).toMatchObject({ restored: true, docsRestored: true });
  });

  it('a save whose body was cut short is noticed: the memory is built from the records, with the same prompts', async () => {
    const { name, store } = await fresh('snapshot-cut');
    const sessions = await seed(store);
    await savedIndex(store);
    const expected = await rebuiltPrompts(name, sessions);

    const db = await rawDB(name);
    const record = (await db.get('meta', SNAPSHOT_KEY)) as { data: { body: Blob } };
    record.data.body = record.data.body.slice(0, Math.floor(record.data.body.size / 2));
    await db.put('meta', record);
    db.close();

    const { planner } = await reload(name);
    expect(await prompts(planner, sessions)).toEqual(expected);
    expect(planner.indexStats.restored).toBe(false);
  });

  it('a page killed in the middle of a save leaves a consistent next load', async () => {
    const { name, store } = await fresh('snapshot-killed');
    const sessions = await seed(store, 40);
    await savedIndex(store);
    // Another page adds to a conversation and starts saving its index; it dies as the record is being written.
    const peer = await openPeer();
    await peer.send({ op: 'open', name });
    await peer.send({ op: 'append', sessionId: sessions[0]!, contents: ['billing-api 99 moved to port 9999 today.'] });
    const putIssued = new Promise<void>((resolve) => {
      const onMessage = (event: MessageEvent<{ snapshotPut?: boolean }>): void => {
        if (event.data.snapshotPut !== true) return;
        window.removeEventListener('message', onMessage);
        peer.kill();
        resolve();
      };
      window.addEventListener('message', onMessage);
    });
    // (Its answer may never come: the page can die before it is sent.)
    void peer.send({ op: 'save-index' }).catch(() => undefined);
    await putIssued;

    const expected = await rebuiltPrompts(name, sessions);
    const { planner } = await reload(name);
    expect(await prompts(planner, sessions)).toEqual(expected);
    expect(expected[0]).toContain('9999');
    // Either the save committed or the one before stands: the next load used one of them, whole.
    expect(planner.indexStats.restored).toBe(true);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import { captureLogger, dbName, dropDB, openStore, rawDB } from './helpers.ts';

async function countStaged(name: string): Promise<number> {
  const db = await rawDB(name);
  const n = await db.count('vectors');
  db.close();
  return n;
}

const names: string[] = [];
const stores: MemoryStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const name of names.splice(0)) await dropDB(name);
});

describe('bad data in the store', () => {
  it('records of the wrong shape and vectors of the wrong length are skipped with a warning, never a crash', async () => {
    const name = dbName('bad');
    names.push(name);
    const setup = await openStore(name);
    const session = await setup.createSession({ title: 'good' });
    await setup.appendTurn({ sessionId: session.id, role: 'user', content: 'the database password rotates monthly' });
    await setup.appendTurn({ sessionId: session.id, role: 'assistant', content: 'noted: monthly rotation' });
    await setup.close();

    // Damage it the way an old bug, a hand edit in DevTools or a half-migrated record would.
    const db = await rawDB(name);
    const key = 'hashed-ngram@1';
    await db.put('sessions', { id: 'bad-session', title: 42, createdAt: 'yesterday', updatedAt: 0, lastSeq: 0 });
    await db.put('turns', { id: 'bad-role', sessionId: session.id, seq: 90, role: 'robot', content: 'beep', createdAt: 1, updatedAt: 1, tokenCount: 1, status: 'complete', tags: [], replyTo: null });
    await db.put('turns', { id: 'no-content', sessionId: session.id, seq: 91, role: 'user', createdAt: 1 });
    await db.put('turns', { id: 'bad-stream', sessionId: session.id, seq: 92, status: 'streaming' });
    // Chunks whose text is fine but whose vector is not: wrong length, NaN, a plain array.
    const [good] = (await db.getAll('chunks')) as Array<Record<string, unknown>>;
    await db.put('chunks', { id: 'bad-chunk', sessionId: session.id, text: 7, turnIds: 'no' });
    const withVector = (id: string, vector: unknown): Record<string, unknown> => ({ ...good, id, turnIds: [id], text: `text of ${id}`, embedding: { embedder: key, vector } });
    await db.put('chunks', withVector('short', new Float32Array(3)));
    await db.put('chunks', withVector('nan', new Float32Array(256).fill(Number.NaN)));
    await db.put('chunks', withVector('array', [1, 2, 3]));
    await db.put('vectors', { embedder: 'other@1', namespace: 'conversation', chunkId: 'staged-junk', vector: 'not a vector' });
    await db.put('meta', { key: `stats:${key}`, documents: 'many', df: 'lots' });
    await db.put('workingItems', { id: 'bad-item', sessionId: session.id, kind: 5 });
    db.close();

    const logger = captureLogger();
    const store = await openStore(name, { logger });
    stores.push(store);
    await store.whenIdle();

    expect((await store.listSessions()).map((s) => s.title)).toEqual(['good']);
    expect((await store.listTurns(session.id)).map((t) => t.content)).toEqual([
      'the database password rotates monthly',
      'noted: monthly rotation',
    ]);
    expect(await store.getTurn('no-content')).toBeUndefined();
    // The chunks with bad vectors are still chunks (their text is fine); the malformed one is skipped.
    expect(await store.listChunks(session.id)).toHaveLength(4);
    expect(await store.listWorkingItems(session.id)).toEqual([]);
    // The index skipped the malformed chunk and the three bad vectors; the catch-up then re-embedded the three.
    expect(store.index.stats.skipped).toBe(4);
    expect(store.index.size('conversation')).toBe(4);
    const hits = await store.search('password rotation', { k: 1 });
    expect(hits.map((h) => h.chunk.text)).toEqual(['the database password rotates monthly\n\nnoted: monthly rotation']);
    // Staged vectors of an embedder nobody is switching to are garbage, collected at start-up.
    expect(await countStaged(name)).toBe(0);
    // The statistics snapshot was unreadable: recounted from the chunks.
    expect(store.embedder.stats?.documents).toBe(4);

    const warnings = logger.messages.join('\n');
    for (const id of ['bad-session', 'bad-role', 'no-content', 'bad-chunk', 'short', 'nan', 'array', 'bad-item']) {
      expect(warnings).toContain(id);
    }
    // And writing goes on: the next turn takes the next sequence number after the good ones.
    const next = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'and the API keys?' });
    expect(next.seq).toBe(3);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { FlatIndex } from '../../../src/memory/flat-index.ts';
import { SCHEMA_VERSION } from '../../../src/memory/schema.ts';
import type { MemoryStore } from '../../../src/memory/store.ts';
import { createV1Database, v1Contents } from '../../fixtures/memory-v1.ts';
import { dbName, dropDB, openStore, rawDB } from './helpers.ts';

const names: string[] = [];
const stores: MemoryStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const name of names.splice(0)) await dropDB(name);
});

describe('upgrade from schema v1', () => {
  it('keeps every record, converted to the current shapes, and the data stays usable', async () => {
    const name = dbName('upgrade');
    names.push(name);
    const embedder = new HashedNgramEmbedder();
    const contents = v1Contents((text) => Array.from(embedder.embedOne(text)));
    await createV1Database(name, contents);

    const store = await openStore(name);
    stores.push(store);
    await store.whenIdle();
    const db = await rawDB(name);
    expect(db.version).toBe(SCHEMA_VERSION);

    // Every v1 record is still there with every v1 field unchanged.
    for (const session of contents.sessions) expect(await db.get('sessions', session['id'] as string)).toMatchObject(session);
    for (const turn of contents.turns) {
      const { status, ...rest } = turn;
      // The reply cut mid-stream in v1 is found at the first start and marked interrupted, text kept.
      expect(await db.get('turns', turn['id'] as string)).toMatchObject({ ...rest, status: status === 'streaming' ? 'interrupted' : status });
    }
    // Chunks keep every field; exchange chunks are re-keyed by their user turn, and carry their vector now.
    expect(await db.count('chunks')).toBe(contents.chunks.length);
    for (const chunk of contents.chunks) {
      const id = `x:${(chunk['turnIds'] as string[])[0]}`;
      const migrated = (await db.get('chunks', id)) as { embedding: { embedder: string; vector: Float32Array } } | undefined;
      expect(migrated).toMatchObject({ ...chunk, id, kind: 'exchange', rev: expect.any(Number) });
      const old = contents.vectors.find((v) => v['chunkId'] === chunk['id'])!;
      expect(migrated!.embedding.embedder).toBe('hashed-ngram@1');
      expect(migrated!.embedding.vector).toBeInstanceOf(Float32Array);
      expect(Array.from(migrated!.embedding.vector)).toEqual(old['vector']);
    }
    // The vectors store is now only the staging area of an embedder switch: nothing staged.
    expect(await db.count('vectors')).toBe(0);
    expect(await db.get('meta', 'embedder')).toMatchObject({ active: 'hashed-ngram@1', pending: null, dimensions: 256 });
    expect(await db.get('meta', 'schema')).toMatchObject({ version: 2 });
    db.close();

    // New fields were filled in, and what v1 did not record (which user turn a reply answers) was inferred.
    const turns = await store.listTurns('v1-s1');
    expect(turns.map((t) => [t.id, t.replyTo, t.tags])).toEqual([
      ['v1-t1', null, []],
      ['v1-t2', 'v1-t1', []],
      ['v1-t3', null, []],
      ['v1-t4', 'v1-t3', []],
    ]);
    expect(await store.listTurns('v1-s2')).toHaveLength(1);

    // The migrated vectors are searched, and new turns continue the v1 sequence.
    const hits = await store.search('certbot renew', { k: 1, wait: true });
    expect(hits[0]?.chunk.id).toBe('x:v1-t3');
    const next = await store.appendTurn({ sessionId: 'v1-s1', role: 'user', content: 'thanks' });
    expect(next.seq).toBe(5);
  });

  it('a fresh database is created at the current version', async () => {
    const name = dbName('fresh');
    names.push(name);
    const store = await openStore(name);
    stores.push(store);
    const db = await rawDB(name);
    expect(db.version).toBe(SCHEMA_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(['chunks', 'docChunks', 'meta', 'sessions', 'turns', 'vectors', 'workingItems']);
    db.close();
  });
});

describe('another tab deletes or upgrades the database', () => {
  /** Resolves with the event that ended the request; a request stuck behind an open connection gets 'blocked'. */
  function deleteOutcome(name: string): Promise<string> {
    return new Promise((resolve) => {
      const request = indexedDB.deleteDatabase(name);
      const settle = (event: Event): void => resolve(event.type);
      request.onsuccess = settle;
      request.onerror = settle;
      request.onblocked = settle;
    });
  }

  it('while the store is still starting up: the store lets go at once and its open fails with a clear error', async () => {
    const name = dbName('startup-delete');
    names.push(name);
    // Enough stored turns that start-up (index rebuild, recovery) is still running when the other tab asks.
    const seed = await openStore(name);
    const session = await seed.createSession({ title: 'busy' });
    for (let i = 0; i < 200; i++) await seed.appendTurn({ sessionId: session.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i} about nginx upstream ${i}` });
    await seed.close();

    let deleted: Promise<string> | null = null;
    const opening = openStore(name, {
      // Start-up builds its vector index only once the other tab's delete has gone through (or after 5 s), so the
      // versionchange surely arrives while start-up runs: 200 turns usually take long enough, but on a busy
      // machine start-up could finish first, and that case is another test's.
      index: async (dimensions) => {
        await Promise.race([deleted, new Promise((resolve) => setTimeout(resolve, 5000))]);
        return new FlatIndex(dimensions);
      },
    });
    // Queued behind the open: it reaches the new connection as a versionchange while start-up runs.
    deleted = deleteOutcome(name);
    await expect(opening).rejects.toThrow(/another tab/);
    expect(await deleted).toBe('success');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { FlatIndex } from '../../../src/memory/vector-index/flat-index.ts';
import { SCHEMA_VERSION } from '../../../src/memory/store/schema.ts';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
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
    // v3's store of the engine model's vectors starts empty.
    expect(await db.count('memoryVectors')).toBe(0);
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
    expect([...db.objectStoreNames].sort()).toEqual(['chunks', 'docChunks', 'memoryVectors', 'meta', 'sessions', 'turns', 'vectors', 'workingItems']);
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

  /**
   * A factory for the store that lets the test watch the store's own connection: `onOpen` gets it before the
   * store adds its listeners, so a listener the test adds runs first in the same dispatch.
   */
  function watchedFactory(onOpen: (db: IDBDatabase) => void): IDBFactory {
    return {
      open: (name: string, version?: number) => {
        const request = indexedDB.open(name, version);
        request.addEventListener('success', () => onOpen(request.result));
        return request;
      },
      deleteDatabase: (name: string) => indexedDB.deleteDatabase(name),
      databases: () => indexedDB.databases(),
      cmp: (a: unknown, b: unknown) => indexedDB.cmp(a, b),
    };
  }

  /** Holds a read-write transaction on `meta` from a second connection until `release` is called. */
  async function holdMeta(name: string): Promise<{ release: () => void }> {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.onversionchange = () => db.close();
    let held = true;
    const store = db.transaction('meta', 'readwrite').objectStore('meta');
    // A transaction stays active only while it has requests in flight: keep one going until released.
    const spin = (): void => {
      if (held) store.get('embedder').onsuccess = spin;
    };
    spin();
    return { release: () => void (held = false) };
  }

  async function seeded(label: string): Promise<string> {
    const name = dbName(label);
    names.push(name);
    const seed = await openStore(name);
    const session = await seed.createSession({ title: 'busy' });
    for (let i = 0; i < 4; i++) await seed.appendTurn({ sessionId: session.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i} about nginx` });
    await seed.close();
    return name;
  }

  it('while open() still reads the database: the store lets go at once and open() fails with a clear error', async () => {
    const name = await seeded('open-delete');
    // open() reads the embedder record before it resolves; the held transaction keeps that read waiting until the
    // other tab's versionchange has reached the store's connection, whatever the machine's speed.
    const lock = await holdMeta(name);
    const opening = openStore(name, {
      indexedDB: watchedFactory((db) => db.addEventListener('versionchange', () => lock.release())),
    });
    // Queued behind the open: it reaches the new connection as a versionchange.
    const deleted = deleteOutcome(name);
    // A store that ignored the versionchange leaves the delete blocked: let open() finish so the test fails fast.
    void deleted.then(lock.release);
    void opening.then((store) => stores.push(store), () => undefined);
    await expect(opening).rejects.toThrow(/another tab/);
    // "blocked" would mean the store held on to its connection.
    expect(await deleted).toBe('success');
  });

  it('while start-up still rebuilds the index: the store lets go at once and its next call fails with a clear error', async () => {
    const name = await seeded('startup-delete');
    let releaseIndex = (): void => undefined;
    const indexHeld = new Promise<void>((resolve) => (releaseIndex = resolve));
    const store = await openStore(name, {
      // Start-up (index rebuild, recovery) runs after open() resolves; it stays in its first step until released.
      index: async (dimensions) => {
        await indexHeld;
        return new FlatIndex(dimensions);
      },
    });
    stores.push(store);
    const changes: string[] = [];
    store.subscribe((change) => changes.push(change.type));

    expect(await deleteOutcome(name)).toBe('success');
    expect(changes).toContain('closed');
    releaseIndex();
    await expect(store.appendTurn({ sessionId: 'any', role: 'user', content: 'hello' })).rejects.toThrow(/another tab/);
    // Start-up cut short by the delete ends quietly: nothing waits on it forever.
    await store.whenIdle();
  });
});

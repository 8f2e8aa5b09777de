/**
 * The memory database, described once. `upgrade` has one branch per version and a released branch is never
 * edited: a user's database may be at any earlier version, and every record in it must come through.
 *
 * v1 — sessions, turns, chunks (one per exchange), vectors as `number[]` keyed [embedder, chunkId], meta.
 *      (test/fixtures/memory-v1.ts creates a database exactly as v1 left it.)
 * v2 — turns gain tags, updatedAt, replyTo and a by-status index (to find replies cut mid-stream); chunks gain
 *      kind, part offsets, rev and heat, and a by-turn index; vectors become Float32Array in namespaces, keyed
 *      [embedder, namespace, chunkId]; new stores for working-memory items and doc chunks.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type {
  ChunkRecord,
  DocChunkRecord,
  MetaKey,
  MetaRecord,
  SessionRecord,
  TurnRecord,
  TurnStatus,
  VectorRecord,
  WorkingItemRecord,
} from './records.ts';
import type { Namespace } from './vector-index.ts';

export const SCHEMA_VERSION = 2;

export interface MemoryDB extends DBSchema {
  sessions: { key: string; value: SessionRecord; indexes: { 'by-updated': number } };
  turns: { key: string; value: TurnRecord; indexes: { 'by-session-seq': [string, number]; 'by-status': TurnStatus } };
  chunks: { key: string; value: ChunkRecord; indexes: { 'by-session': string; 'by-turn': string } };
  vectors: {
    key: [string, Namespace, string];
    value: VectorRecord;
    indexes: { 'by-chunk': string; 'by-scope': [Namespace, string] };
  };
  workingItems: { key: string; value: WorkingItemRecord; indexes: { 'by-session': string; 'by-expiry': number } };
  docChunks: { key: string; value: DocChunkRecord; indexes: { 'by-doc': string } };
  meta: { key: MetaKey; value: MetaRecord };
}

export type MemoryDatabase = IDBPDatabase<MemoryDB>;
type UpgradeTx = IDBPTransaction<MemoryDB, StoreNames<MemoryDB>[], 'versionchange'>;

/**
 * Runs every branch from `oldVersion` up. Data migrations read and write through the upgrade transaction, so a
 * failure aborts the whole upgrade and leaves the database at its old version, untouched.
 */
export function upgrade(db: MemoryDatabase, oldVersion: number, tx: UpgradeTx, now: number): void {
  if (oldVersion < 1) createV1(db);
  if (oldVersion < 2) {
    migrateToV2(db, tx, now).catch((error: unknown) => {
      console.error('[memory] upgrade to v2 failed; the database stays at its old version', error);
      try {
        tx.abort();
      } catch {
        // Already finished or aborted.
      }
    });
  }
}

function createV1(db: MemoryDatabase): void {
  db.createObjectStore('sessions', { keyPath: 'id' });
  const turns = db.createObjectStore('turns', { keyPath: 'id' });
  turns.createIndex('by-session-seq', ['sessionId', 'seq'], { unique: true });
  const chunks = db.createObjectStore('chunks', { keyPath: 'id' });
  chunks.createIndex('by-session', 'sessionId');
  // v1 keyed vectors by [embedder, chunkId]; v2 replaces the store (a key path cannot change in place).
  db.createObjectStore('vectors', { keyPath: ['embedder', 'chunkId'] as unknown as string });
  db.createObjectStore('meta', { keyPath: 'key' });
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;

async function migrateToV2(db: MemoryDatabase, tx: UpgradeTx, now: number): Promise<void> {
  // Stores and indexes first, synchronously, while the transaction is surely active.
  db.createObjectStore('workingItems', { keyPath: 'id' }).createIndex('by-session', 'sessionId');
  tx.objectStore('workingItems').createIndex('by-expiry', 'expiresAt');
  db.createObjectStore('docChunks', { keyPath: 'id' }).createIndex('by-doc', 'docId');
  tx.objectStore('sessions').createIndex('by-updated', 'updatedAt');
  tx.objectStore('turns').createIndex('by-status', 'status');
  tx.objectStore('chunks').createIndex('by-turn', 'turnIds', { multiEntry: true });

  // Turns, in session order, so that an assistant turn learns which user turn it answered.
  const lastUser = new Map<string, string>();
  let cursor = await tx.objectStore('turns').index('by-session-seq').openCursor();
  while (cursor !== null) {
    const turn: unknown = cursor.value;
    if (isObject(turn)) {
      const sessionId = String(turn['sessionId']);
      const replyTo = turn['role'] === 'assistant' ? (lastUser.get(sessionId) ?? null) : null;
      if (turn['role'] === 'user') lastUser.set(sessionId, String(turn['id']));
      const createdAt = typeof turn['createdAt'] === 'number' ? turn['createdAt'] : now;
      await cursor.update({ tags: [], updatedAt: createdAt, replyTo, ...turn } as unknown as TurnRecord);
    }
    cursor = await cursor.continue();
  }

  let chunkCursor = await tx.objectStore('chunks').openCursor();
  while (chunkCursor !== null) {
    const chunk: unknown = chunkCursor.value;
    if (isObject(chunk)) {
      const text = typeof chunk['text'] === 'string' ? chunk['text'] : '';
      await chunkCursor.update({
        kind: 'exchange',
        part: 0,
        start: 0,
        end: text.length,
        rev: 1,
        updatedAt: typeof chunk['createdAt'] === 'number' ? chunk['createdAt'] : now,
        heat: { hits: 0, lastHitAt: null, lastHitRetrieval: 0 },
        ...chunk,
      } as unknown as ChunkRecord);
    }
    chunkCursor = await chunkCursor.continue();
  }

  // Vectors: read them all, replace the store, write them back as Float32Array in the conversation namespace.
  const oldVectors: unknown[] = await tx.objectStore('vectors').getAll();
  db.deleteObjectStore('vectors');
  const vectors = db.createObjectStore('vectors', { keyPath: ['embedder', 'namespace', 'chunkId'] as unknown as string });
  vectors.createIndex('by-chunk', 'chunkId');
  vectors.createIndex('by-scope', ['namespace', 'scope']);
  let dimensions = 0;
  for (const old of oldVectors) {
    if (!isObject(old)) continue;
    const raw = old['vector'];
    // A v1 vector was number[]; anything else is kept as it was and skipped (with a warning) when read.
    const vector = Array.isArray(raw) && raw.every((x) => typeof x === 'number') ? Float32Array.from(raw) : raw;
    if (vector instanceof Float32Array && dimensions === 0) dimensions = vector.length;
    const { sessionId, ...rest } = old;
    await vectors.put({
      namespace: 'conversation',
      scope: typeof sessionId === 'string' ? sessionId : '',
      rev: 1,
      createdAt: now,
      ...rest,
      vector,
    } as unknown as VectorRecord);
  }

  const meta = tx.objectStore('meta');
  const embedder: unknown = await meta.get('embedder');
  if (isObject(embedder) && typeof embedder['active'] === 'string') {
    await meta.put({ key: 'embedder', active: embedder['active'], pending: null, dimensions });
  }
  await meta.put({ key: 'schema', version: 2, upgradedAt: now });
}

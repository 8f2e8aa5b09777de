/**
 * The memory database, described once. `upgrade` has one branch per version and a released branch is never
 * edited: a user's database may be at any earlier version, and every record in it must come through.
 *
 * v1 — sessions, turns, chunks (one per exchange), vectors as `number[]` keyed [embedder, chunkId], meta.
 *      (test/fixtures/memory-v1.ts creates a database exactly as v1 left it.)
 * v2 — turns gain tags, updatedAt, replyTo, and `streamingSince` with a sparse index (only streaming turns are
 *      in it: replies cut mid-stream are found at start-up, finished turns cost no index entry); chunks gain kind,
 *      part offsets, rev, heat and their vector (`embedding`, Float32Array), and exchange chunks take the id
 *      `x:<user turn id>`; the vectors store becomes the staging area of a re-embedding, keyed
 *      [embedder, namespace, chunkId]; new stores for working-memory items and doc chunks.
 * v3 — `memoryVectors`: the engine embedding model's vectors of what the prompt's memory indexes (turns, doc
 *      chunks), keyed [embedder, id], with the hash of the text each was made from, indexed by scope (a deleted
 *      conversation takes its vectors with it).
 *
 * Indexes are kept to what queries need: every index entry is one more write per record, and an import of
 * 10,000 turns is bounded by the number of writes.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type {
  ChunkRecord,
  DocChunkRecord,
  MetaKey,
  MemoryVectorRecord,
  MetaRecord,
  SessionRecord,
  TurnRecord,
  VectorRecord,
  WorkingItemRecord,
} from './records.ts';
import type { Namespace } from '../vector-index/index.ts';

export const SCHEMA_VERSION = 3;

export interface MemoryDB extends DBSchema {
  sessions: { key: string; value: SessionRecord; indexes: { 'by-updated': number } };
  turns: { key: string; value: TurnRecord; indexes: { 'by-session-seq': [string, number]; 'by-streaming': number } };
  chunks: { key: string; value: ChunkRecord; indexes: { 'by-session': string } };
  vectors: { key: [string, Namespace, string]; value: VectorRecord };
  workingItems: { key: string; value: WorkingItemRecord; indexes: { 'by-session': string; 'by-expiry': number } };
  docChunks: { key: string; value: DocChunkRecord; indexes: { 'by-doc': string } };
  meta: { key: MetaKey; value: MetaRecord };
  memoryVectors: { key: [string, string]; value: MemoryVectorRecord; indexes: { 'by-scope': string } };
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
  if (oldVersion < 3) db.createObjectStore('memoryVectors', { keyPath: ['embedder', 'id'] }).createIndex('by-scope', 'scope');
}

function createV1(db: MemoryDatabase): void {
  db.createObjectStore('sessions', { keyPath: 'id' });
  const turns = db.createObjectStore('turns', { keyPath: 'id' });
  turns.createIndex('by-session-seq', ['sessionId', 'seq'], { unique: true });
  const chunks = db.createObjectStore('chunks', { keyPath: 'id' });
  chunks.createIndex('by-session', 'sessionId');
  // v1 keyed vectors by [embedder, chunkId]; v2 replaces the store (a key path cannot change in place).
  db.createObjectStore('vectors', { keyPath: ['embedder', 'chunkId'] });
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
  tx.objectStore('turns').createIndex('by-streaming', 'streamingSince');

  const meta = tx.objectStore('meta');
  const embedderMeta: unknown = await meta.get('embedder');
  const active = isObject(embedderMeta) && typeof embedderMeta['active'] === 'string' ? embedderMeta['active'] : null;

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
      const streaming = turn['status'] === 'streaming' ? { streamingSince: createdAt } : {};
      await cursor.update({ tags: [], updatedAt: createdAt, replyTo, ...streaming, ...turn } as unknown as TurnRecord);
    }
    cursor = await cursor.continue();
  }

  // Vectors: the active embedder's move into their chunks; any other embedder's stay, staged, in a new store
  // (a key path cannot change in place).
  const oldVectors: unknown[] = await tx.objectStore('vectors').getAll();
  db.deleteObjectStore('vectors');
  const staged = db.createObjectStore('vectors', { keyPath: ['embedder', 'namespace', 'chunkId'] });
  const activeVectors = new Map<string, Float32Array>();
  let dimensions = 0;
  for (const old of oldVectors) {
    if (!isObject(old)) continue;
    const raw = old['vector'];
    // A v1 vector was number[]; anything else is kept as it was and skipped (with a warning) when read.
    const vector = Array.isArray(raw) && raw.every((x) => typeof x === 'number') ? Float32Array.from(raw) : raw;
    if (old['embedder'] === active && vector instanceof Float32Array && typeof old['chunkId'] === 'string') {
      activeVectors.set(old['chunkId'], vector);
      if (dimensions === 0) dimensions = vector.length;
      continue;
    }
    const { sessionId, ...rest } = old;
    await staged.put({ namespace: 'conversation', scope: typeof sessionId === 'string' ? sessionId : '', rev: 1, createdAt: now, ...rest, vector } as unknown as VectorRecord);
  }

  // Chunks: new fields, their vector, and exchange ids derived from their user turn (`x:<turn id>`), so that a
  // reply finds its exchange by key. A v1 chunk's vector follows it to its new id.
  const chunks = tx.objectStore('chunks');
  for (const chunk of (await chunks.getAll()) as unknown[]) {
    if (!isObject(chunk) || typeof chunk['id'] !== 'string') continue;
    const text = typeof chunk['text'] === 'string' ? chunk['text'] : '';
    const turnIds = chunk['turnIds'];
    const first = Array.isArray(turnIds) && typeof turnIds[0] === 'string' ? turnIds[0] : null;
    const id = first === null ? chunk['id'] : `x:${first}`;
    const vector = activeVectors.get(chunk['id']);
    if (id !== chunk['id']) await chunks.delete(chunk['id']);
    await chunks.put({
      kind: 'exchange',
      part: 0,
      start: 0,
      end: text.length,
      rev: 1,
      updatedAt: typeof chunk['createdAt'] === 'number' ? chunk['createdAt'] : now,
      heat: { hits: 0, lastHitAt: null, lastHitRetrieval: 0 },
      ...chunk,
      id,
      embedding: vector === undefined || active === null ? null : { embedder: active, vector },
    } as unknown as ChunkRecord);
  }

  if (active !== null) await meta.put({ key: 'embedder', active, pending: null, dimensions });
  await meta.put({ key: 'schema', version: 2, upgradedAt: now });
}

/**
 * Vectors made outside the turn's own transaction: for embedders without `embedSync` (the engine's), for the
 * catch-up after a crash between storing a turn and embedding it, and for re-embedding with a new embedder
 * (those are staged in the vectors store until the switch). A vector is stored only if its chunk still exists
 * with the revision it was made from, so a chunk deleted or rewritten meanwhile never gets a stale vector.
 */
import { writeTx } from './db.ts';
import { embedderKey, type Embedder } from '../embedders/index.ts';
import type { ChunkRecord, DocChunkRecord, VectorRecord } from './records.ts';
import type { MemoryDatabase } from './schema.ts';
import { activeVector, isChunkRecord, isDocChunkRecord, type MemoryLogger } from './validate.ts';
import type { IndexEntry, Namespace } from '../vector-index/index.ts';

export interface ChunkRef {
  namespace: Namespace;
  id: string;
}

/** Where a new vector goes: into its chunk (the active embedder) or the staging store (an embedder switched to). */
export type VectorTarget = 'chunk' | 'staged';

const storeOf = (namespace: Namespace): 'chunks' | 'docChunks' => (namespace === 'docs' ? 'docChunks' : 'chunks');

type AnyChunk = ChunkRecord | DocChunkRecord;
const scopeOf = (chunk: AnyChunk): string => ('docId' in chunk ? chunk.docId : chunk.sessionId);

/** The staged vectors' key range of one embedder. */
export const stagedRange = (embedder: string): IDBKeyRange => IDBKeyRange.bound([embedder], [embedder, []]);

/** Chunks of both namespaces without a well-formed vector from `embedder`, in their chunk or staged. */
export async function missingVectors(db: MemoryDatabase, target: VectorTarget, embedder: Pick<Embedder, 'id' | 'version' | 'dimensions'>): Promise<ChunkRef[]> {
  const key = embedderKey(embedder);
  const staged = new Set<string>();
  if (target === 'staged') {
    for (const [, ns, id] of await db.getAllKeys('vectors', stagedRange(key))) staged.add(`${ns}\u0000${id}`);
  }
  const out: ChunkRef[] = [];
  for (const namespace of ['conversation', 'docs'] as const) {
    let after: string | undefined;
    for (;;) {
      const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true);
      const batch: unknown[] = await db.getAll(storeOf(namespace), range, 1_000);
      for (const record of batch) {
        if (!(isChunkRecord(record) || isDocChunkRecord(record))) continue;
        if (activeVector(record, key, embedder.dimensions) instanceof Float32Array || staged.has(`${namespace}\u0000${record.id}`)) continue;
        out.push({ namespace, id: record.id });
      }
      const last = batch[batch.length - 1] as { id?: unknown } | undefined;
      if (batch.length < 1_000 || typeof last?.id !== 'string') break;
      after = last.id;
    }
  }
  return out;
}

export interface EmbedChunksOptions {
  target: VectorTarget;
  signal?: AbortSignal;
  logger: MemoryLogger;
  now: () => number;
}

/** Embeds the chunks and stores their vectors; returns what was stored, as index entries with their namespace. */
export async function embedChunks(
  db: MemoryDatabase,
  embedder: Embedder,
  refs: readonly ChunkRef[],
  options: EmbedChunksOptions,
): Promise<Array<IndexEntry & { namespace: Namespace }>> {
  if (refs.length === 0) return [];
  const key = embedderKey(embedder);
  const read = db.transaction(['chunks', 'docChunks'], 'readonly');
  const loaded: unknown[] = await Promise.all(refs.map((ref) => read.objectStore(storeOf(ref.namespace)).get(ref.id)));
  const chunks: Array<{ ref: ChunkRef; chunk: AnyChunk }> = [];
  loaded.forEach((record, i) => {
    const ref = refs[i]!;
    if (record === undefined) return;
    if (ref.namespace === 'conversation' ? isChunkRecord(record) : isDocChunkRecord(record)) chunks.push({ ref, chunk: record as AnyChunk });
    else options.logger.warn(`[memory] skipped malformed ${ref.namespace} chunk ${ref.id} while embedding`);
  });
  if (chunks.length === 0) return [];
  const vectors = await embedder.embed(
    chunks.map((c) => c.chunk.text),
    options.signal === undefined ? {} : { signal: options.signal },
  );
  const now = options.now();
  return writeTx(db, ['chunks', 'docChunks', 'vectors'], async (tx) => {
    const stored: Array<IndexEntry & { namespace: Namespace }> = [];
    for (let i = 0; i < chunks.length; i++) {
      const { ref, chunk } = chunks[i]!;
      const current: unknown = await tx.objectStore(storeOf(ref.namespace)).get(ref.id);
      if (!(isChunkRecord(current) || isDocChunkRecord(current)) || current.rev !== chunk.rev) continue;
      const vector = vectors[i]!;
      const embedding = { embedder: key, vector };
      if (options.target === 'chunk') {
        if (isDocChunkRecord(current)) await tx.objectStore('docChunks').put({ ...current, embedding });
        else await tx.objectStore('chunks').put({ ...current, embedding });
      } else {
        const record: VectorRecord = { embedder: key, namespace: ref.namespace, chunkId: ref.id, scope: scopeOf(current), rev: current.rev, vector, createdAt: now };
        await tx.objectStore('vectors').put(record);
      }
      stored.push({ namespace: ref.namespace, id: ref.id, scope: scopeOf(current), vector });
    }
    return stored;
  });
}

/** Deletes an embedder's staged vectors (after a switch, or when a switch is called off). */
export async function deleteStagedVectors(db: MemoryDatabase, embedder: string): Promise<void> {
  await writeTx(db, ['vectors'], (tx) => tx.objectStore('vectors').delete(stagedRange(embedder)));
}

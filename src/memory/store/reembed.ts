/**
 * Switching embedders. Vectors from two embedders are never searched together, so the old embedder keeps
 * serving searches while every chunk is embedded again with the new one in the background, in batches, with
 * progress, into the staging store; then one transaction moves the staged vectors into their chunks and makes
 * the new embedder active (after checking nothing is missing — turns keep arriving meanwhile). One job at a
 * time across tabs (a Web Lock); a job cut by a closed tab resumes from where it was: staged vectors are kept.
 */
import { AssistantError, abortedError } from '../../shared/errors.ts';
import { writeTx } from './db.ts';
import { embedderKey, type Embedder } from '../embedders/index.ts';
import { yieldToPage } from '../../shared/yield.ts';
import type { MetaRecord } from './records.ts';
import type { MemoryDatabase } from './schema.ts';
import { withLock } from './tabs.ts';
import type { MemoryLogger } from './validate.ts';
import type { ChunkRecord, DocChunkRecord, VectorRecord } from './records.ts';
import { deleteStagedVectors, embedChunks, missingVectors, stagedRange } from './vectors.ts';
import { isChunkRecord, isDocChunkRecord, isVectorRecord } from './validate.ts';

export interface ReembedProgress {
  /** The embedder being switched to (`id@version`). */
  embedder: string;
  phase: 'embedding' | 'switching' | 'done';
  /** Chunks that have a vector from the new embedder, of all chunks. */
  done: number;
  total: number;
  fraction: number;
}

export interface ReembedOptions {
  onProgress?: (progress: ReembedProgress) => void;
  signal?: AbortSignal;
}

export interface ReembedContext {
  db: MemoryDatabase;
  logger: MemoryLogger;
  now: () => number;
  lockName: string;
  batchSize?: number;
}

type EmbedderMeta = Extract<MetaRecord, { key: 'embedder' }>;

export async function readEmbedderMeta(db: MemoryDatabase): Promise<EmbedderMeta | null> {
  const meta: unknown = await db.get('meta', 'embedder');
  if (typeof meta !== 'object' || meta === null) return null;
  const { active, pending, dimensions } = meta as Partial<EmbedderMeta>;
  if (typeof active !== 'string' || typeof dimensions !== 'number') return null;
  return { key: 'embedder', active, pending: typeof pending === 'string' ? pending : null, dimensions };
}

async function countChunks(db: MemoryDatabase): Promise<number> {
  const tx = db.transaction(['chunks', 'docChunks'], 'readonly');
  const [a, b] = await Promise.all([tx.objectStore('chunks').count(), tx.objectStore('docChunks').count()]);
  return a + b;
}

/**
 * Re-embeds everything with `target` and makes it active. Resolves `false` when it already was active.
 * On abort the switch is called off (the old embedder stays active) and the promise rejects with AbortError.
 */
export async function reembed(ctx: ReembedContext, target: Embedder, options: ReembedOptions = {}): Promise<boolean> {
  const key = embedderKey(target);
  const signal = options.signal;
  const check = (): void => {
    if (signal?.aborted === true) throw abortedError();
  };
  const started = await writeTx(ctx.db, ['meta'], async (tx) => {
    const meta: unknown = await tx.objectStore('meta').get('embedder');
    const current = meta as Partial<EmbedderMeta> | undefined;
    if (current?.active === key) return false;
    await tx.objectStore('meta').put({
      key: 'embedder',
      active: typeof current?.active === 'string' ? current.active : key,
      pending: key,
      dimensions: typeof current?.dimensions === 'number' ? current.dimensions : target.dimensions,
    });
    return true;
  });
  if (!started) return false;

  const report = (phase: ReembedProgress['phase'], done: number, total: number): void =>
    options.onProgress?.({ embedder: key, phase, done, total, fraction: total === 0 ? 1 : Math.min(1, done / total) });

  try {
    return await withLock(
      ctx.lockName,
      async () => {
        for (let round = 0; ; round++) {
          check();
          const total = await countChunks(ctx.db);
          const missing = await missingVectors(ctx.db, 'staged', target);
          let done = total - missing.length;
          report('embedding', done, total);
          const batch = ctx.batchSize ?? 64;
          for (let i = 0; i < missing.length; i += batch) {
            check();
            const stored = await embedChunks(ctx.db, target, missing.slice(i, i + batch), {
              target: 'staged',
              logger: ctx.logger,
              now: ctx.now,
              ...(signal === undefined ? {} : { signal }),
            });
            done += stored.length;
            report('embedding', done, total);
            await yieldToPage();
          }
          check();
          report('switching', done, total);
          // Switch only if nothing is missing now (turns may have arrived); after a few rounds switch anyway —
          // the start-up catch-up embeds the stragglers.
          const switched = await switchTo(ctx, target, round >= 4);
          if (switched) {
            report('done', total, total);
            return true;
          }
        }
      },
      signal,
    );
  } catch (error) {
    if (signal?.aborted === true) {
      await writeTx(ctx.db, ['meta'], async (tx) => {
        const meta = (await tx.objectStore('meta').get('embedder')) as Partial<EmbedderMeta> | undefined;
        if (meta?.pending === key && typeof meta.active === 'string') {
          await tx.objectStore('meta').put({ key: 'embedder', active: meta.active, pending: null, dimensions: meta.dimensions ?? 0 });
        }
      }).catch(() => undefined);
      await deleteStagedVectors(ctx.db, key).catch(() => undefined);
      throw abortedError();
    }
    throw error instanceof AssistantError ? error : new AssistantError('internal', `Re-embedding failed: ${String(error)}`, { cause: error });
  }
}

/**
 * One transaction: every staged vector moves into its chunk (if the chunk still has the revision it was made
 * from) and the embedder becomes active. Returns false, changing nothing, when a chunk still lacks a vector.
 */
async function switchTo(ctx: ReembedContext, target: Embedder, force: boolean): Promise<boolean> {
  const key = embedderKey(target);
  const switched = await writeTx(ctx.db, ['meta', 'chunks', 'docChunks', 'vectors'], async (tx) => {
    const staged = new Map<string, VectorRecord>();
    for (const record of (await tx.objectStore('vectors').getAll(stagedRange(key))) as unknown[]) {
      if (isVectorRecord(record, target.dimensions)) staged.set(`${record.namespace}\u0000${record.chunkId}`, record);
    }
    const chunks = (await tx.objectStore('chunks').getAll()).filter(isChunkRecord);
    const docs = (await tx.objectStore('docChunks').getAll()).filter(isDocChunkRecord);
    const vectorFor = (namespace: string, chunk: { id: string; rev: number }): Float32Array | null => {
      const record = staged.get(`${namespace}\u0000${chunk.id}`);
      return record !== undefined && record.rev === chunk.rev ? record.vector : null;
    };
    const lacking = (namespace: string, chunk: ChunkRecord | DocChunkRecord): boolean =>
      vectorFor(namespace, chunk) === null && chunk.embedding?.embedder !== key;
    const missing = chunks.some((c) => lacking('conversation', c)) || docs.some((c) => lacking('docs', c));
    if (missing && !force) return false;
    const writes: Array<Promise<unknown>> = [];
    for (const chunk of chunks) {
      const vector = vectorFor('conversation', chunk);
      if (vector !== null) writes.push(tx.objectStore('chunks').put({ ...chunk, embedding: { embedder: key, vector } }));
    }
    for (const chunk of docs) {
      const vector = vectorFor('docs', chunk);
      if (vector !== null) writes.push(tx.objectStore('docChunks').put({ ...chunk, embedding: { embedder: key, vector } }));
    }
    writes.push(tx.objectStore('vectors').delete(stagedRange(key)));
    writes.push(tx.objectStore('meta').put({ key: 'embedder', active: key, pending: null, dimensions: target.dimensions }));
    await Promise.all(writes);
    return true;
  });
  return switched;
}

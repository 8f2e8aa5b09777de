/**
 * Doc chunks for the docs widget: a namespace of their own (own store, own vectors namespace, own index), so a
 * search of the conversation never returns a doc and the reverse. A doc is replaced as a whole, together with its
 * summary (`doc:<docId>` in meta: content hash and size), so a re-index can tell what changed without reading a
 * single chunk.
 *
 * A docs index (`npm run index-docs`) brings its chunks with vectors, token counts and links already made: they
 * are stored as they are when the vectors are from the store's active embedder, and embedded here otherwise.
 */
import { AssistantError } from '../../shared/errors.ts';
import type { TokenCount } from './chunking.ts';
import { writeTx, type WriteTx } from './db.ts';
import type { Embedder } from '../embedders/index.ts';
import type { DocChunkMeta, DocChunkRecord, DocSummary } from './records.ts';
import type { MemoryDatabase } from './schema.ts';
import { isDocChunkRecord, isDocSummary, isVector } from './validate.ts';

export interface DocInput {
  docId: string;
  /** URL or title, shown with the chunk. */
  source: string;
  /** The doc's chunks, in order (the caller splits, e.g. with `splitIntoParts`). */
  texts: string[];
  /**
   * Vectors made elsewhere (a docs index), one per text, and the `embedderKey` they came from. Stored as they are
   * when that is the store's active embedder and every vector has its dimensions; otherwise the store embeds.
   */
  vectors?: { embedder: string; vectors: readonly Float32Array[] };
  /** Exact token counts, one per text (a docs index has them); counted here when absent. */
  tokenCounts?: readonly number[];
  /** Link data, one per text. */
  meta?: readonly DocChunkMeta[];
  /** The doc's content hash (a docs index page hash), kept in its summary. */
  hash?: string;
}

export interface DocChanges {
  /** The doc's chunks as written, with their vectors when the embedder could make them at once. */
  chunks: DocChunkRecord[];
  removed: DocChunkRecord[];
}

export interface DocWriteContext {
  counter: TokenCount;
  embedder: Embedder;
  embedderKey: string;
  now: number;
}

export const docChunkId = (docId: string, part: number): string => `d:${docId}:${part}`;
export const docSummaryKey = (docId: string): `doc:${string}` => `doc:${docId}`;
const SUMMARY_RANGE = (): IDBKeyRange => IDBKeyRange.bound('doc:', 'doc:\uffff');

type DocTx = WriteTx<Array<'docChunks' | 'meta'>>;

async function removeDoc(tx: DocTx, docId: string): Promise<DocChunkRecord[]> {
  const removed: DocChunkRecord[] = [];
  const chunks = tx.objectStore('docChunks');
  let cursor = await chunks.index('by-doc').openCursor(docId);
  while (cursor !== null) {
    const chunk: unknown = cursor.value;
    if (isDocChunkRecord(chunk)) removed.push(chunk);
    await cursor.delete();
    cursor = await cursor.continue();
  }
  await tx.objectStore('meta').delete(docSummaryKey(docId));
  return removed;
}

function checkInput(input: DocInput): void {
  const bad = (what: string): never => {
    throw new AssistantError('invalid_input', `Doc ${input.docId}: ${what}`);
  };
  if (typeof input.docId !== 'string' || input.docId === '') throw new AssistantError('invalid_input', 'A doc needs an id.');
  if (!Array.isArray(input.texts) || !input.texts.every((t) => typeof t === 'string')) bad('texts must be strings.');
  const n = input.texts.length;
  if (input.vectors !== undefined && input.vectors.vectors.length !== n) bad(`${input.vectors.vectors.length} vectors for ${n} chunks.`);
  if (input.tokenCounts !== undefined && (input.tokenCounts.length !== n || !input.tokenCounts.every((c) => Number.isInteger(c) && c >= 0))) {
    bad(`token counts must be one non-negative integer per chunk.`);
  }
  if (input.meta !== undefined && input.meta.length !== n) bad(`${input.meta.length} link records for ${n} chunks.`);
}

/** The given vectors when they are the active embedder's and well-formed, else null (the store embeds). */
function usableVectors(input: DocInput, ctx: DocWriteContext): readonly Float32Array[] | null {
  const given = input.vectors;
  if (given === undefined || given.embedder !== ctx.embedderKey) return null;
  return given.vectors.every((v) => isVector(v, ctx.embedder.dimensions)) ? given.vectors : null;
}

/**
 * The chunk records a doc input is stored as (pure: no database), given the chunks it replaces. The docs indexer
 * calls it too, to build ahead of time exactly the chunks a reader's store will hold (widget/runtime/shipped-docs.ts).
 */
export function draftChunks(input: DocInput, removed: readonly DocChunkRecord[], ctx: DocWriteContext): DocChunkRecord[] {
  const previous = new Map(removed.map((r) => [r.part, r.rev]));
  const vectors = usableVectors(input, ctx);
  const chunks: DocChunkRecord[] = input.texts.map((text, part) => {
    const meta = input.meta?.[part];
    const vector = vectors?.[part];
    return {
      id: docChunkId(input.docId, part),
      docId: input.docId,
      source: input.source,
      part,
      text,
      tokenCount: input.tokenCounts?.[part] ?? ctx.counter.count(text),
      rev: 1 + (previous.get(part) ?? 0),
      createdAt: ctx.now,
      heat: { hits: 0, lastHitAt: null, lastHitRetrieval: 0 },
      embedding: vector === undefined ? null : { embedder: ctx.embedderKey, vector },
      ...(meta === undefined ? {} : { meta: { url: meta.url, anchor: meta.anchor, title: meta.title, heading: meta.heading } }),
    };
  });
  if (vectors === null && ctx.embedder.embedSync !== undefined && chunks.length > 0) {
    const made = ctx.embedder.embedSync(chunks.map((c) => c.text));
    chunks.forEach((chunk, i) => (chunk.embedding = { embedder: ctx.embedderKey, vector: made[i]! }));
  }
  return chunks;
}

/**
 * Replaces several docs in one transaction (all or nothing); one change record per doc, in order. Every request
 * is issued at once and awaited together: a sync of 10,000 chunks is bounded by IndexedDB, not by round trips.
 */
export function putDocsTx(db: MemoryDatabase, inputs: readonly DocInput[], ctx: DocWriteContext): Promise<DocChanges[]> {
  inputs.forEach(checkInput);
  return writeTx(db, ['docChunks', 'meta'], async (tx) => {
    const chunks = tx.objectStore('docChunks');
    const meta = tx.objectStore('meta');
    const old: unknown[][] = await Promise.all(inputs.map((input) => chunks.index('by-doc').getAll(input.docId)));
    const writes: Array<Promise<unknown>> = [];
    const out = inputs.map((input, i) => {
      const removed = old[i]!.filter(isDocChunkRecord);
      const written = draftChunks(input, removed, ctx);
      const kept = new Set(written.map((c) => c.id));
      // Old chunks past the new end go; the others are overwritten by their new version.
      for (const r of old[i]!) {
        const id = (r as { id?: unknown }).id;
        if (typeof id === 'string' && !kept.has(id)) writes.push(chunks.delete(id));
      }
      for (const chunk of written) writes.push(chunks.put(chunk));
      const summary: DocSummary = { docId: input.docId, source: input.source, hash: input.hash ?? '', chunks: written.length, updatedAt: ctx.now };
      writes.push(meta.put({ key: docSummaryKey(input.docId), ...summary }));
      return { chunks: written, removed };
    });
    await Promise.all(writes);
    return out;
  });
}

export async function putDocTx(db: MemoryDatabase, input: DocInput, ctx: DocWriteContext): Promise<DocChanges> {
  const [changes] = await putDocsTx(db, [input], ctx);
  return changes!;
}

export function deleteDocTx(db: MemoryDatabase, docId: string): Promise<DocChunkRecord[]> {
  return writeTx(db, ['docChunks', 'meta'], (tx) => removeDoc(tx, docId));
}

/** Every stored doc's summary, read from meta only (no chunk is read). */
export async function listDocSummaries(db: MemoryDatabase): Promise<DocSummary[]> {
  const records: unknown[] = await db.getAll('meta', SUMMARY_RANGE());
  return records.filter(isDocSummary).map(({ docId, source, hash, chunks, updatedAt }) => ({ docId, source, hash, chunks, updatedAt }));
}

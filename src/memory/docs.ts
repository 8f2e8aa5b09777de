/**
 * Doc chunks for the docs widget: a namespace of their own (own store, own vectors namespace, own index), so a
 * search of the conversation never returns a doc and the reverse. A doc is replaced as a whole.
 */
import { AssistantError } from '../shared/errors.ts';
import type { TokenCount } from './chunking.ts';
import { writeTx, type WriteTx } from './db.ts';
import type { Embedder } from './embedders/embedder.ts';
import type { DocChunkRecord } from './records.ts';
import type { MemoryDatabase } from './schema.ts';
import { isDocChunkRecord } from './validate.ts';

export interface DocInput {
  docId: string;
  /** URL or title, shown with the chunk. */
  source: string;
  /** The doc's chunks, in order (the caller splits, e.g. with `splitIntoParts`). */
  texts: string[];
}

export interface DocChanges {
  /** The doc's chunks as written, with their vectors when the embedder could make them at once. */
  chunks: DocChunkRecord[];
  removed: DocChunkRecord[];
}

export const docChunkId = (docId: string, part: number): string => `d:${docId}:${part}`;

async function removeDoc(tx: WriteTx<Array<'docChunks'>>, docId: string): Promise<DocChunkRecord[]> {
  const removed: DocChunkRecord[] = [];
  const chunks = tx.objectStore('docChunks');
  let cursor = await chunks.index('by-doc').openCursor(docId);
  while (cursor !== null) {
    const chunk: unknown = cursor.value;
    if (isDocChunkRecord(chunk)) removed.push(chunk);
    await cursor.delete();
    cursor = await cursor.continue();
  }
  return removed;
}

export function putDocTx(
  db: MemoryDatabase,
  input: DocInput,
  ctx: { counter: TokenCount; embedder: Embedder; embedderKey: string; now: number },
): Promise<DocChanges> {
  if (input.docId === '') throw new AssistantError('invalid_input', 'A doc needs an id.');
  return writeTx(db, ['docChunks'], async (tx) => {
    const removed = await removeDoc(tx, input.docId);
    const chunks: DocChunkRecord[] = input.texts.map((text, part) => ({
      id: docChunkId(input.docId, part),
      docId: input.docId,
      source: input.source,
      part,
      text,
      tokenCount: ctx.counter.count(text),
      rev: 1 + (removed.find((r) => r.part === part)?.rev ?? 0),
      createdAt: ctx.now,
      heat: { hits: 0, lastHitAt: null, lastHitRetrieval: 0 },
      embedding: null,
    }));
    if (ctx.embedder.embedSync !== undefined && chunks.length > 0) {
      const vectors = ctx.embedder.embedSync(chunks.map((c) => c.text));
      chunks.forEach((chunk, i) => (chunk.embedding = { embedder: ctx.embedderKey, vector: vectors[i]! }));
    }
    for (const chunk of chunks) await tx.objectStore('docChunks').put(chunk);
    return { chunks, removed };
  });
}

export function deleteDocTx(db: MemoryDatabase, docId: string): Promise<DocChunkRecord[]> {
  return writeTx(db, ['docChunks'], (tx) => removeDoc(tx, docId));
}

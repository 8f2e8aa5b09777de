/**
 * The store's housekeeping half: deleting (a session, a doc, everything), retrieval statistics, switching the
 * embedder, working-memory items and doc chunks. `MemoryStore` (store.ts) adds sessions, turns and search.
 */
import { getLayeredSide, layeredSideKey, listLayeredSide, putLayeredSide, type LayeredSideEntry } from './layered-side.ts';
import type { LayeredSideKind } from './records.ts';
import { writeTx } from './db.ts';
import { deleteDocTx, listDocSummaries, putDocsTx, type DocInput } from './docs.ts';
import { embedderKey, type Embedder } from '../embedders/index.ts';
import type { DocChunkRecord, DocSummary, MemoryVectorRecord, WorkingItemRecord } from './records.ts';
import { putMemoryVectors, readMemoryVectors, sweepMemoryVectors } from './memory-vectors.ts';
import { readEmbedderMeta, type ReembedOptions } from './reembed.ts';
import type { StoreRuntime } from './store-runtime.ts';
import { isChunkRecord, isDocChunkRecord, keepValid } from './validate.ts';
import { deleteWorkingItem, listWorkingItems, purgeExpiredWorkingItems, putWorkingItem, replaceSessionWorkingItems, type WorkingItemInput } from './working-items.ts';

export class StoreData {
  protected readonly _rt: StoreRuntime;

  protected constructor(runtime: StoreRuntime) {
    this._rt = runtime;
  }

  // Deleting -------------------------------------------------------------------------------------------------

  /** Removes a session with its turns, chunks and their vectors (staged ones too), working-memory items and index entries. */
  async deleteSession(sessionId: string): Promise<void> {
    const texts = await writeTx(this._rt.db(), ['sessions', 'turns', 'chunks', 'vectors', 'workingItems', 'memoryVectors', 'meta'], async (tx) => {
      await tx.objectStore('sessions').delete(sessionId);
      const turns = tx.objectStore('turns');
      const meta = tx.objectStore('meta');
      await meta.delete(layeredSideKey('session', sessionId));
      await meta.delete(layeredSideKey('derived', sessionId));
      await meta.delete(layeredSideKey('context', sessionId));
      for (const key of await turns.index('by-session-seq').getAllKeys(IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]))) {
        await turns.delete(key);
        // The layered memory's state of the turn goes with it.
        await meta.delete(layeredSideKey('deprecated', key));
        await meta.delete(layeredSideKey('heat', key));
      }
      const removed: string[] = [];
      const chunkIds: string[] = [];
      let cursor = await tx.objectStore('chunks').index('by-session').openCursor(sessionId);
      while (cursor !== null) {
        if (isChunkRecord(cursor.value)) removed.push(cursor.value.text);
        chunkIds.push(cursor.primaryKey);
        await cursor.delete();
        cursor = await cursor.continue();
      }
      // Vectors live in their chunks; only a switch in progress has some staged elsewhere.
      const embedder = (await meta.get('embedder')) as { pending?: unknown } | undefined;
      if (typeof embedder?.pending === 'string') {
        for (const id of chunkIds) await tx.objectStore('vectors').delete([embedder.pending, 'conversation', id]);
      }
      const items = tx.objectStore('workingItems');
      for (const key of await items.index('by-session').getAllKeys(sessionId)) await items.delete(key);
      // The engine model's vectors of its turns, every model's.
      const memoryVectors = tx.objectStore('memoryVectors');
      for (const key of await memoryVectors.index('by-scope').getAllKeys(sessionId)) await memoryVectors.delete(key);
      return removed;
    });
    this._rt.index.removeScope('conversation', sessionId);
    this._rt.stats.change(this._rt.embedder, [], texts);
    this._rt.notify({ type: 'session-deleted', sessionId });
  }

  /** Deletes every session, turn, chunk, vector, item and doc, and the statistics; only configuration stays. */
  async deleteEverything(): Promise<void> {
    const embedder = this._rt.embedder;
    await writeTx(this._rt.db(), ['sessions', 'turns', 'chunks', 'vectors', 'workingItems', 'docChunks', 'memoryVectors', 'meta'], async (tx) => {
      for (const store of ['sessions', 'turns', 'chunks', 'vectors', 'workingItems', 'docChunks', 'memoryVectors', 'meta'] as const) {
        await tx.objectStore(store).clear();
      }
      const meta = tx.objectStore('meta');
      await meta.put({ key: 'schema', version: tx.db.version, upgradedAt: this._rt.now() });
      await meta.put({ key: 'embedder', active: embedderKey(embedder), pending: null, dimensions: embedder.dimensions });
    });
    this._rt.stats.discard();
    embedder.stats?.reset();
    this._rt.index.clear();
    this._rt.notify({ type: 'everything-deleted' });
  }

  // Retrieval statistics (heat) ------------------------------------------------------------------------------

  /**
   * Counts one retrieval and a hit for each chunk recalled by it (conversation or docs ids). Returns the new
   * retrieval count: a chunk with `count - heat.lastHitRetrieval > N` was not recalled in the last N retrievals.
   */
  recordRetrieval(chunkIds: readonly string[]): Promise<number> {
    const now = this._rt.now();
    return writeTx(this._rt.db(), ['meta', 'chunks', 'docChunks'], async (tx) => {
      const meta = (await tx.objectStore('meta').get('retrievals')) as { count?: unknown } | undefined;
      const count = (typeof meta?.count === 'number' ? meta.count : 0) + 1;
      await tx.objectStore('meta').put({ key: 'retrievals', count });
      for (const id of chunkIds) {
        for (const store of ['chunks', 'docChunks'] as const) {
          const chunk: unknown = await tx.objectStore(store).get(id);
          if (!(store === 'chunks' ? isChunkRecord(chunk) : isDocChunkRecord(chunk))) continue;
          const c = chunk as { heat: { hits: number } };
          const heat = { hits: c.heat.hits + 1, lastHitAt: now, lastHitRetrieval: count };
          await tx.objectStore(store).put({ ...(chunk as object), heat } as never);
        }
      }
      return count;
    });
  }

  async retrievalCount(): Promise<number> {
    const meta = (await this._rt.db().get('meta', 'retrievals')) as { count?: unknown } | undefined;
    return typeof meta?.count === 'number' ? meta.count : 0;
  }

  // Embedders ------------------------------------------------------------------------------------------------

  /**
   * Switches to another embedder: re-embeds everything in the background with progress (searches keep using the
   * current embedder meanwhile), then makes it active here and in the other tabs and drops the old vectors.
   */
  setEmbedder(embedder: Embedder, options: ReembedOptions = {}): Promise<void> {
    return this._rt.switchEmbedder(embedder, options);
  }

  /** The embedder searched (`id@version`) and one being switched to, if any. */
  async embedderStatus(): Promise<{ active: string; pending: string | null }> {
    const meta = await readEmbedderMeta(this._rt.db());
    return { active: meta?.active ?? embedderKey(this._rt.embedder), pending: meta?.pending ?? null };
  }

  // The engine model's vectors of the prompt's memory (memory-vectors.ts) ----------------------------------------

  memoryVectors(embedder: string): Promise<Map<string, MemoryVectorRecord>> {
    return readMemoryVectors(this._rt.db(), embedder);
  }

  putMemoryVectors(records: readonly MemoryVectorRecord[]): Promise<void> {
    return putMemoryVectors(this._rt.db(), records);
  }

  sweepMemoryVectors(indexed: (id: string) => boolean): Promise<number> {
    return sweepMemoryVectors(this._rt.db(), indexed);
  }

  // The layered memory's side state ---------------------------------------------------------------------------

  /** Writes session gates, void marks and heat (one transaction); other tabs are told. */
  async putLayeredSide(entries: readonly LayeredSideEntry[]): Promise<void> {
    await putLayeredSide(this._rt.db(), entries);
    if (entries.length > 0) this._rt.notify({ type: 'layered-side' });
  }

  listLayeredSide(kind: LayeredSideKind): Promise<Map<string, unknown>> {
    return listLayeredSide(this._rt.db(), kind);
  }

  getLayeredSide(kind: LayeredSideKind, id: string): Promise<unknown> {
    return getLayeredSide(this._rt.db(), kind, id);
  }

  // Working memory -------------------------------------------------------------------------------------------

  async putWorkingItem(input: WorkingItemInput): Promise<WorkingItemRecord> {
    const item = await putWorkingItem(this._rt.db(), input, this._rt.now());
    this._rt.notify({ type: 'working-items', sessionId: item.sessionId });
    return item;
  }

  /** Replaces a session's items with `items` in one transaction (the layered memory's working memory, saved). */
  async replaceSessionWorkingItems(sessionId: string, items: readonly WorkingItemInput[]): Promise<void> {
    await replaceSessionWorkingItems(this._rt.db(), sessionId, items, this._rt.now());
    this._rt.notify({ type: 'working-items', sessionId });
  }

  /** A session's items and the global ones, unexpired (pinned items never expire). */
  listWorkingItems(sessionId: string | null, options: { includeExpired?: boolean } = {}): Promise<WorkingItemRecord[]> {
    return listWorkingItems(this._rt.db(), sessionId, this._rt.now(), this._rt.logger, options.includeExpired ?? false);
  }

  async deleteWorkingItem(id: string): Promise<void> {
    await deleteWorkingItem(this._rt.db(), id);
    this._rt.notify({ type: 'working-items', sessionId: null });
  }

  purgeExpiredWorkingItems(): Promise<number> {
    return purgeExpiredWorkingItems(this._rt.db(), this._rt.now());
  }

  // Docs (their own namespace) -------------------------------------------------------------------------------

  /** Stores a doc's chunks (replacing an earlier version of the doc) and indexes them in the `docs` namespace. */
  async putDoc(input: DocInput): Promise<DocChunkRecord[]> {
    const [chunks] = await this.putDocs([input]);
    return chunks!;
  }

  /**
   * Stores several docs in one transaction (a docs index sync writes a batch of pages at once) and indexes them.
   * Returns each doc's chunks as written, in order.
   */
  async putDocs(inputs: readonly DocInput[]): Promise<DocChunkRecord[][]> {
    if (inputs.length === 0) return [];
    const embedder = this._rt.embedder;
    const all = await putDocsTx(this._rt.db(), inputs, {
      counter: this._rt.counter,
      embedder,
      embedderKey: embedderKey(embedder),
      now: this._rt.now(),
    });
    const written: DocChunkRecord[] = [];
    const oldTexts: string[] = [];
    const stale: string[] = [];
    all.forEach((changes, i) => {
      const keptIds = new Set(changes.chunks.map((c) => c.id));
      this._rt.index.removeScope('docs', inputs[i]!.docId);
      written.push(...changes.chunks);
      for (const r of changes.removed) {
        oldTexts.push(r.text);
        if (!keptIds.has(r.id)) stale.push(r.id);
      }
    });
    this._rt.afterChunks('docs', written, oldTexts, stale);
    return all.map((c) => c.chunks);
  }

  /** Every stored doc: id, source, content hash and chunk count (read without touching the chunks). */
  listDocs(): Promise<DocSummary[]> {
    return listDocSummaries(this._rt.db());
  }

  async deleteDoc(docId: string): Promise<void> {
    const removed = await deleteDocTx(this._rt.db(), docId);
    this._rt.index.removeScope('docs', docId);
    this._rt.stats.change(this._rt.embedder, [], removed.map((c) => c.text));
    this._rt.notify({ type: 'doc-deleted', docId });
  }

  async listDocChunks(docId: string): Promise<DocChunkRecord[]> {
    const records = await this._rt.db().getAllFromIndex('docChunks', 'by-doc', docId);
    return keepValid(records, isDocChunkRecord, 'doc chunk', this._rt.logger).sort((a, b) => a.part - b.part);
  }
}

/**
 * The in-memory vector indexes (one per namespace) for the active embedder, rebuilt from the chunks' stored
 * vectors at start-up in the background — in batches, yielding between them, so the UI never waits — and kept
 * current by the store and by other tabs' broadcasts. voy's `serialize()` is not durable at scale (ARCHITECTURE.md), and a flat
 * index rebuilds from the stored vectors in well under a second for 10k turns anyway.
 *
 * Until the rebuild is done a search either waits for it or scans the stored vectors exactly. A live change that
 * arrives during the rebuild wins over the (older) copy the rebuild may read later.
 */
import type { MemoryDatabase } from './schema.ts';
import { activeVector, isChunkRecord, isDocChunkRecord, keepValid, type MemoryLogger } from './validate.ts';
import { yieldToPage } from '../../shared/yield.ts';
import { exactSearch, type IndexEntry, type Namespace, type SearchHit, type VectorIndex } from '../vector-index/index.ts';

export type IndexFactory = (dimensions: number) => VectorIndex | Promise<VectorIndex>;

export const NAMESPACES: readonly Namespace[] = ['conversation', 'docs'];

export interface MemoryIndexOptions {
  db: MemoryDatabase;
  /** `embedderKey()` of the active embedder. */
  embedder: string;
  dimensions: number;
  createIndex: IndexFactory;
  logger: MemoryLogger;
  /** Vector records read per batch during the rebuild. */
  batchSize?: number;
  /**
   * Waits this long before rebuilding, unless a search or `start()` asks first: a page's start (restoring the
   * layered memory, the first prompt) does not compete with it. Absent: at once.
   */
  startAfterMs?: number;
}

export interface IndexSearchRequest {
  scopes?: readonly string[];
  /** Wait for the rebuild instead of scanning the stored vectors. */
  wait?: boolean;
}

export interface RebuildStats {
  loaded: number;
  skipped: number;
  ms: number;
}

/**
 * Reads the chunks of a namespace in batches and yields the index entries of those with a vector from
 * `embedder`; malformed chunks and malformed vectors are skipped with a warning.
 */
export async function* readIndexEntries(
  db: MemoryDatabase,
  embedder: string,
  namespace: Namespace,
  dimensions: number,
  logger: MemoryLogger,
  batchSize = 2_000,
): AsyncGenerator<{ entries: IndexEntry[]; skipped: number; missing: string[] }> {
  const store = namespace === 'docs' ? 'docChunks' : 'chunks';
  let after: string | undefined;
  for (;;) {
    const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true);
    const batch: unknown[] = await db.getAll(store, range, batchSize);
    if (batch.length === 0) return;
    const entries: IndexEntry[] = [];
    const bad: string[] = [];
    const missing: string[] = [];
    const chunks: Array<{ id: string; scope: string; embedding: { embedder: string; vector?: unknown } | null }> =
      namespace === 'docs'
        ? keepValid(batch, isDocChunkRecord, 'doc chunk', logger).map((c) => ({ id: c.id, scope: c.docId, embedding: c.embedding }))
        : keepValid(batch, isChunkRecord, 'chunk', logger).map((c) => ({ id: c.id, scope: c.sessionId, embedding: c.embedding }));
    for (const chunk of chunks) {
      const vector = activeVector(chunk, embedder, dimensions);
      if (vector === 'bad') bad.push(chunk.id);
      else if (vector !== null) entries.push({ id: chunk.id, scope: chunk.scope, vector });
      if (vector === 'bad' || vector === null) missing.push(chunk.id);
    }
    if (bad.length > 0) {
      logger.warn(`[memory] skipped ${bad.length} malformed vector(s) of ${embedder}: ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', …' : ''}`);
    }
    yield { entries, skipped: bad.length + (batch.length - chunks.length), missing };
    if (batch.length < batchSize) return;
    const last = batch[batch.length - 1] as { id?: unknown };
    // A record whose key cannot be read back is impossible (the key path made it); stop rather than loop.
    if (typeof last.id !== 'string') return;
    after = last.id;
  }
}

export class MemoryIndex {
  readonly embedder: string;
  readonly dimensions: number;
  readonly ready: Promise<void>;
  readonly stats: RebuildStats = { loaded: 0, skipped: 0, ms: 0 };
  /** Chunks the rebuild found without a usable vector from this embedder (for the catch-up to embed). */
  readonly missing: Array<{ namespace: Namespace; id: string }> = [];
  private readonly _db: MemoryDatabase;
  private readonly _logger: MemoryLogger;
  private readonly _batchSize: number;
  private readonly _indexes = new Map<Namespace, VectorIndex>();
  /** Ids changed live while rebuilding: the rebuild must not overwrite them with what it read earlier. */
  private readonly _touched = new Map<Namespace, Set<string>>();
  /** Changes that arrived before the index objects existed. */
  private _queued: Array<(ns: Map<Namespace, VectorIndex>) => void> = [];
  private _isReady = false;
  private _disposed = false;
  private _start!: () => void;
  private readonly _started = new Promise<void>((resolve) => (this._start = resolve));

  constructor(options: MemoryIndexOptions) {
    this._db = options.db;
    this.embedder = options.embedder;
    this.dimensions = options.dimensions;
    this._logger = options.logger;
    this._batchSize = options.batchSize ?? 2_000;
    for (const ns of NAMESPACES) this._touched.set(ns, new Set());
    if (options.startAfterMs === undefined) this.start();
    else setTimeout(() => !this._disposed && this.start(), options.startAfterMs);
    this.ready = this._started.then(() => this._rebuild(options.createIndex));
    this.ready.catch((error: unknown) => this._logger.warn('[memory] vector index rebuild failed; searches scan exactly', error));
  }

  /** Starts the rebuild now if it waits (idempotent). */
  start(): void {
    this._start();
  }

  get isReady(): boolean {
    return this._isReady;
  }

  /** Which engine serves searches once ready (`flat` or `voy`). */
  get kind(): string | null {
    return this._indexes.get('conversation')?.kind ?? null;
  }

  add(namespace: Namespace, entries: readonly IndexEntry[]): void {
    const usable = entries.filter((e) => e.vector.length === this.dimensions);
    if (usable.length === 0) return;
    if (!this._isReady) for (const e of usable) this._touched.get(namespace)!.add(e.id);
    this._apply((indexes) => indexes.get(namespace)!.add(usable));
  }

  remove(namespace: Namespace, ids: readonly string[]): void {
    if (ids.length === 0) return;
    if (!this._isReady) for (const id of ids) this._touched.get(namespace)!.add(id);
    this._apply((indexes) => indexes.get(namespace)!.remove(ids));
  }

  removeScope(namespace: Namespace, scope: string): void {
    this._apply((indexes) => indexes.get(namespace)!.removeScope(scope));
  }

  clear(): void {
    this._apply((indexes) => indexes.forEach((index) => index.clear()));
  }

  has(namespace: Namespace, id: string): boolean {
    return this._indexes.get(namespace)?.has(id) ?? false;
  }

  size(namespace: Namespace): number {
    return this._indexes.get(namespace)?.size ?? 0;
  }

  async search(namespace: Namespace, query: Float32Array, k: number, request: IndexSearchRequest = {}): Promise<SearchHit[]> {
    const options = request.scopes === undefined ? {} : { scopes: request.scopes };
    this.start();
    if (!this._isReady && request.wait === true) await this.ready.catch(() => undefined);
    if (this._isReady) return this._indexes.get(namespace)!.search(query, k, options);
    // Not ready (or the rebuild failed): an exact scan of what is stored, which includes every live change.
    const entries: IndexEntry[] = [];
    for await (const batch of readIndexEntries(this._db, this.embedder, namespace, this.dimensions, silent, this._batchSize)) {
      entries.push(...batch.entries);
    }
    return exactSearch(entries, query, k, options);
  }

  dispose(): void {
    this._disposed = true;
    // A rebuild still waiting ends at once (it finds the index disposed), so nothing waits on it forever.
    this._start();
    for (const index of this._indexes.values()) index.dispose();
    this._indexes.clear();
    this._queued = [];
  }

  private _apply(change: (indexes: Map<Namespace, VectorIndex>) => void): void {
    if (this._disposed) return;
    if (this._indexes.size === NAMESPACES.length) change(this._indexes);
    else this._queued.push(change);
  }

  private async _rebuild(createIndex: IndexFactory): Promise<void> {
    const started = performance.now();
    for (const ns of NAMESPACES) this._indexes.set(ns, await createIndex(this.dimensions));
    if (this._disposed) return;
    for (const change of this._queued) change(this._indexes);
    this._queued = [];
    for (const ns of NAMESPACES) {
      const index = this._indexes.get(ns)!;
      const touched = this._touched.get(ns)!;
      for await (const { entries, skipped, missing } of readIndexEntries(this._db, this.embedder, ns, this.dimensions, this._logger, this._batchSize)) {
        if (this._disposed) return;
        for (const id of missing) this.missing.push({ namespace: ns, id });
        const fresh = entries.filter((e) => !touched.has(e.id));
        index.add(fresh);
        this.stats.loaded += fresh.length;
        this.stats.skipped += skipped;
        await yieldToPage();
      }
    }
    this.stats.ms = performance.now() - started;
    this._isReady = true;
    for (const set of this._touched.values()) set.clear();
  }
}

const silent: MemoryLogger = { warn: () => {} };

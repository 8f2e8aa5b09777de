/**
 * The store's moving parts behind the public API: the open database, the active embedder and its index, the
 * tab channel, the background work started at open (index rebuild, recovery of cut replies, catch-up
 * embedding, IDF statistics) and what follows every committed write (index, statistics, other tabs).
 */
import { AssistantError } from '../../shared/errors.ts';
import type { TokenCount } from './chunking.ts';
import { writeTx } from './db.ts';
import { embedderKey, type Embedder } from '../embedders/index.ts';
import { MemoryIndex, NAMESPACES, type IndexFactory } from './memory-index.ts';
import type { ChunkRecord, DocChunkRecord, TurnRecord } from './records.ts';
import type { ReplySink } from './reply-writer.ts';
import { readEmbedderMeta, reembed, type ReembedOptions } from './reembed.ts';
import type { MemoryDatabase } from './schema.ts';
import { checkStatsDrift, restoreStats, StatsKeeper } from './stats-keeper.ts';
import { closeWhenIdle } from './idle-close.ts';
import { ifLockFree, TabChannel, type TabMessage } from './tabs.ts';
import { updateTurnTx, type ChunkChanges, type WriteContext } from './turn-writes.ts';
import { activeVector, isChunkRecord, isDocChunkRecord, isTurnRecord, type MemoryLogger } from './validate.ts';
import type { IndexEntry, Namespace } from '../vector-index/index.ts';
import { deleteStagedVectors, embedChunks, missingVectors, type ChunkRef } from './vectors.ts';
import { purgeExpiredWorkingItems } from './working-items.ts';

/**
 * The store's own vector index (the conversation search's) is rebuilt this long after open, or at its first search:
 * at 10,000 messages its reads took ~0.5 s of a page's first prompt, which reads the layered memory's saved index.
 */
export const INDEX_START_DELAY_MS = 4_000;
/** Below this many chunks the store's index is rebuilt at once (it takes a few milliseconds). */
const SMALL_STORE_CHUNKS = 1_000;

export type MemoryChange = (TabMessage | { type: 'closed' }) & { origin: 'local' | 'remote' };

export interface RuntimeOptions {
  db: MemoryDatabase;
  name: string;
  embedders: Embedder[];
  createIndex: IndexFactory;
  counter: TokenCount;
  logger: MemoryLogger;
  now: () => number;
}

export class StoreRuntime {
  readonly name: string;
  readonly logger: MemoryLogger;
  readonly now: () => number;
  readonly counter: TokenCount;
  readonly embedders: Embedder[];
  readonly createIndex: IndexFactory;
  readonly stats: StatsKeeper;
  private _db: MemoryDatabase | null;
  private _embedder: Embedder;
  private _index: MemoryIndex;
  private readonly _tabs: TabChannel;
  private readonly _listeners = new Set<(change: MemoryChange) => void>();
  private readonly _background = new Set<Promise<unknown>>();
  private _embedQueue: Promise<void> = Promise.resolve();
  /** close() has begun: work it cuts short is expected, not worth a warning. */
  private _closing = false;

  private constructor(options: RuntimeOptions, embedder: Embedder) {
    this._db = options.db;
    this.name = options.name;
    this.logger = options.logger;
    this.now = options.now;
    this.counter = options.counter;
    this.embedders = options.embedders;
    this.createIndex = options.createIndex;
    this._embedder = embedder;
    this.stats = new StatsKeeper(options.db, options.logger, options.now);
    this._index = this._newIndex(embedder);
    this._tabs = new TabChannel(`qwen-memory:${options.name}`);
    this._tabs.subscribe((message) => this._onRemote(message));
  }

  static async start(options: RuntimeOptions): Promise<StoreRuntime> {
    const meta = await readEmbedderMeta(options.db);
    const known = options.embedders.find((e) => embedderKey(e) === meta?.active);
    const embedder = known ?? options.embedders[0]!;
    if (meta !== null && known === undefined) {
      options.logger.warn(`[memory] the stored vectors are from ${meta.active}, which this page cannot run; re-embedding with ${embedderKey(embedder)}`);
    }
    if (known === undefined) {
      await writeTx(options.db, ['meta'], (tx) =>
        tx.objectStore('meta').put({ key: 'embedder', active: embedderKey(embedder), pending: null, dimensions: embedder.dimensions }),
      );
    }
    const runtime = new StoreRuntime(options, embedder);
    runtime._startBackground(meta?.pending ?? null);
    return runtime;
  }

  get embedder(): Embedder {
    return this._embedder;
  }

  get index(): MemoryIndex {
    return this._index;
  }

  db(): MemoryDatabase {
    if (this._db === null) {
      throw new AssistantError('internal', 'The memory database is closed (another tab upgraded it, or the store was closed); reload the page.');
    }
    return this._db;
  }

  writeContext(): WriteContext {
    return { db: this.db(), counter: this.counter, embedder: this._embedder, embedderKey: embedderKey(this._embedder), now: this.now() };
  }

  streamLockName(turnId: string): string {
    return `qwen-memory:${this.name}:turn:${turnId}`;
  }

  get reembedLockName(): string {
    return `qwen-memory:${this.name}:reembed`;
  }

  replySink(): ReplySink {
    return {
      persistPartial: async (turnId, content) => {
        const result = await updateTurnTx(this.writeContext(), turnId, { content, status: 'streaming' }, { onlyIfStreaming: true });
        return result !== null;
      },
      finish: async (turnId, status, content, tokenCount) => {
        const patch = tokenCount === undefined ? { content, status } : { content, status, tokenCount };
        const result = await updateTurnTx(this.writeContext(), turnId, patch);
        if (result === null) return null;
        this.afterTurnWrite(result.turn, result.changes);
        return result.turn;
      },
    };
  }

  // After writes ---------------------------------------------------------------------------------------------

  afterTurnWrite(turn: TurnRecord, changes: ChunkChanges): void {
    this.afterChunks('conversation', changes.written, changes.oldTexts, changes.staleIds);
    this.notify({ type: 'turns', sessionId: turn.sessionId, turnIds: [turn.id] });
  }

  /** Statistics, index, other tabs, and background embedding for chunks written without a vector. */
  afterChunks(
    namespace: Namespace,
    written: ReadonlyArray<ChunkRecord | DocChunkRecord>,
    oldTexts: readonly string[],
    staleIds: readonly string[],
  ): void {
    this.stats.change(this._embedder, written.map((c) => c.text), oldTexts);
    const key = embedderKey(this._embedder);
    const entries: IndexEntry[] = [];
    const unembedded: ChunkRef[] = [];
    for (const chunk of written) {
      const vector = activeVector(chunk, key, this._embedder.dimensions);
      if (vector instanceof Float32Array) entries.push({ id: chunk.id, scope: 'docId' in chunk ? chunk.docId : chunk.sessionId, vector });
      else unembedded.push({ namespace, id: chunk.id });
    }
    const writtenIds = new Set(written.map((c) => c.id));
    const removed = staleIds.filter((id) => !writtenIds.has(id));
    this._index.remove(namespace, [...removed, ...unembedded.map((r) => r.id)]);
    this._index.add(namespace, entries);
    if (written.length > 0 || removed.length > 0) this.notify({ type: 'chunks', namespace, changed: [...writtenIds], removed });
    if (unembedded.length > 0) this.scheduleEmbedding(unembedded);
  }

  /** Embeds chunks that lack a vector from the active embedder (all of them when `refs` is absent). */
  scheduleEmbedding(refs?: ChunkRef[]): void {
    const run = async (): Promise<void> => {
      if (this._db === null) return;
      const embedder = this._embedder;
      const todo = refs ?? (await missingVectors(this.db(), 'chunk', embedder));
      for (let i = 0; i < todo.length; i += 32) {
        if (this._db === null || this._embedder !== embedder) return;
        const stored = await embedChunks(this.db(), embedder, todo.slice(i, i + 32), { target: 'chunk', logger: this.logger, now: this.now });
        for (const ns of NAMESPACES) {
          const mine = stored.filter((v) => v.namespace === ns);
          if (mine.length === 0) continue;
          this._index.add(ns, mine);
          this.notify({ type: 'chunks', namespace: ns, changed: mine.map((v) => v.id), removed: [] });
        }
      }
    };
    this._embedQueue = this._embedQueue
      .then(run)
      .catch((error: unknown) => {
        if (this._db !== null) this.logger.warn('[memory] embedding chunks failed; they will be retried at the next start', error);
      });
    this.track(this._embedQueue);
  }

  // Tabs and listeners ---------------------------------------------------------------------------------------

  notify(message: TabMessage): void {
    this._tabs.post(message);
    this._emit({ ...message, origin: 'local' });
  }

  subscribe(listener: (change: MemoryChange) => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  private _emit(change: MemoryChange): void {
    for (const listener of this._listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.warn('[memory] a change listener threw', error);
      }
    }
  }

  private _onRemote(message: TabMessage): void {
    if (this._db === null) return;
    switch (message.type) {
      case 'chunks':
        this.track(this._pullChunks(message.namespace, message.changed, message.removed));
        break;
      case 'session-deleted':
        this._index.removeScope('conversation', message.sessionId);
        break;
      case 'doc-deleted':
        this._index.removeScope('docs', message.docId);
        break;
      case 'everything-deleted':
        this._index.clear();
        this._embedder.stats?.reset();
        break;
      case 'embedder-changed':
        this._adopt(message.active);
        break;
      default:
        break;
    }
    this._emit({ ...message, origin: 'remote' });
  }

  /** Another tab wrote or deleted chunks: re-read them and bring this tab's index up to date. */
  private async _pullChunks(namespace: Namespace, changed: readonly string[], removed: readonly string[]): Promise<void> {
    const key = embedderKey(this._embedder);
    this._index.remove(namespace, removed);
    const tx = this.db().transaction(namespace === 'docs' ? 'docChunks' : 'chunks', 'readonly');
    const records: unknown[] = await Promise.all(changed.map((id) => tx.store.get(id)));
    const add: IndexEntry[] = [];
    const drop: string[] = [];
    const newTexts: string[] = [];
    records.forEach((record, i) => {
      const chunk = isChunkRecord(record) ? record : isDocChunkRecord(record) ? record : null;
      // New to this tab: count it in the IDF statistics too (a rewritten one is left out: its old text is unknown
      // here, and the drift is corrected by the recount at start-up).
      if (chunk !== null && !this._index.has(namespace, chunk.id)) newTexts.push(chunk.text);
      const vector = chunk === null ? null : activeVector(chunk, key, this._embedder.dimensions);
      if (chunk !== null && vector instanceof Float32Array) add.push({ id: chunk.id, scope: 'docId' in chunk ? chunk.docId : chunk.sessionId, vector });
      else drop.push(changed[i]!);
    });
    this._index.remove(namespace, drop);
    this._index.add(namespace, add);
    this.stats.change(this._embedder, newTexts, []);
  }

  private _adopt(active: string): void {
    if (active === embedderKey(this._embedder)) return;
    const embedder = this.embedders.find((e) => embedderKey(e) === active);
    if (embedder === undefined) {
      this.logger.warn(`[memory] another tab switched to embedder ${active}, which this page cannot run; searches here use the old vectors until reload`);
      return;
    }
    this.useEmbedder(embedder);
  }

  /**
   * Re-embeds everything with `embedder` (in the background, with progress), then makes it the one searched here
   * and in the other tabs. Resolves once switched.
   */
  async switchEmbedder(embedder: Embedder, options: ReembedOptions = {}): Promise<void> {
    if (embedderKey(embedder) === embedderKey(this._embedder)) return;
    if (!this.embedders.includes(embedder)) this.embedders.push(embedder);
    const old = this._embedder;
    await reembed({ db: this.db(), logger: this.logger, now: this.now, lockName: this.reembedLockName }, embedder, options);
    if (embedderKey(this._embedder) !== embedderKey(embedder)) {
      await this.stats.persist(old).catch(() => undefined);
      this.useEmbedder(embedder);
    }
    this.notify({ type: 'embedder-changed', active: embedderKey(embedder) });
    // The old vectors were replaced in their chunks by the switch; only the old statistics are left to drop.
    this.track(writeTx(this.db(), ['meta'], (tx) => tx.objectStore('meta').delete(`stats:${embedderKey(old)}`)));
  }

  /** Makes `embedder` the one searched here: a new index, rebuilt from its stored vectors. */
  useEmbedder(embedder: Embedder): void {
    if (!this.embedders.includes(embedder)) this.embedders.push(embedder);
    const old = this._index;
    this._embedder = embedder;
    const index = (this._index = this._newIndex(embedder));
    old.dispose();
    // Chunks the switch could not give a vector (it gives up waiting after a few rounds) are embedded now.
    this.track(index.ready.then(() => index.missing.length > 0 && this.scheduleEmbedding([...index.missing])));
    this._restoreStats(embedder, index);
  }

  /** The embedder's statistics from their snapshot now; whether the snapshot drifted, once its index is ready. */
  private _restoreStats(embedder: Embedder, index: MemoryIndex): void {
    const db = this.db();
    this.track(
      restoreStats(this.stats, embedder, db).then(async (restored) => {
        if (!restored) return;
        await index.ready;
        if (this._db !== null && !this._closing && this._embedder === embedder) await checkStatsDrift(this.stats, embedder, db);
      }),
    );
  }

  private _newIndex(embedder: Embedder): MemoryIndex {
    const index = new MemoryIndex({
      db: this.db(),
      embedder: embedderKey(embedder),
      dimensions: embedder.dimensions,
      createIndex: this.createIndex,
      logger: this.logger,
      startAfterMs: INDEX_START_DELAY_MS,
    });
    // A small store (a first visit's empty one, which a docs sync then fills) is indexed at once: nothing to wait for.
    void isSmallStore(this.db()).then(
      (small) => small && index.start(),
      () => index.start(),
    );
    this.track(index.ready);
    return index;
  }

  // Background work ------------------------------------------------------------------------------------------

  track(promise: Promise<unknown>): void {
    const tracked = promise.catch((error: unknown) => {
      // Work cut short by close() (or by another tab's upgrade) is not a failure worth a warning.
      if (this._db !== null && !this._closing) this.logger.warn('[memory] background task failed', error);
    });
    this._background.add(tracked);
    void tracked.finally(() => this._background.delete(tracked));
  }

  async whenIdle(): Promise<void> {
    this._index.start();
    while (this._background.size > 0) await Promise.all([...this._background]);
    await this.stats.counted();
  }

  private _startBackground(pending: string | null): void {
    this.track(this._recoverInterrupted());
    this._restoreStats(this._embedder, this._index);
    this.track(purgeExpiredWorkingItems(this.db(), this.now()));
    // Catch-up after the index is ready: chunks stored without a vector from the active embedder (a crash
    // between the two writes, an engine embedder that was not loaded), then staged vectors nobody will use.
    const index = this._index;
    this.track(
      index.ready.then(async () => {
        if (index.missing.length > 0) this.scheduleEmbedding([...index.missing]);
        await this._embedQueue;
        await this._collectGarbage(pending);
      }),
    );
    if (pending !== null) {
      const next = this.embedders.find((e) => embedderKey(e) === pending);
      // A switch cut short by a closed tab resumes here, from the vectors it had already staged.
      if (next !== undefined) this.track(this._index.ready.then(() => this.switchEmbedder(next)));
      else this.logger.warn(`[memory] a switch to embedder ${pending} was cut short; it resumes on a page that can run it`);
    }
  }

  /** Replies left `streaming` by a tab that is gone (its lock is free) become `interrupted`, text kept. */
  private async _recoverInterrupted(): Promise<void> {
    const streaming: unknown[] = await this.db().getAllFromIndex('turns', 'by-streaming');
    for (const turn of streaming) {
      if (!isTurnRecord(turn)) continue;
      await ifLockFree(this.streamLockName(turn.id), async () => {
        const result = await updateTurnTx(this.writeContext(), turn.id, { status: 'interrupted' }, { onlyIfStreaming: true, touchSession: false });
        if (result !== null) this.afterTurnWrite(result.turn, result.changes);
      });
    }
  }

  private async _collectGarbage(pending: string | null): Promise<void> {
    const keep = new Set([embedderKey(this._embedder), ...(pending === null ? [] : [pending])]);
    const meta = await readEmbedderMeta(this.db());
    if (meta?.pending !== null && meta?.pending !== undefined) keep.add(meta.pending);
    // Staged vectors of a switch that will not happen (its embedder is neither active nor pending).
    const keys = await this.db().getAllKeys('vectors');
    const others = new Set(keys.map((k) => k[0]).filter((k) => !keep.has(k)));
    for (const other of others) {
      await deleteStagedVectors(this.db(), other);
      await writeTx(this.db(), ['meta'], (tx) => tx.objectStore('meta').delete(`stats:${other}`));
    }
  }

  // Shutdown -------------------------------------------------------------------------------------------------

  /** Another tab needs a newer schema (or the browser dropped the connection): let go at once. */
  closeForUpgrade(): void {
    if (this._db === null) return;
    this._db.close();
    this._db = null;
    this._index.dispose();
    this._tabs.close();
    this._emit({ type: 'closed', origin: 'local' });
    this._listeners.clear();
  }

  async close(): Promise<void> {
    if (this._db === null) return;
    this._closing = true;
    // Listeners stop scheduling work on this store (a background save of the retrieval index).
    this._emit({ type: 'closed', origin: 'local' });
    await this._embedQueue;
    // Changes still being counted in the background (queued behind the start's restore) go into the last save:
    // saving before them left a snapshot one message short, which the next visit had to recount.
    await this.stats.counted();
    await this.stats.persist(this._embedder).catch(() => undefined);
    // Not while a write (a stopped reply being saved) still runs: see idle-close.ts.
    const db = this._db;
    if (db !== null) await closeWhenIdle(db);
    if (this._db === null) return; // another tab's upgrade closed it meanwhile (closeForUpgrade cleaned up)
    this._db = null;
    this._index.dispose();
    this._tabs.close();
    // A closed store tells nothing more; its listeners (a planner and its memory) must not live on with it: the
    // database's event handlers keep this runtime reachable for as long as the browser keeps the connection object.
    this._listeners.clear();
  }
}

/**
 * Whether the store holds fewer than `SMALL_STORE_CHUNKS` chunks, reading at most that many keys: `count()` walks
 * every record (~15–50 ms a store at 10,000 chunks in Chromium) and holds back writes to the store meanwhile, which
 * the first message after a page load would wait for.
 */
async function isSmallStore(db: MemoryDatabase): Promise<boolean> {
  const chunks = await db.getAllKeys('chunks', null, SMALL_STORE_CHUNKS);
  if (chunks.length >= SMALL_STORE_CHUNKS) return false;
  const docs = await db.getAllKeys('docChunks', null, SMALL_STORE_CHUNKS - chunks.length);
  return chunks.length + docs.length < SMALL_STORE_CHUNKS;
}

/**
 * Keeps an embedder's corpus statistics (the built-in embedder's document frequencies, for IDF) in step with
 * the stored chunks, and persists a snapshot in meta now and then (not on every turn: it is 512 KB).
 * The statistics are derived data that only weigh queries (see hashed-ngram.ts): a lost update or two, or a
 * race between tabs, shifts an IDF slightly and nothing else. When the snapshot has drifted from the chunk
 * count (another tab wrote, a crash skipped a save) they are recounted from the chunks in the background.
 */
import { writeTx } from './db.ts';
import { embedderKey, type Embedder } from '../embedders/index.ts';
import { yieldToPage } from '../../shared/yield.ts';
import type { MemoryDatabase } from './schema.ts';
import type { MemoryLogger } from './validate.ts';

const SAVE_DELAY_MS = 2_000;
/** A change of more text than this is counted in the background, a text at a time (a 100,000-character paste). */
const SYNC_CHARS = 16_000;
/** Counting work between two yields to the page. */
const SLICE_MS = 12;

export class StatsKeeper {
  private readonly _db: MemoryDatabase;
  private readonly _logger: MemoryLogger;
  private readonly _now: () => number;
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _dirty = false;

  constructor(db: MemoryDatabase, logger: MemoryLogger, now: () => number) {
    this._db = db;
    this._logger = logger;
    this._now = now;
  }

  /** Changes still being counted in the background, in order; `discard` makes them stop. */
  private _queue: Promise<void> = Promise.resolve();
  private _queued = 0;
  private _generation = 0;

  /** Resolves when the changes queued so far are counted (and, for those counted in the background, saved). */
  counted(): Promise<void> {
    return this._queue;
  }

  change(embedder: Embedder, added: readonly string[], removed: readonly string[]): void {
    const stats = embedder.stats;
    if (stats === undefined || (added.length === 0 && removed.length === 0)) return;
    const chars = [...added, ...removed].reduce((n, t) => n + t.length, 0);
    if (chars <= SYNC_CHARS && this._queued === 0) {
      stats.remove(removed);
      stats.add(added);
      this._changed(embedder);
      return;
    }
    // Queued behind any earlier one, so changes still apply in order.
    const generation = this._generation;
    this._queued++;
    this._queue = this._queue.then(async () => {
      let since = performance.now();
      for (const [texts, apply] of [[removed, (t: string) => stats.remove([t])], [added, (t: string) => stats.add([t])]] as const) {
        for (const text of texts) {
          if (generation !== this._generation) return;
          apply(text);
          if (performance.now() - since >= SLICE_MS) {
            await yieldToPage();
            since = performance.now();
          }
        }
      }
      // Saved as soon as it is counted, not after the quiet time: a large change (a docs sync of thousands of
      // chunks) is done counting well after its records are written, and a reader who leaves in between would
      // leave statistics that have drifted, which the next visit recounts from every chunk.
      if (generation === this._generation) {
        this._dirty = true;
        if (this._queued === 1) await this.persist(embedder);
      }
    })
      .catch((error: unknown) => this._logger.warn('[memory] counting IDF statistics failed', error))
      .finally(() => this._queued--);
  }

  private _changed(embedder: Embedder): void {
    this._dirty = true;
    if (this._timer === null) {
      this._timer = setTimeout(() => {
        this._timer = null;
        this.persist(embedder).catch((error: unknown) => this._logger.warn('[memory] saving IDF statistics failed', error));
      }, SAVE_DELAY_MS);
    }
  }

  async persist(embedder: Embedder, force = false): Promise<void> {
    if (this._timer !== null) clearTimeout(this._timer);
    this._timer = null;
    if (embedder.stats === undefined || (!this._dirty && !force)) return;
    this._dirty = false;
    const { documents, df } = embedder.stats.snapshot();
    await writeTx(this._db, ['meta'], (tx) =>
      tx.objectStore('meta').put({ key: `stats:${embedderKey(embedder)}`, documents, df, savedAt: this._now() }),
    );
  }

  /**
   * Runs the restore of the snapshot (`restoreStats`) as the first item of the queue: changes made meanwhile (a
   * message stored the moment the page opens) are counted after it, rather than counted and then overwritten.
   */
  restoring<T>(restore: () => Promise<T>): Promise<T> {
    this._queued++;
    const run = this._queue.then(restore).finally(() => this._queued--);
    // The queue goes on either way; a failed restore is reported by its caller, who gets `run`.
    this._queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Forgets unsaved changes (after "delete everything"). */
  discard(): void {
    this._generation++;
    if (this._timer !== null) clearTimeout(this._timer);
    this._timer = null;
    this._dirty = false;
  }
}

/**
 * Restores the snapshot, or recounts from the chunks when it is missing or malformed; resolves whether a snapshot
 * was restored (then `checkStatsDrift` should follow, off the start's path). Changes made while it runs are
 * counted after it (`StatsKeeper.restoring`).
 */
export function restoreStats(keeper: StatsKeeper, embedder: Embedder, db: MemoryDatabase): Promise<boolean> {
  const stats = embedder.stats;
  if (stats === undefined) return Promise.resolve(false);
  return keeper.restoring(async () => {
    // Only the snapshot is read here, in a transaction of its own. Counting the chunk stores to tell a drifted
    // snapshot walks every record (IDBObjectStore.count: ~15–50 ms per store at 10,000 chunks in Chromium) and
    // holds back every write to those stores until it ends: the first message a user sent after opening the
    // page waited for it.
    const snapshot: unknown = await db.get('meta', `stats:${embedderKey(embedder)}`);
    if (snapshot !== undefined && stats.restore(snapshot)) return true;
    await recountStats(keeper, embedder, stats, db);
    return false;
  });
}

/**
 * Recounts when the restored snapshot has drifted from the chunks by more than 5 % (another tab wrote, a crash
 * skipped a save). Run once the page's start is over: the statistics only weigh queries, and until then the
 * snapshot serves.
 */
export async function checkStatsDrift(keeper: StatsKeeper, embedder: Embedder, db: MemoryDatabase): Promise<void> {
  const stats = embedder.stats;
  if (stats === undefined) return;
  const [chunks, docs] = await Promise.all([db.count('chunks'), db.count('docChunks')]);
  const total = chunks + docs;
  if (Math.abs(stats.documents - total) <= Math.max(20, total * 0.05)) return;
  await keeper.restoring(() => recountStats(keeper, embedder, stats, db));
}

async function recountStats(keeper: StatsKeeper, embedder: Embedder, stats: NonNullable<Embedder['stats']>, db: MemoryDatabase): Promise<void> {
  stats.reset();
  // Counted a text at a time in slices of SLICE_MS: a recount may now run while the user types (once the index is
  // ready), and a batch of 1,000 chunks counted at once was a long task.
  let since = performance.now();
  for (const store of ['chunks', 'docChunks'] as const) {
    let after: string | undefined;
    for (;;) {
      const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true);
      const batch: unknown[] = await db.getAll(store, range, 1_000);
      if (batch.length === 0) break;
      for (const record of batch) {
        const text = typeof record === 'object' && record !== null ? (record as { text?: unknown }).text : undefined;
        if (typeof text === 'string') stats.add([text]);
        if (performance.now() - since >= SLICE_MS) {
          await yieldToPage();
          since = performance.now();
        }
      }
      const last = batch[batch.length - 1] as { id?: unknown };
      if (typeof last.id !== 'string' || batch.length < 1_000) break;
      after = last.id;
    }
  }
  await keeper.persist(embedder, true);
}

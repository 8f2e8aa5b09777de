/**
 * The memory store: the user's sessions, turns, chunks and vectors in IndexedDB, on their device, never lost.
 *
 * Write before read: `appendTurn` commits the user's turn (with its chunk, and its vector when the embedder can
 * make it synchronously) in one transaction before it resolves, so retrieval that follows sees it. A reply is
 * stored while it streams (`startReply`), and one cut by a closed tab or a crash is marked `interrupted` at the
 * next start. The vector index is rebuilt from the stored vectors in the background; until then searches scan
 * the stored vectors exactly. Several tabs stay consistent through IndexedDB's transactions, a BroadcastChannel
 * and Web Locks (tabs.ts).
 */
import { AssistantError } from '../../shared/errors.ts';
import { estimateTokens, type TokenCount } from './chunking.ts';
import { DEFAULT_DB_NAME, newId, openMemoryDB, writeTx } from './db.ts';
import { HashedNgramEmbedder, type Embedder } from '../embedders/index.ts';
import { FlatIndex, type Namespace, type SearchHit } from '../vector-index/index.ts';
import { MemoryIndex, type IndexFactory } from './memory-index.ts';
import type { ChunkRecord, DocChunkRecord, SessionRecord, TurnRecord } from './records.ts';
import { ReplyWriter } from './reply-writer.ts';
import type { MemoryDatabase } from './schema.ts';
import { StoreRuntime, type MemoryChange } from './store-runtime.ts';
import { holdLock } from './tabs.ts';
import { commitBatch, importBatches, ImportConflict, prepareBatch, validateImport, type ImportTurnInput, type PreparedBatch } from './import-turns.ts';
import { appendTurnTx, updateTurnTx, type TurnPatch } from './turn-writes.ts';
import { consoleLogger, isChunkRecord, isDocChunkRecord, isSessionRecord, isTurnRecord, keepValid, type MemoryLogger } from './validate.ts';
import { StoreData } from './store-data.ts';

export type { MemoryChange } from './store-runtime.ts';

export interface MemoryStoreOptions {
  /** IndexedDB database name (tests use their own). */
  name?: string;
  /**
   * The IndexedDB to use: the page's by default, or a storage bucket's (`(await navigator.storageBuckets.open(
   * 'memory', { persisted: true, durability: 'strict' })).indexedDB`) to keep memory apart from other site data.
   */
  indexedDB?: IDBFactory;
  /** Embedders this page can run; the first is the default. The built-in hashed n-gram embedder when absent. */
  embedders?: Embedder[];
  /** `flat` (default: exact SIMD scan, fastest here), `voy` (k-d tree), or a factory. */
  index?: 'flat' | 'voy' | IndexFactory;
  /** Token counts of turns and parts; the app passes the Qwen counter. A character estimate when absent. */
  tokenCounter?: TokenCount;
  logger?: MemoryLogger;
  now?: () => number;
  /** How often a streaming reply is written (ms). */
  streamFlushMs?: number;
  /** Opening waits for another tab holding an older schema open (see `OpenOptions.onBlocked`). */
  onBlocked?: () => void;
}

export interface AppendTurnInput {
  sessionId: string;
  role: TurnRecord['role'];
  content: string;
  /** Give one to make retries idempotent: an id already stored is not appended twice. */
  id?: string;
  tags?: string[];
  /** For an assistant turn: the user turn it answers (default: the session's latest user turn). */
  replyTo?: string | null;
  tokenCount?: number;
  createdAt?: number;
}

export interface MemorySearchOptions {
  k?: number;
  namespace?: Namespace;
  /** Sessions (conversation) or doc ids (docs) to search in; all when absent. */
  scopes?: readonly string[];
  /** Wait for the index rebuild instead of scanning the stored vectors exactly meanwhile. */
  wait?: boolean;
}

export interface ConversationHit {
  namespace: 'conversation';
  chunk: ChunkRecord;
  score: number;
}

export interface DocHit {
  namespace: 'docs';
  chunk: DocChunkRecord;
  score: number;
}

export type MemoryHit = ConversationHit | DocHit;

function indexFactory(option: MemoryStoreOptions['index'], logger: MemoryLogger): IndexFactory {
  if (typeof option === 'function') return option;
  if (option === 'voy') {
    return async (dimensions) => {
      const [{ loadVoy }, { VoyIndex }] = await Promise.all([import('../vector-index/voy-loader.ts'), import('../vector-index/voy-index.ts')]);
      return new VoyIndex(await loadVoy(), dimensions, { onWarning: (m, e) => logger.warn(m, e) });
    };
  }
  return (dimensions) => new FlatIndex(dimensions);
}

export class MemoryStore extends StoreData {
  private readonly _flushMs: number;

  private constructor(runtime: StoreRuntime, flushMs: number) {
    super(runtime);
    this._flushMs = flushMs;
  }

  static async open(options: MemoryStoreOptions = {}): Promise<MemoryStore> {
    const name = options.name ?? DEFAULT_DB_NAME;
    const logger = options.logger ?? consoleLogger;
    const now = options.now ?? Date.now;
    const embedders = options.embedders ?? [new HashedNgramEmbedder()];
    if (embedders.length === 0) throw new AssistantError('invalid_config', 'The memory store needs at least one embedder.');
    let runtime: StoreRuntime | null = null;
    let db: MemoryDatabase | null = null;
    // Another tab deleting or upgrading the database while start-up runs must not wait for start-up to end: a
    // connection that ignores the versionchange blocks that tab for as long as this page lives.
    let letGo = false;
    const release = (): void => {
      if (runtime !== null) runtime.closeForUpgrade();
      else {
        letGo = true;
        db?.close();
      }
    };
    db = await openMemoryDB(name, {
      now,
      ...(options.indexedDB === undefined ? {} : { factory: options.indexedDB }),
      onVersionChange: release,
      onTerminated: release,
      ...(options.onBlocked === undefined ? {} : { onBlocked: options.onBlocked }),
    });
    const gone = (): AssistantError =>
      new AssistantError('internal', `The memory database "${name}" was deleted or upgraded by another tab while it opened; reload the page.`);
    try {
      runtime = await StoreRuntime.start({
        db,
        name,
        embedders,
        createIndex: indexFactory(options.index, logger),
        counter: options.tokenCounter ?? estimateTokens,
        logger,
        now,
      });
    } catch (error) {
      throw letGo ? gone() : error;
    }
    if (letGo) {
      runtime.closeForUpgrade();
      throw gone();
    }
    return new MemoryStore(runtime, options.streamFlushMs ?? 50);
  }

  /** The embedder whose vectors are searched. */
  get embedder(): Embedder {
    return this._rt.embedder;
  }

  get index(): MemoryIndex {
    return this._rt.index;
  }

  /** Resolves when start-up work (index rebuild, crash recovery, catch-up embedding) and queued embedding are done. */
  whenIdle(): Promise<void> {
    return this._rt.whenIdle();
  }

  /** Changes made here or in another tab (for the UI). */
  subscribe(listener: (change: MemoryChange) => void): () => void {
    return this._rt.subscribe(listener);
  }

  close(): Promise<void> {
    return this._rt.close();
  }

  // Sessions -------------------------------------------------------------------------------------------------

  async createSession(init: { id?: string; title?: string } = {}): Promise<SessionRecord> {
    const now = this._rt.now();
    const session: SessionRecord = { id: init.id ?? newId(), title: init.title ?? '', createdAt: now, updatedAt: now, lastSeq: 0 };
    return writeTx(this._rt.db(), ['sessions'], async (tx) => {
      const existing: unknown = await tx.objectStore('sessions').get(session.id);
      if (isSessionRecord(existing)) return existing;
      await tx.objectStore('sessions').put(session);
      return session;
    });
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const record: unknown = await this._rt.db().get('sessions', id);
    return isSessionRecord(record) ? record : undefined;
  }

  /** Most recently active first. */
  async listSessions(): Promise<SessionRecord[]> {
    const all = keepValid(await this._rt.db().getAll('sessions'), isSessionRecord, 'session', this._rt.logger);
    return all.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async renameSession(id: string, title: string): Promise<SessionRecord | null> {
    return writeTx(this._rt.db(), ['sessions'], async (tx) => {
      const session: unknown = await tx.objectStore('sessions').get(id);
      if (!isSessionRecord(session)) return null;
      const renamed = { ...session, title, updatedAt: this._rt.now() };
      await tx.objectStore('sessions').put(renamed);
      return renamed;
    });
  }

  // Turns ----------------------------------------------------------------------------------------------------

  /** Stores a turn (write before read): resolves once it and its chunks are committed. */
  async appendTurn(input: AppendTurnInput): Promise<TurnRecord> {
    validateAppend(input);
    const { turn, created, changes } = await appendTurnTx(this._rt.writeContext(), {
      id: input.id ?? newId(),
      sessionId: input.sessionId,
      role: input.role,
      content: input.content,
      status: 'complete',
      tags: input.tags ?? [],
      replyTo: input.replyTo,
      tokenCount: input.tokenCount,
      createdAt: input.createdAt,
    });
    if (created) this._rt.afterTurnWrite(turn, changes);
    return turn;
  }

  /**
   * Starts an assistant reply: a turn marked `streaming`, stored at once, written as text arrives.
   * The caller must end it with `complete()` or `interrupt()`.
   */
  async startReply(sessionId: string, options: { id?: string; replyTo?: string | null } = {}): Promise<ReplyWriter> {
    const id = options.id ?? newId();
    // The lock is taken before the turn exists, so no other tab can ever see this turn streaming with a free lock.
    const release = await holdLock(this._rt.streamLockName(id));
    try {
      const { turn, created } = await appendTurnTx(this._rt.writeContext(), {
        id,
        sessionId,
        role: 'assistant',
        content: '',
        status: 'streaming',
        tags: [],
        replyTo: options.replyTo,
        tokenCount: 0,
        createdAt: undefined,
      });
      if (!created) throw new AssistantError('invalid_input', `Turn ${id} already exists.`);
      this._rt.notify({ type: 'turns', sessionId, turnIds: [id] });
      return new ReplyWriter(turn, this._rt.replySink(), release, this._flushMs);
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * Imports many turns into a session, in order, about `batchSize` per transaction (each batch all or nothing).
   * Turns whose id is already stored are skipped, so an interrupted import can simply be run again.
   */
  async importTurns(
    sessionId: string,
    turns: readonly ImportTurnInput[],
    options: { batchSize?: number; onProgress?: (done: number, total: number) => void } = {},
  ): Promise<number> {
    validateImport(turns);
    const batches = importBatches(turns, options.batchSize ?? 1_000);
    let done = 0;
    let imported = 0;
    let next = batches.length > 0 ? await this._prepareImport(sessionId, batches[0]!) : null;
    for (let i = 0; i < batches.length; i++) {
      let prepared = next!;
      for (let attempt = 0; ; attempt++) {
        const commit = commitBatch(this._rt.writeContext(), sessionId, prepared);
        // Awaited below, after the next batch is prepared: a failure meanwhile (a full disk) must not surface as an
        // unhandled rejection first. Preparing reads the store when the turns carry ids (an export's import does).
        commit.done.catch(() => undefined);
        await commit.issued;
        // While the browser commits this batch, build the next one.
        if (attempt === 0) next = i + 1 < batches.length ? await this._prepareImport(sessionId, batches[i + 1]!) : null;
        try {
          const result = await commit.done;
          this._rt.afterChunks('conversation', result.changes.written, result.changes.oldTexts, result.changes.staleIds);
          if (result.turns.length > 0) this._rt.notify({ type: 'turns', sessionId, turnIds: result.turns.map((t) => t.id) });
          imported += result.turns.length;
          break;
        } catch (error) {
          // Another tab stored some of these ids meanwhile: rebuild the batch without them and try again.
          if (!((error as { cause?: unknown }).cause instanceof ImportConflict) || attempt >= 3) throw error;
          prepared = await this._prepareImport(sessionId, batches[i]!);
        }
      }
      done += batches[i]!.length;
      options.onProgress?.(done, turns.length);
    }
    return imported;
  }

  /** Prepares a batch, leaving out turns whose chosen id is already stored (a re-import). */
  private async _prepareImport(sessionId: string, batch: readonly ImportTurnInput[]): Promise<PreparedBatch> {
    const chosen = batch.filter((t) => t.id !== undefined);
    let fresh = batch;
    if (chosen.length > 0) {
      const tx = this._rt.db().transaction('turns', 'readonly');
      const keys = await Promise.all(chosen.map((t) => tx.store.getKey(t.id!)));
      const stored = new Set(chosen.filter((_, i) => keys[i] !== undefined).map((t) => t.id));
      fresh = batch.filter((t) => t.id === undefined || !stored.has(t.id));
    }
    return prepareBatch(this._rt.writeContext(), sessionId, fresh);
  }

  /** Edits a turn (content, tags, status). Returns null when the turn does not exist. */
  async updateTurn(id: string, patch: TurnPatch): Promise<TurnRecord | null> {
    const result = await updateTurnTx(this._rt.writeContext(), id, patch);
    if (result === null) return null;
    this._rt.afterTurnWrite(result.turn, result.changes);
    return result.turn;
  }

  async getTurn(id: string): Promise<TurnRecord | undefined> {
    const record: unknown = await this._rt.db().get('turns', id);
    if (record === undefined) return undefined;
    if (isTurnRecord(record)) return record;
    this._rt.logger.warn(`[memory] skipped malformed turn record ${id}`);
    return undefined;
  }

  /** A session's turns in order; malformed records are skipped with a warning. */
  async listTurns(sessionId: string, options: { afterSeq?: number; limit?: number } = {}): Promise<TurnRecord[]> {
    const range = IDBKeyRange.bound([sessionId, options.afterSeq ?? -Infinity], [sessionId, Infinity], options.afterSeq !== undefined);
    const records = await this._rt.db().getAllFromIndex('turns', 'by-session-seq', range, options.limit);
    return keepValid(records, isTurnRecord, 'turn', this._rt.logger);
  }

  // Chunks and search ----------------------------------------------------------------------------------------

  async listChunks(sessionId: string): Promise<ChunkRecord[]> {
    const records = await this._rt.db().getAllFromIndex('chunks', 'by-session', sessionId);
    return keepValid(records, isChunkRecord, 'chunk', this._rt.logger);
  }

  /** Top-k chunks for a text query, best first, with the active embedder (chunks with nothing in common left out). */
  search(query: string, options: MemorySearchOptions & { namespace: 'docs' }): Promise<DocHit[]>;
  search(query: string, options?: MemorySearchOptions & { namespace?: 'conversation' }): Promise<ConversationHit[]>;
  async search(query: string, options: MemorySearchOptions = {}): Promise<MemoryHit[]> {
    const [vector] = await this._rt.embedder.embed([query], { purpose: 'query' });
    const hits = await this.searchVector(vector!, options);
    const namespace = options.namespace ?? 'conversation';
    const store = namespace === 'docs' ? 'docChunks' : 'chunks';
    const tx = this._rt.db().transaction(store, 'readonly');
    const records: unknown[] = await Promise.all(hits.map((hit) => tx.store.get(hit.id)));
    const out: MemoryHit[] = [];
    records.forEach((record, i) => {
      const score = hits[i]!.score;
      // Nothing in common (a query whose every feature is unknown gives the zero vector): not a hit.
      if (!(score > 0)) return;
      if (namespace === 'conversation' && isChunkRecord(record)) out.push({ namespace, chunk: record, score });
      else if (namespace === 'docs' && isDocChunkRecord(record)) out.push({ namespace, chunk: record, score });
      else if (record !== undefined) this._rt.logger.warn(`[memory] skipped malformed ${namespace} chunk ${hits[i]!.id} in a search`);
    });
    return out;
  }

  /** Top-k by a ready-made vector of the active embedder (ids and scores only). */
  searchVector(vector: Float32Array, options: MemorySearchOptions = {}): Promise<SearchHit[]> {
    if (vector.length !== this._rt.embedder.dimensions) {
      return Promise.reject(new AssistantError('invalid_input', `The query vector has ${vector.length} dimensions, not ${this._rt.embedder.dimensions}.`));
    }
    return this._rt.index.search(options.namespace ?? 'conversation', vector, options.k ?? 20, {
      ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
      ...(options.wait === undefined ? {} : { wait: options.wait }),
    });
  }
}

function validateAppend(input: AppendTurnInput): void {
  if (typeof input.sessionId !== 'string' || input.sessionId === '') throw new AssistantError('invalid_input', 'A turn needs a session id.');
  if (input.role !== 'user' && input.role !== 'assistant' && input.role !== 'system') {
    throw new AssistantError('invalid_input', `Unknown role: ${String(input.role)}`);
  }
  if (typeof input.content !== 'string') throw new AssistantError('invalid_input', 'A turn needs text content.');
}

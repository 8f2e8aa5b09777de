/**
 * Engine embeddings for the memory, the setting's `engine` choice. Once the chat engine is ready it loads the
 * embedding model (a download with progress, which the user can cancel), reads the vectors this model made before
 * (IndexedDB), embeds the rest in the background, a small batch at a time (each batch waits for any chat in the
 * worker: a reply always goes first), keeps each batch on the disk, and only when every indexed text has a vector
 * hands them to the memory — the hashed vectors serve until then, and two models' vectors are never searched
 * together. Afterwards each new message or reply is embedded the same way and joins the search.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { EngineClient } from '../../engine/client.ts';
import type { EmbedderInfo, LoadProgress, ModelSource } from '../../engine/protocol.ts';
import { EngineVectors, embedderKey } from '../../memory/embedders/index.ts';
import { textHash, type MemoryStore, type MemoryVectorRecord } from '../../memory/store/index.ts';
import { AssistantError, isAbortError, toAssistantError } from '../../shared/errors.ts';
import type { MemoryPlanner } from './memory-planner.ts';

/** Texts per engine request: small, so a chat that arrives waits at most one batch. */
export const EMBED_BATCH = 8;

export type EmbeddingPhase = 'off' | 'model' | 'indexing' | 'ready' | 'failed';

export interface EmbeddingState {
  phase: EmbeddingPhase;
  /** The embedding model's download or start (phase `model`). */
  progress: LoadProgress | null;
  /** Indexed texts with a vector, of all (phase `indexing` and after). */
  done: number;
  total: number;
  /** Measured here: seconds per 1,000 texts, from the batches embedded so far (null before the first). */
  secondsPer1000: number | null;
  /** Bytes of the model's download, once known. */
  downloadBytes: number | null;
  model: EmbedderInfo | null;
  error: AssistantError | null;
}

export interface EngineEmbeddingsDeps {
  client: () => EngineClient;
  source: () => ModelSource;
  store: () => Promise<MemoryStore>;
  planner: MemoryPlanner;
  /** The chat engine's current load (null: not ready): the embedding model goes with it, and is loaded again after each. */
  engineLoad: () => object | null;
  wanted: () => boolean;
  /** The user cancelled: the setting goes back to the built-in vectors. */
  cancelled: () => void;
}

const OFF: EmbeddingState = { phase: 'off', progress: null, done: 0, total: 0, secondsPer1000: null, downloadBytes: null, model: null, error: null };

export class EngineEmbeddingsController implements ReactiveController {
  state: EmbeddingState = OFF;
  private _run: AbortController | null = null;
  private _vectors: EngineVectors | null = null;
  /** A catch-up (new texts after the vectors were complete) is running, or wanted again after it. */
  private _catchingUp: Promise<void> | null = null;
  private _catchUpAgain = false;
  private _embedMs = 0;
  private _embedded = 0;
  /** Ids whose vector from the current model is on the disk (with their text as it is now). */
  private _storedIds = new Set<string>();
  /** The engine load the embedding model was loaded into. */
  private _loadedFor: object | null = null;

  constructor(
    private readonly _host: ReactiveControllerHost,
    private readonly _deps: EngineEmbeddingsDeps,
  ) {
    _host.addController(this);
    _deps.planner.onIndexed = () => void this._catchUp();
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this._stop();
  }

  /** Starts, resumes or stops to match the setting and the engine (called when either changes). */
  sync(): void {
    if (!this._deps.wanted()) {
      this._stop();
      return;
    }
    const load = this._deps.engineLoad();
    if (load === null) return;
    if (load !== this._loadedFor) {
      // A new engine (a restart after a crash, another model): its worker has no embedding model yet.
      this._run?.abort();
      this._run = null;
      this._loadedFor = load;
      if (this.state.phase === 'failed') this._set({ phase: 'off', error: null });
    }
    // A failure waits for the user (Retry, or the setting turned off and on), not for the next render.
    if (this._run !== null || this.state.phase === 'failed') return;
    void this._start();
  }

  /** Tries again after a failure (the panel's Retry). */
  retry(): void {
    if (this.state.phase !== 'failed') return;
    this._set({ phase: 'off', error: null });
    this.sync();
  }

  /** The user's Cancel: the download or the embedding stops; what was embedded stays on the disk for next time. */
  cancel(): void {
    this._stop();
    this._deps.cancelled();
  }

  private _stop(): void {
    this._run?.abort();
    this._run = null;
    this._loadedFor = null;
    this._vectors = null;
    this._deps.planner.useEngineVectors(null);
    if (this.state.phase !== 'off') this._set(OFF);
  }

  private _set(patch: Partial<EmbeddingState>): void {
    this.state = { ...this.state, ...patch };
    this._host.requestUpdate();
  }

  private async _start(): Promise<void> {
    const run = new AbortController();
    this._run = run;
    const signal = run.signal;
    try {
      const client = this._deps.client();
      this._set({ phase: this.state.phase === 'ready' ? 'ready' : 'model', progress: null, error: null });
      const info = await client.loadEmbedder(
        { source: this._deps.source() },
        {
          signal,
          onProgress: (progress) => {
            if (this.state.phase === 'model') this._set({ progress, ...(progress.totalBytes > 0 ? { downloadBytes: progress.totalBytes } : {}) });
          },
        },
      );
      const vectors = new EngineVectors({ embed: (texts, options) => client.embed(texts, options) }, { modelId: info.modelId, dimensions: info.dimensions });
      // The same model loaded again (the engine restarted): the vectors in hand still hold.
      if (this._vectors !== null && this._vectors.id === vectors.id && this.state.phase === 'ready') {
        this._set({ model: info });
        return;
      }
      this._vectors = vectors;
      this._storedIds = new Set();
      this._set({ phase: 'indexing', model: info, progress: null });
      await this._embedMissing(vectors, signal, true);
      if (signal.aborted) return;
      // Scores are read against this model's own background from here on (see `EngineVectors.calibrate`).
      vectors.measureBackground();
      this._deps.planner.useEngineVectors(vectors);
      this._set({ phase: 'ready' });
      // The memory is rebuilt with them now, not at the next message; then vectors of texts it no longer holds go.
      await this._deps.planner.warm();
      // A saved index restored for this model may lack the rows of texts embedded after it was saved.
      this._deps.planner.fillVectors();
      // Texts indexed while the first pass ran (a reply that came in meanwhile) asked for a catch-up too early: their
      // turn is now, or they would wait for the next message to be embedded.
      await this._catchUp();
      const store = await this._deps.store();
      await store.sweepMemoryVectors((id) => this._deps.planner.indexes(id));
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return;
      this._run = null;
      // Queries could not be embedded now: the built-in vectors serve until Retry.
      this._vectors = null;
      this._deps.planner.useEngineVectors(null);
      this._set({ phase: 'failed', progress: null, error: toAssistantError(error, 'inference_failed') });
    }
  }

  /**
   * Embeds every indexed text still without a vector; returns how many it embedded. `readStored`: first takes this
   * model's vectors from the disk (at the start; a catch-up has them all in hand already).
   */
  private async _embedMissing(vectors: EngineVectors, signal: AbortSignal, readStored = false): Promise<number> {
    const store = await this._deps.store();
    const key = embedderKey(vectors);
    const [texts, stored] = await Promise.all([this._deps.planner.indexedTexts(), readStored ? store.memoryVectors(key) : new Map<string, MemoryVectorRecord>()]);
    const missing: typeof texts = [];
    const copies: MemoryVectorRecord[] = [];
    for (const entry of texts) {
      const record = stored.get(entry.id);
      if (record !== undefined && record.textHash === textHash(entry.text)) this._storedIds.add(entry.id);
      if (vectors.hasDocument(entry.text)) {
        // The same text under another id (a fixed greeting, a repeated question): its vector is on the disk too.
        if (!this._storedIds.has(entry.id)) copies.push({ embedder: key, id: entry.id, scope: entry.scope, textHash: textHash(entry.text), vector: vectors.documentVector(entry.text)! });
        continue;
      }
      if (record !== undefined && this._storedIds.has(entry.id) && vectors.putDocument(entry.text, record.vector)) continue;
      missing.push(entry);
    }
    await this._keep(store, copies);
    let done = texts.length - missing.length;
    if (this._vectors === vectors && this.state.phase === 'indexing') this._set({ done, total: texts.length });
    for (let i = 0; i < missing.length; i += EMBED_BATCH) {
      if (signal.aborted) return 0;
      const batch = missing.slice(i, i + EMBED_BATCH);
      const started = performance.now();
      const made = await vectors.embed(
        batch.map((e) => e.text),
        { purpose: 'document', signal },
      );
      this._embedMs += performance.now() - started;
      this._embedded += batch.length;
      const records: MemoryVectorRecord[] = [];
      batch.forEach((entry, j) => {
        const vector = made[j];
        if (vector === undefined || !vectors.putDocument(entry.text, vector)) return;
        records.push({ embedder: key, id: entry.id, scope: entry.scope, textHash: textHash(entry.text), vector });
      });
      await this._keep(store, records);
      done += batch.length;
      this._set({ done, total: Math.max(this.state.total, done), secondsPer1000: (this._embedMs / this._embedded) });
    }
    return missing.length;
  }

  private async _keep(store: MemoryStore, records: MemoryVectorRecord[]): Promise<void> {
    await store.putMemoryVectors(records);
    for (const record of records) this._storedIds.add(record.id);
  }

  /** New texts once the vectors are in use: embedded in the background, then searched with the rest. */
  private async _catchUp(): Promise<void> {
    const vectors = this._vectors;
    const run = this._run;
    if (vectors === null || run === null || this.state.phase !== 'ready') return;
    if (this._catchingUp !== null) {
      this._catchUpAgain = true;
      return;
    }
    this._catchingUp = (async () => {
      do {
        this._catchUpAgain = false;
        const embedded = await this._embedMissing(vectors, run.signal);
        if (embedded > 0) this._deps.planner.fillVectors();
      } while (this._catchUpAgain && !run.signal.aborted);
    })()
      .catch((error: unknown) => {
        if (!run.signal.aborted) console.warn('[memory] embedding new messages failed; they are searched by keywords', error);
      })
      .finally(() => {
        this._catchingUp = null;
      });
    await this._catchingUp;
  }
}

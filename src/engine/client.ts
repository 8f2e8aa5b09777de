/**
 * The main thread's handle on the engine worker. Every request gets an id, can be cancelled
 * with an AbortSignal, and is rejected at once — with code `worker_crashed` — if the worker dies.
 * After a crash, the next request starts a fresh worker.
 */
import { AssistantError, abortedError } from '../shared/errors.ts';
import type {
  CacheInfoResult,
  ChatMessage,
  ChatOptions,
  ChatResult,
  ClientMessage,
  EmbedPayload,
  EmbedPurpose,
  EmbedderInfo,
  LoadEmbedderPayload,
  LoadPayload,
  LoadProgress,
  LoadResult,
  Method,
  ModelSource,
  PrefillResult,
  RequestMap,
  WorkerMessage,
} from './protocol.ts';
import { alignEngineSteps, wallNow, type LoadRoundTrip } from './start-steps.ts';

export type ChatEvent = { type: 'delta'; text: string } | { type: 'final'; result: ChatResult };

export interface EngineClientOptions {
  /** How to start the worker; tests may pass their own. */
  createWorker?: () => Worker;
  /**
   * A worker silent for this long while requests are pending is declared dead. Silence is counted only while this
   * thread runs its timers, so a page that stalled (a long task, a throttled tab) does not blame the worker.
   */
  heartbeatTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** The silence allowed while a model loads (see `LOAD_SILENCE_MS`). */
  loadSilenceMs?: number;
  /** How long a model load may go without progress (see `LOAD_STALL_MS`). */
  loadStallMs?: number;
}

/**
 * Pings every half second and gives up after 3 s of silence: a worker that closed itself, was killed, or whose
 * thread is stuck is found within 3.5 s (the UI promises 5). A busy engine is not silent: wllama computes in its own
 * nested worker and web-llm on the GPU, so this worker's event loop answers pings during a long prefill.
 */
export const HEARTBEAT_TIMEOUT_MS = 3_000;
export const HEARTBEAT_INTERVAL_MS = 500;
/**
 * Loading is the exception: evaluating an engine's module (web-llm's is megabytes of script), compiling its wasm and
 * its shaders run on this worker's own thread, for seconds on a slow machine, so a load may be silent for longer.
 */
export const LOAD_SILENCE_MS = 30_000;
/**
 * A load whose worker answers pings but reports no progress for this long is stalled: a download whose bytes stopped
 * coming (fetch has no timeout of its own), or an engine that never settles. Every step of a load reports as it
 * goes (bytes fetched, the step entered, a share of the weights read), seconds apart even on a slow machine; the
 * worker is stopped and the load fails with `load_stalled` (the engine controller starts it again once).
 */
export const LOAD_STALL_MS = 30_000;

interface Pending {
  method: Method;
  resolve: (result: unknown) => void;
  reject: (error: AssistantError) => void;
  onEvent: (event: unknown) => void;
}

export function createEngineWorker(): Worker {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'qwen-engine' });
}

export class EngineClient {
  private _worker: Worker | null = null;
  private _nextId = 1;
  private readonly _pending = new Map<number, Pending>();
  private _heartbeat: ReturnType<typeof setInterval> | null = null;
  /** Silence since the worker's last message, counted in beats of this thread (see `_beat`). */
  private _silentMs = 0;
  private _lastTick = 0;
  private readonly _createWorker: () => Worker;
  private readonly _heartbeatTimeoutMs: number;
  private readonly _heartbeatIntervalMs: number;
  private readonly _loadSilenceMs: number;
  private readonly _loadStallMs: number;
  /** Time without progress while a model load is pending, counted in beats like `_silentMs`. */
  private _loadQuietMs = 0;
  private _lastBeat = 0;
  /** Called when the worker dies, after pending requests were rejected. */
  onCrash: ((error: AssistantError) => void) | null = null;

  constructor(options: EngineClientOptions = {}) {
    this._createWorker = options.createWorker ?? createEngineWorker;
    this._heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
    this._heartbeatIntervalMs = options.heartbeatIntervalMs ?? Math.min(HEARTBEAT_INTERVAL_MS, this._heartbeatTimeoutMs / 4);
    this._loadSilenceMs = Math.max(options.loadSilenceMs ?? LOAD_SILENCE_MS, this._heartbeatTimeoutMs);
    this._loadStallMs = options.loadStallMs ?? LOAD_STALL_MS;
  }

  get hasWorker(): boolean {
    return this._worker !== null;
  }

  /** Loads the model; the result's steps are on this page's clock (see `alignEngineSteps`). */
  async load(payload: LoadPayload, options: { onProgress?: (p: LoadProgress) => void; signal?: AbortSignal } = {}): Promise<LoadResult> {
    const result = await this._request('load', payload, options.signal, (p) => options.onProgress?.(p));
    const trip: LoadRoundTrip = { receivedAt: wallNow() };
    if (payload.requestedAt !== undefined) trip.requestedAt = payload.requestedAt;
    if (result.sentAt !== undefined) trip.sentAt = result.sentAt;
    return { ...result, steps: alignEngineSteps(result.steps, trip) };
  }

  /** Streams text deltas, then one final record with the engine's counters. */
  async *chat(messages: ChatMessage[], options: ChatOptions & { signal?: AbortSignal } = {}): AsyncGenerator<ChatEvent> {
    const { signal, ...chatOptions } = options;
    const queue: ChatEvent[] = [];
    let wake: (() => void) | null = null;
    let failure: AssistantError | null = null;
    let done = false;
    const notify = (): void => {
      wake?.();
      wake = null;
    };
    this._request('chat', { messages, options: chatOptions }, signal, (event) => {
      queue.push({ type: 'delta', text: event.text });
      notify();
    }).then(
      (result) => {
        queue.push({ type: 'final', result });
        done = true;
        notify();
      },
      (error: AssistantError) => {
        failure = error;
        done = true;
        notify();
      },
    );
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (failure !== null) throw failure;
      if (done) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }

  /**
   * Prefills a prompt's first messages into the KV cache (see `PrefillPayload`); a chat sent meanwhile waits for it
   * in the worker, and then prefills only what follows them.
   */
  prefill(messages: ChatMessage[], options: { signal?: AbortSignal } = {}): Promise<PrefillResult> {
    return this._request('prefill', { messages }, options.signal, () => {});
  }

  /** Loads the embedding model that goes with the loaded chat engine (see `RequestMap['loadEmbedder']`). */
  loadEmbedder(payload: LoadEmbedderPayload, options: { onProgress?: (p: LoadProgress) => void; signal?: AbortSignal } = {}): Promise<EmbedderInfo> {
    return this._request('loadEmbedder', payload, options.signal, (p) => options.onProgress?.(p));
  }

  /** Embeds with the loaded embedding model; `background` work waits for chats (see `EmbedPayload`). */
  async embed(texts: string[], options: { purpose?: EmbedPurpose; background?: boolean; signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    const payload: EmbedPayload = { texts, purpose: options.purpose ?? 'document' };
    if (options.background === true) payload.background = true;
    const result = await this._request('embed', payload, options.signal, () => {});
    return result.vectors;
  }

  async unload(): Promise<void> {
    if (this._worker === null) return;
    await this._request('unload', {}, undefined, () => {});
  }

  /** What the engines have cached for this source; needs no loaded model. */
  cacheInfo(source: ModelSource): Promise<CacheInfoResult> {
    return this._request('cacheInfo', { source }, undefined, () => {});
  }

  /** Deletes cached weights (of this source, or `all`); unloads the model first. */
  async deleteCache(source: ModelSource, all = false): Promise<void> {
    await this._request('deleteCache', { source, all }, undefined, () => {});
  }

  /** Stops the worker and rejects everything pending (used on shutdown, and by tests to simulate a crash). */
  terminate(reason = 'The engine worker was stopped.'): void {
    this._fail(new AssistantError('worker_crashed', reason), false);
  }

  private _request<M extends Method>(
    method: M,
    payload: RequestMap[M]['payload'],
    signal: AbortSignal | undefined,
    onEvent: (event: RequestMap[M]['event']) => void,
  ): Promise<RequestMap[M]['result']> {
    if (signal?.aborted) return Promise.reject(abortedError());
    const worker = this._ensureWorker();
    const id = this._nextId++;
    return new Promise<RequestMap[M]['result']>((resolve, reject) => {
      const onAbort = (): void => {
        // Tell the worker to stop, but settle now: the caller must not wait for a busy worker.
        this._post(worker, { type: 'cancel', id });
        settle();
        reject(abortedError());
      };
      const settle = (): void => {
        this._pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
        this._updateHeartbeat();
      };
      this._pending.set(id, {
        method,
        resolve: (result) => {
          settle();
          resolve(result as RequestMap[M]['result']);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        onEvent: onEvent as (event: unknown) => void,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (method === 'load') this._loadQuietMs = 0;
      this._post(worker, { type: 'request', id, method, payload } as ClientMessage);
      this._updateHeartbeat();
    });
  }

  private _post(worker: Worker, message: ClientMessage): void {
    try {
      worker.postMessage(message);
    } catch (error) {
      this._fail(new AssistantError('worker_crashed', `Could not reach the engine worker: ${String(error)}`), true);
    }
  }

  private _ensureWorker(): Worker {
    if (this._worker !== null) return this._worker;
    const worker = this._createWorker();
    worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => this._onMessage(event.data));
    worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault();
      const detail = event.message ? `: ${event.message}` : '';
      this._fail(new AssistantError('worker_crashed', `The engine worker crashed${detail}.`), true);
    });
    worker.addEventListener('messageerror', () => {
      this._fail(new AssistantError('worker_crashed', 'The engine worker sent a message that could not be read.'), true);
    });
    this._worker = worker;
    this._heard();
    return worker;
  }

  private _heard(): void {
    this._silentMs = 0;
    this._lastTick = performance.now();
  }

  private _onMessage(message: WorkerMessage): void {
    this._heard();
    if (message.type === 'pong') return;
    const pending = this._pending.get(message.id);
    if (pending === undefined) return; // cancelled or already settled
    if (message.type === 'event') {
      if (pending.method === 'load') this._loadQuietMs = 0;
      pending.onEvent(message.event);
    }
    else if (message.type === 'result') pending.resolve(message.result);
    else pending.reject(AssistantError.fromData(message.error));
  }

  /** Pings only while something is pending, so an idle app does no work. */
  private _updateHeartbeat(): void {
    if (this._pending.size > 0 && this._heartbeat === null && this._worker !== null) {
      this._heard();
      this._lastBeat = performance.now();
      this._heartbeat = setInterval(() => this._beat(), this._heartbeatIntervalMs);
    } else if (this._pending.size === 0 && this._heartbeat !== null) {
      clearInterval(this._heartbeat);
      this._heartbeat = null;
    }
  }

  private _beat(): void {
    const worker = this._worker;
    if (worker === null) return;
    // A beat counts at most two intervals: after a stall of this thread the worker's answers may still be queued
    // behind this timer, so only time this thread was listening is held against the worker.
    const now = performance.now();
    this._silentMs += Math.min(now - this._lastTick, 2 * this._heartbeatIntervalMs);
    this._lastTick = now;
    const loading = [...this._pending.values()].some((p) => p.method === 'load' || p.method === 'loadEmbedder');
    if (this._silentMs > (loading ? this._loadSilenceMs : this._heartbeatTimeoutMs)) {
      this._fail(new AssistantError('worker_crashed', 'The engine worker stopped responding.'), true);
      return;
    }
    // The same beats, for a model load that reports no progress (its worker may well answer pings).
    if ([...this._pending.values()].some((p) => p.method === 'load')) {
      this._loadQuietMs += Math.min(now - this._lastBeat, 2 * this._heartbeatIntervalMs);
      if (this._loadQuietMs > this._loadStallMs) {
        const seconds = Math.round(this._loadStallMs / 1000);
        this._fail(new AssistantError('load_stalled', `The model load made no progress for ${seconds} s; the engine worker was stopped.`), false);
        return;
      }
    }
    this._lastBeat = now;
    this._post(worker, { type: 'ping', id: 0 });
  }

  private _fail(error: AssistantError, crashed: boolean): void {
    const worker = this._worker;
    this._worker = null;
    worker?.terminate();
    if (this._heartbeat !== null) clearInterval(this._heartbeat);
    this._heartbeat = null;
    const pending = [...this._pending.values()];
    this._pending.clear();
    for (const request of pending) request.reject(error);
    if (crashed) this.onCrash?.(error);
  }
}

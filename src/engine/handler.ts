/**
 * The worker's side of the protocol, free of worker globals so it runs in Node tests with a scripted backend.
 * Two lanes. The model lane (load, chat, prefill, unload, caches) runs one request at a time (the model has one KV
 * cache); later ones wait their turn and can be cancelled while they wait. The embedding lane (loading the embedding
 * model, embedding) runs beside it, one at a time too, so an embedding model's download never holds a reply back; and
 * a background embedding waits while any model-lane request runs or waits: a chat always goes first.
 */
import { AssistantError, abortedError, toAssistantError } from '../shared/errors.ts';
import type { Backend, BackendFactory } from './backends/backend.ts';
import {
  CHAT_DEFAULTS,
  type CacheInfoResult,
  type ClientMessage,
  type ModelSource,
  type LoadPayload,
  type LoadResult,
  type Method,
  type RequestMap,
  type WorkerMessage,
} from './protocol.ts';
import { NO_GPU } from './probe-gpu.ts';
import { planBackends, type GpuCapabilities } from './select-backend.ts';
import { timed, wallNow, type EngineStep } from './start-steps.ts';

export interface ModelCacheOps {
  read(source: ModelSource): Promise<CacheInfoResult>;
  delete(source: ModelSource, all: boolean): Promise<void>;
}

export interface HandlerDeps {
  createBackend: BackendFactory;
  cache?: ModelCacheOps;
  probeGpu: () => Promise<GpuCapabilities>;
  post: (message: WorkerMessage, transfer?: Transferable[]) => void;
}

type Emit<M extends Method> = (event: RequestMap[M]['event']) => void;

export class EngineHandler {
  private _backend: Backend | null = null;
  /** A WebGPU backend lost its device in this worker: later loads do not choose it again. */
  private _webgpuLost = false;
  private _queue: Promise<unknown> = Promise.resolve();
  private _embedQueue: Promise<unknown> = Promise.resolve();
  /** Model-lane requests running or waiting, and who waits for there to be none. */
  private _modelBusy = 0;
  private _idleWaiters: Array<() => void> = [];
  private readonly _controllers = new Map<number, AbortController>();

  constructor(private readonly _deps: HandlerDeps) {}

  handle(message: ClientMessage): void {
    if (message.type === 'ping') {
      this._deps.post({ type: 'pong', id: message.id });
      return;
    }
    if (message.type === 'cancel') {
      this._controllers.get(message.id)?.abort();
      return;
    }
    const controller = new AbortController();
    this._controllers.set(message.id, controller);
    const run = async (): Promise<void> => {
      try {
        if (controller.signal.aborted) throw abortedError();
        const result = await this._dispatch(message, controller.signal);
        this._deps.post({ type: 'result', id: message.id, method: message.method, result } as WorkerMessage);
      } catch (error) {
        const coded = controller.signal.aborted ? abortedError() : toAssistantError(error, 'inference_failed');
        this._deps.post({ type: 'error', id: message.id, error: coded.toData() });
      } finally {
        this._controllers.delete(message.id);
      }
    };
    if (message.method === 'loadEmbedder' || message.method === 'embed') {
      const enter = (): void => {
        this._embedQueue = this._embedQueue.then(run, run);
      };
      // Background work waits for the model lane outside the embedding lane, so a query embedding is not held
      // behind it (a cancel while waiting enters at once, and fails there as aborted).
      if (message.method === 'embed' && message.payload.background === true) void this._modelIdle(controller.signal).then(enter, enter);
      else enter();
      return;
    }
    this._modelBusy++;
    const done = async (): Promise<void> => {
      try {
        await run();
      } finally {
        if (--this._modelBusy === 0) for (const wake of this._idleWaiters.splice(0)) wake();
      }
    };
    this._queue = this._queue.then(done, done);
  }

  /** Resolves when no model-lane request runs or waits (at once when none does); rejects on abort. */
  private _modelIdle(signal: AbortSignal): Promise<void> {
    if (this._modelBusy === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this._idleWaiters = this._idleWaiters.filter((w) => w !== wake);
        reject(abortedError());
      };
      this._idleWaiters.push(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private _emitter<M extends Method>(id: number, method: M): Emit<M> {
    return (event) => this._deps.post({ type: 'event', id, method, event } as WorkerMessage);
  }

  private async _dispatch(message: Extract<ClientMessage, { type: 'request' }>, signal: AbortSignal): Promise<unknown> {
    switch (message.method) {
      case 'load':
        return this._load(message.payload, this._emitter(message.id, 'load'), signal);
      case 'chat': {
        const backend = this._requireBackend();
        const options = { ...CHAT_DEFAULTS, ...message.payload.options };
        validateChat(message.payload.messages, options);
        const emit = this._emitter(message.id, 'chat');
        return this._dropIfGpuLost(backend, backend.chat(message.payload.messages, options, (text) => emit({ text }), signal));
      }
      case 'prefill': {
        const backend = this._requireBackend();
        validateMessages(message.payload.messages, 'A prefill request');
        return this._dropIfGpuLost(backend, backend.prefill(message.payload.messages, signal));
      }
      case 'loadEmbedder': {
        const backend = this._requireBackend();
        return this._dropIfGpuLost(backend, backend.loadEmbedder(message.payload, this._emitter(message.id, 'loadEmbedder'), signal));
      }
      case 'embed': {
        const backend = this._requireBackend();
        const vectors = await this._dropIfGpuLost(backend, backend.embed(message.payload.texts, message.payload.purpose ?? 'document', signal));
        return { vectors };
      }
      case 'unload':
        await this._unload();
        return null;
      case 'cacheInfo':
        return this._cache().read(message.payload.source);
      case 'deleteCache':
        // A loaded model may hold the files open; unload before deleting.
        await this._unload();
        await this._cache().delete(message.payload.source, message.payload.all);
        return null;
    }
  }

  /**
   * A WebGPU backend whose device was lost can do nothing more (web-llm unloaded itself): it is dropped, so the
   * app sees `not_loaded` state rather than a dead "ready" engine, and WebGPU is not chosen again by this worker.
   */
  private async _dropIfGpuLost<T>(backend: Backend, request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if (backend.kind === 'webllm' && toAssistantError(error).code === 'webgpu_unavailable') {
        this._webgpuLost = true;
        if (this._backend === backend) this._backend = null;
        await backend.unload().catch(() => {});
      }
      throw error;
    }
  }

  private _cache(): ModelCacheOps {
    if (this._deps.cache === undefined) throw new AssistantError('invalid_config', 'This engine has no model cache.');
    return this._deps.cache;
  }

  private _requireBackend(): Backend {
    if (this._backend === null) throw new AssistantError('not_loaded', 'No model is loaded yet. Load a model first.');
    return this._backend;
  }

  private async _unload(): Promise<void> {
    const backend = this._backend;
    this._backend = null;
    await backend?.unload();
  }

  /** Tries the planned backends in order; a failed first choice falls back to the next with a notice. */
  private async _load(payload: LoadPayload, emit: Emit<'load'>, signal: AbortSignal): Promise<LoadResult> {
    const steps: EngineStep[] = [];
    // The page's request to here: the worker's script fetched and run (or a queue, for a worker already running).
    if (payload.requestedAt !== undefined) steps.push({ name: 'worker', start: payload.requestedAt, end: wallNow() });
    await this._unload();
    // Only a load that could choose WebGPU asks for an adapter (up to 0.4 s on a busy page, measured).
    const mayUseGpu = payload.backend !== 'wasm' && payload.source.mlc !== undefined;
    const probed = mayUseGpu ? await timed(steps, 'gpu-probe', () => this._deps.probeGpu()) : NO_GPU;
    const gpu = { ...probed, lostThisSession: this._webgpuLost || payload.webgpuLost === true };
    const plan = planBackends(payload.backend, gpu, payload.source, { softwareGpu: payload.softwareGpu === true });
    if (plan.order.length === 0) throw new AssistantError('invalid_config', `No backend can run this model: ${plan.why}.`);
    let notice: string | undefined;
    let lastError: AssistantError | undefined;
    for (const kind of plan.order) {
      if (signal.aborted) throw abortedError();
      try {
        const backend = await timed(steps, 'engine-code', () => this._deps.createBackend(kind));
        const info = await backend.load(payload, emit, signal);
        this._backend = backend;
        const why = notice === undefined ? plan.why : 'WebGPU failed to load';
        const result: LoadResult = {
          backend: kind,
          reason: `${info.reason} (${why})`,
          modelUrl: info.modelUrl,
          contextWindow: payload.contextWindow,
          steps: [...steps, ...(info.steps ?? [])],
          sentAt: wallNow(),
        };
        if (info.threads !== undefined) result.threads = info.threads;
        if (notice !== undefined) result.fallbackNotice = notice;
        return result;
      } catch (error) {
        lastError = toAssistantError(error, 'load_failed');
        if (signal.aborted || lastError.code === 'aborted') throw abortedError();
        notice = `${kind === 'webllm' ? 'WebGPU (web-llm)' : 'WASM (wllama)'} could not load the model (${lastError.message}); using the next backend instead.`;
      }
    }
    throw lastError ?? new AssistantError('load_failed', 'The model could not be loaded.');
  }
}

function validateMessages(messages: unknown, what: string): void {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new AssistantError('invalid_input', `${what} needs at least one message.`);
  }
}

function validateChat(messages: unknown, options: { maxTokens: number; temperature: number; topP: number }): void {
  validateMessages(messages, 'A chat request');
  if (!Number.isInteger(options.maxTokens) || options.maxTokens < 1) {
    throw new AssistantError('invalid_input', `maxTokens must be a positive integer, got ${options.maxTokens}.`);
  }
  if (!(options.temperature >= 0 && options.temperature <= 2)) {
    throw new AssistantError('invalid_input', `temperature must be between 0 and 2, got ${options.temperature}.`);
  }
  if (!(options.topP > 0 && options.topP <= 1)) {
    throw new AssistantError('invalid_input', `topP must be in (0, 1], got ${options.topP}.`);
  }
}

/**
 * The one file both sides of the engine worker import: every request, its payload,
 * its result and the events it may emit, tied together in `RequestMap`.
 */
import type { ChatMessage } from '../shared/chat.ts';
import type { ErrorData } from '../shared/errors.ts';
import type { EngineStep, EngineStepName } from './start-steps.ts';

export type { ChatMessage, Role } from '../shared/chat.ts';

/** Which engine runs the model. `auto` picks WebGPU when the adapter is good enough. */
export type BackendPreference = 'auto' | 'webgpu' | 'wasm';
export type BackendKind = 'webllm' | 'wllama';

/** Where the weights come from. Either part may be missing; the backend that needs it is then skipped. */
export interface ModelSource {
  /** Absolute or page-relative URL of a GGUF file, for wllama. */
  ggufUrl?: string;
  /** An MLC model folder (absolute URL; files at `<url>/resolve/main/…`) and its compiled model library, for web-llm. */
  mlc?: MlcModelSource;
  /** The CPU engine's embedding model (a GGUF, loaded beside the chat model when embeddings are turned on). */
  embeddingGguf?: EmbeddingGgufSource;
}

/** An embedding GGUF and the texts its model card asks to put before queries and documents. */
export interface EmbeddingGgufSource {
  /** Absolute or page-relative URL of the GGUF file. */
  url: string;
  /** Put before a search query only (e5: `query: `; arctic-embed: `Represent this sentence for searching relevant passages: `). */
  queryPrefix?: string;
  /** Put before a stored text (e5: `passage: `). */
  documentPrefix?: string;
}

/** An MLC embedding model (WebGPU): web-llm's id, its weights folder, its compiled library, and its query prefix. */
export interface MlcEmbeddingSource {
  modelId: string;
  url: string;
  lib: string;
  queryPrefix?: string;
}

export interface MlcModelSource {
  /** web-llm's id for the model, e.g. `Qwen2.5-0.5B-Instruct-q4f16_1-MLC`; the f32 twin is derived when needed. */
  modelId: string;
  /** Folder URL for the q4f16_1 weights. */
  urlF16: string;
  /** Folder URL for the q4f32_1 weights. */
  urlF32: string;
  /** Model library (.wasm) for q4f16_1. */
  libF16: string;
  /** Model library (.wasm) for q4f32_1. */
  libF32: string;
  /** An MLC embedding model for `embed()` on WebGPU (the chat model cannot embed); loaded on first use. */
  embedding?: MlcEmbeddingSource;
}

export interface LoadPayload {
  backend: BackendPreference;
  source: ModelSource;
  /** Context window in tokens (prompt + answer). */
  contextWindow: number;
  /**
   * wllama only: reuse cached runs of at least this many tokens even when they are no longer at the same
   * position (llama.cpp's `n_cache_reuse`, KV shifting), so dropping old turns does not re-prefill the kept ones.
   * 0 turns it off: only a common prefix is reused. Default 0.
   */
  kvChunkReuse?: number;
  /**
   * WebGPU's device was lost earlier in this page session (the worker that saw it may be gone): the automatic
   * choice, and a forced WebGPU too, take the CPU engine instead of going back to a GPU that failed.
   */
  webgpuLost?: boolean;
  /**
   * `auto` may take a software (fallback) WebGPU adapter such as SwiftShader, which it otherwise skips: the widget's
   * `backend="webgpu"`, which tries WebGPU whatever the adapter and still falls back to the CPU when it fails.
   */
  softwareGpu?: boolean;
  /** Wall-clock ms (`wallNow()`) when the page asked for the load: the worker's start is timed from it. */
  requestedAt?: number;
  /**
   * false: load only weights already on this device, and answer `model_not_downloaded` otherwise (the user has not
   * agreed to a download). Default true.
   */
  allowDownload?: boolean;
}

export interface LoadProgress {
  phase: 'download' | 'init';
  /** The start step under way (the load panel names it). */
  step?: EngineStepName;
  /** Bytes fetched so far and in all (0 when unknown). */
  loadedBytes: number;
  totalBytes: number;
  /** 0…1 where known. */
  fraction: number;
  text: string;
}

export interface LoadResult {
  backend: BackendKind;
  /** Human-readable: which model variant and why this backend, e.g. "WebGPU, q4f32 — no shader-f16". */
  reason: string;
  /** Set when the preferred backend failed and another took over. */
  fallbackNotice?: string;
  modelUrl: string;
  contextWindow: number;
  /** wllama only: whether the multi-thread build runs (needs cross-origin isolation) and with how many threads. */
  threads?: number;
  /** Each step of this load, timed (wall-clock ms). */
  steps: EngineStep[];
  /** The worker's wall clock when it made this result (the client puts the steps on the page's clock with it). */
  sentAt?: number;
}

export interface ChatOptions {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
}

export const CHAT_DEFAULTS: Required<ChatOptions> = { maxTokens: 512, temperature: 0.7, topP: 0.9 };

export type FinishReason = 'stop' | 'length' | 'aborted';

export interface ChatTimings {
  /** From sending the request to the first text delta. */
  ttftMs: number;
  totalMs: number;
  /** Engine-reported prompt-processing and decoding time, where the engine reports them. */
  prefillMs: number;
  decodeMs: number;
}

export interface ChatResult {
  finishReason: FinishReason;
  promptTokens: number;
  /** Prompt tokens the engine reused from its KV cache instead of prefilling. */
  cachedTokens: number;
  completionTokens: number;
  /**
   * Counters computed by the backend rather than reported by the engine (web-llm reports only the tokens it
   * prefilled): the inspector labels them as derived.
   */
  derived?: Array<'promptTokens' | 'cachedTokens'>;
  /**
   * The reply as the engine recorded it, where that can differ from the streamed deltas joined (web-llm's
   * `getMessage()`): stored and re-sent as the reply, so the engine's cache can be continued.
   */
  text?: string;
  timings: ChatTimings;
}

export interface ChatPayload {
  messages: ChatMessage[];
  options: ChatOptions;
}

export interface ChatDelta {
  text: string;
}

/**
 * The messages the next prompt will start with (its system message and the history it keeps), prefilled into the
 * KV cache while the user types: the reply then prefills only what follows them.
 */
export interface PrefillPayload {
  messages: ChatMessage[];
}

export interface PrefillResult {
  /** false: this engine cannot hold a prompt prefix without a reply (web-llm); nothing was done. */
  supported: boolean;
  /** Tokens of the rendered messages, and those of them the cache already held. */
  promptTokens: number;
  cachedTokens: number;
  /** Wall-clock ms the request took in the worker. */
  ms: number;
}

export type EmbedPurpose = 'document' | 'query';

export interface EmbedPayload {
  texts: string[];
  /** A query gets the model's query prefix; a document its document prefix (default). */
  purpose?: EmbedPurpose;
  /**
   * Background work (indexing stored turns): it waits while a chat request runs or waits, so a chat always goes
   * first. A query for the prompt being built is not background.
   */
  background?: boolean;
}

export interface LoadEmbedderPayload {
  source: ModelSource;
  /** false: only weights already on this device (`model_not_downloaded` otherwise). Default true. */
  allowDownload?: boolean;
}

/** The embedding model that loaded: its name (vectors are tagged with it), width, and input limit in tokens. */
export interface EmbedderInfo {
  backend: BackendKind;
  /** The GGUF URL or web-llm model id. */
  modelId: string;
  dimensions: number;
  /** Longer texts are cut to this many of the model's own tokens (the query prefix included). */
  maxTokens: number;
}

export interface EmbedResult {
  vectors: Float32Array[];
}

/** A model file (or MLC model) kept in the browser's storage by an engine. */
export interface CachedModel {
  backend: BackendKind;
  /** The GGUF URL, or the MLC model id. */
  id: string;
  /** Bytes on disk where the engine can tell (wllama); null where it cannot (web-llm's Cache Storage). */
  bytes: number | null;
}

export interface CacheInfoResult {
  models: CachedModel[];
}

/** Each request type: its payload, its result and the event it streams (`never` when none). */
export interface RequestMap {
  load: { payload: LoadPayload; result: LoadResult; event: LoadProgress };
  chat: { payload: ChatPayload; result: ChatResult; event: ChatDelta };
  /** Warms the KV cache with a prompt's first messages (no reply); in the model lane, so a chat waits for it. */
  prefill: { payload: PrefillPayload; result: PrefillResult; event: never };
  /**
   * Loads the embedding model that goes with the loaded chat engine (a GGUF on the CPU, an MLC model on WebGPU).
   * It runs beside chat requests, never in front of them: a download does not hold a reply back.
   */
  loadEmbedder: { payload: LoadEmbedderPayload; result: EmbedderInfo; event: LoadProgress };
  embed: { payload: EmbedPayload; result: EmbedResult; event: never };
  unload: { payload: Record<string, never>; result: null; event: never };
  /** What the engines have cached for this source (works without loading a model). */
  cacheInfo: { payload: { source: ModelSource }; result: CacheInfoResult; event: never };
  /** Deletes the cached weights of this source (`all`: every model any engine cached). Unloads first. */
  deleteCache: { payload: { source: ModelSource; all: boolean }; result: null; event: never };
}

export type Method = keyof RequestMap;

/** Main thread → worker. */
export type ClientMessage =
  | { [M in Method]: { type: 'request'; id: number; method: M; payload: RequestMap[M]['payload'] } }[Method]
  | { type: 'cancel'; id: number }
  /** Liveness check: a worker that stops answering pings is treated as dead. */
  | { type: 'ping'; id: number };

/** Worker → main thread. */
export type WorkerMessage =
  | { [M in Method]: { type: 'event'; id: number; method: M; event: RequestMap[M]['event'] } }[Method]
  | { [M in Method]: { type: 'result'; id: number; method: M; result: RequestMap[M]['result'] } }[Method]
  | { type: 'error'; id: number; error: ErrorData }
  | { type: 'pong'; id: number };

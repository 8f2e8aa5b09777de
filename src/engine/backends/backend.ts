/** What every inference engine (web-llm on WebGPU, wllama on WASM) provides to the worker. */
import type {
  BackendKind,
  ChatMessage,
  ChatOptions,
  ChatResult,
  EmbedPurpose,
  EmbedderInfo,
  LoadEmbedderPayload,
  LoadPayload,
  LoadProgress,
  PrefillResult,
} from '../protocol.ts';
import type { EngineStep } from '../start-steps.ts';

export interface BackendLoadInfo {
  /** Model variant and why, for the badge. */
  reason: string;
  modelUrl: string;
  threads?: number;
  /** The backend's own start steps, timed. */
  steps?: EngineStep[];
}

export interface Backend {
  readonly kind: BackendKind;
  load(payload: LoadPayload, onProgress: (progress: LoadProgress) => void, signal: AbortSignal): Promise<BackendLoadInfo>;
  /** Streams text deltas through `onDelta`; resolves with the engine's own counters. Rejects with `aborted` when stopped. */
  chat(
    messages: ChatMessage[],
    options: Required<ChatOptions>,
    onDelta: (text: string) => void,
    signal: AbortSignal,
  ): Promise<ChatResult>;
  /** Prefills `messages` (rendered without the generation prompt) into the KV cache, generating nothing. */
  prefill(messages: ChatMessage[], signal: AbortSignal): Promise<PrefillResult>;
  /**
   * Loads the embedding model that goes with this engine (downloading it unless not allowed), beside the chat model:
   * it may run while a chat does.
   */
  loadEmbedder(payload: LoadEmbedderPayload, onProgress: (progress: LoadProgress) => void, signal: AbortSignal): Promise<EmbedderInfo>;
  /** Needs `loadEmbedder` first (`not_loaded`). Each text is cut to the model's token limit, with its purpose's prefix. */
  embed(texts: string[], purpose: EmbedPurpose, signal: AbortSignal): Promise<Float32Array[]>;
  unload(): Promise<void>;
}

export type BackendFactory = (kind: BackendKind) => Promise<Backend>;

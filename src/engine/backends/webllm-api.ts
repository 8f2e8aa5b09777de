/**
 * The part of @mlc-ai/web-llm 0.2.86 the WebGPU backend uses, named here so a test double can stand in for it
 * (test/fixtures/webllm-double.ts), and how its failures read. Every rule cites
 * node_modules/@mlc-ai/web-llm/lib/index.js.
 */
import type { ChatCompletionChunk, ChatCompletionRequestStreaming, CreateEmbeddingResponse, EmbeddingCreateParams, MLCEngineConfig } from '@mlc-ai/web-llm';

export interface WebLlmEngine {
  /** Resolves without an error when `unload()` aborted it (`reload`, ~18199–18204): check the signal after. */
  reload(modelId: string): Promise<void>;
  unload(): Promise<void>;
  interruptGenerate(): Promise<void> | void;
  /** The reply as web-llm recorded it in its conversation (`getMessage`, ~19019 → pipeline ~11993). */
  getMessage(modelId?: string): Promise<string>;
  chat: { completions: { create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> } };
  embeddings: { create(request: EmbeddingCreateParams): Promise<CreateEmbeddingResponse> };
}

export interface WebLlmModule {
  MLCEngine: new (config: MLCEngineConfig) => WebLlmEngine;
  ModelType: { embedding: number };
  /** Whether the model's weights are in web-llm's Cache Storage (`hasModelInCache`, ~14840). */
  hasModelInCache?(modelId: string, appConfig: MLCEngineConfig['appConfig']): Promise<boolean>;
}

/**
 * What the backend reads of an embedding model's pipeline to cut texts by its own tokens. web-llm keeps each loaded
 * model's pipeline in `MLCEngine.loadedModelIdToPipeline` (constructor ~18087, set by `reload` ~18328); an embedding
 * model's is an `EmbeddingPipeline` holding the tokenizer it encodes every string input with (`this.tokenizer`,
 * ~14949; `embedStep` ~15015) and the window it throws `EmbeddingExceedContextWindowSizeError` beyond
 * (`this.contextWindowSize` ~14970, checked ~15036–15040). Both fields are private in its types, so they are read
 * defensively: missing ones give undefined, and the backend falls back to a cut that needs no tokenizer.
 */
export interface EmbeddingPipelineView {
  tokenizer: { encode(text: string): ArrayLike<number> };
  contextWindowSize: number;
}

/** The window of web-llm's prebuilt arctic-embed libraries (`ctx512_cs512`), when the pipeline cannot be read. */
export const MLC_EMBEDDING_WINDOW = 512;

export function embeddingPipelineOf(engine: WebLlmEngine, modelId: string): EmbeddingPipelineView | undefined {
  const pipelines = (engine as unknown as { loadedModelIdToPipeline?: unknown }).loadedModelIdToPipeline;
  if (!(pipelines instanceof Map)) return undefined;
  const pipeline = pipelines.get(modelId) as Partial<EmbeddingPipelineView> | undefined;
  const encode = pipeline?.tokenizer?.encode;
  const window = pipeline?.contextWindowSize;
  if (typeof encode !== 'function' || typeof window !== 'number' || !(window > 0)) return undefined;
  return { tokenizer: { encode: (text) => encode.call(pipeline!.tokenizer, text) }, contextWindowSize: window };
}

/** The installed web-llm, loaded on first use (it is large, and only a WebGPU user needs it). */
export async function importWebLlm(): Promise<WebLlmModule> {
  // MLCEngine's `create` is overloaded (streaming or not); the backend only streams, so it is typed as such.
  return (await import('@mlc-ai/web-llm')) as unknown as WebLlmModule;
}

/**
 * Whether a web-llm error means its GPU device is gone for good:
 * - on device loss web-llm unloads itself (`device.lost.then(… this.unload())`, ~18303–18310), so every later
 *   request throws `ModelNotLoadedError` (`getModelIdToUse`, ~11382–11385: "Model not loaded before trying to
 *   complete …");
 * - a loss inside `reload()` throws `DeviceLostError` at its end (~18341);
 * - a request running while the pipeline is disposed meets TVM's "Object has already been disposed",
 *   "The current Object has already been disposed" or "Tensor has already been disposed" (~7396, ~7403, ~7496).
 */
export function isDeviceGone(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'ModelNotLoadedError' || name === 'DeviceLostError') return true;
  const message = error instanceof Error ? error.message : String(error);
  return /already been disposed|device (was )?lost|DeviceLost/i.test(message);
}

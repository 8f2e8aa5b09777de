/**
 * WebGPU backend: @mlc-ai/web-llm on an MLC model folder. Runs inside our engine worker, so it uses MLCEngine
 * directly. web-llm reuses its KV cache only under its own rules (webllm-cache.ts); its `usage.prompt_tokens` then
 * counts only what it prefilled, so the prompt's total and the cached part are derived here, and labelled so.
 * A lost GPU device ends this backend: it reports `webgpu_unavailable`, and the handler drops it.
 */
import type { ChatCompletionMessageParam } from '@mlc-ai/web-llm';
import { sanitizeText } from '../../shared/sanitize.ts';
import { AssistantError, abortedError, isAbortError } from '../../shared/errors.ts';
import { probeWebGpu } from '../probe-gpu.ts';
import type { ChatMessage, ChatOptions, ChatResult, EmbedPurpose, EmbedderInfo, LoadEmbedderPayload, LoadPayload, LoadProgress, MlcEmbeddingSource, MlcModelSource, PrefillResult } from '../protocol.ts';
import { cutToCharacterBound, cutToTokens, withPurpose } from '../embedding-input.ts';
import { describeGpu, gpuIsEnough, type GpuCapabilities } from '../select-backend.ts';
import type { Backend, BackendLoadInfo } from './backend.ts';
import { wallNow } from '../start-steps.ts';
import { explainLoadFailure } from './load-errors.ts';
import { MLC_EMBEDDING_WINDOW, embeddingPipelineOf, importWebLlm, isDeviceGone, type EmbeddingPipelineView, type WebLlmEngine, type WebLlmModule } from './webllm-api.ts';
import { EMPTY_CACHE, afterReply, reusesCache, type WebLlmCacheState, type WebLlmFinish } from './webllm-cache.ts';

function absolute(url: string): string {
  return new URL(url, globalThis.location?.href).href;
}

/** The variant to load: f16 weights need the adapter's `shader-f16` feature. */
export function pickMlcVariant(source: MlcModelSource, shaderF16: boolean): { modelId: string; url: string; lib: string } {
  if (shaderF16) return { modelId: source.modelId, url: absolute(source.urlF16), lib: absolute(source.libF16) };
  return { modelId: source.modelId.replace('q4f16_1', 'q4f32_1'), url: absolute(source.urlF32), lib: absolute(source.libF32) };
}

export interface WebLlmBackendDeps {
  webllm: () => Promise<WebLlmModule>;
  probeGpu: () => Promise<GpuCapabilities>;
}

const DEFAULT_DEPS: WebLlmBackendDeps = { webllm: importWebLlm, probeGpu: probeWebGpu };

/** The error that ends this backend: the handler drops it, and the app goes on on the CPU. */
function deviceGoneError(cause: unknown): AssistantError {
  const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return new AssistantError('webgpu_unavailable', `The GPU stopped working (its WebGPU device was lost): ${detail}`, { cause });
}

type AppConfig = NonNullable<ConstructorParameters<WebLlmModule['MLCEngine']>[0]['appConfig']>;

/** Whether web-llm's Cache Storage holds the model's weights (a web-llm without the check cannot tell: the load goes ahead). */
const inCache = (webllm: WebLlmModule, modelId: string, appConfig: AppConfig): Promise<boolean> =>
  webllm.hasModelInCache === undefined ? Promise.resolve(true) : webllm.hasModelInCache(modelId, appConfig).catch(() => false);

/** An MLCEngine whose load reports web-llm's progress as ours (download until it reaches 1, then init). */
function engineWithProgress(webllm: WebLlmModule, appConfig: AppConfig, onProgress: (p: LoadProgress) => void): WebLlmEngine {
  return new webllm.MLCEngine({
    appConfig,
    initProgressCallback: (report) =>
      onProgress({ phase: report.progress < 1 ? 'download' : 'init', loadedBytes: 0, totalBytes: 0, fraction: report.progress, text: report.text }),
  });
}

export class WebLlmBackend implements Backend {
  readonly kind = 'webllm' as const;
  private _engine: WebLlmEngine | null = null;
  private _embedder: { engine: WebLlmEngine; spec: MlcEmbeddingSource; pipeline: EmbeddingPipelineView | undefined; info: EmbedderInfo } | null = null;
  private _source: MlcModelSource | null = null;
  /** What web-llm's KV cache holds after the last request, by web-llm's rules. */
  private _cache: WebLlmCacheState = EMPTY_CACHE;

  constructor(private readonly _deps: WebLlmBackendDeps = DEFAULT_DEPS) {}

  async load(payload: LoadPayload, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<BackendLoadInfo> {
    const source = payload.source.mlc;
    if (source === undefined) throw new AssistantError('invalid_config', 'No MLC (WebGPU) model is configured.');
    const gpu = await this._deps.probeGpu();
    if (!gpuIsEnough(gpu)) throw new AssistantError('webgpu_unavailable', `WebGPU cannot run the model: ${describeGpu(gpu)}.`);
    if (signal.aborted) throw abortedError();
    const variant = pickMlcVariant(source, gpu.shaderF16);
    const webllm = await this._deps.webllm();
    const appConfig = {
      model_list: [
        {
          model: variant.url,
          model_id: variant.modelId,
          model_lib: variant.lib,
          overrides: { context_window_size: payload.contextWindow },
        },
      ],
    };
    // No download was allowed: only weights already in web-llm's cache are loaded.
    if (payload.allowDownload === false && !(await inCache(webllm, variant.modelId, appConfig))) {
      throw new AssistantError('model_not_downloaded', `The model ${variant.modelId} is not on this device, and no download was allowed.`);
    }
    const engine = engineWithProgress(webllm, appConfig, onProgress);
    const onAbort = (): void => void engine.unload().catch(() => {});
    signal.addEventListener('abort', onAbort, { once: true });
    // web-llm's reload is one step to us: fetching (or reading from its cache), compiling the shaders, the model.
    const loadStart = wallNow();
    try {
      await engine.reload(variant.modelId);
    } catch (error) {
      await engine.unload().catch(() => {});
      if (signal.aborted) throw abortedError();
      if (isDeviceGone(error)) throw new AssistantError('webgpu_unavailable', `The WebGPU device was lost while loading (${String((error as Error).message ?? error)}).`, { cause: error });
      throw await explainLoadFailure(`${variant.url}/resolve/main/mlc-chat-config.json`, error);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    // An unload during `reload()` (our abort, above) makes web-llm return normally (index.js ~18199–18204), with
    // nothing loaded: a cancelled load is not a loaded model.
    if (signal.aborted) {
      await engine.unload().catch(() => {});
      throw abortedError();
    }
    this._engine = engine;
    this._source = source;
    this._cache = EMPTY_CACHE;
    const adapter = gpu.description === '' ? '' : ` on ${gpu.description}`;
    return { reason: `${describeGpu(gpu)}${adapter}`, modelUrl: variant.url, steps: [{ name: 'model-load', start: loadStart, end: wallNow() }] };
  }

  /**
   * web-llm cannot hold a prompt prefix without a reply, so this does nothing. A request must generate
   * (`max_tokens` > 0, node_modules/@mlc-ai/web-llm/lib/index.js:901), and its cache is reused only when the next
   * request's messages before its last equal the held conversation, that reply included (`preparePrefillInput`,
   * ~19086–19090, `compareConversationObject`, ~10768): a warm-up's own reply would never be sent again. On a GPU
   * a prefill is fast anyway.
   */
  prefill(): Promise<PrefillResult> {
    this._require();
    return Promise.resolve({ supported: false, promptTokens: 0, cachedTokens: 0, ms: 0 });
  }

  async chat(
    messages: ChatMessage[],
    options: Required<ChatOptions>,
    onDelta: (text: string) => void,
    signal: AbortSignal,
  ): Promise<ChatResult> {
    const engine = this._require();
    // web-llm compares what it was sent, so the cache is tracked on the sanitized text.
    const sent = messages.map((m) => ({ role: m.role, content: sanitizeText(m.content) }));
    const reused = reusesCache(this._cache, sent);
    const started = performance.now();
    let ttftMs = -1;
    let finish: WebLlmFinish = 'stop';
    let usage: { prompt_tokens: number; completion_tokens: number; extra: { time_to_first_token_s: number; e2e_latency_s: number } } | undefined;
    let recorded: string;
    const onAbort = (): void => void engine.interruptGenerate();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const stream = await engine.chat.completions.create({
        messages: sent as ChatCompletionMessageParam[],
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: options.maxTokens,
        temperature: options.temperature,
        top_p: options.topP,
      });
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        const text = choice?.delta?.content ?? '';
        if (text) {
          if (ttftMs < 0) ttftMs = performance.now() - started;
          onDelta(text);
        }
        const reason = choice?.finish_reason;
        if (reason === 'length' || reason === 'abort' || reason === 'stop') finish = reason;
        if (chunk.usage) usage = chunk.usage;
      }
      // The reply web-llm holds in its conversation, and compares the next request's history against. The
      // stream's deltas hold back incomplete characters (`makeStreamDeltaChunk`, ~18387–18390), so their sum
      // can differ from it.
      recorded = await engine.getMessage();
    } catch (error) {
      this._cache = EMPTY_CACHE;
      if (signal.aborted || isAbortError(error)) throw abortedError();
      if (isDeviceGone(error)) {
        await this.unload().catch(() => {}); // nothing of it works again after a device loss
        throw deviceGoneError(error);
      }
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const code = /ContextWindowSizeExceeded/i.test(message) ? 'context_overflow' : 'inference_failed';
      throw new AssistantError(code, `The model failed while answering: ${message}`, { cause: error });
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (signal.aborted || finish === 'abort') {
      this._cache = EMPTY_CACHE;
      throw abortedError();
    }
    const prefilled = usage?.prompt_tokens ?? 0;
    const completionTokens = usage?.completion_tokens ?? 0;
    const cachedTokens = reused ? this._cache.filled : 0;
    this._cache = afterReply(this._cache, sent, reused, { promptTokens: prefilled, completionTokens }, finish, recorded);
    const totalMs = performance.now() - started;
    const prefillMs = (usage?.extra.time_to_first_token_s ?? 0) * 1000;
    return {
      finishReason: finish,
      promptTokens: cachedTokens + prefilled,
      cachedTokens,
      completionTokens,
      // web-llm reports only what it prefilled: the prompt's total and its cached part are ours, by its rules.
      derived: ['promptTokens', 'cachedTokens'],
      text: recorded,
      timings: {
        ttftMs: ttftMs < 0 ? totalMs : ttftMs,
        totalMs,
        prefillMs,
        decodeMs: Math.max(0, (usage?.extra.e2e_latency_s ?? 0) * 1000 - prefillMs),
      },
    };
  }

  /**
   * The chat model cannot embed: a small MLC embedding model is loaded beside it (a second MLCEngine, its own
   * pipeline), with web-llm's progress reports, and unloaded on abort.
   */
  async loadEmbedder(payload: LoadEmbedderPayload, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<EmbedderInfo> {
    this._require();
    const spec = payload.source.mlc?.embedding ?? this._source?.embedding;
    if (spec === undefined) {
      throw new AssistantError('invalid_config', 'WebGPU embeddings need an MLC embedding model, and the model source has none.');
    }
    if (this._embedder !== null && this._embedder.spec.modelId === spec.modelId) return this._embedder.info;
    await this._unloadEmbedder();
    const webllm = await this._deps.webllm();
    const url = absolute(spec.url);
    const appConfig = { model_list: [{ model: url, model_id: spec.modelId, model_lib: absolute(spec.lib), model_type: webllm.ModelType.embedding }] };
    if (payload.allowDownload === false && !(await inCache(webllm, spec.modelId, appConfig))) {
      throw new AssistantError('model_not_downloaded', `The embedding model ${spec.modelId} is not on this device, and no download was allowed.`);
    }
    const engine = engineWithProgress(webllm, appConfig, onProgress);
    const onAbort = (): void => void engine.unload().catch(() => {});
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await engine.reload(spec.modelId);
    } catch (error) {
      await engine.unload().catch(() => {});
      if (signal.aborted) throw abortedError();
      throw await explainLoadFailure(`${url}/resolve/main/mlc-chat-config.json`, error);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    // An unload during `reload()` returns normally with nothing loaded (as for the chat model, above); a chat model
    // unloaded meanwhile leaves nothing for this one to go with.
    if (signal.aborted || this._engine === null) {
      await engine.unload().catch(() => {});
      throw signal.aborted ? abortedError() : new AssistantError('not_loaded', 'The model was unloaded while the embedding model loaded.');
    }
    const pipeline = embeddingPipelineOf(engine, spec.modelId);
    const maxTokens = pipeline?.contextWindowSize ?? MLC_EMBEDDING_WINDOW;
    const [probe] = await this._embedWith(engine, spec, pipeline, maxTokens, ['dimension probe'], 'document');
    const info: EmbedderInfo = { backend: 'webllm', modelId: spec.modelId, dimensions: probe?.length ?? 0, maxTokens };
    this._embedder = { engine, spec, pipeline, info };
    return info;
  }

  async embed(texts: string[], purpose: EmbedPurpose, signal: AbortSignal): Promise<Float32Array[]> {
    this._require();
    const embedder = this._embedder;
    if (embedder === null) throw new AssistantError('not_loaded', 'No embedding model is loaded yet.');
    if (texts.length === 0) return [];
    if (signal.aborted) throw abortedError();
    try {
      return await this._embedWith(embedder.engine, embedder.spec, embedder.pipeline, embedder.info.maxTokens, texts, purpose);
    } catch (error) {
      if (!isDeviceGone(error)) throw error;
      await this.unload().catch(() => {}); // nothing of it works again after a device loss
      throw deviceGoneError(error);
    }
  }

  /**
   * Each text with its purpose's prefix (arctic-embed's query prefix on queries only), cut to the model's window by
   * web-llm's own tokenizer where it can be reached; otherwise by a bound that cannot exceed it.
   */
  private async _embedWith(
    engine: WebLlmEngine,
    spec: MlcEmbeddingSource,
    pipeline: EmbeddingPipelineView | undefined,
    maxTokens: number,
    texts: string[],
    purpose: EmbedPurpose,
  ): Promise<Float32Array[]> {
    const count = pipeline === undefined ? undefined : (text: string): number => pipeline.tokenizer.encode(text).length;
    const input = texts.map((text) => {
      const full = withPurpose(sanitizeText(text), purpose, { queryPrefix: spec.queryPrefix });
      return count === undefined ? cutToCharacterBound(full, maxTokens) : cutToTokens(full, maxTokens, count);
    });
    const response = await engine.embeddings.create({ input });
    return response.data.map((item) => Float32Array.from(item.embedding));
  }

  private async _unloadEmbedder(): Promise<void> {
    const embedder = this._embedder;
    this._embedder = null;
    await embedder?.engine.unload().catch(() => {});
  }

  async unload(): Promise<void> {
    const engine = this._engine;
    this._engine = null;
    this._source = null;
    this._cache = EMPTY_CACHE;
    await this._unloadEmbedder();
    await engine?.unload();
  }

  private _require(): WebLlmEngine {
    if (this._engine === null) throw new AssistantError('not_loaded', 'No model is loaded yet.');
    return this._engine;
  }
}

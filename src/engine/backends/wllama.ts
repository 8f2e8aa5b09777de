/**
 * WASM CPU backend: llama.cpp through @wllama/wllama, on a GGUF file. It keeps the KV cache of the
 * previous prompt and reuses any common token prefix (`timings.cache_n`), so an append-only prompt
 * costs only its new tokens.
 */
import { Wllama, type RawCompletionChunk } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
// The compat build (Asyncify, no Memory64) for browsers without JSPI/Memory64 (Safari): bundled next to our own
// files, so wllama never fetches it from its default CDN (jsDelivr), and it works offline where it is cached.
import compatWasmUrl from '@wllama/wllama-compat/wasm/wllama.wasm?url';
import compatWorkerUrl from '@wllama/wllama-compat/wasm/wllama.js?url';
import { renderChatML } from '../../shared/chat.ts';
import { sanitizeText } from '../../shared/sanitize.ts';
import { AssistantError, abortedError, isAbortError } from '../../shared/errors.ts';
import type { ChatMessage, ChatOptions, ChatResult, EmbedPurpose, EmbedderInfo, EmbeddingGgufSource, FinishReason, LoadEmbedderPayload, LoadPayload, LoadProgress, PrefillResult } from '../protocol.ts';
import { EMBEDDING_WINDOW, embedTexts } from './wllama-embed.ts';
import { withPurpose } from '../embedding-input.ts';
import type { Backend, BackendLoadInfo } from './backend.ts';
import { explainLoadFailure } from './load-errors.ts';
import { timed, type EngineStep } from '../start-steps.ts';
import { LoadClock, quietLogger, type WllamaLogger } from './wllama-load-clock.ts';

function threadCount(): number {
  // Threads need SharedArrayBuffer, which needs COOP/COEP (cross-origin isolation).
  if (!globalThis.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(globalThis.navigator?.hardwareConcurrency ?? 1, 8));
}

function absolute(url: string): string {
  return new URL(url, globalThis.location.href).href;
}

/** Where the compat build is served: next to the engine's own files (the app's origin, or the widget's base URL). */
export const WLLAMA_COMPAT = Object.freeze({ wasm: absolute(compatWasmUrl), worker: absolute(compatWorkerUrl) });

/** The page did not allow a download and the weights are not in wllama's cache (evicted, or never fetched). */
export const notDownloaded = (url: string): AssistantError =>
  new AssistantError('model_not_downloaded', `The model ${url} is not on this device, and no download was allowed.`);

export class WllamaBackend implements Backend {
  readonly kind = 'wllama' as const;
  private _wllama: Wllama | null = null;
  private _embedder: { wllama: Wllama; url: string; spec: EmbeddingGgufSource; info: EmbedderInfo } | null = null;
  private _modelUrl = '';
  private _threads = 1;
  private _payload: LoadPayload | null = null;

  async load(payload: LoadPayload, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<BackendLoadInfo> {
    if (payload.source.ggufUrl === undefined) throw new AssistantError('invalid_config', 'No GGUF model URL is configured.');
    const url = absolute(payload.source.ggufUrl);
    this._modelUrl = url;
    this._threads = threadCount();
    this._payload = payload;
    const steps: EngineStep[] = [];
    this._wllama = await this._open(url, payload, onProgress, signal, steps);
    onProgress({ phase: 'init', loadedBytes: 0, totalBytes: 0, fraction: 1, text: 'Model ready' });
    const mode = this._threads > 1 ? `${this._threads} threads` : 'single thread (page is not cross-origin isolated)';
    return { reason: `WASM CPU, ${mode}`, modelUrl: url, threads: this._threads, steps };
  }

  /**
   * Opens the cached weights (downloading them when they are not on the device) and loads them, timing each step:
   * `weights-open`, `wasm` (wllama's worker, its wasm compiled, its threads), `model-load` (llama.cpp reading the
   * weights, with the bytes read and the time spent waiting for them, and building the model and its context).
   */
  private async _open(url: string, payload: LoadPayload, onProgress: (p: LoadProgress) => void, signal: AbortSignal, steps: EngineStep[] = []): Promise<Wllama> {
    const clock = new LoadClock(steps, onProgress);
    const wllama = this._create(clock.logger);
    try {
      const blobs = await timed(steps, 'weights-open', async () => {
        clock.enter('weights-open');
        if (payload.allowDownload === false) {
          const cached = (await wllama.modelManager.getModels()).find((m) => m.url === url);
          if (cached === undefined) throw notDownloaded(url);
          return cached.open();
        }
        const model = await wllama.modelManager.getModelOrDownload({ url }, {
          signal,
          progressCallback: ({ loaded, total }) =>
            onProgress({ phase: 'download', step: 'weights-open', loadedBytes: loaded, totalBytes: total, fraction: total > 0 ? loaded / total : 0, text: 'Downloading the model' }),
        });
        return model.open();
      });
      if (signal.aborted) throw abortedError();
      await wllama.loadModel(clock.watchReads(blobs), {
        n_ctx: payload.contextWindow,
        // One slot: the whole window and one KV cache for the conversation (the default splits it four ways).
        n_parallel: 1,
        n_cache_reuse: payload.kvChunkReuse ?? 0,
        n_threads: this._threads,
        n_gpu_layers: 0,
        // llama.cpp's warm-up decodes two tokens and throws the result away: ~150 ms of a 0.5B start, and the first
        // reply measured no slower without it (README, "Starting fast").
        warmup: false,
      });
      clock.loaded();
    } catch (error) {
      await wllama.exit().catch(() => {});
      if (signal.aborted) throw abortedError();
      if (error instanceof AssistantError && error.code === 'model_not_downloaded') throw error;
      throw await explainLoadFailure(url, error);
    }
    // wllama resolves even for a file that is not a model (say an HTML page); the context then has no vocabulary.
    if (!(wllama.getLoadedContextInfo().n_vocab > 0)) {
      await wllama.exit().catch(() => {});
      throw new AssistantError('load_failed', `The file at ${url} is not a usable GGUF model (it loaded with no vocabulary). Check the model URL.`);
    }
    return wllama;
  }

  /**
   * wllama's wasm module dies when the model emits bytes that are not valid UTF-8 (it surfaces as a RangeError
   * "Invalid typed array length"); a fresh instance from the cached file takes over.
   */
  private async _recover(signal: AbortSignal): Promise<Wllama> {
    const dead = this._wllama;
    this._wllama = null;
    await dead?.exit().catch(() => {});
    if (this._payload === null) throw new AssistantError('not_loaded', 'No model is loaded yet.');
    this._wllama = await this._open(this._modelUrl, this._payload, () => {}, signal);
    return this._wllama;
  }

  async chat(
    messages: ChatMessage[],
    options: Required<ChatOptions>,
    onDelta: (text: string) => void,
    signal: AbortSignal,
  ): Promise<ChatResult> {
    let wllama = this._require();
    // Sanitizing is idempotent: text the context engine already cleaned passes unchanged.
    const prompt = renderChatML(messages.map((m) => ({ role: m.role, content: sanitizeText(m.content) })));
    const started = performance.now();
    let ttftMs = -1;
    let reply = '';
    let replyChunks = 0;
    let continuations = 0;
    let firstProgress: { total: number; cache: number } | undefined;
    let last: RawCompletionChunk | undefined;
    let finishReason: FinishReason = 'stop';
    for (;;) {
      try {
        const stream = await wllama.createCompletion({
          // After a failed chunk the reply so far is part of the prompt, so generation continues where it stopped.
          prompt: prompt + reply,
          stream: true,
          return_progress: true,
          max_tokens: Math.max(1, options.maxTokens - replyChunks),
          temperature: options.temperature,
          top_p: options.topP,
          abortSignal: signal,
        });
        for await (const chunk of stream) {
          last = chunk;
          if (chunk.prompt_progress && firstProgress === undefined) firstProgress = chunk.prompt_progress;
          const choice = chunk.choices[0];
          if (choice?.text) {
            if (ttftMs < 0) ttftMs = performance.now() - started;
            reply += choice.text;
            replyChunks++;
            onDelta(choice.text);
          }
          if (choice?.finish_reason === 'length') finishReason = 'length';
        }
        break;
      } catch (error) {
        if (signal.aborted || isAbortError(error)) throw abortedError();
        // Invalid UTF-8 from the model kills wllama's wasm module; reload it and continue from the text so far
        // (a few times at most).
        if (/Invalid typed array length|wllama has crashed/i.test(String(error)) && continuations < 3) {
          continuations++;
          console.warn(`wllama crashed mid-reply (${String(error)}); reloading and continuing after ${replyChunks} chunks`);
          wllama = await this._recover(signal);
          continue;
        }
        throw new AssistantError('inference_failed', `The model failed while answering: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    if (signal.aborted) throw abortedError();
    const totalMs = performance.now() - started;
    const timings = last?.timings;
    // The first request's progress report holds the counters for the user's prompt, even after a continuation.
    const cachedTokens = firstProgress?.cache ?? timings?.cache_n ?? 0;
    const promptTokens = firstProgress?.total ?? last?.usage?.prompt_tokens ?? cachedTokens + (timings?.prompt_n ?? 0);
    const completionTokens = continuations === 0 ? (last?.usage?.completion_tokens ?? timings?.predicted_n ?? replyChunks) : replyChunks;
    return {
      finishReason,
      promptTokens,
      cachedTokens,
      completionTokens,
      timings: {
        ttftMs: ttftMs < 0 ? totalMs : ttftMs,
        totalMs,
        prefillMs: timings?.prompt_ms ?? 0,
        decodeMs: timings?.predicted_ms ?? 0,
      },
    };
  }

  /**
   * Prefills the rendered messages (no generation prompt) by asking for one token: llama.cpp's server code samples
   * it from the prompt's logits and stops without decoding it, so the slot's cache is the prompt, and the next
   * request reuses its common prefix (`cache_prompt`, on by default; one slot, `n_parallel: 1`). The prompt ends
   * with `<|im_end|>\n`, and special tokens split the text before BPE, so its tokens are a prefix of the full
   * prompt's.
   */
  async prefill(messages: ChatMessage[], signal: AbortSignal): Promise<PrefillResult> {
    const wllama = this._require();
    const prompt = renderChatML(messages.map((m) => ({ role: m.role, content: sanitizeText(m.content) })), { addGenerationPrompt: false });
    const started = performance.now();
    let firstProgress: { total: number; cache: number } | undefined;
    let last: RawCompletionChunk | undefined;
    try {
      const stream = await wllama.createCompletion({ prompt, stream: true, return_progress: true, max_tokens: 1, temperature: 0, abortSignal: signal });
      for await (const chunk of stream) {
        last = chunk;
        if (chunk.prompt_progress && firstProgress === undefined) firstProgress = chunk.prompt_progress;
      }
    } catch (error) {
      if (signal.aborted || isAbortError(error)) throw abortedError();
      // A warm-up that fails costs nothing but the warm cache: the next reply prefills as it would have.
      if (/Invalid typed array length|wllama has crashed/i.test(String(error))) await this._recover(signal);
      throw new AssistantError('inference_failed', `The engine could not prefill the conversation: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const timings = last?.timings;
    const cachedTokens = firstProgress?.cache ?? timings?.cache_n ?? 0;
    return {
      supported: true,
      promptTokens: firstProgress?.total ?? last?.usage?.prompt_tokens ?? cachedTokens + (timings?.prompt_n ?? 0),
      cachedTokens,
      ms: performance.now() - started,
    };
  }

  /**
   * The embedding GGUF in a second wllama instance (its own context, created with `embeddings: true` and mean
   * pooling; its own nested worker, so it computes beside a chat rather than in front of it), downloaded through
   * wllama's model cache with progress, like the chat model.
   */
  async loadEmbedder(payload: LoadEmbedderPayload, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<EmbedderInfo> {
    this._require();
    const spec = payload.source.embeddingGguf;
    if (spec === undefined) throw new AssistantError('invalid_config', 'No embedding GGUF is configured for the CPU engine.');
    const url = absolute(spec.url);
    if (this._embedder !== null && this._embedder.url === url) return this._embedder.info;
    await this._unloadEmbedder();
    const wllama = this._create();
    try {
      let model;
      if (payload.allowDownload === false) {
        model = (await wllama.modelManager.getModels()).find((m) => m.url === url);
        if (model === undefined) throw notDownloaded(url);
      } else {
        model = await wllama.modelManager.getModelOrDownload({ url }, {
          signal,
          progressCallback: ({ loaded, total }) =>
            onProgress({ phase: 'download', loadedBytes: loaded, totalBytes: total, fraction: total > 0 ? loaded / total : 0, text: 'Downloading the embedding model' }),
        });
      }
      if (signal.aborted) throw abortedError();
      // All of a text must fit in one micro-batch for a pooled embedding, so the three sizes are the window.
      await wllama.loadModel(model, { embeddings: true, pooling_type: 'mean', n_ctx: EMBEDDING_WINDOW, n_batch: EMBEDDING_WINDOW, n_ubatch: EMBEDDING_WINDOW, n_threads: this._threads, n_gpu_layers: 0, warmup: false });
    } catch (error) {
      await wllama.exit().catch(() => {});
      if (signal.aborted || isAbortError(error)) throw abortedError();
      if (error instanceof AssistantError) throw error;
      throw await explainLoadFailure(url, error);
    }
    // Cancelled while llama.cpp read the file, or the chat model was unloaded meanwhile (a reload, a wipe): nothing
    // may keep this instance (its worker and memory) alive.
    if (signal.aborted || this._wllama === null) {
      await wllama.exit().catch(() => {});
      throw signal.aborted ? abortedError() : new AssistantError('not_loaded', 'The model was unloaded while the embedding model loaded.');
    }
    onProgress({ phase: 'init', loadedBytes: 0, totalBytes: 0, fraction: 1, text: 'Embedding model ready' });
    const context = wllama.getLoadedContextInfo();
    const maxTokens = Math.min(EMBEDDING_WINDOW, context.n_ctx_train > 0 ? context.n_ctx_train : EMBEDDING_WINDOW);
    const embedder = { wllama, url, spec, info: { backend: 'wllama' as const, modelId: url, dimensions: 0, maxTokens } };
    const [probe] = await embedTexts(wllama, ['dimension probe'], maxTokens);
    embedder.info.dimensions = probe?.length ?? 0;
    if (!(embedder.info.dimensions > 0)) {
      await wllama.exit().catch(() => {});
      throw new AssistantError('load_failed', `The file at ${url} gave no embedding. Is it an embedding model?`);
    }
    this._embedder = embedder;
    return embedder.info;
  }

  async embed(texts: string[], purpose: EmbedPurpose, signal: AbortSignal): Promise<Float32Array[]> {
    this._require();
    const embedder = this._embedder;
    if (embedder === null) throw new AssistantError('not_loaded', 'No embedding model is loaded yet.');
    if (signal.aborted) throw abortedError();
    if (texts.length === 0) return [];
    const input = texts.map((text) => withPurpose(sanitizeText(text), purpose, embedder.spec));
    try {
      return await embedTexts(embedder.wllama, input, embedder.info.maxTokens);
    } catch (error) {
      if (error instanceof AssistantError) throw error;
      throw new AssistantError('inference_failed', `The embedding model failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  private async _unloadEmbedder(): Promise<void> {
    const embedder = this._embedder;
    this._embedder = null;
    await embedder?.wllama.exit().catch(() => {});
  }

  async unload(): Promise<void> {
    const wllama = this._wllama;
    this._wllama = null;
    await Promise.all([wllama?.exit().catch(() => {}), this._unloadEmbedder()]);
  }

  private _create(logger: WllamaLogger = quietLogger): Wllama {
    // The main build's emscripten code is inlined in wllama's bundle (nothing fetched); its wasm is ours.
    const wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, allowOffline: true, logger });
    wllama.setCompat(WLLAMA_COMPAT);
    return wllama;
  }

  private _require(): Wllama {
    if (this._wllama === null) throw new AssistantError('not_loaded', 'No model is loaded yet.');
    return this._wllama;
  }
}

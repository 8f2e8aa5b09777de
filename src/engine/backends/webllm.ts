/**
 * WebGPU backend: @mlc-ai/web-llm on an MLC model folder. Runs inside our engine worker, so it uses
 * MLCEngine directly. web-llm reuses its KV cache only when the request's earlier messages are exactly
 * the previous conversation; its `usage.prompt_tokens` then counts only the new part, and we derive the
 * cached count from the previous request's totals.
 */
import type { ChatCompletionMessageParam, MLCEngine } from '@mlc-ai/web-llm';
import { sanitizeText } from '../../context/sanitize.ts';
import { AssistantError, abortedError, isAbortError } from '../../shared/errors.ts';
import { probeWebGpu } from '../probe-gpu.ts';
import type { ChatMessage, ChatOptions, ChatResult, FinishReason, LoadPayload, LoadProgress, MlcModelSource } from '../protocol.ts';
import { describeGpu, gpuIsEnough } from '../select-backend.ts';
import type { Backend, BackendLoadInfo } from './backend.ts';
import { explainLoadFailure } from './load-errors.ts';

function absolute(url: string): string {
  return new URL(url, globalThis.location.href).href;
}

/** The variant to load: f16 weights need the adapter's `shader-f16` feature. */
export function pickMlcVariant(source: MlcModelSource, shaderF16: boolean): { modelId: string; url: string; lib: string } {
  if (shaderF16) return { modelId: source.modelId, url: absolute(source.urlF16), lib: absolute(source.libF16) };
  return { modelId: source.modelId.replace('q4f16_1', 'q4f32_1'), url: absolute(source.urlF32), lib: absolute(source.libF32) };
}

export class WebLlmBackend implements Backend {
  readonly kind = 'webllm' as const;
  private _engine: MLCEngine | null = null;
  private _embedder: Promise<MLCEngine> | null = null;
  private _source: MlcModelSource | null = null;
  /** The conversation the KV cache holds after the last request, and its size in tokens. */
  private _cachedConversation: ChatMessage[] = [];
  private _cachedTokens = 0;

  async load(payload: LoadPayload, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<BackendLoadInfo> {
    const source = payload.source.mlc;
    if (source === undefined) throw new AssistantError('invalid_config', 'No MLC (WebGPU) model is configured.');
    const gpu = await probeWebGpu();
    if (!gpuIsEnough(gpu)) throw new AssistantError('webgpu_unavailable', `WebGPU cannot run the model: ${describeGpu(gpu)}.`);
    const variant = pickMlcVariant(source, gpu.shaderF16);
    const webllm = await import('@mlc-ai/web-llm');
    const engine = new webllm.MLCEngine({
      appConfig: {
        model_list: [
          {
            model: variant.url,
            model_id: variant.modelId,
            model_lib: variant.lib,
            overrides: { context_window_size: payload.contextWindow },
          },
        ],
      },
      initProgressCallback: (report) =>
        onProgress({ phase: report.progress < 1 ? 'download' : 'init', loadedBytes: 0, totalBytes: 0, fraction: report.progress, text: report.text }),
    });
    const onAbort = (): void => void engine.unload().catch(() => {});
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await engine.reload(variant.modelId);
    } catch (error) {
      await engine.unload().catch(() => {});
      if (signal.aborted) throw abortedError();
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      if (/device.*lost|DeviceLost/i.test(message)) throw new AssistantError('webgpu_unavailable', `The WebGPU device was lost while loading (${message}).`);
      throw await explainLoadFailure(`${variant.url}/resolve/main/mlc-chat-config.json`, error);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    this._engine = engine;
    this._source = source;
    return { reason: describeGpu(gpu), modelUrl: variant.url };
  }

  async chat(
    messages: ChatMessage[],
    options: Required<ChatOptions>,
    onDelta: (text: string) => void,
    signal: AbortSignal,
  ): Promise<ChatResult> {
    const engine = this._require();
    const extendsCache = isExtension(this._cachedConversation, messages);
    const started = performance.now();
    let ttftMs = -1;
    let reply = '';
    let finishReason: FinishReason = 'stop';
    let usage: { prompt_tokens: number; completion_tokens: number; extra: { time_to_first_token_s: number; e2e_latency_s: number } } | undefined;
    const onAbort = (): void => void engine.interruptGenerate();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const stream = await engine.chat.completions.create({
        messages: messages.map((m) => ({ role: m.role, content: sanitizeText(m.content) }) as ChatCompletionMessageParam),
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
          reply += text;
          onDelta(text);
        }
        if (choice?.finish_reason === 'length') finishReason = 'length';
        if (chunk.usage) usage = chunk.usage;
      }
    } catch (error) {
      this._forgetCache();
      if (signal.aborted || isAbortError(error)) throw abortedError();
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const code = /ContextWindowSizeExceeded/i.test(message) ? 'context_overflow' : 'inference_failed';
      throw new AssistantError(code, `The model failed while answering: ${message}`, { cause: error });
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (signal.aborted) {
      this._forgetCache();
      throw abortedError();
    }
    const newPromptTokens = usage?.prompt_tokens ?? 0;
    const cachedTokens = extendsCache ? this._cachedTokens : 0;
    const completionTokens = usage?.completion_tokens ?? 0;
    this._cachedConversation = [...messages, { role: 'assistant', content: reply }];
    this._cachedTokens = cachedTokens + newPromptTokens + completionTokens;
    const totalMs = performance.now() - started;
    const prefillMs = (usage?.extra.time_to_first_token_s ?? 0) * 1000;
    return {
      finishReason,
      promptTokens: cachedTokens + newPromptTokens,
      cachedTokens,
      completionTokens,
      timings: {
        ttftMs: ttftMs < 0 ? totalMs : ttftMs,
        totalMs,
        prefillMs,
        decodeMs: Math.max(0, (usage?.extra.e2e_latency_s ?? 0) * 1000 - prefillMs),
      },
    };
  }

  /** The chat model cannot embed: a small MLC embedding model is loaded beside it on first use. */
  async embed(texts: string[], signal: AbortSignal): Promise<Float32Array[]> {
    this._require();
    const spec = this._source?.embedding;
    if (spec === undefined) {
      throw new AssistantError('invalid_config', 'WebGPU embeddings need an MLC embedding model, and the model source has none.');
    }
    if (texts.length === 0) return [];
    this._embedder ??= this._loadEmbedder(spec).catch((error: unknown) => {
      this._embedder = null;
      throw error;
    });
    const embedder = await this._embedder;
    if (signal.aborted) throw abortedError();
    const response = await embedder.embeddings.create({ input: texts.map(sanitizeText) });
    return response.data.map((item) => Float32Array.from(item.embedding));
  }

  private async _loadEmbedder(spec: { modelId: string; url: string; lib: string }): Promise<MLCEngine> {
    const webllm = await import('@mlc-ai/web-llm');
    const url = absolute(spec.url);
    const embedder = new webllm.MLCEngine({
      appConfig: { model_list: [{ model: url, model_id: spec.modelId, model_lib: absolute(spec.lib), model_type: webllm.ModelType.embedding }] },
    });
    try {
      await embedder.reload(spec.modelId);
    } catch (error) {
      await embedder.unload().catch(() => {});
      throw await explainLoadFailure(`${url}/resolve/main/mlc-chat-config.json`, error);
    }
    return embedder;
  }

  async unload(): Promise<void> {
    const engine = this._engine;
    const embedder = this._embedder;
    this._engine = null;
    this._embedder = null;
    this._source = null;
    this._forgetCache();
    await engine?.unload();
    await (await embedder?.catch(() => null))?.unload();
  }

  private _forgetCache(): void {
    this._cachedConversation = [];
    this._cachedTokens = 0;
  }

  private _require(): MLCEngine {
    if (this._engine === null) throw new AssistantError('not_loaded', 'No model is loaded yet.');
    return this._engine;
  }
}

/** True when `next` starts with every message of `previous`, unchanged (what web-llm needs to reuse its cache). */
export function isExtension(previous: ChatMessage[], next: ChatMessage[]): boolean {
  if (previous.length === 0 || next.length <= previous.length) return false;
  return previous.every((m, i) => next[i]?.role === m.role && next[i]?.content === m.content);
}

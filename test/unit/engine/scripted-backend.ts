/** A backend that plays a script, for testing the worker handler without an engine. */
import type { Backend, BackendLoadInfo } from '../../../src/engine/backends/backend.ts';
import type { BackendKind, ChatMessage, ChatOptions, ChatResult, EmbedPurpose, EmbedderInfo, LoadProgress, PrefillResult } from '../../../src/engine/protocol.ts';
import { AssistantError, abortedError } from '../../../src/shared/errors.ts';

export interface Script {
  /** Error thrown by load, if any. */
  loadError?: AssistantError;
  /** Text deltas the chat streams, one per tick. */
  deltas?: string[];
  /** Milliseconds between deltas. */
  delayMs?: number;
  chatError?: AssistantError;
  /** Milliseconds a prefill takes; default 0. */
  prefillMs?: number;
  /** Milliseconds the embedding model takes to load (reported as a download in ten steps); default 0. */
  embedderLoadMs?: number;
  /** Milliseconds each embed request takes; default 0. */
  embedMs?: number;
  /** The load reports progress this many times, `loadStepMs` apart, before it resolves; `Infinity`: it never settles. */
  loadSteps?: number;
  loadStepMs?: number;
}

export class ScriptedBackend implements Backend {
  readonly calls: { method: string; messages?: ChatMessage[]; options?: Required<ChatOptions>; texts?: string[]; purpose?: EmbedPurpose; at?: number }[] = [];
  unloaded = false;

  constructor(
    readonly kind: BackendKind,
    private readonly _script: Script = {},
  ) {}

  async load(_payload: unknown, onProgress: (p: LoadProgress) => void): Promise<BackendLoadInfo> {
    this.calls.push({ method: 'load' });
    onProgress({ phase: 'download', loadedBytes: 5, totalBytes: 10, fraction: 0.5, text: 'half' });
    if (this._script.loadError) throw this._script.loadError;
    const steps = this._script.loadSteps ?? 0;
    for (let step = 1; step <= steps; step++) {
      await new Promise((r) => setTimeout(r, this._script.loadStepMs ?? 0));
      onProgress({ phase: 'init', step: 'model-load', loadedBytes: step, totalBytes: 0, fraction: 0, text: 'model-load' });
    }
    if (steps === Infinity) return new Promise<never>(() => {});
    const now = performance.timeOrigin + performance.now();
    return { reason: `${this.kind} scripted`, modelUrl: 'scripted://model', steps: [{ name: 'model-load', start: now - 5, end: now, readBytes: 10, readMs: 2 }] };
  }

  async chat(messages: ChatMessage[], options: Required<ChatOptions>, onDelta: (t: string) => void, signal: AbortSignal): Promise<ChatResult> {
    this.calls.push({ method: 'chat', messages, options, at: performance.now() });
    if (this._script.chatError) throw this._script.chatError;
    for (const delta of this._script.deltas ?? ['Hel', 'lo']) {
      await new Promise((r) => setTimeout(r, this._script.delayMs ?? 1));
      if (signal.aborted) throw abortedError();
      onDelta(delta);
    }
    return {
      finishReason: 'stop',
      promptTokens: 10,
      cachedTokens: 4,
      completionTokens: 2,
      timings: { ttftMs: 1, totalMs: 2, prefillMs: 1, decodeMs: 1 },
    };
  }

  async prefill(messages: ChatMessage[], signal: AbortSignal): Promise<PrefillResult> {
    this.calls.push({ method: 'prefill', messages, at: performance.now() });
    await new Promise((r) => setTimeout(r, this._script.prefillMs ?? 0));
    if (signal.aborted) throw abortedError();
    this.calls.push({ method: 'prefill-done', at: performance.now() });
    return { supported: true, promptTokens: 7, cachedTokens: 0, ms: this._script.prefillMs ?? 0 };
  }

  async loadEmbedder(_payload: unknown, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<EmbedderInfo> {
    this.calls.push({ method: 'loadEmbedder', at: performance.now() });
    const ms = this._script.embedderLoadMs ?? 0;
    for (let step = 1; step <= 10; step++) {
      await new Promise((r) => setTimeout(r, ms / 10));
      if (signal.aborted) throw abortedError();
      onProgress({ phase: 'download', loadedBytes: step, totalBytes: 10, fraction: step / 10, text: 'embedding model' });
    }
    return { backend: this.kind, modelId: 'scripted-embedder', dimensions: 2, maxTokens: 512 };
  }

  async embed(texts: string[], purpose: EmbedPurpose, signal: AbortSignal): Promise<Float32Array[]> {
    this.calls.push({ method: 'embed', texts, purpose, at: performance.now() });
    if ((this._script.embedMs ?? 0) > 0) await new Promise((r) => setTimeout(r, this._script.embedMs));
    if (signal.aborted) throw abortedError();
    return texts.map((t) => new Float32Array([t.length, purpose === 'query' ? 2 : 1]));
  }

  async unload(): Promise<void> {
    this.unloaded = true;
  }
}

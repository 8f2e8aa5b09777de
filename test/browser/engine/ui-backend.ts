/**
 * The backend of the scripted UI engine (served by ui-worker.ts and gpu-loss-worker.ts): it plays the test models'
 * parts (see ui-script.ts) without downloading or running one. Its counters are honest enough for the inspector to show: tokens are counted on the same ChatML prompt the real backend
 * renders (roughly: words, signs, spaces and special tokens), the cached tokens are the common prefix with the last
 * prompt and reply (as llama.cpp's prefix reuse), completion tokens are the chunks sent, timings are measured.
 */
import type { Backend, BackendLoadInfo } from '../../../src/engine/backends/backend.ts';
import type { ChatMessage, ChatOptions, ChatResult, EmbedderInfo, FinishReason, LoadPayload, LoadProgress, PrefillResult } from '../../../src/engine/protocol.ts';
import { renderChatML } from '../../../src/context/chatml.ts';
import { AssistantError, abortedError } from '../../../src/shared/errors.ts';
import { SCRIPTED_ENDLESS_URL, SCRIPTED_MODEL_URL, SCRIPTED_REPLY } from './ui-script.ts';

/** What the scripted "download" reports, in four steps (the generated test model's size). */
const MODEL_BYTES = 16_273_984;
/** Pause between two chunks of the fixed reply: it takes a few frames, as a real stream does. */
const CHUNK_MS = 10;
/**
 * Pause between two chunks of the endless reply: a few chunks arrive within a tenth of a second, and the default
 * answer room (512 tokens) lasts 15 s, so a test stops it long before it ends by itself (`length`).
 */
const ENDLESS_CHUNK_MS = 30;

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A rough tokenizer: special tokens, words, single signs, runs of spaces. */
const tokens = (text: string): string[] => text.match(/<\|[a-z_]+\|>|[\p{L}\p{N}]+|\s+|[^\p{L}\p{N}\s]/gu) ?? [];

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** SCRIPTED_REPLY cut into chunks of about three words. */
function replyChunks(): string[] {
  const words = SCRIPTED_REPLY.split(/(?<= )/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 3) out.push(words.slice(i, i + 3).join(''));
  return out;
}

export class ScriptedUiBackend implements Backend {
  readonly kind = 'wllama' as const;
  private _url: string | null = null;
  /** The tokens of the last prompt and its reply: what a KV cache would hold. */
  private _cache: string[] = [];

  async load(payload: LoadPayload, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<BackendLoadInfo> {
    const url = payload.source.ggufUrl;
    if (url !== SCRIPTED_MODEL_URL && url !== SCRIPTED_ENDLESS_URL) {
      throw new AssistantError('load_failed', `The scripted UI engine has no model at ${String(url)}; use ${SCRIPTED_MODEL_URL} or ${SCRIPTED_ENDLESS_URL}.`);
    }
    for (let step = 1; step <= 4; step++) {
      if (signal.aborted) throw abortedError();
      const loadedBytes = (MODEL_BYTES * step) / 4;
      onProgress({ phase: 'download', loadedBytes, totalBytes: MODEL_BYTES, fraction: step / 4, text: 'Downloading the model' });
      await tick(0);
    }
    onProgress({ phase: 'init', loadedBytes: 0, totalBytes: 0, fraction: 1, text: 'Model ready' });
    this._url = url;
    this._cache = [];
    return { reason: 'Scripted UI engine, no model runs', modelUrl: url, threads: 1 };
  }

  async chat(messages: ChatMessage[], options: Required<ChatOptions>, onDelta: (text: string) => void, signal: AbortSignal): Promise<ChatResult> {
    if (this._url === null) throw new AssistantError('not_loaded', 'No model is loaded yet.');
    const started = performance.now();
    const rendered = renderChatML(messages);
    const prompt = tokens(rendered);
    // llama.cpp evaluates at least the prompt's last token again.
    const cachedTokens = Math.max(0, Math.min(commonPrefix(prompt, this._cache), prompt.length - 1));
    const endless = this._url === SCRIPTED_ENDLESS_URL;
    const script = endless ? [] : replyChunks();
    let reply = '';
    let sent = 0;
    let ttftMs = -1;
    let finishReason: FinishReason = 'stop';
    try {
      for (;;) {
        if (!endless && sent === script.length) break;
        if (sent === options.maxTokens) {
          finishReason = 'length';
          break;
        }
        await tick(endless ? ENDLESS_CHUNK_MS : CHUNK_MS);
        if (signal.aborted) throw abortedError();
        const text = endless ? `word${sent} ` : script[sent]!;
        if (ttftMs < 0) ttftMs = performance.now() - started;
        reply += text;
        sent++;
        onDelta(text);
      }
    } finally {
      // What the KV cache holds afterwards, stopped or not: this prompt and the reply so far.
      this._cache = tokens(rendered + reply);
    }
    const totalMs = performance.now() - started;
    return {
      finishReason,
      promptTokens: prompt.length,
      cachedTokens,
      completionTokens: sent,
      timings: { ttftMs, totalMs, prefillMs: ttftMs, decodeMs: totalMs - ttftMs },
    };
  }

  /** Every prefill asked for, in order (the page reads them through `prefillLog` on the scripted worker). */
  readonly prefills: ChatMessage[][] = [];

  /** As llama.cpp: the cache becomes these messages, rendered without the generation prompt. */
  async prefill(messages: ChatMessage[], signal: AbortSignal): Promise<PrefillResult> {
    if (this._url === null) throw new AssistantError('not_loaded', 'No model is loaded yet.');
    const started = performance.now();
    const prompt = tokens(renderChatML(messages, { addGenerationPrompt: false }));
    await tick(CHUNK_MS);
    if (signal.aborted) throw abortedError();
    const cachedTokens = Math.min(commonPrefix(prompt, this._cache), prompt.length - 1);
    this._cache = prompt;
    this.prefills.push(messages);
    return { supported: true, promptTokens: prompt.length, cachedTokens, ms: performance.now() - started };
  }

  async loadEmbedder(): Promise<EmbedderInfo> {
    return { backend: this.kind, modelId: 'scripted-embedder', dimensions: 64, maxTokens: 512 };
  }

  /** A bag of words hashed into 64 dimensions: the same text, the same vector; shared words, closer vectors. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => {
      const vector = new Float32Array(64);
      for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
        let h = 2166136261;
        for (const c of word) h = Math.imul(h ^ c.codePointAt(0)!, 16777619);
        vector[(h >>> 0) % 64]! += 1;
      }
      return vector;
    });
  }

  async unload(): Promise<void> {
    this._url = null;
    this._cache = [];
  }
}


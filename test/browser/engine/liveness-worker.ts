/// <reference lib="webworker" />
/**
 * An engine worker for the liveness tests: the real handler (src/engine/handler.ts) with a backend whose reply is
 * chosen by the user's message:
 * - `[[close]]`: streams a marker, then the worker closes itself (no error event reaches the page);
 * - `[[hang]]`: streams a marker, then blocks this worker's thread for good (it answers no ping);
 * - `[[prefill:<ms>]]`: "prefills" for <ms> in a nested worker whose thread is busy the whole time (as wllama runs
 *   llama.cpp in its own nested worker), sends nothing meanwhile, then answers;
 * - anything else: streams a word every 50 ms until stopped.
 */
import type { Backend } from '../../../src/engine/backends/backend.ts';
import type { ChatMessage, ChatOptions, ChatResult } from '../../../src/engine/protocol.ts';
import { abortedError } from '../../../src/shared/errors.ts';
import { CLOSE, CLOSING_MARKER, HANG, HANGING_MARKER, PREFILLED_REPLY } from './liveness-script.ts';
import { SCRIPTED_RESULT as RESULT, serveBackend } from './serve-backend.ts';

declare const self: DedicatedWorkerGlobalScope;

/** Busy-waits `ms` on a nested worker's thread: the compute is elsewhere, this worker's event loop stays free. */
function computeElsewhere(ms: number, signal: AbortSignal): Promise<void> {
  const code = `onmessage = (e) => { const end = Date.now() + e.data; while (Date.now() < end) {} postMessage('done'); };`;
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const compute = new Worker(url);
  return new Promise<void>((resolve, reject) => {
    const stop = (): void => {
      compute.terminate();
      reject(abortedError());
    };
    signal.addEventListener('abort', stop, { once: true });
    compute.onmessage = () => {
      signal.removeEventListener('abort', stop);
      compute.terminate();
      URL.revokeObjectURL(url);
      resolve();
    };
    compute.postMessage(ms);
  });
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const livenessBackend: Backend = {
  kind: 'wllama',
  load: async () => ({ reason: 'liveness script', modelUrl: 'scripted://liveness' }),
  async chat(messages: ChatMessage[], _options: Required<ChatOptions>, onDelta: (text: string) => void, signal: AbortSignal): Promise<ChatResult> {
    const text = messages.findLast((m) => m.role === 'user')?.content ?? '';
    if (text.includes(CLOSE)) {
      onDelta(CLOSING_MARKER);
      await tick(20); // the marker is on its way before the worker goes
      self.close();
      return new Promise<never>(() => {});
    }
    if (text.includes(HANG)) {
      onDelta(HANGING_MARKER);
      await tick(20);
      for (;;) {
        // The event loop never runs again: no ping is answered, nothing is sent.
      }
    }
    const prefill = /\[\[prefill:(\d+)\]\]/.exec(text);
    if (prefill !== null) {
      await computeElsewhere(Number(prefill[1]), signal);
      onDelta(PREFILLED_REPLY);
      return RESULT;
    }
    for (let i = 0; ; i++) {
      await tick(50);
      if (signal.aborted) throw abortedError();
      onDelta(`word${i} `);
    }
  },
  // No warm cache to keep: a prefill is a no-op, as on web-llm.
  prefill: async () => ({ supported: false, promptTokens: 0, cachedTokens: 0, ms: 0 }),
  loadEmbedder: async () => ({ backend: 'wllama' as const, modelId: 'scripted', dimensions: 8, maxTokens: 512 }),
  embed: async (texts: string[]) => texts.map(() => new Float32Array(8)),
  unload: async () => {},
};

serveBackend(livenessBackend);

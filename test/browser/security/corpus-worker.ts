/// <reference lib="webworker" />
/**
 * An engine worker for the rendering tests: the real protocol and handler (src/engine/handler.ts), with a backend
 * that answers each message with the corpus payload its text names (`[[payload:<id>]]`), streamed in three pieces
 * so that partial replies are rendered too. Without a tag it answers a plain sentence.
 */
import type { Backend } from '../../../src/engine/backends/backend.ts';
import { EngineHandler } from '../../../src/engine/handler.ts';
import type { ChatMessage, ChatOptions, ChatResult, WorkerMessage } from '../../../src/engine/protocol.ts';
import { abortedError } from '../../../src/shared/errors.ts';
import { PAYLOAD_TAG, payloadById } from '../../fixtures/exfiltration-corpus.ts';

declare const self: DedicatedWorkerGlobalScope;

function replyTo(messages: ChatMessage[]): string {
  const last = messages.findLast((message) => message.role === 'user')?.content ?? '';
  // The newest user message carries recalled memory (earlier tags) before the user's own text: take the last tag.
  const id = [...last.matchAll(new RegExp(PAYLOAD_TAG, 'g'))].at(-1)?.[1];
  return (id === undefined ? undefined : payloadById(id)?.text) ?? 'No payload named.';
}

const pieces = (text: string): string[] => {
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)].filter((piece) => piece !== '');
};

const corpusBackend: Backend = {
  kind: 'wllama',
  load: async () => ({ reason: 'corpus script', modelUrl: 'scripted://corpus' }),
  async chat(messages: ChatMessage[], _options: Required<ChatOptions>, onDelta: (text: string) => void, signal: AbortSignal): Promise<ChatResult> {
    const reply = replyTo(messages);
    for (const piece of pieces(reply)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (signal.aborted) throw abortedError();
      onDelta(piece);
    }
    return { finishReason: 'stop', promptTokens: 1, cachedTokens: 0, completionTokens: 1, timings: { ttftMs: 1, totalMs: 1, prefillMs: 1, decodeMs: 1 } };
  },
  embed: async (texts: string[]) => texts.map(() => new Float32Array(8)),
  unload: async () => {},
};

const handler = new EngineHandler({
  createBackend: async () => corpusBackend,
  probeGpu: async () => ({ adapter: false, shaderF16: false, maxStorageBufferBindingSize: 0, maxBufferSize: 0, fallbackAdapter: false }),
  post: (message: WorkerMessage, transfer: Transferable[] = []) => self.postMessage(message, transfer),
});

self.addEventListener('message', (event) => handler.handle(event.data));

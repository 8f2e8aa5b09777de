/// <reference lib="webworker" />
/**
 * An engine worker for the rendering tests: the real protocol and handler (serve-backend.ts), with a backend
 * that answers each message with the corpus payload its text names (`[[payload:<id>]]`), streamed in three pieces
 * so that partial replies are rendered too. Without a tag it answers a plain sentence.
 */
import type { Backend } from '../../../src/engine/backends/backend.ts';
import type { ChatMessage, ChatOptions, ChatResult } from '../../../src/engine/protocol.ts';
import { abortedError } from '../../../src/shared/errors.ts';
import { PAYLOAD_TAG, payloadById } from '../../fixtures/exfiltration-corpus.ts';
import { SCRIPTED_RESULT, serveBackend } from '../engine/serve-backend.ts';

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
    return SCRIPTED_RESULT;
  },
  // No warm cache to keep: a prefill is a no-op, as on web-llm.
  prefill: async () => ({ supported: false, promptTokens: 0, cachedTokens: 0, ms: 0 }),
  loadEmbedder: async () => ({ backend: 'wllama' as const, modelId: 'scripted', dimensions: 8, maxTokens: 512 }),
  embed: async (texts: string[]) => texts.map(() => new Float32Array(8)),
  unload: async () => {},
};

serveBackend(corpusBackend);

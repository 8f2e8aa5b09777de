/**
 * What web-llm 0.2.86 keeps in its KV cache between requests, tracked on our side so the backend can say how much
 * of a prompt was reused: web-llm's `usage.prompt_tokens` counts only the tokens it prefilled, never the cached ones.
 * Each rule cites node_modules/@mlc-ai/web-llm/lib/index.js.
 */
import type { ChatMessage } from '../protocol.ts';

/** How web-llm's pipeline says a reply ended (`getFinishReason()`, ~12043); `abort` after `interruptGenerate()` (`triggerStop`, ~12500). */
export type WebLlmFinish = 'stop' | 'length' | 'abort';

export interface WebLlmCacheState {
  /** The conversation web-llm holds: the messages of the last request and its reply as web-llm recorded it. */
  conversation: ChatMessage[];
  /** Tokens in the KV cache (web-llm's `filledKVCacheLength`). */
  filled: number;
  /** How the last reply ended; null before the first one or after a failure. */
  lastFinish: WebLlmFinish | null;
}

export const EMPTY_CACHE: WebLlmCacheState = { conversation: [], filled: 0, lastFinish: null };

/**
 * Whether web-llm continues its cache for `messages` (`preparePrefillInput`, ~19072–19103, the test at ~19085–19090): only when the last
 * reply ended by `stop` (after `abort` or `length` the sampled last token is in the text but not in the cache, so it
 * rebuilds), and the request's messages before the last one equal the held conversation exactly
 * (`compareConversationObject`, ~10768: same count, same role and content each, same system message). Anything
 * else (a turn dropped from the front, an edited reply, a second new turn) resets the cache.
 */
export function reusesCache(state: WebLlmCacheState, messages: ChatMessage[]): boolean {
  if (state.lastFinish !== 'stop') return false;
  const history = messages.slice(0, -1);
  if (history.length !== state.conversation.length || !history.some((m) => m.role !== 'system')) return false;
  return history.every((m, i) => m.role === state.conversation[i]!.role && m.content === state.conversation[i]!.content);
}

export interface WebLlmUsage {
  /** `usage.prompt_tokens`: tokens prefilled in this request (`curRoundPrefillTotalTokens`, ~12333). */
  promptTokens: number;
  /** `usage.completion_tokens`: every sampled token, the stop token included (`commitSampledToken`, ~12596–12602). */
  completionTokens: number;
}

/**
 * The cache after a reply. The prefill adds its prompt tokens (~12400–12415); each decode step forwards the token
 * sampled before it (`sampleDecodeStep`, ~12468–12469), so the last sampled token, which for a `stop` is the stop
 * token itself, never enters the cache: `completion_tokens − 1` decoded tokens are in it. The held conversation's
 * reply is web-llm's own text (`finishReply(this.outputMessage)`, ~12590; ~12507 when
 * interrupted), which is what `getMessage()` returns.
 */
export function afterReply(
  state: WebLlmCacheState,
  messages: ChatMessage[],
  reused: boolean,
  usage: WebLlmUsage,
  finish: WebLlmFinish,
  recordedReply: string,
): WebLlmCacheState {
  const cached = reused ? state.filled : 0;
  return {
    conversation: [...messages, { role: 'assistant', content: recordedReply }],
    filled: cached + usage.promptTokens + Math.max(0, usage.completionTokens - 1),
    lastFinish: finish,
  };
}

/**
 * ChatML's token counts (the rendering itself is src/shared/chat.ts, re-exported here for the context engine's
 * callers).
 */
import { GENERATION_PROMPT_TOKENS, type ChatMessage } from '../shared/chat.ts';
import { MESSAGE_OVERHEAD_TOKENS, type TokenCounter } from './tokens.ts';

export { GENERATION_PROMPT, GENERATION_PROMPT_TOKENS, IM_END, IM_START, QWEN25_DEFAULT_SYSTEM_PROMPT, renderChatML, renderMessage, type RenderOptions } from '../shared/chat.ts';

/**
 * Exact tokens of `renderChatML(messages)` (with a system message first and the generation prompt), from the
 * cached per-message counts: nothing already counted is tokenized again.
 */
export function promptTokens(messages: readonly ChatMessage[], counter: TokenCounter): number {
  let total = GENERATION_PROMPT_TOKENS;
  for (const message of messages) total += counter.messageTokens(message);
  return total;
}

/** Tokens a message would take with this content, without caching it (for trial cuts). */
export function uncachedMessageTokens(message: ChatMessage, counter: TokenCounter): number {
  return counter.count(`${message.role}\n${message.content}`) + MESSAGE_OVERHEAD_TOKENS;
}

/**
 * Tokens shared at the start of the previous prompt and a prompt that appends the assistant's `reply` to it:
 * the previous messages, then `<|im_start|>assistant` and, unless the reply starts with whitespace that ends in a
 * line break (which merges with the `\n` after the role), that `\n` too.
 */
export function appendedPrefixTokens(previousMessageTokens: number, reply: string): number {
  return previousMessageTokens + (/^\s*[\r\n]/.test(reply) ? 2 : 3);
}

/**
 * ChatML exactly as Qwen2.5's chat template renders it (no tools):
 *   <|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n … <|im_start|>assistant\n
 * When the first message is not a system message the template inserts Qwen2.5's default one.
 */
import type { ChatMessage } from '../engine/protocol.ts';
import { MESSAGE_OVERHEAD_TOKENS, type TokenCounter } from './tokens.ts';

export const IM_START = '<|im_start|>';
export const IM_END = '<|im_end|>';
/** What Qwen2.5's template appends with `add_generation_prompt`: the model answers after it. */
export const GENERATION_PROMPT = `${IM_START}assistant\n`;
/** `<|im_start|>`, `assistant`, `\n`. */
export const GENERATION_PROMPT_TOKENS = 3;
/** The system message Qwen2.5's template inserts when a conversation has none. */
export const QWEN25_DEFAULT_SYSTEM_PROMPT = 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.';

export function renderMessage(message: ChatMessage): string {
  return `${IM_START}${message.role}\n${message.content}${IM_END}\n`;
}

export interface RenderOptions {
  /** Append `<|im_start|>assistant\n` (default true). */
  addGenerationPrompt?: boolean;
  /** Inserted as the system message when the first message is not one (default: Qwen2.5's). */
  defaultSystemPrompt?: string;
}

/** The prompt string both engines see for these messages. Content is used as is: sanitize it first. */
export function renderChatML(messages: readonly ChatMessage[], options: RenderOptions = {}): string {
  const parts: string[] = [];
  if (messages[0]?.role !== 'system') {
    parts.push(renderMessage({ role: 'system', content: options.defaultSystemPrompt ?? QWEN25_DEFAULT_SYSTEM_PROMPT }));
  }
  for (const message of messages) parts.push(renderMessage(message));
  if (options.addGenerationPrompt ?? true) parts.push(GENERATION_PROMPT);
  return parts.join('');
}

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

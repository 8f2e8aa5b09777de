/**
 * A chat message and ChatML exactly as Qwen2.5's chat template renders it (no tools):
 *   <|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n … <|im_start|>assistant\n
 * When the first message is not a system message the template inserts Qwen2.5's default one. Shared by the context
 * engine (which counts and assembles) and the engines (which render), so neither imports the other.
 */

export type Role = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: Role;
  content: string;
}

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

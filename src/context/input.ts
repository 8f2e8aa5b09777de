/**
 * The newest user message: the current input plus what changes every turn (extras: retrieved and working
 * memory), within the room the system message leaves. The input is never dropped: extras go first, then the
 * input itself is cut with a marker if it alone is too long.
 */
import type { ChatMessage } from '../shared/chat.ts';
import { AssistantError } from '../shared/errors.ts';
import type { ContextConfig } from './config.ts';
import type { ExtrasStatus } from './report.ts';
import { isBlank, sanitizeText } from '../shared/sanitize.ts';
import type { TokenCounter } from './tokens.ts';
import { cutToFit } from './truncate.ts';

export interface InputMessage {
  /** As sent. */
  readonly message: ChatMessage;
  readonly tokens: number;
  /** The sanitized input alone (what the history will hold next time, sanitized). */
  readonly source: string;
  /** Tokens the extras add to the message (0 when none are sent). */
  readonly extrasTokens: number;
  readonly extrasStatus: ExtrasStatus;
  /** Set when the input itself was cut; `keptChars`: characters of the sanitized input sent (before the marker). */
  readonly cut: { readonly originalTokens: number; readonly keptTokens: number; readonly keptChars: number } | null;
  readonly warnings: readonly string[];
}

/** Fills the template in one pass, so an input containing `{extras}` is left alone. */
export function composeInput(template: string, extras: string, input: string): string {
  return template
    .split('{input}')
    .map((part) => part.split('{extras}').join(extras))
    .join(input);
}

export function buildInputMessage(
  rawInput: string,
  rawExtras: string | undefined,
  room: number,
  counter: TokenCounter,
  config: ContextConfig,
): InputMessage {
  const source = sanitizeText(rawInput);
  const plain: ChatMessage = { role: 'user', content: source };
  const plainTokens = counter.messageTokens(plain);
  const warnings: string[] = [];
  let status: ExtrasStatus = 'none';

  if (rawExtras !== undefined && !isBlank(rawExtras)) {
    let extras = sanitizeText(rawExtras);
    status = 'sent';
    if (counter.count(extras) > config.maxExtrasTokens) {
      const cut = cutToFit({ role: 'user', content: extras }, config.maxExtrasTokens, counter, config, 'text');
      if (cut === null) status = 'dropped';
      else {
        extras = cut.message.content;
        status = 'cut';
        warnings.push(`extras cut from ${cut.originalTokens} to ${cut.keptTokens} tokens (cap ${config.maxExtrasTokens})`);
      }
    }
    if (status !== 'dropped') {
      const message: ChatMessage = { role: 'user', content: composeInput(config.extrasTemplate, extras, source) };
      const tokens = counter.messageTokens(message);
      if (tokens <= room) {
        return { message, tokens, source, extrasTokens: tokens - plainTokens, extrasStatus: status, cut: null, warnings };
      }
      status = 'dropped';
    }
    warnings.push('extras dropped: the input needs the room');
  }

  if (plainTokens <= room) {
    return { message: plain, tokens: plainTokens, source, extrasTokens: 0, extrasStatus: status, cut: null, warnings };
  }
  const cut = cutToFit(plain, room, counter, config);
  if (cut === null) {
    throw new AssistantError('context_overflow', `The message cannot be cut to fit ${room} tokens.`);
  }
  warnings.push(`input alone exceeds its room: cut from ${cut.originalTokens} to ${cut.keptTokens} tokens`);
  return {
    message: cut.message,
    tokens: cut.keptTokens,
    source,
    extrasTokens: 0,
    extrasStatus: status,
    cut: { originalTokens: cut.originalTokens, keptTokens: cut.keptTokens, keptChars: cut.message.content.length - config.truncationMarker.length },
    warnings,
  };
}

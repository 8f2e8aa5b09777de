/**
 * Makes message text safe to put in a ChatML prompt, the same way in every place it is counted or sent:
 * - lone UTF-16 surrogates (from a bad paste or a cut string) become U+FFFD, so the text is valid UTF-8;
 * - Unicode NFC, because llama.cpp (wllama) does not normalise while the Hugging Face tokenizer does,
 *   and the count must describe the very string that is sent;
 * - literal control-token strings (`<|im_start|>`, `<|im_end|>`, `<|endoftext|>`, …) typed or pasted by a user
 *   are neutralised by a zero-width space after `<`, so they can never open or close a turn (prompt injection)
 *   and never tokenize to a special id. The text still reads the same on screen.
 */
import { escapeRegExp } from './regexp.ts';

/** All added tokens of Qwen2.5 (ids 151643–151664); each would tokenize to a single id if left alone. */
export const QWEN_ADDED_TOKEN_STRINGS: readonly string[] = Object.freeze([
  '<|endoftext|>', '<|im_start|>', '<|im_end|>', '<|object_ref_start|>', '<|object_ref_end|>', '<|box_start|>',
  '<|box_end|>', '<|quad_start|>', '<|quad_end|>', '<|vision_start|>', '<|vision_end|>', '<|vision_pad|>',
  '<|image_pad|>', '<|video_pad|>', '<tool_call>', '</tool_call>', '<|fim_prefix|>', '<|fim_middle|>',
  '<|fim_suffix|>', '<|fim_pad|>', '<|repo_name|>', '<|file_sep|>',
]);

/** Inserted after the `<` of a control-token string. */
export const NEUTRALISER = '\u200B';

const ADDED_TOKEN_RE = new RegExp(
  `<(${QWEN_ADDED_TOKEN_STRINGS.map((t) => escapeRegExp(t.slice(1))).join('|')})`,
  'g',
);
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces lone surrogates with U+FFFD (String.prototype.toWellFormed, which ES2023 lacks). */
export function toWellFormed(text: string): string {
  return text.replace(LONE_SURROGATE_RE, '\uFFFD');
}

/** Neutralises control-token strings; text without them comes back as the same string. */
export function neutraliseControlTokens(text: string): string {
  if (!text.includes('<')) return text;
  return text.replace(ADDED_TOKEN_RE, `<${NEUTRALISER}$1`);
}

const CACHE_LIMIT = 4096;
const cache = new Map<string, string>();

/**
 * The form of a message's text that is counted and sent. Pure and idempotent; cached by content so that a long
 * history does not pay NFC again on every request (and so equal texts come back as the same string object,
 * which keeps map look-ups cheap).
 */
export function sanitizeText(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const clean = neutraliseControlTokens(toWellFormed(text).normalize('NFC'));
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(text, clean);
  return clean;
}

/** True for the empty string and for text that is only whitespace (including zero-width and ideographic space). */
export function isBlank(text: string): boolean {
  return !NOT_BLANK_RE.test(text);
}
const NOT_BLANK_RE = /[^\s\u200B\u200C\u200D\u2060\uFEFF]/;

/**
 * The part of a long text a prompt can ever hold. A window of W tokens never takes more than the first W tokens
 * of a message, so once the start of a text provably holds more than W tokens, nothing after it can reach the
 * model: the pipeline (working memory, the retrieval index, the query, the cut) can work on that start instead of
 * on a 100,000-character paste. Exact: every pre-tokenizer piece is at least one token (`atLeast`), and a cut
 * changes only the piece it falls in, so the first W tokens of the start are the whole text's, and a cut to at
 * most W tokens comes out the same.
 */
import { sanitizeText } from './sanitize.ts';
import type { TokenCounter } from './tokens.ts';

/** Pieces beyond the window, so the piece a cut falls in (and any one it changes) is never among the first W. */
const MARGIN_PIECES = 64;
/** A first guess of characters per token; the start doubles until it is long enough. */
const CHARS_PER_TOKEN_GUESS = 4;

/** Where to end a start near `end`: before a space between two words, if one is close; never inside a pair. */
function endNear(text: string, end: number): number {
  const space = text.lastIndexOf(' ', end);
  if (space > end - 256 && space > 0 && /\S/.test(text[space - 1]!) && /\S/.test(text[space + 1] ?? ' ')) return space;
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/**
 * The start of `text` that holds more than `windowTokens` tokens, or the whole text when no shorter start can be
 * shown to (short texts, or a tokenizer without a cheap lower bound). Costs a pre-tokenizer pass over the start.
 */
export function promptHead(text: string, windowTokens: number, counter: TokenCounter): string {
  const need = windowTokens + MARGIN_PIECES;
  for (let end = need * CHARS_PER_TOKEN_GUESS; end < text.length; end *= 2) {
    const head = text.slice(0, endNear(text, end));
    // Counted as the engine will see it: sanitized, so a pasted `<|im_end|>` does not void the bound.
    if (counter.atLeast(sanitizeText(head)) > need) return head;
  }
  return text;
}

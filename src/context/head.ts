/**
 * The part of a long text a prompt can ever hold. A window of W tokens never takes more than the first W tokens
 * of a message, so once the start of a text provably holds more than W tokens, nothing after it can reach the
 * model: the pipeline (working memory, the retrieval index, the query, the cut) can work on that start instead of
 * on a 100,000-character paste. Exact: every pre-tokenizer piece is at least one token (`atLeast`), and a cut
 * changes only the piece it falls in, so the first W tokens of the start are the whole text's, and a cut to at
 * most W tokens comes out the same.
 */
import { sanitizeText } from '../shared/sanitize.ts';
import { newlineSegments, type TokenCounter } from './tokens.ts';

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

/** Lines are counted in groups of at least this many characters (the counter remembers the lines of longer texts). */
const GROUP_CHARS = 1_000;
/** Counting work between two pauses. */
const SLICE_MS = 12;

/**
 * `promptHead` for the page's thread, and tighter: with a tokenizer whose lines tokenize independently, the lines
 * are counted exactly, a group at a time with `pause` between, until they hold more than the window: the tokens
 * of those lines are then the first tokens of the whole text. A 100,000-character paste is thus never tokenized
 * in one task, and the start kept is only as long as it must be (the cheap bound of `promptHead` counts a run of
 * Chinese characters as one piece, so its start may be half the text). The counts stay in the counter's memo,
 * so the prompt's own counting of the start is look-ups. Falls back to `promptHead` otherwise.
 */
export async function promptHeadSliced(text: string, windowTokens: number, counter: TokenCounter, pause: () => Promise<void>): Promise<string> {
  const need = windowTokens + MARGIN_PIECES;
  if (counter.splitsAfterNewline !== true || text.length <= need * CHARS_PER_TOKEN_GUESS) return promptHead(text, windowTokens, counter);
  let since = Date.now();
  let tokens = 0;
  let end = 0;
  let group = '';
  for (const segment of newlineSegments(text)) {
    group += segment;
    if (group.length < GROUP_CHARS) continue;
    // Counted as the engine will see it: sanitized (sanitizing never moves a newline).
    tokens += counter.count(sanitizeText(group));
    end += group.length;
    group = '';
    if (tokens > need) return end < text.length ? text.slice(0, end) : text;
    if (Date.now() - since >= SLICE_MS) {
      await pause();
      since = Date.now();
    }
  }
  // Too few lines to cut at (one long line): the cheap bound decides.
  return promptHead(text, windowTokens, counter);
}

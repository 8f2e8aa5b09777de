/**
 * How turns become retrieval chunks. One chunk per exchange (the user's message and the reply to it: a complete
 * unit of meaning, as the design note found), plus, for a turn longer than ~400 tokens, its parts of at most
 * 400 tokens each, cut at paragraph, then sentence, then character boundaries. Parts are exact slices of the
 * turn: joined in order they give the turn's content back. Pure, no DOM.
 */
import { newlineSegments } from '../../context/tokens.ts';

/** What the store needs of a tokenizer; the context engine's `TokenCounter` fits. */
export interface TokenCount {
  count(text: string): number;
  /** A cheap lower bound on `count(text)`, when the tokenizer has one (the Qwen counter does). */
  atLeast?(text: string): number;
}

export const PART_MAX_TOKENS = 400;

/**
 * A tokenizer-free estimate for when no counter is injected: Qwen2.5 spends about one token per CJK character
 * and one per ~4 characters of English or code. The app injects the exact Qwen counter.
 */
export const estimateTokens: TokenCount = {
  count(text: string): number {
    let cjk = 0;
    let other = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // A surrogate pair (emoji, rare CJK) counts once, as one token.
      if (c >= 0xd800 && c <= 0xdbff) {
        cjk++;
        i++;
      } else if (c >= 0x2e80 && !(c >= 0xff00 && c <= 0xff20)) cjk++;
      else other++;
    }
    return cjk + Math.ceil(other / 4);
  },
};

export interface TextPart {
  text: string;
  /** UTF-16 offsets into the original text. */
  start: number;
  end: number;
  tokens: number;
}

const PARAGRAPH = /\n\s*\n/g;
const SENTENCE = /(?<=[。！？!?；;…])|(?<=[.](?=\s))|(?<=\n)/g;

/** Splits text into pieces at `pattern` boundaries, keeping the separators with the piece before them. */
function splitKeeping(text: string, offset: number, pattern: RegExp): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let last = 0;
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) {
    const end = match.index + match[0].length;
    if (end > last && end < text.length) {
      out.push({ start: offset + last, end: offset + end });
      last = end;
    }
  }
  out.push({ start: offset + last, end: offset + text.length });
  return out;
}

/** The first window tried, in characters per token allowed (grown by doubling when it is not enough). */
const WINDOW_CHARS_PER_TOKEN = 4;

/**
 * The length of the longest prefix of text[start, end) within `max` tokens (at least one character). Counts only
 * windows of a few thousand characters, so cutting a 2 MB paste stays linear.
 */
function fitPrefix(text: string, start: number, end: number, max: number, counter: TokenCount): number {
  const remaining = end - start;
  let hi = Math.min(remaining, max * WINDOW_CHARS_PER_TOKEN);
  while (hi < remaining && counter.count(text.slice(start, start + hi)) <= max) hi = Math.min(remaining, hi * 2);
  if (counter.count(text.slice(start, start + hi)) <= max) return hi;
  let lo = 1;
  hi -= 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (counter.count(text.slice(start, start + mid)) <= max) lo = mid;
    else hi = mid - 1;
  }
  // Never split a surrogate pair.
  const code = text.charCodeAt(start + lo - 1);
  if (code >= 0xd800 && code <= 0xdbff && lo < remaining) lo = lo > 1 ? lo - 1 : lo + 1;
  return lo;
}

/**
 * The splitting, as steps: it yields after each bounded piece of work (one paragraph, one sentence cut, one
 * packed part), so a driver may give the page a turn in between. Returns the parts.
 */
function* partSteps(text: string, counter: TokenCount, max: number): Generator<void, TextPart[]> {
  // A cheap lower bound first: a 100,000-character paste is not tokenized whole just to learn it is long.
  if (text.length === 0 || ((counter.atLeast?.(text) ?? 0) <= max && counter.count(text) <= max)) return [];
  // Atoms: paragraphs, then sentences of paragraphs that are too long, then hard cuts of sentences too long.
  const atoms: Array<{ start: number; end: number; tokens: number }> = [];
  for (const para of splitKeeping(text, 0, PARAGRAPH)) {
    const paraText = text.slice(para.start, para.end);
    const paraTokens = (counter.atLeast?.(paraText) ?? 0) > max ? max + 1 : counter.count(paraText);
    yield;
    if (paraTokens <= max) {
      atoms.push({ ...para, tokens: paraTokens });
      continue;
    }
    for (const sentence of splitKeeping(paraText, para.start, SENTENCE)) {
      let start = sentence.start;
      while (start < sentence.end) {
        const len = fitPrefix(text, start, sentence.end, max, counter);
        atoms.push({ start, end: start + len, tokens: counter.count(text.slice(start, start + len)) });
        start += len;
        yield;
      }
    }
  }
  // Greedy packing by the atoms' counts, then one exact count per piece (tokens at a join may differ): a piece
  // over the limit gives back its last atoms. A single atom always fits.
  const parts: TextPart[] = [];
  let i = 0;
  while (i < atoms.length) {
    let j = i + 1;
    let sum = atoms[i]!.tokens;
    while (j < atoms.length && sum + atoms[j]!.tokens <= max) sum += atoms[j++]!.tokens;
    for (;;) {
      const start = atoms[i]!.start;
      const end = atoms[j - 1]!.end;
      const piece = text.slice(start, end);
      const tokens = j - i === 1 ? atoms[i]!.tokens : counter.count(piece);
      if (tokens <= max || j - i === 1) {
        parts.push({ text: piece, start, end, tokens });
        break;
      }
      j--;
    }
    i = j;
    yield;
  }
  return parts;
}

/**
 * Pieces of at most `max` tokens each, covering `text` exactly and in order. Empty when the text fits in one
 * piece (the exchange chunk then covers it).
 */
export function splitIntoParts(text: string, counter: TokenCount, max = PART_MAX_TOKENS): TextPart[] {
  const steps = partSteps(text, counter, max);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Work done between two pauses of `splitIntoPartsSliced`: well under a frame, even on a loaded machine. */
const SLICE_MS = 12;

/**
 * `splitIntoParts` for a long text on the page's thread: the same parts, but it pauses (`pause`, e.g. a yield to
 * the event loop) whenever it has worked `SLICE_MS`, so tokenizing a long paste never blocks the page for long.
 */
export async function splitIntoPartsSliced(text: string, counter: TokenCount, pause: () => Promise<void>, max = PART_MAX_TOKENS): Promise<TextPart[]> {
  const steps = partSteps(text, counter, max);
  let since = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    if (performance.now() - since >= SLICE_MS) {
      await pause();
      since = performance.now();
    }
  }
}

/** Lines are counted in groups of at least this many characters (a line-memoizing counter keeps longer texts' lines). */
const COUNT_GROUP_CHARS = 1_000;

/**
 * `counter.count(text)` for a long text on the page's thread, exact, in slices: the lines are counted first, a
 * group at a time with pauses between, which fills the memo of a counter that counts long texts line by line
 * (the app's Qwen counter); the final whole count is then mostly look-ups. Any other counter just counts twice.
 */
export async function countSliced(text: string, counter: TokenCount, pause: () => Promise<void>): Promise<number> {
  let since = performance.now();
  let group = '';
  for (const segment of newlineSegments(text)) {
    group += segment;
    if (group.length < COUNT_GROUP_CHARS) continue;
    counter.count(group);
    group = '';
    if (performance.now() - since >= SLICE_MS) {
      await pause();
      since = performance.now();
    }
  }
  return counter.count(text);
}

/** The text of an exchange chunk: the user's message, then the reply. */
export function exchangeText(user: string | null, reply: string | null): string {
  return [user, reply].filter((t): t is string => t !== null && t.length > 0).join('\n\n');
}

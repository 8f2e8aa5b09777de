/**
 * Text preparation shared by every rule. Both forms keep the input's length and offsets, so a span found in the
 * normalised text can be cut from the original one.
 */
import { escapeRegExp } from '../../shared/regexp.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export interface PreparedText {
  /** The input with lone surrogates replaced by U+FFFD (so it survives JSON and IndexedDB). */
  readonly raw: string;
  /**
   * `raw` with full-width ASCII folded (１０．０．０．１ → 10.0.0.1, ： → :) and U+3000 as a space; a full-width comma
   * between digits is kept (it separates two numbers).
   */
  readonly norm: string;
}

export function prepareText(text: string, maxChars: number): PreparedText {
  const clipped = text.length > maxChars ? text.slice(0, maxChars) : text;
  const raw = clipped.replace(LONE_SURROGATE, '\uFFFD');
  let norm = '';
  // Char-by-char keeps offsets: every replacement is one UTF-16 unit for one.
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    // A full-width comma between digits parts two numbers (¥2,499，618 活动价), never thousands: it stays.
    if (c === 0xff0c && /[\d０-９]/.test(raw[i - 1] ?? '') && /[\d０-９]/.test(raw[i + 1] ?? '')) norm += raw[i];
    else if (c >= 0xff01 && c <= 0xff5e) norm += String.fromCharCode(c - 0xfee0);
    else if (c === 0x3000) norm += ' ';
    // I’m, we’ve, don’t (phones type the curly apostrophe): the rules' words are written with the straight one.
    else if (c === 0x2019 && /[A-Za-z]/.test(raw[i - 1] ?? '') && /[A-Za-z]/.test(raw[i + 1] ?? '')) norm += "'";
    else norm += raw[i];
  }
  return { raw, norm };
}

export { escapeRegExp };

/**
 * English words that stand before a slot word and name nothing: "but port 5432 times out", "nodes only have
 * IPv6: …", "going with version 3.0". A rule that names a slot after the word before (`<name> port`,
 * `<name> version`) must not take one of these for the name.
 */
export const FUNCTION_WORD =
  /^(?:the|a|an|it|its|this|that|these|those|and|or|but|nor|so|then|now|yet|also|only|just|still|even|all|both|any|some|each|every|no|not|with|without|of|in|on|at|to|from|for|by|via|into|onto|over|under|about|as|is|are|was|were|be|been|has|have|had|do|does|did|can|could|will|would|should|must|may|might|which|what|who|where|when|how|our|my|your|their|his|her|we|you|they|i|he|she)$/i;

/**
 * One alternation for a word list: longest first, spaces in a phrase match any run of spaces, Latin words only
 * as whole words (CJK ones anywhere). Returns a group to embed in a larger pattern. The word-start check is
 * shared by all Latin words so that the engine can skip positions fast (100× on long texts).
 */
export function alternation(words: readonly string[]): string {
  const unique = [...new Set(words.map((w) => w.trim()).filter((w) => w !== ''))].sort((a, b) => b.length - a.length);
  if (unique.length === 0) return '(?!)';
  const latin = withWordEnds(unique.filter((w) => /^[A-Za-z0-9_]/.test(w)));
  const other = withWordEnds(unique.filter((w) => !/^[A-Za-z0-9_]/.test(w)));
  const groups: string[] = [];
  if (latin !== '') groups.push(`(?<![A-Za-z0-9_])(?:${latin})`);
  if (other !== '') groups.push(`(?:${other})`);
  return `(?:${groups.join('|')})`;
}

const WORD_END = '(?![A-Za-z0-9_])';

/**
 * Words in order, each that ends in a letter or digit only as a whole word. Neighbours of the same kind share one
 * end check: `(?:a|b)END|c\+\+|(?:d|e)END` tries them in the same order as `aEND|bEND|c\+\+|dEND|eEND`, and an
 * end check written once per word made the product list's pattern pass 20 KB, past which V8 stops optimising a
 * pattern (every message's extraction took twice as long).
 */
function withWordEnds(words: readonly string[]): string {
  const parts: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length > 0) parts.push(`(?:${run.join('|')})${WORD_END}`);
    run = [];
  };
  for (const w of words) {
    const body = escapeRegExp(w).replace(/\s+/g, '\\s*');
    if (/[A-Za-z0-9_]$/.test(w)) run.push(body);
    else {
      flush();
      parts.push(body);
    }
  }
  flush();
  return parts.join('|');
}

/** Trailing characters that end a sentence rather than the thing before them. */
export function trimTrailing(value: string, chars: string): string {
  let end = value.length;
  while (end > 0 && chars.includes(value[end - 1]!)) end--;
  return value.slice(0, end);
}

/** A boolean mask of claimed offsets, so that no two entities overlap (no nesting). */
export class SpanClaims {
  private readonly _mask: Uint8Array;

  constructor(length: number) {
    this._mask = new Uint8Array(length);
  }

  isFree(start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (this._mask[i] === 1) return false;
    return true;
  }

  claim(start: number, end: number): void {
    this._mask.fill(1, start, end);
  }
}

/**
 * A search result's snippet with the words it shares with the query marked, as plain text parts (the element
 * renders each part as text, never as markup: a doc's own `<`, `&` or quotes stay characters). A word is marked when
 * the retrieval index would match it: the same analysis (text-terms.ts: Latin stems, CJK bigrams), so "installing"
 * is marked for "install" and 模型缓存 for 缓存在哪. Pure.
 */
import { terms } from '../../memory/retrieval/index.ts';
import { isCjkCodePoint } from '../../shared/cjk.ts';

export interface SnippetPart {
  readonly text: string;
  /** Holds a query term. */
  readonly mark: boolean;
}

const WORD_CHAR = /[\p{L}\p{N}'’]/u;

/** Characters of a snippet at most (a result shows two or three lines). */
export const SNIPPET_CHARS = 180;

/** `text` split into parts, the ones holding a term of `queryTerms` (from `terms()`) marked; adjacent parts merged. */
export function markTerms(text: string, queryTerms: ReadonlySet<string>): SnippetPart[] {
  const chars = [...text];
  const marked = new Uint8Array(chars.length);
  let i = 0;
  while (i < chars.length) {
    const cp = chars[i]!.codePointAt(0)!;
    if (isCjkCodePoint(cp)) {
      let j = i;
      while (j < chars.length && isCjkCodePoint(chars[j]!.codePointAt(0)!)) j++;
      // A run's bigrams (a lone character: its unigram), as `terms()` makes them.
      if (j - i === 1) {
        if (queryTerms.has(`~${chars[i]!.toLowerCase()}`)) marked[i] = 1;
      } else {
        for (let k = i; k + 1 < j; k++) if (queryTerms.has(`~${chars[k]}${chars[k + 1]}`.normalize('NFKC').toLowerCase())) marked[k] = marked[k + 1] = 1;
      }
      i = j;
    } else if (WORD_CHAR.test(chars[i]!)) {
      let j = i;
      while (j < chars.length && WORD_CHAR.test(chars[j]!) && !isCjkCodePoint(chars[j]!.codePointAt(0)!)) j++;
      if (terms(chars.slice(i, j).join('')).some((t) => queryTerms.has(t))) marked.fill(1, i, j);
      i = j;
    } else i++;
  }
  const parts: SnippetPart[] = [];
  for (let k = 0; k < chars.length; k++) {
    const mark = marked[k] === 1;
    const last = parts.at(-1);
    if (last !== undefined && last.mark === mark) parts[parts.length - 1] = { text: last.text + chars[k]!, mark };
    else parts.push({ text: chars[k]!, mark });
  }
  return parts;
}

/**
 * A chunk's Markdown as a line of text: fences, backticks, heading marks, bold markers and link targets go (the
 * words stay); whitespace runs become one space. Single `*` and `_` stay: in docs they are as often code (`a_b`).
 */
export function readable(markdown: string): string {
  return markdown
    .replace(/```[\w+-]*/g, ' ')
    .replace(/`/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(^|\n)\s{0,3}(?:#{1,6}|>|[-*+]|\d+\.)\s+/g, '$1')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * At most `max` characters of `text` around its first marked word (whole words where it can: cut at a space near
 * the edge), with an ellipsis where it was cut; then marked.
 */
export function snippetOf(text: string, queryTerms: ReadonlySet<string>, max = SNIPPET_CHARS): SnippetPart[] {
  const flat = readable(text);
  if ([...flat].length <= max) return markTerms(flat, queryTerms);
  const parts = markTerms(flat, queryTerms);
  let at = 0;
  let first = 0;
  for (const part of parts) {
    if (part.mark) {
      first = at;
      break;
    }
    at += part.text.length;
  }
  // Start a little before the first mark, so the sentence around it reads.
  let start = Math.max(0, first - Math.floor(max / 4));
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space !== -1 && space < first) start = space + 1;
  }
  let end = Math.min(flat.length, start + max);
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > start + max / 2) end = space;
  }
  // Surrogate pairs are never split: an edge inside one moves past it.
  const high = (i: number): boolean => i > 0 && i < flat.length && /[\uD800-\uDBFF]/.test(flat[i - 1]!);
  if (high(start)) start++;
  if (high(end)) end++;
  return markTerms(`${start > 0 ? '… ' : ''}${flat.slice(start, end)}${end < flat.length ? ' …' : ''}`, queryTerms);
}

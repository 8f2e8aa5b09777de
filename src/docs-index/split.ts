/**
 * A parsed page as chunks of at most ~400 Qwen tokens, one heading's section at a time: blocks are packed whole
 * while they fit; a block over the limit is cut at paragraph, then sentence boundaries (`splitIntoParts`); a code
 * block is never cut unless it alone is over the limit, and then each piece is fenced again. Every chunk's text
 * starts with its heading path (or the page title for text before the first heading), so the words of the heading
 * are searchable and the model sees where the text comes from. Token counts are exact for the final text. Pure.
 */
import { PART_MAX_TOKENS, splitIntoParts, type TokenCount } from '../memory/store/index.ts';
import type { PageBlock, ParsedPage } from './sections.ts';

export const HEADING_SEPARATOR = ' › ';

export interface TextChunk {
  anchor: string;
  /** Heading path, e.g. `Install › From npm`; '' for text before the first heading. */
  heading: string;
  text: string;
  tokens: number;
}

interface Unit {
  text: string;
  tokens: number;
}

const FENCE = /^```([^\n]*)\n([\s\S]*)\n```$/;

/** `splitIntoParts`, but a text that already fits is one part rather than none. */
function parts(text: string, max: number, counter: TokenCount): string[] {
  const cut = splitIntoParts(text, counter, max);
  return cut.length === 0 ? [text] : cut.map((p) => p.text);
}

/** The longest info string each piece of a cut code block repeats; a language name is far shorter. */
const INFO_MAX_CHARS = 40;

/**
 * The fence line each piece of a cut code block opens with. The block's own info string, unless it would take more
 * than a quarter of the budget: then only its first word (the language), cut short. A page whose fence line was
 * 16,000 characters long left a 1-token budget per piece, so it became 10,000 chunks that each repeated that line.
 */
function reopening(info: string, budget: number, counter: TokenCount): string {
  const open = '```' + info + '\n';
  if (info.length <= INFO_MAX_CHARS || counter.count(open) <= budget / 4) return open;
  return '```' + (info.trim().split(/\s/)[0] ?? '').slice(0, INFO_MAX_CHARS) + '\n';
}

/** `text` less its trailing newlines (a loop: /\n+$/ is quadratic on a long run of newlines that does not end the text). */
function withoutTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end -= 1;
  return text.slice(0, end);
}

/** A block as units that each fit in `budget` tokens. */
function units(block: PageBlock, budget: number, counter: TokenCount): Unit[] {
  const tokens = counter.count(block.text);
  if (tokens <= budget) return [{ text: block.text, tokens }];
  const fence = block.code ? FENCE.exec(block.text) : null;
  if (fence !== null) {
    const open = reopening(fence[1]!, budget, counter);
    const wrapTokens = counter.count(open) + counter.count('\n```') + 1;
    return parts(fence[2]!, Math.max(1, budget - wrapTokens), counter)
      .map((p) => open + withoutTrailingNewlines(p) + '\n```')
      .map((text) => ({ text, tokens: counter.count(text) }));
  }
  return parts(block.text, budget, counter)
    .map((p) => p.trim())
    .filter((t) => t !== '')
    .map((text) => ({ text, tokens: counter.count(text) }));
}

/** Packs units greedily into texts of at most `max` tokens (exact count, including the prefix line). */
function pack(prefix: string, list: Unit[], max: number, counter: TokenCount): Array<{ text: string; tokens: number }> {
  const head = prefix === '' ? '' : `${prefix}\n\n`;
  const headTokens = head === '' ? 0 : counter.count(head);
  const out: Array<{ text: string; tokens: number }> = [];
  let i = 0;
  while (i < list.length) {
    let j = i + 1;
    let sum = headTokens + list[i]!.tokens;
    while (j < list.length && sum + 1 + list[j]!.tokens <= max) sum += 1 + list[j++]!.tokens;
    for (;;) {
      const text = head + list.slice(i, j).map((u) => u.text).join('\n\n');
      const tokens = counter.count(text);
      if (tokens <= max || j - i === 1) {
        out.push({ text, tokens });
        break;
      }
      j--;
    }
    i = j;
  }
  return out;
}

/**
 * A heading path's tokens, from its headings' own counts, when it is so far over the limit (4×) that no seam
 * between them could bring it back under `max / 4` or `max`, the two decisions its count makes; else null, to
 * count it exactly. Every section repeats its path: counted whole each time, a page with one huge heading over
 * many sections took time quadratic in the heading's length (a fuzzed page: 1.4 s for 1,731 sections).
 */
function pathTokens(heading: string, path: ReadonlyArray<{ tokens: number }>, max: number): number | null {
  if (heading === '') return null;
  let sum = 0;
  for (const p of path) sum += p.tokens;
  return sum > 4 * max ? sum : null;
}

export function splitPage(page: ParsedPage, counter: TokenCount, max = PART_MAX_TOKENS): TextChunk[] {
  const chunks: TextChunk[] = [];
  const path: Array<{ depth: number; heading: string; tokens: number }> = [];
  for (const section of page.sections) {
    if (section.depth > 0) {
      while (path.length > 0 && path[path.length - 1]!.depth >= section.depth) path.pop();
      path.push({ depth: section.depth, heading: section.heading, tokens: counter.count(section.heading) });
    }
    if (section.blocks.length === 0) continue;
    const heading = section.depth > 0 ? path.map((p) => p.heading).filter((h) => h !== '').join(HEADING_SEPARATOR) : '';
    let prefix = heading !== '' ? heading : (page.title ?? '');
    const hugePath = pathTokens(heading, path, max);
    // Most sections fit whole: one exact count, and no per-block counting. The heading path's tokens are the
    // whole text's first ones (give or take a merge at the seam), so a path far over the limit cannot fit.
    if (hugePath === null) {
      const whole = (prefix === '' ? '' : `${prefix}\n\n`) + section.blocks.map((b) => b.text).join('\n\n');
      const wholeTokens = counter.count(whole);
      if (wholeTokens <= max) {
        chunks.push({ anchor: section.anchor, heading, text: whole, tokens: wholeTokens });
        continue;
      }
    }
    // A heading path that would leave little room for text is cut to its last heading.
    if ((hugePath ?? counter.count(prefix)) > max / 4) prefix = section.heading.slice(0, 200);
    const budget = Math.max(16, max - (prefix === '' ? 0 : counter.count(`${prefix}\n\n`)) - 1);
    const list = section.blocks.flatMap((b) => units(b, budget, counter));
    for (const piece of pack(prefix, list, max, counter)) chunks.push({ anchor: section.anchor, heading, ...piece });
  }
  return chunks;
}

/**
 * A bound on how deeply a docs page nests, checked before it is parsed. marked lexes a nested list by re-lexing each
 * item's content, so the time grows with the cube of the depth (800 levels of `- x`, 8 KB, took 12 s), and it
 * recurses once per level (2,000 `>` overflowed the stack). Real docs nest a few levels; a page nested deeper than
 * `MAX_NESTING` is skipped with a reason instead of freezing the indexer or the import. Pure, linear.
 */
import { DocSkipError } from './skip.ts';

export const MAX_NESTING = 32;

/** A list or quote marker at the start of what is left of a line, with the blanks after it. */
const MARKER = /(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*/y;
const FENCE = /^(?:```|~~~)/;

/** Columns of leading blanks (a tab to the next multiple of 4) and where the rest of the line starts. */
function indent(line: string): { columns: number; start: number } {
  let columns = 0;
  let i = 0;
  for (; i < line.length; i++) {
    if (line[i] === ' ') columns += 1;
    else if (line[i] === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return { columns, start: i };
}

/**
 * An upper estimate of a Markdown line's container depth: two columns of indentation per level, plus one per marker
 * that opens it (`> - 1. x` is three). Lines inside fenced code are not counted (code may be indented at will).
 */
export function markdownDepth(markdown: string): number {
  let deepest = 0;
  let fenced = false;
  for (const line of markdown.split('\n')) {
    const { columns, start } = indent(line);
    if (FENCE.test(line.slice(start, start + 3))) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    let markers = 0;
    MARKER.lastIndex = start;
    while (MARKER.exec(line) !== null) markers += 1;
    // Indentation alone (a paragraph, indented code) opens nothing: only lines that open a container count.
    if (markers > 0) deepest = Math.max(deepest, Math.floor(columns / 2) + markers);
  }
  return deepest;
}

export function checkNesting(markdown: string, max = MAX_NESTING): void {
  const depth = markdownDepth(markdown);
  if (depth > max) throw new DocSkipError('too_deep', `nested too deeply (more than ${max} levels of lists or quotes)`, { max });
}

/** A parser that still overflowed the stack (deep inline nesting) is a page too deep, not a crash. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

export function tooDeep(error: unknown): DocSkipError {
  return new DocSkipError('too_deep', `nested too deeply to parse (more than ${MAX_NESTING} levels)`, { max: MAX_NESTING }, { cause: error });
}

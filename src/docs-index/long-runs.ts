/**
 * marked's lexer is quadratic in a run of lines with no blank line between them when they continue a list item or a
 * paragraph lazily: measured on marked 18.2.1 (and 18.3.0, the latest), a list item followed by 24 KB of such lines
 * takes 0.13 s, 48 KB 0.44 s, 96 KB 1.7 s. A docs page like that (a pasted log, a generated list) would stall an
 * import. A run longer than `RUN_CHARS` outside fenced code gets a blank line at a line start every `RUN_CHARS`,
 * which ends the paragraph or list item there: the text is the same, its structure a little flatter, and lexing
 * stays linear. Pure.
 */

/** Characters of a blank-line-free run before a blank line goes in: far above any real paragraph or list. */
export const RUN_CHARS = 8_000;

/** A fence opening or closing a code block (indented too, inside a list item): three or more backticks or tildes. */
const FENCE = /^[ \t]*(`{3,}|~{3,})/;

export function breakLongRuns(markdown: string): string {
  if (markdown.length <= RUN_CHARS) return markdown;
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  let run = 0;
  for (const line of lines) {
    const opened = FENCE.exec(line)?.[1];
    if (fence !== null) {
      // Inside fenced code nothing is added: a blank line there would be part of the code.
      if (opened !== undefined && opened[0] === fence[0] && opened.length >= fence.length && line.trim() === opened) fence = null;
      out.push(line);
      run = 0;
      continue;
    }
    if (opened !== undefined) fence = opened;
    if (line.trim() === '') run = 0;
    else {
      if (run > 0 && run + line.length > RUN_CHARS) {
        out.push('');
        run = 0;
      }
      run += line.length + 1;
    }
    out.push(line);
  }
  return out.join('\n');
}

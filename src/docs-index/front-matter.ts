/**
 * YAML front matter at the top of a Markdown page (`---` … `---`): removed from the body, its `title` kept. Only
 * the simple YAML docs sites write is accepted (`key: value`, list items, indented continuations, comments); a
 * block that is not terminated or has a line that is none of these is an `invalid_input` error naming the line,
 * so the indexer can skip the page with a message rather than index the front matter as text. Pure.
 */
import { DocSkipError } from './skip.ts';

export interface FrontMatter {
  /** The page without its front matter. */
  body: string;
  /** `title:` from the front matter, unquoted, when present and not empty. */
  title: string | null;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;
/** A key (`[ \t]*` before its colon is trimmed); tested on the text before the first colon only. */
const KEY = /^[A-Za-z0-9_][\w .-]*$/;
/** What follows the colon: nothing, or a blank then a value on this one line (trimmed by `unquote`). */
const VALUE = /^(?:[ \t](.*))?$/;
// One blank, not `[ \t]+`, before `.*`: the two overlap, and a long run of blanks backtracked quadratically.
const LIST_ITEM = /^[ \t]*-(?:[ \t].*)?$/;
const CONTINUATION = /^[ \t]+\S/;
const COMMENT = /^[ \t]*#/;

/**
 * `key: value` split at the first colon. One regular expression over the whole line (`key*?[ \t]*:`) backtracked
 * quadratically: a 1 MB line of blanks with no colon took minutes. Each part is now matched once, in linear time.
 */
function keyValue(line: string): { key: string; value: string | undefined } | null {
  const colon = line.indexOf(':');
  if (colon === -1) return null;
  let end = colon;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  const key = line.slice(0, end);
  const value = VALUE.exec(line.slice(colon + 1));
  return KEY.test(key) && value !== null ? { key, value: value[1] } : null;
}

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) return v.slice(1, -1);
  return v;
}

export function parseFrontMatter(source: string): FrontMatter {
  const open = OPEN.exec(source);
  if (open === null) return { body: source, title: null };
  const lines = source.slice(open[0].length).split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const close = lines.findIndex((line) => CLOSE.test(line));
  if (close === -1) throw new DocSkipError('front_matter_unterminated', 'front matter is not terminated (no closing "---")');
  let title: string | null = null;
  for (let i = 0; i < close; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || COMMENT.test(line) || LIST_ITEM.test(line) || CONTINUATION.test(line)) continue;
    const kv = keyValue(line);
    if (kv === null) {
      const text = JSON.stringify(line.slice(0, 60));
      throw new DocSkipError('front_matter_line', `front matter line ${i + 2} is not "key: value": ${text}`, { line: i + 2, text });
    }
    if (kv.key === 'title' && kv.value !== undefined && unquote(kv.value) !== '') title = unquote(kv.value);
  }
  const rest = source.slice(open[0].length).split('\n').slice(close + 1).join('\n');
  return { body: rest, title };
}

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
const KEY_VALUE = /^([A-Za-z0-9_][\w .-]*?)[ \t]*:(?:[ \t]+(.*))?$/;
const LIST_ITEM = /^[ \t]*-(?:[ \t]+.*)?$/;
const CONTINUATION = /^[ \t]+\S/;
const COMMENT = /^[ \t]*#/;

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
    const kv = KEY_VALUE.exec(line);
    if (kv === null) {
      const text = JSON.stringify(line.slice(0, 60));
      throw new DocSkipError('front_matter_line', `front matter line ${i + 2} is not "key: value": ${text}`, { line: i + 2, text });
    }
    if (kv[1] === 'title' && kv[2] !== undefined && unquote(kv[2]) !== '') title = unquote(kv[2]);
  }
  const rest = source.slice(open[0].length).split('\n').slice(close + 1).join('\n');
  return { body: rest, title };
}

/**
 * A small, forgiving HTML tokenizer for docs pages: start tags (with attributes), end tags and text; comments,
 * doctypes and processing instructions dropped; the content of raw-text elements (script, style, textarea, title)
 * returned as one text token. Not a full HTML5 parser (no tree fix-ups), which extracting the text of a docs page
 * does not need. Pure, no DOM.
 */
import { decodeEntities } from './entities.ts';

export type HtmlToken =
  | { type: 'start'; name: string; attrs: Record<string, string>; selfClosing: boolean }
  | { type: 'end'; name: string }
  | { type: 'text'; text: string };

// Attribute names stop at `<` (HTML allows it; docs never use it): with it, every `<` of `<a x<a x<a x…` began a
// match that ran to the end of the file, and a 128 KB page took 25 s.
const START_TAG = /<([A-Za-z][A-Za-z0-9:-]*)((?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const END_TAG = /<\/([A-Za-z][A-Za-z0-9:-]*)[^>]*>/y;
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

function attributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(ATTR)) {
    const name = m[1]!.toLowerCase();
    if (!(name in attrs)) attrs[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

export function lexHtml(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  let i = 0;
  let text = '';
  const lastGt = html.lastIndexOf('>');
  const flushText = (): void => {
    if (text !== '') tokens.push({ type: 'text', text: decodeEntities(text) });
    text = '';
  };
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      text += html.slice(i);
      break;
    }
    text += html.slice(i, lt);
    i = lt;
    if (html.startsWith('<!--', i)) {
      const close = html.indexOf('-->', i + 4);
      i = close === -1 ? html.length : close + 3;
      continue;
    }
    if (html.startsWith('<!', i) || html.startsWith('<?', i)) {
      const close = html.indexOf('>', i);
      i = close === -1 ? html.length : close + 1;
      continue;
    }
    // A tag needs a `>` after it: past the last one, none can match (and `</a</a…` would rescan to the end each time).
    if (i > lastGt) {
      text += '<';
      i += 1;
      continue;
    }
    END_TAG.lastIndex = i;
    const end = END_TAG.exec(html);
    if (end !== null) {
      flushText();
      tokens.push({ type: 'end', name: end[1]!.toLowerCase() });
      i = END_TAG.lastIndex;
      continue;
    }
    START_TAG.lastIndex = i;
    const start = START_TAG.exec(html);
    if (start === null) {
      text += '<';
      i += 1;
      continue;
    }
    flushText();
    const name = start[1]!.toLowerCase();
    tokens.push({ type: 'start', name, attrs: attributes(start[2] ?? ''), selfClosing: start[3] === '/' });
    i = START_TAG.lastIndex;
    if (RAW_TEXT.has(name) && start[3] !== '/') {
      const closer = new RegExp(`</${name}[\\s/>]`, 'gi');
      closer.lastIndex = i;
      const stop = closer.exec(html)?.index ?? html.length;
      const raw = html.slice(i, stop);
      if (raw !== '') tokens.push({ type: 'text', text: name === 'script' || name === 'style' ? raw : decodeEntities(raw) });
      i = stop;
    }
  }
  flushText();
  return tokens;
}

/**
 * An HTML docs page as sections: the `<title>`, then the text of `<main>` (or `<body>`, or the whole document)
 * split at `<h1>`–`<h6>`, with script, style, nav and other non-content elements dropped and `<pre>` kept as code.
 * A heading's anchor is its own `id` when it has one (that is what a link must point at), else its slug. Pure.
 */
import { lexHtml, type HtmlToken } from './html-lexer.ts';
import { collapseSpace, type PageSection, type ParsedPage } from './sections.ts';
import { Slugger } from './slug.ts';

const DROPPED = new Set(['script', 'style', 'nav', 'noscript', 'template', 'svg', 'head', 'iframe', 'canvas', 'object']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'aside', 'header', 'footer', 'main', 'body', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'blockquote', 'figure', 'figcaption', 'details', 'summary', 'hr', 'br',
  'form', 'fieldset', 'address', 'caption',
]);
const HEADING = /^h([1-6])$/;
/** Permalink marks generators put in headings: `#`, `¶` (MkDocs, Sphinx), a zero-width space (Docusaurus's hash link). */
const PERMALINK = /^[#¶§🔗\s\u200b]+|[#¶§🔗\s\u200b]+$/gu;

/** Only the tokens inside `<main>` when there is one, else inside `<body>` when there is one, else all. */
function scope(tokens: HtmlToken[]): HtmlToken[] {
  for (const container of ['main', 'body']) {
    const start = tokens.findIndex((t) => t.type === 'start' && t.name === container);
    if (start === -1) continue;
    let depth = 0;
    for (let i = start; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.type === 'start' && t.name === container) depth++;
      else if (t.type === 'end' && t.name === container && --depth === 0) return tokens.slice(start + 1, i);
    }
    return tokens.slice(start + 1);
  }
  return tokens;
}

function titleOf(tokens: HtmlToken[]): string | null {
  const i = tokens.findIndex((t) => t.type === 'start' && t.name === 'title');
  const next = tokens[i + 1];
  if (i === -1 || next?.type !== 'text') return null;
  const title = collapseSpace(next.text);
  return title === '' ? null : title;
}

export function parseHtmlPage(html: string): ParsedPage {
  const all = lexHtml(html);
  const slugger = new Slugger();
  const sections: PageSection[] = [{ depth: 0, heading: '', anchor: '', blocks: [] }];
  let paragraph = '';
  /** The pending paragraph is only an `<li>`'s marker (and space): the item's text, even inside a nested block, goes after it. */
  let markerOnly = false;
  let pre: string | null = null;
  let heading: { depth: number; id: string; text: string } | null = null;
  let dropped = 0;
  let firstH1: string | null = null;

  const current = (): PageSection => sections[sections.length - 1]!;
  const flush = (): void => {
    const text = collapseSpace(paragraph);
    if (text !== '') current().blocks.push({ text, code: false });
    paragraph = '';
    markerOnly = false;
  };

  for (const t of scope(all)) {
    if (t.type === 'start' && DROPPED.has(t.name)) {
      if (!t.selfClosing) dropped++;
      continue;
    }
    if (t.type === 'end' && DROPPED.has(t.name)) {
      dropped = Math.max(0, dropped - 1);
      continue;
    }
    if (dropped > 0) continue;
    if (t.type === 'text') {
      if (pre !== null) pre += t.text;
      else if (heading !== null) heading.text += t.text;
      else {
        paragraph += t.text;
        if (t.text.trim() !== '') markerOnly = false;
      }
      continue;
    }
    const level = HEADING.exec(t.name)?.[1];
    if (t.type === 'start') {
      if (level !== undefined) {
        flush();
        heading = { depth: Number(level), id: t.attrs.id ?? '', text: '' };
      } else if (t.name === 'pre') {
        flush();
        pre = '';
      } else if (BLOCK.has(t.name) || VOID.has(t.name)) {
        if (pre !== null) pre += t.name === 'br' ? '\n' : '';
        else if (heading !== null) heading.text += ' ';
        else if (t.name === 'li') {
          if (!markerOnly) flush();
          paragraph = '- ';
          markerOnly = true;
        } else if (!markerOnly) flush();
      } else if (t.name === 'td' || t.name === 'th') paragraph += ' ';
      continue;
    }
    if (level !== undefined && heading !== null) {
      // Permalink markers generators put inside headings (`<a class="anchor">¶</a>`) are not the heading's text.
      const text = collapseSpace(heading.text).replace(PERMALINK, '');
      const anchor = heading.id !== '' ? heading.id : slugger.slug(text);
      if (heading.depth === 1 && firstH1 === null && text !== '') firstH1 = text;
      sections.push({ depth: heading.depth, heading: text, anchor, blocks: [] });
      heading = null;
    } else if (t.name === 'pre' && pre !== null) {
      // trimEnd, not /\s+$/: that regex retries at every space of a long blank run (quadratic; a fuzzed page took 4.6 s).
      const code = pre.replace(/^\n/, '').trimEnd();
      if (code !== '') current().blocks.push({ text: '```\n' + code + '\n```', code: true });
      pre = null;
    } else if (BLOCK.has(t.name) && pre === null && heading === null) flush();
  }
  flush();
  return { title: titleOf(all) ?? firstH1, sections: sections.filter((s) => s.depth > 0 || s.blocks.length > 0) };
}

/** The visible text of an HTML fragment (an HTML block inside Markdown), scripts and styles dropped. */
export function htmlFragmentText(html: string): string {
  return parseHtmlPage(html)
    .sections.flatMap((s) => [s.heading, ...s.blocks.map((b) => b.text)])
    .filter((t) => t !== '')
    .join('\n');
}

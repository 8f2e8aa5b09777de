/**
 * Markdown for the assistant's replies: `marked` (GFM) to HTML, code highlighted by highlight.js (core and a few
 * languages, so the bundle stays small), then DOMPurify with the explicit allow-list in sanitize-config.ts.
 * Whatever the model (or an imported file, or a docs page) writes, the result is inert and loads nothing: no
 * scripts, event handlers, styles, images, media, frames, forms, SVG or MathML; links only to http(s) or anchors.
 *
 * Raw HTML in the text is shown as text (as a chat shows what was written), except a few bare formatting tags
 * such as `<kbd>`. So hostile markup never reaches an HTML parser at all: DOMPurify only ever sees what marked
 * and highlight.js made, and stays as the second, independent layer. (Parsing it would be harmless but noisy: a
 * page's Content-Security-Policy reports every inline style or handler even in an inert parse.)
 */
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import { Marked, type Tokens } from 'marked';
import { SANITIZE_CONFIG } from './sanitize-config.ts';

hljs.registerLanguage('bash', bash);
hljs.registerLanguage('css', css);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('python', python);
hljs.registerLanguage('sql', sql);
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('xml', xml);
hljs.registerAliases(['sh', 'shell', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Labels the code blocks need, in the UI's language. */
export interface MarkdownLabels {
  copy: string;
  image: string;
}

/** Raw HTML kept as markup: bare open/close formatting tags with no attributes. */
const FORMATTING_TAG = /^<\/?(?:b|i|s|kbd|sub|sup|br)\s*\/?>$/i;

/** A raw HTML token of the text: kept when it is a bare formatting tag, else shown as written. */
const rawHtml = (text: string): string => (FORMATTING_TAG.test(text.trim()) ? text : escapeHtml(text));

function codeBlock(token: Tokens.Code, labels: MarkdownLabels): string {
  const lang = (token.lang ?? '').trim().split(/\s+/)[0]!.toLowerCase();
  const known = lang !== '' && hljs.getLanguage(lang) !== undefined;
  const body = known ? hljs.highlight(token.text, { language: lang, ignoreIllegals: true }).value : escapeHtml(token.text);
  const name = lang === '' ? '' : `<span class="code-lang">${escapeHtml(lang)}</span>`;
  return (
    `<div class="code-block"><div class="code-head">${name}` +
    `<button type="button" class="copy-code" data-copy-code="">${escapeHtml(labels.copy)}</button></div>` +
    `<pre><code class="hljs${known ? ` language-${lang}` : ''}">${body}</code></pre></div>`
  );
}

const parsers = new Map<string, Marked>();

function parser(labels: MarkdownLabels): Marked {
  const key = `${labels.copy}\u0000${labels.image}`;
  const known = parsers.get(key);
  if (known !== undefined) return known;
  const created = new Marked({
    gfm: true,
    breaks: true,
    renderer: {
      code: (token) => codeBlock(token, labels),
      html: ({ text }) => rawHtml(text),
      // Images become their alt text: never fetched.
      image: ({ text }) => `<span class="image-alt">[${escapeHtml(labels.image)}: ${escapeHtml(text)}]</span>`,
    },
  });
  parsers.set(key, created);
  return created;
}

let purifier: ReturnType<typeof DOMPurify> | null = null;

function purify(): ReturnType<typeof DOMPurify> {
  if (purifier !== null) return purifier;
  purifier = DOMPurify(window);
  // `href` is allowed for links only (the allow-list is per attribute, not per tag).
  purifier.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'href' && node.nodeName !== 'A') data.keepAttr = false;
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && node.hasAttribute('href') && !node.getAttribute('href')!.startsWith('#')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
  return purifier;
}

/** One render: the Markdown text and whether its sanitised HTML came from the cache (sanitised when first rendered). */
export interface SanitizerInput {
  text: string;
  cached: boolean;
}

/** Watchers of what reaches the sanitiser, so a test proves a payload was really rendered, not skipped. */
const sanitizeWatchers = new Set<(input: SanitizerInput) => void>();

/** Calls `watch` with every text rendered (parsed and sanitised, or taken from the cache) until the returned function is called. */
export function watchSanitizer(watch: (input: SanitizerInput) => void): () => void {
  sanitizeWatchers.add(watch);
  return () => sanitizeWatchers.delete(watch);
}

const cache = new Map<string, string>();
const CACHE_MAX = 200;

/** Sanitised HTML for a reply. Cached by text and labels: a long conversation is not parsed again on every render. */
export function renderMarkdown(text: string, labels: MarkdownLabels): string {
  const key = `${labels.copy}\u0000${labels.image}\u0000${text}`;
  const hit = cache.get(key);
  for (const watch of sanitizeWatchers) watch({ text, cached: hit !== undefined });
  if (hit !== undefined) return hit;
  const raw = parser(labels).parse(text, { async: false });
  const html = String(purify().sanitize(raw, SANITIZE_CONFIG)).trim();
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, html);
  return html;
}

/** What a reply says, without its markup (for the live region). Parsed in an inert template: nothing loads or runs. */
export function plainText(text: string): string {
  const template = document.createElement('template');
  template.innerHTML = renderMarkdown(text, { copy: '', image: '' });
  template.content.querySelectorAll('.code-head').forEach((head) => head.remove());
  return (template.content.textContent ?? '').replace(/\s+/g, ' ').trim();
}

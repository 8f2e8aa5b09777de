/**
 * What a rendered reply may contain: an explicit allow-list, the only DOMPurify configuration the app and the
 * widget use. Everything that renders model, imported or docs text as HTML goes through it (src/ui/markdown.ts).
 *
 * Why an allow-list and not a profile: DOMPurify ignores an option it does not know, so a misspelt profile
 * (`USE_PROFILE` once stood here for `USE_PROFILES`) silently left its default list in force — SVG and MathML
 * included, whose `<image href>`, `<feImage>` and `fill="url(…)"` make the browser fetch another origin. With
 * `satisfies Config` a misspelt option fails to compile, and test/unit/sanitize-config.test.ts pins the values.
 *
 * The list is what our Markdown renderer emits (marked's GFM HTML, highlight.js spans, the code-block header)
 * plus a few harmless inline tags a model writes as raw HTML. Nothing in it can load anything: no images, media,
 * frames, forms, styles, SVG or MathML; the only URL-bearing attribute is `href` on `<a>`, to http(s) or an anchor.
 */
import type { Config } from 'dompurify';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** Tags a reply may keep. Anything else is removed (its text kept, except for script/style/svg/math and the like). */
export const REPLY_TAGS = Object.freeze([
  // marked (GFM)
  'a', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'ol', 'p', 'pre',
  'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
  // code blocks: highlight.js spans, our header with its Copy button; image alt text
  'button', 'div', 'span',
  // inline HTML a model may write in prose
  'b', 'i', 'kbd', 's', 'sub', 'sup',
] as const);

/** Attributes a kept tag may keep. `href` is the only one that holds a URL; `target`/`rel` are set by a hook. */
export const REPLY_ATTRIBUTES = Object.freeze(['align', 'class', 'data-copy-code', 'href', 'start', 'title', 'type'] as const);

/**
 * DOMPurify tests every allowed attribute that is not "URI-safe" against ALLOWED_URI_REGEXP; these four hold no
 * URL (a table cell's alignment, a list's first number, a button's type, our copy marker), so they skip that
 * test and `href` is the only attribute it applies to. (`class` and `title` are URI-safe by default.)
 */
const NOT_URLS = ['align', 'data-copy-code', 'start', 'type'];

/** Links may go to http(s) pages and to anchors; `javascript:`, `data:`, `mailto:`, relative and protocol-relative URLs lose their href. */
export const ALLOWED_HREF = /^(?:https?:\/\/[^/\\]|#)/i;

export const SANITIZE_CONFIG = Object.freeze({
  ALLOWED_TAGS: [...REPLY_TAGS],
  ALLOWED_ATTR: [...REPLY_ATTRIBUTES],
  ADD_URI_SAFE_ATTR: NOT_URLS,
  ALLOWED_URI_REGEXP: ALLOWED_HREF,
  ALLOWED_NAMESPACES: [HTML_NAMESPACE],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOW_SELF_CLOSE_IN_ATTR: false,
  SAFE_FOR_XML: true,
  SANITIZE_DOM: true,
  SANITIZE_NAMED_PROPS: true,
  WHOLE_DOCUMENT: false,
  KEEP_CONTENT: true,
} satisfies Config);

/** Whether an `href` may stay (the same rule DOMPurify applies, for links we build outside it, e.g. doc sources). */
export function isAllowedHref(href: string): boolean {
  return ALLOWED_HREF.test(href.replace(/[\u0000-\u0020\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000]/g, ''));
}

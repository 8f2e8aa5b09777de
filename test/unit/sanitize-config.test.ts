/**
 * The renderer's DOMPurify configuration, pinned value by value. DOMPurify ignores an option it does not know, so a
 * misspelt key (USE_PROFILE for USE_PROFILES once left SVG and MathML allowed) would pass silently; here any change to
 * the keys or lists must be made on purpose, and the browser tests (test/browser/security/) check the effect.
 */
import { describe, expect, it } from 'vitest';
import { SANITIZE_CONFIG, isAllowedHref } from '../../src/ui/sanitize-config.ts';

describe('sanitize configuration', () => {
  it('is exactly the explicit allow-list', () => {
    expect(SANITIZE_CONFIG).toEqual({
      ALLOWED_TAGS: ['a', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'ol', 'p', 'pre', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul', 'button', 'div', 'span', 'b', 'i', 'kbd', 's', 'sub', 'sup'],
      ALLOWED_ATTR: ['align', 'class', 'data-copy-code', 'href', 'start', 'title', 'type'],
      ADD_URI_SAFE_ATTR: ['align', 'data-copy-code', 'start', 'type'],
      ALLOWED_URI_REGEXP: /^(?:https?:\/\/[^/\\]|#)/i,
      ALLOWED_NAMESPACES: ['http://www.w3.org/1999/xhtml'],
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      ALLOW_UNKNOWN_PROTOCOLS: false,
      ALLOW_SELF_CLOSE_IN_ATTR: false,
      SAFE_FOR_XML: true,
      SANITIZE_DOM: true,
      SANITIZE_NAMED_PROPS: true,
      WHOLE_DOCUMENT: false,
      KEEP_CONTENT: true,
    });
  });

  it('names only options DOMPurify reads (no profile, no forbid-lists that would sit beside an allow-list)', () => {
    for (const key of Object.keys(SANITIZE_CONFIG)) expect(key).toMatch(/^(ALLOWED_(TAGS|ATTR|URI_REGEXP|NAMESPACES)|ADD_URI_SAFE_ATTR|ALLOW_(DATA_ATTR|ARIA_ATTR|UNKNOWN_PROTOCOLS|SELF_CLOSE_IN_ATTR)|SAFE_FOR_XML|SANITIZE_(DOM|NAMED_PROPS)|WHOLE_DOCUMENT|KEEP_CONTENT)$/);
    expect(SANITIZE_CONFIG).not.toHaveProperty('USE_PROFILE');
    expect(SANITIZE_CONFIG).not.toHaveProperty('USE_PROFILES');
  });

  it('allows links to http(s) pages and anchors only', () => {
    for (const href of ['https://example.org/a', 'http://example.org', 'HTTPS://EXAMPLE.ORG', '#setup']) expect(isAllowedHref(href), href).toBe(true);
    for (const href of ['javascript:alert(1)', ' javascript:x', 'java\tscript:x', 'data:text/html,x', 'mailto:a@b.c', '/relative', 'relative.html', '//evil.example/x', 'https:///x', 'ftp://h/f', 'vbscript:x', ''])
      expect(isAllowedHref(href), href).toBe(false);
  });
});

/**
 * Writes the Content-Security-Policy (scripts/csp.ts) into the built index.html right after its charset, before
 * anything it governs. Build only: the dev server injects its client and styles inline and runs without a policy.
 * The final page's inline <style> elements are hashed into style-src; an inline script fails the build, since the
 * policy allows none.
 */
import type { Plugin } from 'vite';
import { buildCsp, cspMetaTag, inlineHash } from './csp.ts';

const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** `html` with the policy's meta added; `connect`: the connect-src entries besides 'self'. */
export function withCspMeta(html: string, connect: readonly string[]): string {
  if ([...html.matchAll(INLINE_SCRIPT)].some((m) => (m[1] ?? '').trim() !== '')) {
    throw new Error('index.html has an inline <script>, which the Content-Security-Policy refuses: move it to a file');
  }
  const styleHashes = [...html.matchAll(INLINE_STYLE)].map((m) => inlineHash(m[1] ?? ''));
  // Right after the charset (which must stay within the first 1024 bytes), before any script, style or link.
  const at = /<meta\s+charset=[^>]*>/i.exec(html) ?? /<head\b[^>]*>/i.exec(html);
  if (at === null) throw new Error('index.html has no <head> for the Content-Security-Policy meta');
  const end = at.index + at[0].length;
  return `${html.slice(0, end)}\n    ${cspMetaTag(buildCsp({ connect, styleHashes }))}${html.slice(end)}`;
}

/** The Vite plugin: the model hosts known at build time become connect-src (see vite.config.ts). */
export function cspMeta(connect: readonly string[]): Plugin {
  return {
    name: 'qwen-csp-meta',
    apply: 'build',
    // 'post': after Vite's own tags, so the hashes cover the page as it ships.
    transformIndexHtml: { order: 'post', handler: (html) => withCspMeta(html, connect) },
  };
}

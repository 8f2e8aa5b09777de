/**
 * Links from a doc chunk to its page and heading. Pure: URL only.
 */
import { AssistantError } from '../shared/errors.ts';
import type { DocsManifest } from './format.ts';

/**
 * The absolute link to `page` (at `anchor`, '' for the page's top): `manifest.baseUrl + page.url`, resolved against
 * the manifest's own URL. `manifestUrl` must be absolute (in a page, resolve it against `document.baseURI` first).
 */
export function pageHref(manifestUrl: string, manifest: Pick<DocsManifest, 'baseUrl'>, page: { url: string }, anchor: string): string {
  let base: URL;
  try {
    base = new URL(manifestUrl);
  } catch (error) {
    throw new AssistantError('invalid_input', `The manifest URL "${manifestUrl}" is not an absolute URL.`, { cause: error });
  }
  const url = new URL(manifest.baseUrl + page.url, base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:') {
    throw new AssistantError('invalid_input', `The page link "${url.href}" is not an http(s) URL.`);
  }
  url.hash = anchor === '' ? '' : anchor;
  return url.href;
}

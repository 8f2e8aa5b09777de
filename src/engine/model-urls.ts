/**
 * Every URL a model source downloads from, and the check that the page's Content-Security-Policy allows them all
 * (shared/csp.ts): the app and the widget call it before a load, and the build (scripts/csp.ts) lists the same
 * URLs' hosts in connect-src, so the two cannot disagree.
 */
import { assertConnectAllowed } from '../shared/csp.ts';
import type { ModelSource } from './protocol.ts';

/** The GGUFs (chat and embedding), and web-llm's weights folders and model libraries (the embedding model's too). */
export function modelUrlsOf(source: ModelSource): string[] {
  const urls: string[] = [];
  if (source.ggufUrl !== undefined) urls.push(source.ggufUrl);
  if (source.embeddingGguf !== undefined) urls.push(source.embeddingGguf.url);
  const mlc = source.mlc;
  if (mlc !== undefined) {
    urls.push(mlc.urlF16, mlc.urlF32, mlc.libF16, mlc.libF32);
    if (mlc.embedding !== undefined) urls.push(mlc.embedding.url, mlc.embedding.lib);
  }
  return urls;
}

/** Throws `invalid_config` naming the host when the page's CSP meta would block a download of `source`. */
export function assertModelAllowed(source: ModelSource, howToAllow: (origin: string) => string): void {
  assertConnectAllowed(modelUrlsOf(source), howToAllow);
}

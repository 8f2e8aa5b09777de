/**
 * The static docs index that `npm run index-docs` writes and the widget (and the app) read: one manifest plus one
 * JSON file per page, named by the page's content hash, so a re-index changes only the files of changed pages and
 * a reader fetches only those. Pure data: no DOM, no Node APIs (both sides import it).
 *
 *   <out>/manifest.json          DocsManifest
 *   <out>/pages/<hash>.json      DocsPageFile, one per page
 *   <out>/memory/<hash>.bin      the widget's docs memory, built (optional: `DocsManifest.memory`)
 *
 * Helpers both sides use: parse.ts (validation of read-back files), vector-codec.ts (int8 vectors), href.ts (links),
 * slug.ts (anchors); the indexer itself is page.ts (one file → one page) and scripts/index-docs/ (walk, write).
 */

export const DOCS_INDEX_VERSION = 1;

export interface DocsManifest {
  version: typeof DOCS_INDEX_VERSION;
  /** ISO time the index was written. */
  createdAt: string;
  /** The embedder the vectors came from (`embedderKey` of the store): a reader with another embedder re-embeds. */
  embedder: { id: string; version: number; dimensions: number };
  /**
   * Prefix of every page URL, as given to `--base-url` (default '/'). Page links are `baseUrl + page.url`,
   * resolved against the manifest's own URL when relative.
   */
  baseUrl: string;
  /** Pages in the folder's order. */
  pages: DocsPageEntry[];
  /**
   * The widget's docs memory (its retrieval index over every chunk, with each chunk's link) built by the indexer,
   * so a first visit loads it instead of indexing 10,000 chunks itself (src/widget/runtime/shipped-docs.ts). A
   * reader whose index layout is another (`key`) ignores it and indexes the pages.
   */
  memory?: DocsMemoryEntry;
}

export interface DocsMemoryEntry {
  /** The file, relative to the manifest: `memory/<hash>.bin`. */
  file: string;
  /** The layout of the index it holds (the widget's `snapshotKey`): a reader uses it only when it is its own. */
  key: string;
  bytes: number;
}

export interface DocsPageEntry {
  /** The page's path below `baseUrl`, e.g. `guide/install.html` (Markdown `x.md` is published as `x.html`). */
  url: string;
  title: string;
  /** sha-256 (hex) of the page's chunks and the embedder key: same hash, same chunks. */
  hash: string;
  /** The page file, relative to the manifest: `pages/<hash>.json`. */
  file: string;
  /** Number of chunks in the page file. */
  chunks: number;
}

export interface DocsPageFile {
  version: typeof DOCS_INDEX_VERSION;
  url: string;
  title: string;
  hash: string;
  chunks: DocsChunk[];
}

export interface DocsChunk {
  /** The heading's anchor (GitHub-style slug, unique within the page); '' for text before the first heading. */
  anchor: string;
  /** Heading path, e.g. `Install › From npm` ('' for text before the first heading). */
  heading: string;
  /**
   * The chunk's text (Markdown stripped to plain text with code kept, fenced), ≤ ~400 Qwen tokens. It starts with its
   * heading path on its own line (the page title for text before the first heading), then a blank line, so the
   * heading's words are searchable and the model sees where the text comes from. The vector is of exactly this text.
   */
  text: string;
  /** Exact Qwen token count of `text`. */
  tokens: number;
  /** The default embedder's vector, int8-quantised: v[i] = q[i] * scale; `q` is base64 of the Int8Array bytes. */
  vector: { scale: number; q: string };
}

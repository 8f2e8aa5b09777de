/**
 * One docs file → one page of the index: parsed (Markdown after its front matter, or HTML), split into chunks,
 * each embedded with the given embedder exactly as the store embeds a doc chunk (`embed(texts)` of the chunk
 * text, document side) and quantised; hashed so that same hash means same page file. Pure (Web Crypto for the
 * hash, available in browsers and Node 20).
 */
import type { TokenCount } from '../memory/store/index.ts';
import { embedderKey, type Embedder } from '../memory/embedders/index.ts';
import { DOCS_INDEX_VERSION, type DocsChunk, type DocsPageFile } from './format.ts';
import { parseFrontMatter } from './front-matter.ts';
import { parseHtmlPage } from './html.ts';
import { parseMarkdownPage } from './markdown.ts';
import { checkNesting, isStackOverflow, tooDeep } from './nesting.ts';
import type { ParsedPage } from './sections.ts';
import { DocSkipError } from './skip.ts';
import type { Slugify } from './slug.ts';
import { splitPage, type TextChunk } from './split.ts';
import { encodeVector } from './vector-codec.ts';

export type DocKind = 'markdown' | 'html';

const KINDS: Record<string, DocKind> = { md: 'markdown', markdown: 'markdown', html: 'html', htm: 'html' };

/** The kind of a docs file by its extension, or null for a file that is not one. */
export function docKind(path: string): DocKind | null {
  const ext = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext === undefined ? null : (KINDS[ext] ?? null);
}

/** Where a file is published: `guide/x.md` → `guide/x.html`; HTML keeps its path. Always `/`-separated. */
export function publishedUrl(path: string): string {
  const clean = path.replace(/\\/g, '/').replace(/^\.?\//, '');
  return docKind(clean) === 'markdown' ? clean.replace(/\.(?:md|markdown)$/i, '.html') : clean;
}

export interface ParsedDoc {
  page: ParsedPage;
  /** Front matter title, else `<title>` or the first h1, else the file name. */
  title: string;
}

/** How a site generator publishes headings (the defaults: the demo site's, GitHub's rule). */
export interface HeadingOptions {
  /** The generator's rule for a heading's id (Markdown only: an HTML heading keeps its own `id`). */
  slugify?: Slugify;
  /**
   * The ids the published page really has (read from the built page): a section whose anchor is not among them
   * links to the page itself rather than to a heading that is not there.
   */
  anchors?: ReadonlySet<string>;
}

/** Parses a docs file's text; throws `invalid_input` (with the reason as message) for broken or empty pages. */
export function parseDoc(path: string, text: string, headings: HeadingOptions = {}): ParsedDoc {
  const kind = docKind(path);
  if (kind === null) throw new DocSkipError('not_docs', 'not a Markdown or HTML file');
  let frontTitle: string | null = null;
  let page: ParsedPage;
  try {
    if (kind === 'markdown') {
      const front = parseFrontMatter(text);
      frontTitle = front.title;
      checkNesting(front.body);
      page = parseMarkdownPage(front.body, headings.slugify);
    } else page = parseHtmlPage(text);
  } catch (error) {
    throw isStackOverflow(error) ? tooDeep(error) : error;
  }
  if (!page.sections.some((s) => s.blocks.length > 0)) throw new DocSkipError('empty', 'empty page (no text)');
  const name = path.replace(/\\/g, '/').split('/').pop()!.replace(/\.[^.]+$/, '');
  const known = headings.anchors;
  if (known !== undefined) page = { ...page, sections: page.sections.map((s) => (s.anchor === '' || known.has(s.anchor) ? s : { ...s, anchor: '' })) };
  return { page, title: frontTitle ?? page.title ?? name };
}

/** A doc's chunks with their exact token counts (no vectors): what the app's folder import stores. */
export function chunkDoc(path: string, text: string, counter: TokenCount, maxTokens?: number, headings?: HeadingOptions): { title: string; chunks: TextChunk[] } {
  const { page, title } = parseDoc(path, text, headings);
  return { title, chunks: splitPage({ ...page, title }, counter, maxTokens) };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface BuildPageOptions extends HeadingOptions {
  counter: TokenCount;
  embedder: Embedder;
  maxTokens?: number;
  /** The page's published URL (default `publishedUrl(path)`: `x.md` → `x.html`). */
  url?: string;
}

/** A page file of the index for one docs file (`path` relative to the docs folder). */
export async function buildDocsPage(path: string, text: string, options: BuildPageOptions): Promise<DocsPageFile> {
  const { title, chunks } = chunkDoc(path, text, options.counter, options.maxTokens, options);
  const vectors = await options.embedder.embed(chunks.map((c) => c.text));
  const docsChunks: DocsChunk[] = chunks.map((c, i) => ({ ...c, vector: encodeVector(vectors[i]!) }));
  const url = options.url ?? publishedUrl(path);
  // Everything the page file holds goes into the hash, so a kept file is never stale.
  const hash = await sha256Hex(JSON.stringify({ embedder: embedderKey(options.embedder), url, title, chunks: docsChunks }));
  return { version: DOCS_INDEX_VERSION, url, title, hash, chunks: docsChunks };
}

/**
 * The core of `npm run index-docs`, as a function a benchmark can call: walks a folder, turns each docs file into
 * a page file (src/docs-index/page.ts) with the real Qwen tokenizer and the default embedder, skips malformed
 * files with a reason, builds the widget's docs memory over all of them (unless `memory: false`), and (with `out`)
 * writes the index. Pages are built one by one; a file that fails never stops the rest.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_MAX_BYTES, checkSize, decodeDocBytes } from '../../src/docs-index/decode.ts';
import { DOCS_INDEX_VERSION, type DocsManifest, type DocsPageFile } from '../../src/docs-index/format.ts';
import { buildDocsPage, publishedUrl } from '../../src/docs-index/page.ts';
import type { Slugify } from '../../src/docs-index/slug.ts';
import type { TokenCount } from '../../src/memory/store/chunking.ts';
import type { Embedder } from '../../src/memory/embedders/embedder.ts';
import { HashedNgramEmbedder } from '../../src/memory/embedders/hashed-ngram.ts';
import { AssistantError } from '../../src/shared/errors.ts';
import { SHIPPED_DOCS_KEY, buildShippedDocsFile } from '../../src/widget/runtime/shipped-docs.ts';
import { loadNodeQwenCounter } from '../prepare-tokenizer.ts';
import { listDocFiles } from './walk.ts';
import { writeDocsIndex, type WriteStats } from './write-index.ts';

export interface IndexDocsOptions {
  /** Output folder; nothing is written without it. */
  out?: string;
  /** Prefix of page URLs in the manifest (default '/'). */
  baseUrl?: string;
  /** Files over this many bytes are skipped (default 2 MB). */
  maxBytes?: number;
  /** Chunk size limit in Qwen tokens (default 400). */
  maxTokens?: number;
  /** Token counter (default: the real Qwen2.5 tokenizer). */
  counter?: TokenCount;
  /** Embedder (default: the app's default, hashed n-grams). */
  embedder?: Embedder;
  /**
   * Whether to build the widget's docs memory and ship it with the index (default true): a reader's first visit
   * then loads that file instead of indexing every chunk (src/widget/runtime/shipped-docs.ts).
   */
  memory?: boolean;
  /** Called with each skipped file, as it is skipped. */
  onSkip?: (skip: SkippedFile) => void;
  /** Which of the folder's docs files to index (a `/`-separated path below the folder; default all). */
  include?: (path: string) => boolean;
  /** Where a file is published (default `publishedUrl`: `x.md` → `x.html`, HTML as it is). */
  pageUrl?: (path: string) => string;
  /** The site generator's rule for Markdown heading ids (default GitHub's). */
  slugify?: Slugify;
  /** The ids a published page really has, when known (from the built site): other anchors link to the page. */
  anchorsOf?: (url: string) => ReadonlySet<string> | undefined;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface IndexDocsStats {
  files: number;
  pages: number;
  chunks: number;
  /** Bytes of the written index (0 without `out`). */
  bytes: number;
  /** Wall-clock seconds from the first file read to the last file written (the tokenizer's load excluded). */
  seconds: number;
  /** CPU seconds of this process over the same span (a loaded machine inflates `seconds`, not this). */
  cpuSeconds: number;
  /** Of `seconds`, building the widget's docs memory (0 with `memory: false`). */
  memorySeconds: number;
  pagesPerS: number;
  skipped: SkippedFile[];
  write: WriteStats | null;
}

export interface IndexDocsResult {
  manifest: DocsManifest;
  pages: DocsPageFile[];
  stats: IndexDocsStats;
}

/** Reads a file, refusing one over the size limit before reading it whole (one open handle for both). */
async function readDoc(path: string, maxBytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    checkSize((await handle.stat()).size, maxBytes);
    return decodeDocBytes(await handle.readFile(), maxBytes);
  } finally {
    await handle.close();
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof AssistantError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? `unreadable (${code})` : `failed: ${error instanceof Error ? error.message : String(error)}`;
}

export async function indexDocsFolder(folder: string, options: IndexDocsOptions = {}): Promise<IndexDocsResult> {
  let files: string[];
  try {
    files = (await listDocFiles(folder)).filter((path) => options.include?.(path) ?? true);
  } catch (error) {
    throw new AssistantError('invalid_input', `The docs folder "${folder}" cannot be read: ${reasonOf(error)}.`, { cause: error });
  }
  const counter = options.counter ?? (await loadNodeQwenCounter());
  const embedder = options.embedder ?? new HashedNgramEmbedder();
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  // Throughput is measured from here: loading the tokenizer is a one-off cost, not per page.
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const pages: DocsPageFile[] = [];
  const skipped: SkippedFile[] = [];
  /** Published URL → the file that took it (`x.md` and `x.html` would both be `x.html`). */
  const urls = new Map<string, string>();
  const pageUrl = options.pageUrl ?? publishedUrl;
  for (const path of files) {
    const url = pageUrl(path);
    const taken = urls.get(url);
    if (taken !== undefined) {
      const skip = { path, reason: `same page URL ${url} as ${taken}` };
      skipped.push(skip);
      options.onSkip?.(skip);
      continue;
    }
    try {
      const text = await readDoc(join(folder, path), maxBytes);
      const anchors = options.anchorsOf?.(url);
      const page = await buildDocsPage(path, text, {
        counter,
        embedder,
        url,
        ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
        ...(options.slugify === undefined ? {} : { slugify: options.slugify }),
        ...(anchors === undefined ? {} : { anchors }),
      });
      pages.push(page);
      urls.set(page.url, path);
    } catch (error) {
      const skip = { path, reason: reasonOf(error) };
      skipped.push(skip);
      options.onSkip?.(skip);
    }
  }
  const manifest: DocsManifest = {
    version: DOCS_INDEX_VERSION,
    createdAt: new Date().toISOString(),
    embedder: { id: embedder.id, version: embedder.version, dimensions: embedder.dimensions },
    baseUrl: options.baseUrl ?? '/',
    pages: pages.map((p) => ({ url: p.url, title: p.title, hash: p.hash, file: `pages/${p.hash}.json`, chunks: p.chunks.length })),
  };
  let memory: Uint8Array | null = null;
  const memoryStarted = performance.now();
  if (options.memory !== false && pages.length > 0) {
    memory = await buildShippedDocsFile(manifest, pages);
    manifest.memory = { file: `memory/${createHash('sha256').update(memory).digest('hex')}.bin`, key: SHIPPED_DOCS_KEY, bytes: memory.byteLength };
  }
  const memorySeconds = (performance.now() - memoryStarted) / 1000;
  const write = options.out === undefined || pages.length === 0 ? null : await writeDocsIndex(options.out, manifest, pages, memory);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  return {
    manifest,
    pages,
    stats: {
      files: files.length,
      pages: pages.length,
      chunks: pages.reduce((n, p) => n + p.chunks.length, 0),
      bytes: write?.bytes ?? 0,
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      memorySeconds,
      pagesPerS: seconds > 0 ? pages.length / seconds : 0,
      skipped,
      write,
    },
  };
}

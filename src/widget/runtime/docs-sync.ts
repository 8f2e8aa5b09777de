/**
 * Brings the store's docs namespace in line with a docs index (`npm run index-docs`): the manifest is read first
 * and checked whole, so a malformed one changes nothing; then only pages whose content hash differs from the one
 * stored are fetched (a few at a time), their chunks written with the index's precomputed vectors (re-embedded
 * here when the index used another embedder), and pages gone from the manifest are deleted — last, and only
 * when every page was read, so a failed sync never leaves fewer docs than it found.
 */
import type { DocsManifest, DocsPageEntry, DocsPageFile } from '../../docs-index/format.ts';
import { pageHref } from '../../docs-index/href.ts';
import { parseDocsManifest, parseDocsPageFile } from '../../docs-index/parse.ts';
import { decodeVector } from '../../docs-index/vector-codec.ts';
import type { DocChunkRecord, DocInput, MemoryStore } from '../../memory/store/index.ts';
import { embedderKey, normalize } from '../../memory/embedders/index.ts';
import { AssistantError, abortedError, isAbortError, toAssistantError } from '../../shared/errors.ts';

export interface DocsSyncProgress {
  /** Page files fetched and written so far, of those that had to be. */
  readonly done: number;
  readonly total: number;
}

export interface DocsSyncOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DocsSyncProgress) => void;
  /** Page files fetched at once (default 6, a browser's connections per host). */
  readonly concurrency?: number;
  /** Chunks written per transaction (default 1,000). */
  readonly batchChunks?: number;
  readonly fetch?: typeof fetch;
  /**
   * Called with the chunks of each batch of pages once written (awaited before the next batch is written): a
   * reader can index them while the next pages download.
   */
  readonly onWritten?: (chunks: readonly DocChunkRecord[]) => void | Promise<void>;
}

export interface DocsSyncFailure {
  readonly url: string;
  readonly code: string;
  readonly message: string;
}

export interface DocsSyncResult {
  /** Pages in the manifest, and their chunks. */
  readonly pages: number;
  readonly chunks: number;
  /** Page files fetched (new or changed pages). */
  readonly fetched: number;
  /** Pages deleted because the manifest no longer lists them. */
  readonly removed: number;
  /** Pages whose file could not be read or was malformed: their stored version (if any) stays. */
  readonly failed: readonly DocsSyncFailure[];
  /** Whether the index's vectors were from another embedder than the store's, so the chunks were embedded here. */
  readonly reembedded: boolean;
  readonly ms: number;
  readonly manifest: DocsManifest;
  /** The manifest's absolute URL (page links resolve against it). */
  readonly manifestUrl: string;
}

/** The doc id a page is stored under: its URL in the index (stable while its content changes). */
export const pageDocId = (page: { url: string }): string => page.url;

function invalid(what: string, error: unknown): AssistantError {
  const detail = error instanceof Error ? error.message : String(error);
  return new AssistantError('docs_index_invalid', `The docs index ${what} is malformed: ${detail}`, { cause: error });
}

async function fetchJson(url: string, what: string, get: typeof fetch, signal: AbortSignal | undefined, cache: RequestCache = 'default'): Promise<unknown> {
  let response: Response;
  try {
    response = await get(url, signal === undefined ? { cache } : { cache, signal });
  } catch (error) {
    if (signal?.aborted === true || isAbortError(error)) throw abortedError();
    throw new AssistantError('network', `Could not fetch the docs index ${what} (${url}): the network is off or the host is unreachable.`, { cause: error });
  }
  if (response.status === 404 || response.status === 410) {
    throw new AssistantError('docs_index_not_found', `There is no docs index ${what} at ${url} (HTTP ${response.status}). Check the widget's docs-index attribute.`);
  }
  if (!response.ok) throw new AssistantError('network', `The docs index host answered HTTP ${response.status} for ${url}.`);
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalid(`${what} (${url})`, error);
  }
}

/**
 * What a stored page is a copy of: its content hash and the absolute link it was stored under (a moved site or a
 * new `baseUrl` re-stores it, so links under answers never go stale).
 */
export const storedVersion = (hash: string, link: string): string => `${hash} ${link}`;

/**
 * The store's input for one page file: chunks with their absolute page link (`link`, no anchor) and decoded,
 * unit-length vectors — or none when the index's embedder is not the store's (`vectorsFrom` null: re-embedded).
 */
export function pageInput(page: DocsPageFile, entry: DocsPageEntry, link: string, vectorsFrom: string | null): DocInput {
  const texts = page.chunks.map((c) => c.text);
  return {
    docId: pageDocId(entry),
    source: page.title,
    texts,
    tokenCounts: page.chunks.map((c) => c.tokens),
    meta: page.chunks.map((c) => ({ url: link, anchor: c.anchor, title: page.title, heading: c.heading })),
    hash: storedVersion(page.hash, link),
    ...(vectorsFrom === null ? {} : { vectors: { embedder: vectorsFrom, vectors: page.chunks.map((c) => normalize(decodeVector(c.vector))) } }),
  };
}

/** Runs `work` over `items` with at most `limit` at once, in order of start. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * What a sync of a docs index has to do: the manifest (read and checked whole), each page's absolute link, the
 * pages to fetch (new or changed) and the stored docs the manifest no longer lists. Reads the store; writes nothing.
 */
export interface DocsSyncPlan {
  readonly manifest: DocsManifest;
  /** The manifest's absolute URL (page links and files resolve against it). */
  readonly manifestUrl: string;
  /** Page URL → its absolute link (no anchor), as stored with its chunks. */
  readonly links: ReadonlyMap<string, string>;
  /** The index's embedder key when its vectors are the store's embedder's at its width (kept), else null (embedded here). */
  readonly vectorsFrom: string | null;
  readonly todo: readonly DocsPageEntry[];
  readonly gone: readonly string[];
  readonly started: number;
}

export async function planDocsSync(store: MemoryStore, manifestUrl: string, options: Pick<DocsSyncOptions, 'signal' | 'fetch'> = {}): Promise<DocsSyncPlan> {
  const started = performance.now();
  const get = options.fetch ?? globalThis.fetch.bind(globalThis);
  const absolute = new URL(manifestUrl, globalThis.location?.href).href;
  // The manifest is revalidated (it changes in place); page files are named by their hash and cache as they are.
  const raw = await fetchJson(absolute, 'manifest', get, options.signal, 'no-cache');
  let manifest: DocsManifest;
  const links = new Map<string, string>();
  try {
    manifest = parseDocsManifest(raw);
    // Every page link must resolve now, not when an answer cites it.
    for (const page of manifest.pages) links.set(page.url, pageHref(absolute, manifest, page, ''));
  } catch (error) {
    throw invalid(`manifest (${absolute})`, error);
  }

  const storeKey = embedderKey(store.embedder);
  const indexKey = embedderKey(manifest.embedder);
  const vectorsFrom = indexKey === storeKey && manifest.embedder.dimensions === store.embedder.dimensions ? indexKey : null;
  const stored = new Map((await store.listDocs()).map((d) => [d.docId, d]));
  const listed = new Set(manifest.pages.map(pageDocId));
  const todo = manifest.pages.filter((p) => stored.get(pageDocId(p))?.hash !== storedVersion(p.hash, links.get(p.url)!));
  const gone = [...stored.keys()].filter((id) => !listed.has(id));
  return { manifest, manifestUrl: absolute, links, vectorsFrom, todo, gone, started };
}

export async function syncDocsIndex(store: MemoryStore, manifestUrl: string, options: DocsSyncOptions = {}): Promise<DocsSyncResult> {
  return runDocsSync(store, await planDocsSync(store, manifestUrl, options), options);
}

/** Carries out a plan: fetches and writes the pages it lists, then deletes the docs gone (after a complete read). */
export async function runDocsSync(store: MemoryStore, plan: DocsSyncPlan, options: DocsSyncOptions = {}): Promise<DocsSyncResult> {
  const { signal } = options;
  const aborted = (): boolean => signal?.aborted === true;
  const get = options.fetch ?? globalThis.fetch.bind(globalThis);
  const { manifest, manifestUrl: absolute, links, vectorsFrom, todo, gone, started } = plan;

  const failed: DocsSyncFailure[] = [];
  const batchChunks = options.batchChunks ?? 1_000;
  let batch: DocInput[] = [];
  let batched = 0;
  let writes: Promise<void> = Promise.resolve();
  let done = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    const inputs = batch;
    batch = [];
    batched = 0;
    writes = writes.then(async () => {
      const written = await store.putDocs(inputs);
      await options.onWritten?.(written.flat());
      done += inputs.length;
      options.onProgress?.({ done, total: todo.length });
    });
  };

  options.onProgress?.({ done: 0, total: todo.length });
  const reading = pool(todo, Math.max(1, options.concurrency ?? 6), async (entry) => {
    if (aborted()) throw abortedError();
    const url = new URL(entry.file, absolute).href;
    try {
      let page: DocsPageFile;
      const json = await fetchJson(url, `page file for ${entry.url}`, get, signal);
      try {
        page = parseDocsPageFile(json);
      } catch (error) {
        throw invalid(`page file ${url}`, error);
      }
      if (page.hash !== entry.hash || page.url !== entry.url || page.chunks.length !== entry.chunks) {
        throw new AssistantError('docs_index_invalid', `The page file ${url} does not match the manifest's entry for ${entry.url} (hash, URL or chunk count).`);
      }
      const input = pageInput(page, entry, links.get(entry.url)!, vectorsFrom);
      batch.push(input);
      batched += input.texts.length;
      if (batched >= batchChunks) flush();
    } catch (error) {
      if (aborted() || isAbortError(error)) throw abortedError();
      const e = toAssistantError(error);
      failed.push({ url: entry.url, code: e.code, message: e.message });
    }
  });
  try {
    await reading;
  } catch (error) {
    await writes.catch(() => undefined);
    throw error;
  }
  flush();
  await writes;
  if (aborted()) throw abortedError();
  // Deletions last, and only after a complete read: a sync cut short by the network keeps every page it had.
  if (failed.length === 0) for (const docId of gone) await store.deleteDoc(docId);

  return {
    pages: manifest.pages.length,
    chunks: manifest.pages.reduce((n, p) => n + p.chunks, 0),
    fetched: todo.length - failed.length,
    removed: failed.length === 0 ? gone.length : 0,
    failed,
    reembedded: vectorsFrom === null,
    ms: performance.now() - started,
    manifest,
    manifestUrl: absolute,
  };
}

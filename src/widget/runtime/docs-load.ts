/**
 * How the widget gets its docs memory on a visit, fastest first:
 * - **restored**: nothing changed since a visit that saved its docs memory: that saved index (docs-memory.ts);
 * - **shipped**: pages to fetch that hold at least half of the chunks (a first visit), and the docs index ships its
 *   docs memory built (shipped-docs.ts): that one file, while the page files are written to the store in the
 *   background (for offline and later visits);
 * - **built**: otherwise the pages are fetched, written and indexed here, indexing while the next ones download.
 *
 * Offline (the manifest cannot be fetched) with docs stored by an earlier visit, the memory is restored or built
 * from those. The saved index is written later (`save`), once the visit is answering.
 */
import { docsStamp, type MemoryStore } from '../../memory/store/index.ts';
import { AssistantError, abortedError, isAbortError, toAssistantError } from '../../shared/errors.ts';
import { DocsMemoryBuilder, docsMemoryFromSaved, readSavedDocs, saveDocsMemory, type DocsMemory } from './docs-memory.ts';
import { planDocsSync, runDocsSync, type DocsSyncPlan, type DocsSyncProgress, type DocsSyncResult } from './docs-sync.ts';
import { SHIPPED_DOCS_KEY, readShippedDocsMemory } from './shipped-docs.ts';

export type DocsOrigin = 'restored' | 'shipped' | 'built';

export interface DocsLoad {
  readonly docs: DocsMemory;
  readonly origin: DocsOrigin;
  /** The sync this visit waited for (null offline, without a docs index, or while a shipped load syncs in the background). */
  readonly sync: DocsSyncResult | null;
  /** The background page sync of a shipped load (null otherwise); it rejects when that sync fails or is stopped. */
  readonly background: Promise<DocsSyncResult> | null;
  /** The docs index could not be fetched, or some page files could not: answering from the docs stored here. */
  readonly offline: boolean;
  /** Saves the docs memory for the next visit (null when it was restored); a shipped load's waits for its sync. */
  readonly save: (() => Promise<void>) | null;
}

export interface DocsLoadOptions {
  /** Stops this visit's loading (the reader closed the panel). */
  readonly signal?: AbortSignal;
  /** Stops the background page sync of a shipped load (the widget was removed). */
  readonly backgroundSignal?: AbortSignal;
  /** What the load waits for: page files written (`done` of `total`), or the shipped memory's bytes downloaded. */
  readonly onProgress?: (progress: DocsSyncProgress) => void;
  readonly fetch?: typeof fetch;
}

const warn = (message: string, error?: unknown): void => console.warn(`[qwen-assistant] ${message}`, ...(error === undefined ? [] : [error]));

/**
 * Whether to take the shipped memory rather than fetch the changed pages and index every chunk here: when the pages
 * to fetch hold at least half of the chunks (every first visit). A few changed pages of a large site cost a reader
 * a few page files and the indexing, not a download of the whole memory again (15 MB at 10,000 chunks).
 */
function worthShipping(plan: DocsSyncPlan): boolean {
  const chunks = (pages: readonly { chunks: number }[]): number => pages.reduce((n, p) => n + p.chunks, 0);
  return chunks(plan.todo) * 2 >= chunks(plan.manifest.pages);
}

/** Offline with docs an earlier visit stored: go on with those; anything else is the visit's error. */
async function offlineOrThrow(store: MemoryStore, error: unknown): Promise<true> {
  const e = toAssistantError(error);
  if (e.code !== 'network' || (await store.listDocs()).length === 0) throw e;
  return true;
}

export async function loadWidgetDocs(store: MemoryStore, docsIndex: string, options: DocsLoadOptions): Promise<DocsLoad> {
  const get = options.fetch ?? globalThis.fetch.bind(globalThis);
  const request = { ...(options.signal === undefined ? {} : { signal: options.signal }), fetch: get };
  let offline = false;
  let plan: DocsSyncPlan | null = null;
  // A later visit mostly finds the docs unchanged: the memory it saved is read while the manifest is fetched, and
  // restored only if the sync then has nothing to write or delete (or the manifest cannot be fetched).
  const saved = readSavedDocs(store).catch(() => null);
  if (docsIndex !== '') {
    try {
      plan = await planDocsSync(store, docsIndex, request);
    } catch (error) {
      offline = await offlineOrThrow(store, error);
    }
  }

  if (plan !== null && plan.todo.length + plan.gone.length > 0 && worthShipping(plan)) {
    const shipped = await fetchShipped(store, plan, get, options.signal, options.onProgress);
    if (shipped !== null) {
      options.onProgress?.({ done: plan.todo.length, total: plan.todo.length });
      const background = runDocsSync(store, plan, { fetch: get, ...(options.backgroundSignal === undefined ? {} : { signal: options.backgroundSignal }) });
      background.then(
        (sync) => sync.failed.length > 0 && warn(`${sync.failed.length} docs page files could not be stored for offline visits: ${sync.failed[0]!.message}`),
        (error: unknown) => isAbortError(error) || warn('storing the docs pages for offline visits failed', error),
      );
      // Saved as the next visit's index once every page is stored, under the stamp of what was stored.
      const save = async (): Promise<void> => {
        const sync = await background;
        if (sync.failed.length === 0) await saveDocsMemory(store, shipped, await docsStamp(store));
      };
      return { docs: shipped, origin: 'shipped', sync: null, background, offline: false, save };
    }
  }

  if (plan === null || plan.todo.length + plan.gone.length === 0) {
    const read = await saved;
    const restored = read === null ? null : docsMemoryFromSaved(read);
    if (restored !== null) {
      const sync = plan === null ? null : await runDocsSync(store, plan, request);
      return { docs: restored, origin: 'restored', sync, background: null, offline, save: null };
    }
  }

  const builder = new DocsMemoryBuilder();
  let sync: DocsSyncResult | null = null;
  if (plan !== null) {
    try {
      // New and changed pages are indexed while the next ones download.
      sync = await runDocsSync(store, plan, { ...request, onWritten: (chunks) => builder.add(chunks), ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }) });
      const broken = sync.failed.find((f) => f.code !== 'network');
      if (broken !== undefined) throw new AssistantError('docs_index_invalid', broken.message);
      offline = sync.failed.length > 0;
    } catch (error) {
      offline = await offlineOrThrow(store, error);
    }
  }
  const stamp = await docsStamp(store);
  const docs = await builder.finish(store);
  return { docs, origin: 'built', sync, background: null, offline, save: () => saveDocsMemory(store, docs, stamp) };
}

/** The docs memory the index ships, when it has one this widget can use; null (and why, on the console) if not. */
async function fetchShipped(
  store: MemoryStore,
  plan: DocsSyncPlan,
  get: typeof fetch,
  signal: AbortSignal | undefined,
  onProgress: DocsLoadOptions['onProgress'],
): Promise<DocsMemory | null> {
  const entry = plan.manifest.memory;
  // Only what this widget would build: its index layout (checked again in the file) and the index's vectors kept.
  if (entry === undefined || plan.vectorsFrom === null) return null;
  if (entry.key !== SHIPPED_DOCS_KEY) {
    warn(`the docs index's built memory has another layout (${entry.key}, this widget's is ${SHIPPED_DOCS_KEY}); indexing the pages here`);
    return null;
  }
  const url = new URL(entry.file, plan.manifestUrl).href;
  let buffer: ArrayBuffer;
  try {
    const response = await get(url, signal === undefined ? {} : { signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    buffer = await readWithProgress(response, entry.bytes, onProgress);
  } catch (error) {
    if (signal?.aborted === true || isAbortError(error)) throw abortedError();
    warn(`the docs index's built memory (${url}) could not be fetched; indexing the pages here`, error);
    return null;
  }
  const read = await readShippedDocsMemory(buffer, plan.manifest, (pageUrl) => plan.links.get(pageUrl) ?? '', store.embedder);
  if (typeof read === 'string') {
    warn(`the docs index's built memory (${url}) is not this widget's (${read}); indexing the pages here`);
    return null;
  }
  return read;
}

/** A response's body, with its progress against the size the manifest gives (its download is most of a first visit). */
async function readWithProgress(response: Response, bytes: number, onProgress: DocsLoadOptions['onProgress']): Promise<ArrayBuffer> {
  if (onProgress === undefined || response.body === null || bytes === 0) return response.arrayBuffer();
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.byteLength;
    onProgress({ done: Math.min(received, bytes), total: bytes });
  }
  const out = new Uint8Array(received);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out.buffer;
}

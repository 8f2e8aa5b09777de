/**
 * The widget's docs memory: its docs index is built here from the store's docs namespace (what the sync wrote, or
 * what an earlier visit left when the index cannot be fetched), restored from the one an earlier visit saved, or
 * read from the one the docs index ships (shipped-docs.ts; docs-load.ts chooses). The index alone needs no
 * tokenizer and no engine: a reader searches it before consenting to the model (docs-search.ts). Once the
 * assistant starts, `docsLayeredMemory` puts the layered memory over it: the conversation is this page visit's
 * and lives in memory (the store keeps its turns durable); doc chunks enter the prompt under the docs label
 * (文档知识 / Documentation), never as conversation records, and the chunks an answer used map back to their links.
 */
import type { TokenCounter } from '../../context/tokens.ts';
import { LayeredMemory } from '../../memory/layered/index.ts';
import { yieldToPage } from '../../shared/yield.ts';
import { docsStamp, readSnapshot, SNAPSHOT_FORMAT, snapshotKey, writeSnapshot, type MemoryStore } from '../../memory/store/index.ts';
import { InMemoryChunkStore, RetrievalIndex, type DocScope, type RetrievalIndexState } from '../../memory/retrieval/index.ts';
import { inScope } from './docs-scope.ts';
import { chunkSource, docEntryOf, type DocChunkView } from './doc-entries.ts';
import type { DocSource, WidgetLang } from './types.ts';

export { chunkSource } from './doc-entries.ts';

export interface DocsMemory {
  /** The docs' retrieval index (the docs shard; no conversation until the layered memory is put over it). */
  readonly index: RetrievalIndex;
  /** Doc pages and chunks in the memory. */
  readonly pages: number;
  readonly chunks: number;
  /** Doc chunk id → its link, for the sources of an answer. */
  readonly links: ReadonlyMap<string, DocSource>;
}

/** Doc chunks indexed between yields: the host page stays responsive while 10,000 chunks are indexed. */
const SLICE = 200;

/**
 * Builds the docs memory while the docs arrive: the pages a sync writes are indexed as they are written (so
 * indexing overlaps the downloads), the rest are read from the store at the end. Work is done in slices with
 * yields, never blocking the host page for long.
 */
export class DocsMemoryBuilder {
  readonly index: RetrievalIndex;
  readonly links = new Map<string, DocSource>();
  private readonly _docs = new Set<string>();
  private _chunks = 0;
  private _queue: Promise<void> = Promise.resolve();

  constructor(index = new RetrievalIndex()) {
    this.index = index;
  }

  /** Chunks indexed so far. */
  get chunks(): number {
    return this._chunks;
  }

  /** Indexes written doc chunks (in order of the calls). */
  add(chunks: readonly DocChunkView[]): Promise<void> {
    const run = this._queue.then(() => this._add(chunks));
    this._queue = run.catch(() => undefined);
    return run;
  }

  /** Indexes every doc of the store not indexed yet, and returns the docs memory. */
  async finish(store: MemoryStore): Promise<DocsMemory> {
    await this._queue;
    const missing = (await store.listDocs()).filter((d) => !this._docs.has(d.docId));
    const lists = await Promise.all(missing.map((d) => store.listDocChunks(d.docId)));
    for (const list of lists) await this.add(list);
    return { index: this.index, pages: this._docs.size, chunks: this._chunks, links: this.links };
  }

  private async _add(chunks: readonly DocChunkView[]): Promise<void> {
    for (let i = 0; i < chunks.length; i++) {
      const chunk = chunks[i]!;
      const { entry, stored } = docEntryOf(chunk);
      this.index.addDoc(entry, stored);
      this.links.set(chunk.id, chunkSource(chunk));
      this._docs.add(chunk.docId);
      this._chunks++;
      if ((i + 1) % SLICE === 0) await yieldToPage();
    }
  }
}

// The saved docs index ---------------------------------------------------------------------------------------

/** The widget's saved docs index: the docs shard of its retrieval index, with each chunk's link. */
export const DOCS_SNAPSHOT_KEY = snapshotKey('widget-docs');

/** Each chunk's link, as columns (string lists pack as runs: see state-codec.ts). */
interface SavedLinks {
  ids: string[];
  hrefs: string[];
  titles: string[];
  headings: string[];
}

const isSavedLinks = (v: unknown): v is SavedLinks => {
  if (typeof v !== 'object' || v === null) return false;
  const { ids, hrefs, titles, headings } = v as Partial<Record<keyof SavedLinks, unknown>>;
  return [ids, hrefs, titles, headings].every((l) => Array.isArray(l) && l.length === (ids as unknown[]).length && l.every((x) => typeof x === 'string'));
};

/** The docs index an earlier visit saved, read but not yet restored (`docsMemoryFromSaved`). */
export interface SavedDocs {
  readonly state: NonNullable<RetrievalIndexState['docs']>;
  readonly links: SavedLinks;
}

/** The saved docs index when it covers exactly the docs stored now (their summaries); else null. */
export async function readSavedDocs(store: MemoryStore): Promise<SavedDocs | null> {
  const [stamp, record] = await Promise.all([docsStamp(store), readSnapshot(store, 'docs', DOCS_SNAPSHOT_KEY)]);
  if (record === null || record.docs !== stamp || record.state.docs === null || !isSavedLinks(record.extra)) return null;
  return { state: record.state.docs, links: record.extra };
}

/** The docs memory a read saved index holds; null when it does not hold together. */
export function docsMemoryFromSaved(saved: SavedDocs): DocsMemory | null {
  let index: RetrievalIndex;
  try {
    index = RetrievalIndex.fromState({ users: [], docs: saved.state });
  } catch (error) {
    console.warn('[qwen-assistant] the saved docs index does not hold together; indexing the docs again', error);
    return null;
  }
  const { ids, hrefs, titles, headings } = saved.links;
  if (ids.length !== index.docEntries.size) return null;
  const links = new Map<string, DocSource>(ids.map((id, i) => [id, { href: hrefs[i]!, title: titles[i]!, heading: headings[i]! }]));
  return docsMemoryOf(index, links);
}

/** The docs memory over a built retrieval index (restored or shipped) and each of its chunks' links. */
export function docsMemoryOf(index: RetrievalIndex, links: ReadonlyMap<string, DocSource>): DocsMemory {
  const pages = new Set([...index.docEntries.values()].map((d) => d.docId)).size;
  return { index, pages, chunks: index.docEntries.size, links: new Map(links) };
}

/** What the layered memory over a docs index needs: the tokenizer (exact counts), the window, the reader's language. */
export interface DocsMemoryOptions {
  readonly counter: TokenCounter;
  readonly window: number;
  readonly lang: WidgetLang;
  /** A path prefix: only the pages below it enter prompts (the widget's `scope`); '' or absent: all. */
  readonly scope?: string;
}

/** The layered memory over the docs index, for answering (the assistant's; search needs none). */
export function docsLayeredMemory(docs: DocsMemory, options: DocsMemoryOptions): LayeredMemory {
  const docScope = docScopeOf(docs, options.scope ?? '');
  return new LayeredMemory({
    store: new InMemoryChunkStore(),
    counter: options.counter,
    window: options.window,
    lang: options.lang,
    index: docs.index,
    ...(docScope === null ? {} : { docScope }),
  });
}

/** The doc ids whose pages lie under `scope`, for retrieval; null for no scope. */
export function docScopeOf(docs: DocsMemory, scope: string): DocScope | null {
  if (scope === '' || scope === '/') return null;
  const ids = new Set<string>();
  for (const [chunkId, link] of docs.links) {
    const entry = docs.index.docEntries.get(chunkId);
    if (entry !== undefined && inScope(link.href, scope)) ids.add(entry.docId);
  }
  return { ids: [...ids], key: scope };
}

/**
 * Saves a docs memory for the next visit. `stamp`: the stored docs' `docsStamp`, read before the memory read them
 * (a doc written after it makes the save a miss at the next visit, never a wrong hit).
 */
export async function saveDocsMemory(store: MemoryStore, docs: DocsMemory, stamp: string): Promise<void> {
  const state = docs.index.exportState({ users: false });
  const saved = [...docs.links];
  const extra: SavedLinks = { ids: saved.map(([id]) => id), hrefs: saved.map(([, l]) => l.href), titles: saved.map(([, l]) => l.title), headings: saved.map(([, l]) => l.heading) };
  await writeSnapshot(store, 'docs', { format: SNAPSHOT_FORMAT, key: DOCS_SNAPSHOT_KEY, sessions: {}, knownSeqs: {}, docs: stamp, state, extra, savedAt: Date.now() });
}

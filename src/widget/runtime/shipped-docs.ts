/**
 * The widget's docs memory, built ahead of time. `index-docs` builds the retrieval index over every chunk of the
 * docs index, from the very chunk records a reader's store would hold (`draftChunks`, entered with `docEntryOf`),
 * packs it (state-codec.ts), gzips it (the hashed embedder's 512 KB of document frequencies are mostly zeros on a
 * small site, and static hosts rarely compress a .bin) as `memory/<hash>.bin` and names it in the manifest. A first visit (or a visit after
 * the docs changed) fetches that one file instead of indexing every chunk in the reader's page, which takes about
 * 6 s at 10,000 chunks on a 2-core laptop. The page files are still written to the store, in the background, so
 * later and offline visits work as before.
 *
 * The file is used only when it is exactly what this widget would have built: the same index layout (`key`), the
 * same store embedder, and the manifest's pages in the same order with the same hashes. Anything else (an older
 * widget, another embedder, a damaged or stale file) returns null, and the widget indexes the pages itself.
 */
import type { DocsManifest, DocsPageFile } from '../../docs-index/format.ts';
import { dequantize, vectorBytes, type EncodedVector } from '../../docs-index/vector-codec.ts';
import { HashedNgramEmbedder, embedderKey, normalize, type Embedder } from '../../memory/embedders/index.ts';
import { RetrievalIndex, type RetrievalIndexState } from '../../memory/retrieval/index.ts';
import { draftChunks, type DocChunkRecord } from '../../memory/store/index.ts';
import { packState, unpackState } from '../../memory/store/state-codec.ts';
import { chunkSource, docEntryOf } from './doc-entries.ts';
import { DOCS_SNAPSHOT_KEY, docsMemoryOf, type DocsMemory } from './docs-memory.ts';
import { pageInput } from './docs-sync.ts';
import type { DocSource } from './types.ts';

/** What the file holds. */
interface ShippedDocsMemory {
  /** The index layout it was built with (`DOCS_SNAPSHOT_KEY` of the indexer's code). */
  key: string;
  /** The store embedder the chunks were drafted for (`embedderKey`, then `@dimensions`). */
  embedder: string;
  /** The manifest pages it covers, in order. */
  pages: { urls: string[]; hashes: string[] };
  state: RetrievalIndexState;
  /** Each chunk's link parts, as columns (the page's absolute URL is only known in the reader's page). */
  links: { ids: string[]; docIds: string[]; anchors: string[]; titles: string[]; headings: string[] };
  /**
   * The float vectors the index keeps for the chunks whose vector was shipped, in the docs index's own int8 form
   * (a quarter of the bytes, and floats barely compress): each is `normalize(dequantize(q, scale))`, exactly as the
   * reader's sync decodes it. Null when they are kept as floats in `state`.
   */
  kept: { q: Int8Array; scale: Float64Array } | null;
}

/** The index layout a shipped docs memory must have for this widget to use it (the manifest names it). */
export const SHIPPED_DOCS_KEY = DOCS_SNAPSHOT_KEY;

const storeEmbedder = (embedder: Embedder): string => `${embedderKey(embedder)}@${embedder.dimensions}`;

/**
 * The file of an index's built docs memory, gzipped, as a reader whose store has `embedder` (the widget's: the
 * built-in hashed n-grams) would build it from `pages` (the manifest's, in its order).
 */
export async function buildShippedDocsFile(manifest: DocsManifest, pages: readonly DocsPageFile[], embedder?: Embedder): Promise<Uint8Array<ArrayBuffer>> {
  const packed = packShipped(manifest, pages, embedder);
  return new Uint8Array(await new Response(packed.stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
}

/** The packed bytes of a shipped file: gunzipped, unless a host that sent it with Content-Encoding: gzip already did. */
async function gunzipped(buffer: ArrayBuffer): Promise<ArrayBuffer> {
  const head = new Uint8Array(buffer, 0, Math.min(2, buffer.byteLength));
  if (head[0] !== 0x1f || head[1] !== 0x8b) return buffer;
  return new Response(new Blob([buffer]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}

function packShipped(manifest: DocsManifest, pages: readonly DocsPageFile[], embedder: Embedder = new HashedNgramEmbedder()): Blob {
  if (pages.length !== manifest.pages.length) throw new RangeError(`${pages.length} page files for ${manifest.pages.length} manifest pages`);
  const key = embedderKey(embedder);
  // As the reader's sync: the index's vectors are kept when they are its store embedder's, at its width.
  const vectorsFrom = embedderKey(manifest.embedder) === key && manifest.embedder.dimensions === embedder.dimensions ? key : null;
  // (No tokenizer: the token counts come with the page file.)
  const ctx = { counter: { count: () => 0 }, embedder, embedderKey: key, now: 0 };
  const index = new RetrievalIndex();
  const links: ShippedDocsMemory['links'] = { ids: [], docIds: [], anchors: [], titles: [], headings: [] };
  const shippedVectors = new Map<string, EncodedVector>();
  pages.forEach((page, i) => {
    const entry = manifest.pages[i]!;
    if (page.url !== entry.url || page.hash !== entry.hash) throw new RangeError(`page file ${i} is not the manifest's ${entry.url}`);
    // The page link is the reader's (absolute, from where the manifest is served): '' here, joined at load.
    const chunks: DocChunkRecord[] = draftChunks(pageInput(page, entry, '', vectorsFrom), [], ctx);
    for (const chunk of chunks) {
      if (vectorsFrom !== null) shippedVectors.set(chunk.id, page.chunks[chunk.part]!.vector);
      const { entry: doc, stored } = docEntryOf(chunk);
      index.addDoc(doc, stored);
      links.ids.push(chunk.id);
      links.docIds.push(chunk.docId);
      links.anchors.push(chunk.meta?.anchor ?? '');
      links.titles.push(chunk.meta?.title ?? chunk.source);
      links.headings.push(chunk.meta?.heading ?? '');
    }
  });
  const state = index.exportState({ users: false });
  const shipped: ShippedDocsMemory = {
    key: DOCS_SNAPSHOT_KEY,
    embedder: storeEmbedder(embedder),
    pages: { urls: manifest.pages.map((p) => p.url), hashes: manifest.pages.map((p) => p.hash) },
    state,
    links,
    kept: keptAsShipped(state, shippedVectors),
  };
  return packState(shipped);
}

/**
 * The index's kept floats in the docs index's int8 form, taken out of `state`, when every one of them is exactly
 * the decoded shipped vector (else null, and they stay floats).
 */
function keptAsShipped(state: RetrievalIndexState, shipped: ReadonlyMap<string, EncodedVector>): ShippedDocsMemory['kept'] {
  const vectors = state.docs?.shard.vectors;
  if (vectors === null || vectors === undefined || shipped.size === 0) return null;
  const { dimensions, keep } = vectors;
  const n = keep.rows.length;
  const q = new Int8Array(n * dimensions);
  const scale = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const encoded = shipped.get(vectors.ids[keep.rows[j]!]!);
    if (encoded === undefined) return null;
    const bytes = vectorBytes(encoded);
    const floats = keep.vectors.subarray(j * dimensions, (j + 1) * dimensions);
    const back = normalize(dequantize(bytes, encoded.scale));
    if (bytes.length !== dimensions || back.some((x, i) => x !== floats[i])) return null;
    q.set(bytes, j * dimensions);
    scale[j] = encoded.scale;
  }
  vectors.keep = { rows: keep.rows, vectors: new Float32Array(0) };
  return { q, scale };
}

/** Puts the kept floats back into the state (see `keptAsShipped`); false when they do not fit it. */
function restoreKept(state: RetrievalIndexState, kept: ShippedDocsMemory['kept']): boolean {
  if (kept === null) return true;
  const vectors = state.docs?.shard.vectors;
  if (vectors === null || vectors === undefined || !(kept.q instanceof Int8Array) || !(kept.scale instanceof Float64Array)) return false;
  const { dimensions, keep } = vectors;
  const n = keep.rows.length;
  if (kept.scale.length !== n || kept.q.length !== n * dimensions) return false;
  const floats = new Float32Array(n * dimensions);
  for (let j = 0; j < n; j++) {
    const row = floats.subarray(j * dimensions, (j + 1) * dimensions);
    normalize(dequantize(kept.q.subarray(j * dimensions, (j + 1) * dimensions), kept.scale[j]!, row));
  }
  vectors.keep = { rows: keep.rows, vectors: floats };
  return true;
}

const isStrings = (v: unknown, length?: number): v is string[] =>
  Array.isArray(v) && (length === undefined || v.length === length) && v.every((s) => typeof s === 'string');

function isShipped(v: unknown): v is ShippedDocsMemory {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Partial<Record<keyof ShippedDocsMemory, unknown>>;
  const pages = o.pages as Partial<ShippedDocsMemory['pages']> | undefined;
  const links = o.links as Partial<ShippedDocsMemory['links']> | undefined;
  if (typeof o.key !== 'string' || typeof o.embedder !== 'string' || typeof o.state !== 'object' || o.state === null) return false;
  if (pages === undefined || !isStrings(pages.urls) || !isStrings(pages.hashes, pages.urls.length)) return false;
  if (links === undefined || !isStrings(links.ids)) return false;
  const n = links.ids.length;
  return isStrings(links.docIds, n) && isStrings(links.anchors, n) && isStrings(links.titles, n) && isStrings(links.headings, n);
}

/** Why a shipped docs memory was not used (for the console; the widget then indexes the pages itself). */
export type ShippedDocsMiss = 'other-layout' | 'other-embedder' | 'other-pages' | 'damaged';

/**
 * The docs memory a shipped file holds, when it is exactly this widget's for these pages; else why not.
 * `pageLink`: a page's absolute link (no anchor), as the sync stores it.
 */
export async function readShippedDocsMemory(
  file: ArrayBuffer,
  manifest: Pick<DocsManifest, 'pages'>,
  pageLink: (url: string) => string,
  embedder: Embedder,
): Promise<DocsMemory | ShippedDocsMiss> {
  let shipped: unknown;
  try {
    shipped = unpackState(await gunzipped(file));
  } catch {
    return 'damaged';
  }
  if (!isShipped(shipped)) return 'damaged';
  if (shipped.key !== DOCS_SNAPSHOT_KEY) return 'other-layout';
  if (shipped.embedder !== storeEmbedder(embedder)) return 'other-embedder';
  const { urls, hashes } = shipped.pages;
  if (urls.length !== manifest.pages.length || manifest.pages.some((p, i) => p.url !== urls[i] || p.hash !== hashes[i])) return 'other-pages';
  let index: RetrievalIndex;
  try {
    if (!restoreKept(shipped.state, shipped.kept)) return 'damaged';
    index = RetrievalIndex.fromState({ users: [], docs: shipped.state.docs });
  } catch {
    return 'damaged';
  }
  const { ids, docIds, anchors, titles, headings } = shipped.links;
  if (ids.length !== index.docEntries.size) return 'damaged';
  const links = new Map<string, DocSource>();
  for (let i = 0; i < ids.length; i++) {
    links.set(ids[i]!, chunkSource({ source: titles[i]!, meta: { url: pageLink(docIds[i]!), anchor: anchors[i]!, title: titles[i]!, heading: headings[i]! } }));
  }
  return docsMemoryOf(index, links);
}

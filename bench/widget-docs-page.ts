/**
 * Time from opening the widget to a searchable docs index, in real Chromium (run by scripts/bench/widget-docs.ts,
 * which writes the index of a generated 10,000-chunk corpus, its built docs memory included, and passes its
 * manifest as `?manifest=`). Every visit loads the docs as the widget does (`loadWidgetDocs`). Sets
 * `window.__benchResult` (all times in ms):
 *
 * - cold: an empty store in the bench's fresh browser profile (a first visit, no HTTP cache): the manifest and
 *   the docs memory the index ships are fetched, then a probe plans a prompt from the docs — `docsReady` is from
 *   open to then. The page files are then stored in the background and the memory saved (not timed).
 * - warm: the same store reopened (a later visit): the manifest is fetched, no page file is, and the memory is
 *   restored from what the first visit saved.
 * - warmRebuilt: the same later visit with the saved memory deleted first: every stored chunk indexed again.
 * - coldIndexed: an empty store whose manifest names no built memory (the fetch strips it), so the page files are
 *   fetched, written and indexed before the first prompt: a first visit without the shipped memory (the page files
 *   are in the HTTP cache by then, so this is the faster side of it).
 * - tokenizer: loading the Qwen tokenizer (done in parallel with the above by the widget; shown for reference).
 */
import { openDB } from 'idb';
import { deleteMemoryDB } from '../src/memory/store/db.ts';
import type { MemoryStore } from '../src/memory/store/store.ts';
import { MemoryStore as Store } from '../src/memory/store/store.ts';
import { qwenCounter } from '../src/ui/controllers/context-planner.ts';
import { parseDocsManifest, parseDocsPageFile } from '../src/docs-index/parse.ts';
import type { DocInput } from '../src/memory/store/docs.ts';
import { pageInput } from '../src/widget/runtime/docs-sync.ts';
import { loadWidgetDocs } from '../src/widget/runtime/docs-load.ts';
import { docsLayeredMemory } from '../src/widget/runtime/docs-memory.ts';
import type { DocsOpenTiming, SyncBreakdown, WidgetDocsBench } from './widget-docs-types.ts';

const log = (message: string): void => console.log(`[bench] ${message}`);
const round = (n: number): number => Math.round(n * 10) / 10;
const QUERY = 'how does the widget cache the model in the browser';

/** A fetch that serves the manifest without its built docs memory: the widget then indexes the pages itself. */
const withoutShippedMemory: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!String(input instanceof Request ? input.url : input).endsWith('/manifest.json')) return response;
  const { memory: _memory, ...manifest } = (await response.json()) as Record<string, unknown>;
  return new Response(JSON.stringify(manifest), { status: response.status, headers: response.headers });
};

async function open(
  name: string,
  manifestUrl: string,
  counter: Awaited<ReturnType<typeof qwenCounter>>,
  get?: typeof fetch,
): Promise<{ timing: DocsOpenTiming; hits: number; store: MemoryStore }> {
  const started = performance.now();
  const store = await Store.open({ name, tokenCounter: counter });
  const load = await loadWidgetDocs(store, manifestUrl, {
    ...(get === undefined ? {} : { fetch: get }),
    onProgress: ({ done, total }) => {
      if (total > 0 && done % 200 === 0) log(`  ${done}/${total} page files`);
    },
  });
  const loaded = performance.now();
  const probe = await docsLayeredMemory(load.docs, { counter, window: 1024, lang: 'en' }).handleUserMessage({ userId: 'bench', sessionId: 'bench', text: QUERY, time: Date.now() }, { commit: false });
  if (probe.report.memory.retrieval.injected.length === 0) throw new Error('the layered memory injected no doc chunk');
  const ready = performance.now();
  // What the widget does next, in the background: store the page files (a shipped load) and save the memory.
  await load.save?.();
  const sync = load.sync ?? (await load.background);
  if (sync !== null && sync.failed.length > 0) throw new Error(`sync failed for ${sync.failed.length} pages: ${sync.failed[0]!.message}`);
  const saved = performance.now();
  const hits = await store.search(QUERY, { namespace: 'docs', k: 5, wait: true });
  if (hits.length === 0) throw new Error('the docs search found nothing');
  return {
    timing: {
      origin: load.origin,
      load: round(loaded - started),
      layered: round(ready - loaded),
      docsReady: round(ready - started),
      background: round(saved - ready),
      storeSearchable: round(performance.now() - saved),
      fetched: sync?.fetched ?? 0,
      chunks: load.docs.chunks,
      pages: load.docs.pages,
    },
    hits: hits.length,
    store,
  };
}

async function breakdown(name: string, manifestUrl: string, counter: Awaited<ReturnType<typeof qwenCounter>>): Promise<SyncBreakdown> {
  const manifest = parseDocsManifest(await (await fetch(manifestUrl)).json());
  const t0 = performance.now();
  const files = new Array<ReturnType<typeof parseDocsPageFile>>(manifest.pages.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < manifest.pages.length) {
        const i = next++;
        files[i] = parseDocsPageFile(await (await fetch(new URL(manifest.pages[i]!.file, new URL(manifestUrl, location.href)))).json());
      }
    }),
  );
  const t1 = performance.now();
  const key = `${manifest.embedder.id}@${manifest.embedder.version}`;
  const inputs: DocInput[] = files.map((f, i) => pageInput(f, manifest.pages[i]!, `${location.origin}/docs/${f.url}`, key));
  const t2 = performance.now();
  const store = await Store.open({ name, tokenCounter: counter });
  const t3 = performance.now();
  for (let i = 0; i < inputs.length; i += 100) await store.putDocs(inputs.slice(i, i + 100));
  const t4 = performance.now();
  await store.whenIdle();
  await store.close();
  await deleteMemoryDB(name);
  return { fetchParse: round(t1 - t0), decode: round(t2 - t1), write: round(t4 - t3) };
}

async function run(): Promise<WidgetDocsBench> {
  const manifestUrl = new URLSearchParams(location.search).get('manifest');
  if (manifestUrl === null) throw new Error('no ?manifest= given');
  const t0 = performance.now();
  const counter = await qwenCounter();
  const tokenizerMs = round(performance.now() - t0);
  const name = `bench-widget-docs-${Date.now()}`;
  const visit = async (label: string, store: string, get?: typeof fetch): Promise<{ timing: DocsOpenTiming; hits: number }> => {
    log(`${label}…`);
    const opened = await open(store, manifestUrl, counter, get);
    log(`${label}: ${JSON.stringify(opened.timing)}`);
    await opened.store.whenIdle();
    await opened.store.close();
    return opened;
  };
  try {
    const cold = await visit('cold open (empty store, fresh profile)', name);
    const warm = await visit('warm open (same store)', name);
    if (warm.timing.origin !== 'restored') throw new Error(`the later visit did not restore the saved docs memory (${warm.timing.origin})`);
    // The same later visit without the saved memory (deleted first): what every later visit did before it.
    const db = await openDB(name);
    await db.delete('meta', 'layered:snapshot:docs');
    db.close();
    const warmRebuilt = await visit('warm open without the saved memory', name);
    log('breakdown of a cold sync…');
    const parts = await breakdown(`${name}-parts`, manifestUrl, counter);
    log(`breakdown: ${JSON.stringify(parts)}`);
    const coldIndexed = await visit('cold open without the shipped memory (empty store)', `${name}-indexed`, withoutShippedMemory);
    await deleteMemoryDB(`${name}-indexed`);
    return { breakdown: parts, cold: cold.timing, coldIndexed: coldIndexed.timing, warm: warm.timing, warmRebuilt: warmRebuilt.timing, tokenizerMs, hits: cold.hits, userAgent: navigator.userAgent, crossOriginIsolated };
  } finally {
    await deleteMemoryDB(name);
  }
}

run().then(
  (result) => ((window as unknown as { __benchResult: unknown }).__benchResult = result),
  (error: unknown) => {
    console.error(error);
    (window as unknown as { __benchError: string }).__benchError = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  },
);

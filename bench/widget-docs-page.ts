/**
 * Time from opening the widget to a searchable docs index, in real Chromium (run by scripts/bench/widget-docs.ts,
 * which writes the index of a generated 10,000-chunk corpus and passes its manifest as `?manifest=`). Sets
 * `window.__benchResult` (all times in ms):
 *
 * - cold: an empty store (a first visit): `syncDocsIndex` fetches the manifest and every page file, writes the
 *   chunks with their precomputed vectors; `layered` is the widget's layered memory (BM25 + vectors over the docs)
 *   built from the store until it answers a probe — the point where the widget can plan its first prompt.
 *   `docsReady` is from open to then. The docs index is then saved for the next visit (not timed: the widget does
 *   it in the background). `storeSearchable`: the store's own docs search answering afterwards (not in docsReady).
 * - warm: the same store reopened (a later visit): the manifest is fetched, no page file is, and the layered memory
 *   is restored from the saved index, as the widget runtime does.
 * - tokenizer: loading the Qwen tokenizer (done in parallel with the above by the widget; shown for reference).
 */
import { openDB } from 'idb';
import { deleteMemoryDB } from '../src/memory/store/db.ts';
import type { MemoryStore } from '../src/memory/store/store.ts';
import { MemoryStore as Store } from '../src/memory/store/store.ts';
import { qwenCounter } from '../src/ui/controllers/context-planner.ts';
import { DocsMemoryBuilder, restoreDocsMemory, saveDocsMemory } from '../src/widget/runtime/docs-memory.ts';
import { docsStamp } from '../src/memory/store/index-snapshot.ts';
import { parseDocsManifest, parseDocsPageFile } from '../src/docs-index/parse.ts';
import type { DocInput } from '../src/memory/store/docs.ts';
import { pageInput, syncDocsIndex, type DocsSyncResult } from '../src/widget/runtime/docs-sync.ts';
import type { DocsOpenTiming, SyncBreakdown, WidgetDocsBench } from './widget-docs-types.ts';

const log = (message: string): void => console.log(`[bench] ${message}`);
const round = (n: number): number => Math.round(n * 10) / 10;
const QUERY = 'how does the widget cache the model in the browser';

async function open(name: string, manifestUrl: string, counter: Awaited<ReturnType<typeof qwenCounter>>): Promise<{ timing: DocsOpenTiming; hits: number; store: MemoryStore; restored: boolean }> {
  const started = performance.now();
  const store = await Store.open({ name, tokenCounter: counter });
  // As the widget does: pages are indexed for the layered memory while the next ones download.
  const builder = new DocsMemoryBuilder({ counter, window: 1024, lang: 'en' });
  const sync: DocsSyncResult = await syncDocsIndex(store, manifestUrl, {
    onWritten: (chunks) => builder.add(chunks),
    onProgress: ({ done, total }) => {
      if (total > 0 && done % 200 === 0) log(`  ${done}/${total} page files`);
    },
  });
  if (sync.failed.length > 0) throw new Error(`sync failed for ${sync.failed.length} pages: ${sync.failed[0]!.message}`);
  const synced = performance.now();
  // As the widget runtime does: a sync that wrote nothing restores the index the last visit saved.
  const options = { counter, window: 1024, lang: 'en' as const };
  const restored = builder.chunks === 0 ? await restoreDocsMemory(store, options) : null;
  const stamp = restored === null ? await docsStamp(store) : '';
  const docs = restored ?? (await builder.finish(store));
  const probe = await docs.memory.handleUserMessage({ userId: 'bench', sessionId: 'bench', text: QUERY, time: Date.now() }, { commit: false });
  if (probe.report.memory.retrieval.injected.length === 0) throw new Error('the layered memory injected no doc chunk');
  const layered = performance.now();
  if (restored === null) await saveDocsMemory(store, docs, stamp);
  const saved = performance.now();
  const hits = await store.search(QUERY, { namespace: 'docs', k: 5, wait: true });
  if (hits.length === 0) throw new Error('the docs search found nothing');
  const searchable = performance.now() - saved;
  return {
    restored: restored !== null,
    timing: {
      sync: round(synced - started),
      storeSearchable: round(searchable),
      layered: round(layered - synced),
      docsReady: round(layered - started),
      fetched: sync.fetched,
      chunks: sync.chunks,
      pages: sync.pages,
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
  log('breakdown of a cold sync…');
  const parts = await breakdown(`${name}-parts`, manifestUrl, counter);
  log(`breakdown: ${JSON.stringify(parts)}`);
  try {
    log('cold open (empty store)…');
    const cold = await open(name, manifestUrl, counter);
    log(`cold: ${JSON.stringify(cold.timing)}`);
    await cold.store.whenIdle();
    await cold.store.close();
    log('warm open (same store)…');
    const warm = await open(name, manifestUrl, counter);
    log(`warm: ${JSON.stringify(warm.timing)}`);
    if (!warm.restored) throw new Error('the later visit did not restore the saved docs index');
    await warm.store.whenIdle();
    await warm.store.close();
    // The same later visit without the saved index (deleted first): what every later visit did before it.
    const db = await openDB(name);
    await db.delete('meta', 'layered:snapshot:docs');
    db.close();
    log('warm open without the saved index…');
    const rebuilt = await open(name, manifestUrl, counter);
    log(`warm, rebuilt: ${JSON.stringify(rebuilt.timing)}`);
    await rebuilt.store.close();
    return { breakdown: parts, cold: cold.timing, warm: warm.timing, warmRebuilt: rebuilt.timing, tokenizerMs, hits: cold.hits, userAgent: navigator.userAgent, crossOriginIsolated };
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

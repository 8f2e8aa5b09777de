/**
 * `npm run bench:widget`: the docs widget's numbers, measured, not asserted (this machine is shared and noisy).
 *
 * - eager size: the production widget build's entry plus its static imports, gzip -9 — what a docs page downloads
 *   before anyone opens the widget (budget 30 KB); also for the widget in the npm package (`packagedEagerGzipBytes`);
 * - `index-docs` throughput (pages/s, wall and CPU) and index size, for the demo docs (docs/site) and for a
 *   generated 10,000-chunk corpus (scripts/index-docs/generate-corpus.ts), each indexed afresh;
 * - time from opening the widget to a searchable docs index for those 10,000 chunks, in real Chromium
 *   (bench/widget-docs-page.ts): first visit (empty store) and a later visit (index unchanged);
 * - search before any model (scripts/bench/widget-search.ts, the production build of `<qwen-assistant mode="search">`):
 *   a later visit's open → first results, a keystroke → its results rendered (p95), engine bytes before consent.
 * The last line is one JSON object: `eagerGzipBytes`, `indexDocsPagesPerS`, `docsReady10kMs`, `searchP95Ms10k`,
 * `firstResultsWarmMs`, `modelBytesBeforeConsent`, and the rest.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCorpus } from '../index-docs/generate-corpus.ts';
import { indexDocsFolder, type IndexDocsStats } from '../index-docs/index-folder.ts';
import { buildPackage } from '../package/build-package.ts';
import { buildWidget } from '../site/build.ts';
import { WIDGET_EAGER_BUDGET_BYTES, eagerSize } from './widget-size.ts';
import { runWidgetDocsBench } from './widget-docs.ts';
import { printWidgetSearch, runWidgetSearchBench } from './widget-search.ts';

const CHUNKS = 10_000;
const round = (n: number, digits = 1): number => Number(n.toFixed(digits));
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

function indexRow(label: string, s: IndexDocsStats): string {
  return (
    `${label.padEnd(26)} ${String(s.pages).padStart(5)} pages ${String(s.chunks).padStart(6)} chunks  ` +
    `${s.pagesPerS.toFixed(1).padStart(7)} pages/s (${s.seconds.toFixed(2)} s wall, ${s.cpuSeconds.toFixed(2)} s CPU; ` +
    `of which the built docs memory ${s.memorySeconds.toFixed(2)} s)  index ${kb(s.bytes)} (memory ${kb(s.write?.memoryBytes ?? 0)})`
  );
}

// 1. Eager size of a production build, and of the npm package's widget (built by `build:package` on its own).
const widgetDir = join('.cache', 'bench-widget', 'widget');
await buildWidget(widgetDir);
const eager = eagerSize(widgetDir);
console.log(
  `eager widget JS: ${eager.files.join(', ')} — ${kb(eager.bytes)} raw, ${kb(eager.gzipBytes)} gzip ` +
    `(budget ${kb(WIDGET_EAGER_BUDGET_BYTES)}: ${eager.gzipBytes <= WIDGET_EAGER_BUDGET_BYTES ? 'within' : 'OVER'})`,
);
const packageDir = join('.cache', 'bench-widget', 'package');
await buildPackage(packageDir, { log: () => {} });
const packaged = eagerSize(join(packageDir, 'widget'));
console.log(
  `eager widget JS in the npm package (${packageDir}/widget): ${kb(packaged.bytes)} raw, ${kb(packaged.gzipBytes)} gzip ` +
    `(${packaged.gzipBytes === eager.gzipBytes ? 'the same as' : `${packaged.gzipBytes - eager.gzipBytes} bytes off`} the widget build)`,
);

// 2. index-docs throughput: the demo docs, then the generated corpus (the tokenizer is loaded before timing starts).
const scratch = mkdtempSync(join(tmpdir(), 'bench-widget-'));
try {
  const demo = await indexDocsFolder('docs/site', { out: join(scratch, 'demo-index'), baseUrl: '/' });
  console.log(indexRow('index-docs docs/site', demo.stats));
  const corpus = generateCorpus({ chunks: CHUNKS, dir: join(scratch, 'corpus') });
  const big = await indexDocsFolder(join(scratch, 'corpus'), { out: join(scratch, 'corpus-index'), baseUrl: '/docs/' });
  console.log(indexRow(`index-docs ${corpus.chunks}-chunk corpus`, big.stats));

  // 3. Open → searchable docs index for 10,000 chunks, in Chromium (its own cached copy of the same corpus).
  const docs = await runWidgetDocsBench({ chunks: CHUNKS, log: (line) => console.log(`  ${line}`) });
  const row = (label: string, t: typeof docs.cold): string =>
    `${label.padEnd(34)} ${String(t.docsReady).padStart(7)} ms to ready (${t.origin}: load ${t.load} ms, first prompt +${t.layered} ms; ` +
    `then in the background ${t.background} ms, ${t.fetched} page files; the store's own search ${t.storeSearchable} ms)`;
  console.log(`docs index in Chromium: ${docs.cold.pages} pages, ${docs.cold.chunks} chunks`);
  console.log(row('first visit (empty store)', docs.cold));
  console.log(row('  the same, no shipped memory', docs.coldIndexed));
  console.log(row('later visit (index unchanged)', docs.warm));
  console.log(row('  the same, no saved memory', docs.warmRebuilt));

  // 4. Search first, on the production build from step 1.
  const search = await runWidgetSearchBench({ widgetDir, log: (line) => console.log(`  ${line}`) });
  printWidgetSearch(search);

  console.log(
    JSON.stringify({
      eagerGzipBytes: eager.gzipBytes,
      eagerBytes: eager.bytes,
      packagedEagerGzipBytes: packaged.gzipBytes,
      indexDocsPagesPerS: round(big.stats.pagesPerS),
      indexDocsCpuPagesPerS: round(big.stats.pages / big.stats.cpuSeconds),
      indexDocsChunks: big.stats.chunks,
      indexBytes10k: big.stats.bytes,
      memoryBytes10k: big.stats.write?.memoryBytes ?? 0,
      indexDocsDemoPagesPerS: round(demo.stats.pagesPerS),
      indexBytesDemo: demo.stats.bytes,
      docsReady10kMs: docs.cold.docsReady,
      // The first visit runs in a browser launched for the bench (a fresh profile: no HTTP cache, no store).
      docsReadyCold10kMs: docs.cold.docsReady,
      docsReadyColdIndexed10kMs: docs.coldIndexed.docsReady,
      docsReadyWarm10kMs: docs.warm.docsReady,
      docsReadyWarmRebuilt10kMs: docs.warmRebuilt.docsReady,
      firstResultsWarmMs: search.firstResultsWarmMs,
      firstResultsColdMs: search.firstResultsColdMs,
      searchP50Ms10k: search.searchP50Ms10k,
      searchP95Ms10k: search.searchP95Ms10k,
      modelBytesBeforeConsent: search.modelBytesBeforeConsent,
    }),
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

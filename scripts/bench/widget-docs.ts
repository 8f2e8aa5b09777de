/**
 * Time from opening the widget to a searchable docs index for a generated 10,000-chunk corpus, in real Chromium
 * (bench/widget-docs-page.ts measures). The corpus (scripts/index-docs/generate-corpus.ts) is indexed once with
 * `index-docs` into .cache/bench-widget-docs/ and reused while its manifest is there.
 *
 *   npx tsx scripts/bench/widget-docs.ts [--chunks 10000]
 *
 * Prints the cold (first visit, with and without the shipped docs memory) and warm (later visit, with and without
 * the saved one) timings, then one JSON line with `docsReady10kMs` (cold, from open until the widget can plan a
 * prompt from the docs). `runWidgetDocsBench()` is what `bench:widget` calls.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { WidgetDocsBench } from '../../bench/widget-docs-types.ts';
import { generateCorpus } from '../index-docs/generate-corpus.ts';
import { indexDocsFolder } from '../index-docs/index-folder.ts';
import { SHIPPED_DOCS_KEY } from '../../src/widget/runtime/shipped-docs.ts';
import { runBrowserBench } from './browser-runner.ts';

const ROOT = '.cache/bench-widget-docs';

/** The index of a generated corpus of `chunks` chunks, written once (its manifest URL below the repo root). */
export async function corpusIndex(chunks: number, log: (line: string) => void): Promise<string> {
  const out = join(ROOT, `index-${chunks}`);
  const manifest = join(out, 'manifest.json');
  if (existsSync(manifest)) {
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { pages: Array<{ chunks: number }>; memory?: { key: string } };
    // Reused while it is the same corpus and ships the memory this code builds (an older one is indexed again).
    if (parsed.pages.reduce((n, p) => n + p.chunks, 0) >= chunks && parsed.memory?.key === SHIPPED_DOCS_KEY) return `/${out}/manifest.json`;
  }
  const corpusDir = join(ROOT, `corpus-${chunks}`);
  rmSync(corpusDir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
  const corpus = generateCorpus({ chunks, dir: corpusDir });
  log(`generated ${corpus.pages} pages (${corpus.chunks} chunks); indexing…`);
  const result = await indexDocsFolder(corpusDir, { out, baseUrl: '/docs/' });
  log(`indexed ${result.stats.pages} pages, ${result.stats.chunks} chunks in ${result.stats.seconds.toFixed(1)} s (the built docs memory ${((result.stats.write?.memoryBytes ?? 0) / 1e6).toFixed(1)} MB in ${result.stats.memorySeconds.toFixed(1)} s)`);
  return `/${out}/manifest.json`;
}

export async function runWidgetDocsBench(options: { chunks?: number; log?: (line: string) => void } = {}): Promise<WidgetDocsBench> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const manifest = await corpusIndex(options.chunks ?? 10_000, log);
  return (await runBrowserBench('/bench/widget-docs.html', { query: `manifest=${encodeURIComponent(manifest)}`, timeoutMs: 600_000, onLog: log })) as WidgetDocsBench;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const { values } = parseArgs({ options: { chunks: { type: 'string', default: '10000' } } });
  const result = await runWidgetDocsBench({ chunks: Number(values.chunks) });
  const row = (label: string, t: WidgetDocsBench['cold']): string =>
    `${label.padEnd(34)} ready ${String(t.docsReady).padStart(8)} ms  (${t.origin}: load ${t.load} ms, first prompt +${t.layered} ms; ` +
    `then in the background ${t.background} ms, ${t.fetched} page files; the store's own search ${t.storeSearchable} ms)`;
  console.log(`Chromium: ${result.userAgent}`);
  console.log(`docs index: ${result.cold.pages} pages, ${result.cold.chunks} chunks; tokenizer load ${result.tokenizerMs} ms (in parallel in the widget)`);
  console.log(row('first visit (empty store)', result.cold));
  console.log(row('  the same, no shipped memory', result.coldIndexed));
  console.log(`  ratio ${(result.coldIndexed.docsReady / result.cold.docsReady).toFixed(2)}× (indexing the pages against the shipped memory)`);
  console.log(row('later visit (index unchanged)', result.warm));
  console.log(row('  the same, no saved memory', result.warmRebuilt));
  console.log(`  ratio ${(result.warmRebuilt.docsReady / result.warm.docsReady).toFixed(2)}× (the saved memory against indexing again, side by side)`);
  console.log(
    JSON.stringify({
      docsReady10kMs: result.cold.docsReady,
      docsReadyCold10kMs: result.cold.docsReady,
      docsReadyColdIndexed10kMs: result.coldIndexed.docsReady,
      docsReadyWarm10kMs: result.warm.docsReady,
      docsReadyWarmRebuilt10kMs: result.warmRebuilt.docsReady,
      docsStoreSearchable10kMs: result.cold.storeSearchable,
    }),
  );
}

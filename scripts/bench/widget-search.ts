/**
 * The docs widget searching before any model, in real Chromium (bench/widget-search-page.ts measures): the real
 * `<qwen-assistant mode="search">`, as the production build a docs site serves, over the generated 10,000-chunk
 * corpus index (the one widget-docs.ts writes).
 *
 *   npx tsx scripts/bench/widget-search.ts [--visits 5]
 *
 * Prints, then one JSON line: `firstResultsWarmMs` (a later visit: opening the panel to the first results rendered,
 * p50 of the later visits), `searchP50Ms10k` / `searchP95Ms10k` (a keystroke to its results rendered, every prefix
 * of four queries typed a character at a time; no debounce), `modelBytesBeforeConsent` (bytes of engine assets
 * fetched in those visits). `runWidgetSearchBench()` is what `bench:widget` calls.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { SearchVisit } from '../../bench/widget-search-page.ts';
import { runBrowserBenchVisits } from './browser-runner.ts';
import { corpusIndex } from './widget-docs.ts';
import { buildWidget } from '../site/build.ts';

export interface WidgetSearchBench {
  firstResultsColdMs: number;
  firstResultsWarmMs: number;
  firstResultsWarmSamples: number[];
  searchP50Ms10k: number;
  searchP95Ms10k: number;
  keystrokes: number;
  modelBytesBeforeConsent: number;
  engineAssets: string[];
}

const quantile = (xs: readonly number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

/** `widgetDir`: a production widget build below the repo root (default: one is built into .cache/bench-widget/). */
export async function runWidgetSearchBench(options: { visits?: number; widgetDir?: string; log?: (line: string) => void } = {}): Promise<WidgetSearchBench> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const visits = options.visits ?? 5;
  const manifest = await corpusIndex(10_000, log);
  let widgetDir = options.widgetDir;
  if (widgetDir === undefined) {
    widgetDir = join('.cache', 'bench-widget', 'widget');
    await buildWidget(widgetDir);
  }
  const query = (visit: number): string => new URLSearchParams({ manifest, widget: `/${widgetDir}/qwen-assistant.js`, visit: String(visit) }).toString();
  const results = (await runBrowserBenchVisits('/bench/widget-search.html', { query: query(0), timeoutMs: 600_000, onLog: log }, (done) => (done.length > visits ? null : query(done.length)))) as SearchVisit[];
  const [first, ...later] = results;
  const keystrokes = later.flatMap((v) => v.keystrokes);
  const engineAssets = [...new Set(results.flatMap((v) => v.engineAssets))];
  return {
    firstResultsColdMs: first!.firstResultsMs,
    firstResultsWarmMs: quantile(later.map((v) => v.firstResultsMs), 0.5),
    firstResultsWarmSamples: later.map((v) => v.firstResultsMs),
    searchP50Ms10k: quantile(keystrokes, 0.5),
    searchP95Ms10k: quantile(keystrokes, 0.95),
    keystrokes: keystrokes.length,
    modelBytesBeforeConsent: results.reduce((n, v) => n + v.engineBytes, 0),
    engineAssets,
  };
}

export function printWidgetSearch(r: WidgetSearchBench): void {
  console.log(`search first (mode="search", 10,000 chunks): first visit, open → first results ${r.firstResultsColdMs} ms`);
  console.log(`  later visit, open → first results: p50 ${r.firstResultsWarmMs} ms [${r.firstResultsWarmSamples.join(', ')}] (target ≤ 1,000 ms)`);
  console.log(`  keystroke → results rendered: p50 ${r.searchP50Ms10k} ms, p95 ${r.searchP95Ms10k} ms over ${r.keystrokes} keystrokes (target p95 ≤ 50 ms; no debounce)`);
  console.log(`  engine assets fetched before consent: ${r.engineAssets.length === 0 ? 'none' : r.engineAssets.join(', ')} (${r.modelBytesBeforeConsent} bytes)`);
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const { values } = parseArgs({ options: { visits: { type: 'string', default: '5' } } });
  const result = await runWidgetSearchBench({ visits: Number(values.visits) });
  printWidgetSearch(result);
  const { firstResultsWarmSamples: _samples, engineAssets: _assets, ...json } = result;
  console.log(JSON.stringify(json));
}

/**
 * bench:prefill — prefilled tokens per turn (the engine's own counters: prompt minus cached) for a scripted
 * 30-turn conversation at budget 1,024, under three context strategies, driving wllama in Chromium with the
 * generated test model. `--realistic` uses the Qwen2.5-0.5B-shaped model (make it with
 * `npm run test-model:realistic`) and also compares time to first token.
 *
 *   npm run bench:prefill [-- --realistic] [--turns 30] [--budget 1024] [--max-tokens 64] [--strategies layered,…] [--no-warm]
 *                          [--reload-at N [--no-keep]] [--show-memory]
 *
 * As the app does, each row first prefills its first prompt's system message (the user is typing then): that is
 * printed as `warm-up` and counted in no turn. `--no-warm` leaves it out. `--reload-at N`: the layered row reloads
 * the page before turn N (a cold engine, the memory read back from its store, the warm-up again) and prints that
 * turn; `--no-keep` reads the store without the kept prompts (as before they were kept). `--show-memory` prints the
 * memory lines each layered turn sends.
 *
 * The last line is one JSON object.
 */
import { existsSync } from 'node:fs';
import type { PrefillBenchResult } from '../../bench/prefill-types.ts';
import { runBrowserBench } from './browser-runner.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const realistic = process.argv.includes('--realistic');
const model = realistic ? '/models/test/qwen2.5-0.5b-shaped-q8_0.gguf' : '/models/test/qwen2-tiny.gguf';
if (!existsSync(`public${model}`)) {
  console.error(`public${model} is missing: run ${realistic ? 'npm run test-model:realistic' : 'npm run test-model'} first.`);
  process.exit(1);
}
const query = new URLSearchParams({
  model,
  budget: arg('budget', '1024'),
  turns: arg('turns', realistic ? '10' : '30'),
  // Replies of about a hundred tokens, as an assistant's are; the generated model stops by itself after 21.
  maxTokens: arg('max-tokens', realistic ? '96' : '64'),
  // The random 0.5B-shaped model samples byte tokens that are not valid UTF-8, which kills wllama's wasm module;
  // greedy decoding keeps its replies well-formed. Reply content does not matter here, only the token counts.
  temperature: arg('temperature', realistic ? '0' : '0.7'),
  kvChunkReuse: arg('kv-chunk-reuse', '32'),
  strategies: arg('strategies', 'full,reselect,cache-aware,reselect+reuse,cache-aware+reuse,layered'),
  warm: process.argv.includes('--no-warm') ? '0' : '1',
  reloadAt: arg('reload-at', '0'),
  keep: process.argv.includes('--no-keep') ? '0' : '1',
  showMemory: process.argv.includes('--show-memory') ? '1' : '0',
});

const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
function p95(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? 0;
}
const r2 = (n: number): number => Math.round(n * 100) / 100;

const result = (await runBrowserBench('/bench/prefill.html', {
  query: query.toString(),
  timeoutMs: realistic ? 3_600_000 : 600_000,
  onLog: (line) => {
    if (/ turn \d+( memory sent)?:|^warm-up:/.test(line)) console.log(`  ${line.replaceAll('\n', '\n    ')}`);
  },
})) as PrefillBenchResult;

const summary: Record<string, { meanPrefill: number; p95Prefill: number; meanNew: number; meanTtftMs: number; turns: number; compactions: number }> = {};
console.log('\nstrategy            reserve  warm-up  turns  compactions  prefill mean  prefill p95  new mean  prefill/new  ttft mean (ms)  script');
for (const r of result.results) {
  const prefill = r.turns.map((t) => t.prefill);
  const s = {
    meanPrefill: r2(mean(prefill)),
    p95Prefill: p95(prefill),
    meanNew: r2(mean(r.turns.map((t) => t.newTokens))),
    meanTtftMs: r2(mean(r.turns.map((t) => t.ttftMs))),
    turns: r.turns.length,
    compactions: r.turns.filter((t) => t.compaction).length,
  };
  summary[r.strategy] = s;
  console.log(
    `${r.strategy.padEnd(19)} ${String(r.reserveTokens).padStart(7)}  ${String(r.warmTokens).padStart(7)}  ${String(s.turns).padStart(5)}  ${String(s.compactions).padStart(11)}  ${String(s.meanPrefill).padStart(12)}  ${String(s.p95Prefill).padStart(11)}  ${String(s.meanNew).padStart(8)}  ${String(r2(s.meanPrefill / s.meanNew)).padStart(11)}  ${String(s.meanTtftMs).padStart(14)}  ${r.script}` +
      (r.stoppedAt ? `   (stopped at turn ${r.stoppedAt.turn}: ${r.stoppedAt.reason})` : ''),
  );
}
// The product: cache-aware assembly on wllama with KV chunk reuse. The prefix-only rows are what an engine
// without chunk reuse (web-llm) gets from the same policies.
const ca = summary['cache-aware+reuse'];
const caPrefix = summary['cache-aware'];
const re = summary['reselect'];
const reReuse = summary['reselect+reuse'];
const json: Record<string, number | string | boolean> = { model, realistic, warm: query.get('warm') === '1' };
if (ca) Object.assign(json, { cacheAwareMeanPrefill: ca.meanPrefill, cacheAwareP95Prefill: ca.p95Prefill, cacheAwareMeanNewTokens: ca.meanNew, cacheAwarePrefillToNew: r2(ca.meanPrefill / ca.meanNew) });
if (caPrefix) Object.assign(json, { cacheAwarePrefixOnlyMeanPrefill: caPrefix.meanPrefill, cacheAwarePrefixOnlyPrefillToNew: r2(caPrefix.meanPrefill / caPrefix.meanNew) });
if (re) Object.assign(json, { reselectMeanPrefill: re.meanPrefill, reselectP95Prefill: re.p95Prefill });
if (reReuse) json['reselectChunkReuseMeanPrefill'] = reReuse.meanPrefill;
const layered = summary['layered'];
if (layered) {
  Object.assign(json, { layeredMeanPrefill: layered.meanPrefill, layeredMeanNewTokens: layered.meanNew, layeredPrefillToNew: r2(layered.meanPrefill / layered.meanNew) });
  Object.assign(json, { layeredP95Prefill: layered.p95Prefill, layeredCompactions: layered.compactions });
  if (ca) json['ttftRatioLayeredToCacheAware'] = r2(layered.meanTtftMs / ca.meanTtftMs);
}
const reloaded = result.results.find((r) => r.strategy === 'layered')?.turns.find((t) => t.afterReload === true);
if (reloaded !== undefined) {
  const kept = query.get('keep') === '1';
  console.log(`\nlayered, the first turn after a reload (turn ${reloaded.turn}, prompts ${kept ? 'kept' : 'not kept'}): warm-up ${result.results.find((r) => r.strategy === 'layered')?.reloadWarmTokens ?? 0}, prompt ${reloaded.promptTokens}, prefill ${reloaded.prefill}, ttft ${reloaded.ttftMs} ms`);
  Object.assign(json, { reloadTurn: reloaded.turn, reloadKeptPrompts: kept, reloadTurnPrefill: reloaded.prefill, reloadTurnTtftMs: reloaded.ttftMs });
}
if (summary['full']) Object.assign(json, { fullMeanPrefill: summary['full'].meanPrefill, fullTurnsBeforeOverflow: summary['full'].turns });
if (ca && re) json['prefillRatioReselectToCacheAware'] = r2(re.meanPrefill / ca.meanPrefill);
if (caPrefix && re) json['prefillRatioReselectToCacheAwarePrefixOnly'] = r2(re.meanPrefill / caPrefix.meanPrefill);
if (realistic) {
  if (ca && re) json['ttftRatioReselectToCacheAware'] = r2(re.meanTtftMs / ca.meanTtftMs);
  if (caPrefix && re) json['ttftRatioReselectToCacheAwarePrefixOnly'] = r2(re.meanTtftMs / caPrefix.meanTtftMs);
  if (ca && reReuse) json['ttftRatioReselectChunkReuseToCacheAware'] = r2(reReuse.meanTtftMs / ca.meanTtftMs);
}
console.log(JSON.stringify(json));

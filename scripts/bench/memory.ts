/**
 * The layered memory at 10,000 stored messages and 10,000 doc chunks, in real Chromium (bench/memory-page.ts
 * measures).
 *
 *   npm run bench:memory                      # 10,000 messages in 50 conversations, 10,000 doc chunks, 5 runs
 *   npm run bench:memory -- --json            # the same; the last line is one JSON object
 *   npm run bench:memory -- --turns 2000 --docs 0 --runs 3
 *   npm run bench:memory -- --visits 0        # the in-page loads only
 *   BENCH_CPU_PROFILE=/tmp/m.cpuprofile npm run bench:memory -- --modes restored --runs 3   # a CPU profile of those loads
 *
 * Prints, side by side in one run: the first prompt after a real page load (`--visits` new documents in the same
 * tab, each restoring from the saved index: `coldFirstPromptMs`); in one page, loads from the saved index, without
 * it (derivations kept: the version before) and with nothing kept (the code before issue 17); the regenerate that
 * follows, a reply appended (back to back, and with the page settled from the one before), the live heap and the saved
 * index's size.
 */
import { parseArgs } from 'node:util';
import { runBrowserBenchVisits } from './browser-runner.ts';
import type { FreshVisit, MemoryBench } from '../../bench/memory-page.ts';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '10000' },
    sessions: { type: 'string', default: '50' },
    docs: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    idle: { type: 'boolean', default: false },
    modes: { type: 'string', default: 'restored,kept,rebuilt' },
    visits: { type: 'string', default: '5' },
  },
});
const visits = Number(values.visits);
const query = new URLSearchParams({ turns: values.turns, sessions: values.sessions, docs: values.docs, runs: values.runs, modes: values.modes, visits: String(visits), ...(values.idle ? { idle: '1' } : {}) }).toString();
const [first, ...later] = await runBrowserBenchVisits('/bench/memory.html', { timeoutMs: 1_500_000, query, args: ['--enable-precise-memory-info', '--js-flags=--expose-gc'] }, (results) => {
  const i = results.length - 1;
  if (i >= visits) return null;
  const db = (results[0] as MemoryBench).db;
  return new URLSearchParams({ visit: String(i), db, ...(i === visits - 1 ? { lastVisit: '1' } : {}) }).toString();
});
const result = first as MemoryBench;
const fresh = later as FreshVisit[];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const freshStat = { p50: median(fresh.map((v) => v.ms)), samples: fresh.map((v) => v.ms) };

const { restored, kept, rebuilt } = result.cold;
const line = (label: string, s: { p50: number; samples: number[] }, note = ''): void => console.log(`${label.padEnd(58)} p50 ${String(s.p50).padStart(7)} ms   [${s.samples.join(', ')}]${note}`);
console.log(`Chromium: ${result.userAgent}`);
console.log(`${result.turns} messages in ${result.sessions} conversations, ${result.docChunks} doc chunks; p50 of ${restored.samples.length} runs each, rotated`);
if (fresh.length > 0) line('first prompt after a real page load (a new document), restored', freshStat, '   (target ≤ 500 ms)');
line('first prompt after a load in the same page, restored', restored, fresh.length > 0 ? '   (code already compiled)' : '   (target ≤ 500 ms)');
line('first prompt, no saved index, derivations kept', kept, '   (the version before)');
line('first prompt, nothing kept', rebuilt, '   (the code before issue 17)');
console.log(`  ratios: ${(kept.p50 / restored.p50).toFixed(2)}× and ${(rebuilt.p50 / restored.p50).toFixed(2)}× the restored load; per restored load, conversations read again whole [${result.readAgain.join(', ')}], only their appended turns [${result.appended.join(', ')}]`);
const stepNames = [...new Set(result.steps.flatMap((s) => Object.keys(s)))];
if (fresh.length > 0) {
  const freshSteps = [...new Set(fresh.flatMap((v) => Object.keys(v.steps)))];
  console.log(`  real page load by step (p50 ms): ${freshSteps.map((k) => `${k} ${median(fresh.map((v) => v.steps[k] ?? 0))}`).join(', ')}`);
}
console.log(`  same-page load by step (p50 ms): ${stepNames.map((k) => `${k} ${median(result.steps.map((s) => s[k] ?? 0))}`).join(', ')}`);
line('regenerate, then the next prompt', result.regenerate, '   (target ≤ 50 ms)');
line('a reply appended (store write and index update), back to back', result.append, '   (target ≤ 5 ms)');
line('a reply appended, the page settled from the one before', result.appendSettled, '   (as between two replies of a chat)');
line('saving the index after a restored load (background)', result.save, '   (on the page\'s thread)');
console.log(`live JS heap with a restored memory (after a full collection): ${result.heapMB ?? 'n/a'} MB; saved index: ${result.snapshotBytes === null ? 'none' : `${(result.snapshotBytes / 1e6).toFixed(1)} MB`}`);
if (values.json) {
  console.log(
    JSON.stringify({
      coldFirstPromptMs: fresh.length > 0 ? freshStat.p50 : restored.p50,
      coldFirstPromptSamePageMs: restored.p50,
      coldFirstPromptKeptMs: kept.p50,
      coldFirstPromptRebuiltMs: rebuilt.p50,
      editNextPromptMs: result.regenerate.p50,
      appendP50Ms: result.append.p50,
      appendSettledP50Ms: result.appendSettled.p50,
      saveIndexMs: result.save.p50,
      heapMB: result.heapMB,
      snapshotBytes: result.snapshotBytes,
    }),
  );
}

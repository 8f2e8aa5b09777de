/**
 * The layered memory's start at 10,000 stored messages, in real Chromium (bench/memory-page.ts measures).
 *
 *   npm run bench:memory                      # 10,000 messages in 50 conversations, 5 runs of each
 *   npm run bench:memory -- --json            # the same; the last line is one JSON object
 *   npm run bench:memory -- --turns 2000 --runs 3
 *
 * Prints, side by side in one run: a page load's first prompt with the per-message derivations kept by the last
 * load, the same with them deleted (what every load did before they were kept), the regenerate that follows,
 * and the heap.
 */
import { parseArgs } from 'node:util';
import { runBrowserBench } from './browser-runner.ts';
import type { MemoryBench } from '../../bench/memory-page.ts';

const { values } = parseArgs({ options: { turns: { type: 'string', default: '10000' }, sessions: { type: 'string', default: '50' }, runs: { type: 'string', default: '5' }, json: { type: 'boolean', default: false } } });
const query = new URLSearchParams({ turns: values.turns, sessions: values.sessions, runs: values.runs }).toString();
const result = (await runBrowserBench('/bench/memory.html', { timeoutMs: 900_000, query, args: ['--enable-precise-memory-info'] })) as MemoryBench;

console.log(`Chromium: ${result.userAgent}`);
console.log(`${result.turns} messages in ${result.sessions} conversations; p50 of ${result.coldKept.samples.length} runs each, alternated`);
console.log(`first prompt after a page load, derivations kept     p50 ${result.coldKept.p50} ms   [${result.coldKept.samples.join(', ')}]`);
console.log(`first prompt after a page load, everything worked out p50 ${result.coldRebuilt.p50} ms   [${result.coldRebuilt.samples.join(', ')}]   (the code before)`);
console.log(`  ratio ${(result.coldRebuilt.p50 / result.coldKept.p50).toFixed(2)}×; the target (≤ 500 ms) needs the index itself restored, not rebuilt`);
console.log(`regenerate, then the next prompt                     p50 ${result.regenerate.p50} ms   [${result.regenerate.samples.join(', ')}]   (target ≤ 50 ms)`);
console.log(`JS heap after a cold build: ${result.heapMB ?? 'n/a'} MB; derivation records kept: ${result.derivationsRead} (one per conversation)`);
if (values.json) {
  console.log(
    JSON.stringify({
      coldFirstPromptMs: result.coldKept.p50,
      coldFirstPromptRebuiltMs: result.coldRebuilt.p50,
      editNextPromptMs: result.regenerate.p50,
      heapMB: result.heapMB,
    }),
  );
}

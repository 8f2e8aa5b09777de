/**
 * The layered memory at 10,000 stored messages and 10,000 doc chunks, in real Chromium (bench/memory-page.ts
 * measures).
 *
 *   npm run bench:memory                      # 10,000 messages in 50 conversations, 10,000 doc chunks, 5 runs
 *   npm run bench:memory -- --json            # the same; the last line is one JSON object
 *   npm run bench:memory -- --turns 2000 --docs 0 --runs 3
 *
 * Prints, side by side in one run: a page load's first prompt from the saved index, without it (derivations kept:
 * the version before), and with nothing kept (the code before issue 17); the regenerate that follows, a reply
 * appended, the heap and the saved index's size.
 */
import { parseArgs } from 'node:util';
import { runBrowserBench } from './browser-runner.ts';
import type { MemoryBench } from '../../bench/memory-page.ts';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '10000' },
    sessions: { type: 'string', default: '50' },
    docs: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    idle: { type: 'boolean', default: false },
  },
});
const query = new URLSearchParams({ turns: values.turns, sessions: values.sessions, docs: values.docs, runs: values.runs, ...(values.idle ? { idle: '1' } : {}) }).toString();
const result = (await runBrowserBench('/bench/memory.html', { timeoutMs: 1_500_000, query, args: ['--enable-precise-memory-info'] })) as MemoryBench;

const { restored, kept, rebuilt } = result.cold;
const line = (label: string, s: { p50: number; samples: number[] }, note = ''): void => console.log(`${label.padEnd(58)} p50 ${String(s.p50).padStart(7)} ms   [${s.samples.join(', ')}]${note}`);
console.log(`Chromium: ${result.userAgent}`);
console.log(`${result.turns} messages in ${result.sessions} conversations, ${result.docChunks} doc chunks; p50 of ${restored.samples.length} runs each, rotated`);
line('first prompt after a page load, saved index restored', restored, '   (target ≤ 500 ms)');
line('first prompt, no saved index, derivations kept', kept, '   (the version before)');
line('first prompt, nothing kept', rebuilt, '   (the code before issue 17)');
console.log(`  ratios: ${(kept.p50 / restored.p50).toFixed(2)}× and ${(rebuilt.p50 / restored.p50).toFixed(2)}× the restored load; per restored load, conversations read again whole [${result.readAgain.join(', ')}], only their appended turns [${result.appended.join(', ')}]`);
const stepNames = [...new Set(result.steps.flatMap((s) => Object.keys(s)))];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`  restored load by step (p50 ms): ${stepNames.map((k) => `${k} ${median(result.steps.map((s) => s[k] ?? 0))}`).join(', ')}`);
line('regenerate, then the next prompt', result.regenerate, '   (target ≤ 50 ms)');
line('a reply appended (store write and index update)', result.append, '   (target ≤ 5 ms)');
line('saving the index after a restored load (background)', result.save, '   (on the page\'s thread)');
console.log(`JS heap after a restored load: ${result.heapMB ?? 'n/a'} MB; saved index: ${result.snapshotBytes === null ? 'none' : `${(result.snapshotBytes / 1e6).toFixed(1)} MB`}`);
if (values.json) {
  console.log(
    JSON.stringify({
      coldFirstPromptMs: restored.p50,
      coldFirstPromptKeptMs: kept.p50,
      coldFirstPromptRebuiltMs: rebuilt.p50,
      editNextPromptMs: result.regenerate.p50,
      appendP50Ms: result.append.p50,
      saveIndexMs: result.save.p50,
      heapMB: result.heapMB,
      snapshotBytes: result.snapshotBytes,
    }),
  );
}

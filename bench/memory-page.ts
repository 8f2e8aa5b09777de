/**
 * The app's memory path at 10,000 stored messages, run in real Chromium by scripts/bench/memory.ts: the planner
 * the chat uses (MemoryPlanner over the IndexedDB MemoryStore, the real tokenizer), without the engine. Sets
 * `window.__benchResult`.
 *
 * - cold first prompt: a page load's store open, then the first prompt assembled by a new planner (its layered
 *   memory built from the store). Two ways, alternated run by run: with the per-message derivations the previous
 *   load kept (this version), and with them deleted first (what every load did before: everything worked out
 *   again). The tokenizer and the memory code are loaded once before (the page's module cache), as the app loads
 *   them beside the engine.
 * - regenerate: the reply of that prompt replaced, and the next prompt (the memory changed in place).
 * - heap: the JS heap after a cold build (Chromium's performance.memory, with --enable-precise-memory-info).
 */
import { openDB } from 'idb';
import type { ImportTurnInput } from '../src/memory/store/import-turns.ts';
import { deleteMemoryDB } from '../src/memory/store/db.ts';
import { MemoryStore } from '../src/memory/store/store.ts';
import { prng } from '../src/shared/prng.ts';
import { layeredWritesDone } from '../src/ui/controllers/layered-store.ts';
import { MemoryPlanner } from '../src/ui/controllers/memory-planner.ts';
import { DEFAULT_SETTINGS, type AppSettings } from '../src/ui/data/settings.ts';

export interface Stat {
  p50: number;
  samples: number[];
}

export interface MemoryBench {
  turns: number;
  sessions: number;
  coldKept: Stat;
  coldRebuilt: Stat;
  regenerate: Stat;
  heapMB: number | null;
  derivationsRead: number;
  userAgent: string;
}

const log = (message: string): void => console.log(`[bench] ${message}`);
const quiet = { warn: (message: string) => console.log(`[store warning] ${message}`) };
const round = (n: number): number => Math.round(n * 10) / 10;
const stat = (samples: number[]): Stat => ({ p50: round([...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!), samples: samples.map(round) });

const ZH = ['服务器', '证书', '到期', '续费', '日志', '磁盘满了', '重启服务', '数据库', '备份', '端口', '模型', '检索', '我们', '明天'];
const EN = ['nginx', 'deploy', 'rollback', 'latency', 'the cache', 'kubernetes', 'certificate', 'renew', 'port 8443', 'index', 'timeout', '10.0.3.7'];

function conversation(turns: number, seed: number): ImportTurnInput[] {
  const rand = prng(seed);
  const pick = (xs: string[]): string => xs[Math.floor(rand() * xs.length)]!;
  const sentence = (words: number): string => Array.from({ length: words }, () => (rand() < 0.5 ? pick(ZH) : pick(EN))).join(rand() < 0.5 ? '，' : ' ');
  return Array.from({ length: turns }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: i % 2 === 0 ? `${sentence(6 + Math.floor(rand() * 10))}？(${i})` : `${sentence(20 + Math.floor(rand() * 40))}。(${i})`,
  }));
}

/** Deletes the kept derivations, as a database written by the version before them has none. */
async function dropDerivations(name: string): Promise<void> {
  const db = await openDB(name);
  await db.delete('meta', IDBKeyRange.bound('layered:derived:', 'layered:derived:\uffff'));
  db.close();
}

async function main(): Promise<MemoryBench> {
  const params = new URLSearchParams(location.search);
  const turns = Number(params.get('turns') ?? 10_000);
  const sessions = Number(params.get('sessions') ?? 50);
  const runs = Number(params.get('runs') ?? 5);
  const name = `bench-memory-${Date.now()}`;
  const settings: AppSettings = structuredClone(DEFAULT_SETTINGS) as AppSettings;
  const seeded = await MemoryStore.open({ name, logger: quiet });
  const sessionIds: string[] = [];
  for (let s = 0; s < sessions; s++) {
    const session = await seeded.createSession({ title: `conversation ${s}` });
    await seeded.importTurns(session.id, conversation(Math.round(turns / sessions), 100 + s));
    sessionIds.push(session.id);
  }
  await seeded.close();
  log(`stored ${turns} messages in ${sessions} conversations`);
  const last = sessionIds.at(-1)!;
  let n = 0;
  const question = () => ({ id: `bench-q-${n}`, text: `nginx 证书 renew 的端口是多少？(${n++})`, time: Date.now() });

  /** A page load: the store opened, a new planner, its first prompt. */
  async function coldPrompt(): Promise<{ ms: number; planner: MemoryPlanner; store: MemoryStore }> {
    const started = performance.now();
    const store = await MemoryStore.open({ name, logger: quiet });
    const planner = new MemoryPlanner(() => ({ store: Promise.resolve(store), settings }));
    await planner.plan({ sessionId: last, turn: question(), again: false });
    return { ms: performance.now() - started, planner, store };
  }

  // Loads the tokenizer and the memory code, and keeps the first derivations.
  const warm = await coldPrompt();
  await layeredWritesDone(warm.store);
  await warm.store.close();

  const kept: number[] = [];
  const rebuilt: number[] = [];
  const regenerate: number[] = [];
  let heapMB: number | null = null;
  for (let run = 0; run < runs; run++) {
    for (const mode of run % 2 === 0 ? (['kept', 'rebuilt'] as const) : (['rebuilt', 'kept'] as const)) {
      if (mode === 'rebuilt') await dropDerivations(name);
      const { ms, planner, store } = await coldPrompt();
      (mode === 'kept' ? kept : rebuilt).push(ms);
      if (mode === 'kept') {
        const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
        if (memory !== undefined) heapMB = round(memory.usedJSHeapSize / 1e6);
        // The reply, replaced: the next prompt.
        const asked = question();
        await planner.plan({ sessionId: last, turn: asked, again: false });
        await planner.recordReply(last, `${asked.id}-reply`, 'The port is 8443.', asked.time + 1);
        const t = performance.now();
        await planner.plan({ sessionId: last, turn: asked, again: true, replaced: [`${asked.id}-reply`] });
        regenerate.push(performance.now() - t);
      }
      // The derivations a rebuilt load worked out are written before the next load reads.
      await layeredWritesDone(store);
      await store.close();
      log(`run ${run} ${mode}: ${round(ms)} ms`);
    }
  }
  // The kept derivation records (one per conversation).
  const check = await MemoryStore.open({ name, logger: quiet });
  const derivationsRead = (await check.listLayeredSide('derived')).size;
  await check.close();
  await deleteMemoryDB(name);
  return { turns, sessions, coldKept: stat(kept), coldRebuilt: stat(rebuilt), regenerate: stat(regenerate), heapMB, derivationsRead, userAgent: navigator.userAgent };
}

main().then(
  (result) => ((window as unknown as { __benchResult: unknown }).__benchResult = result),
  (error: unknown) => ((window as unknown as { __benchError: string }).__benchError = error instanceof Error ? `${error.message}\n${error.stack}` : String(error)),
);

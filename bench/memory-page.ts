/**
 * The app's memory path at 10,000 stored messages and 10,000 doc chunks, run in real Chromium by
 * scripts/bench/memory.ts: the planner the chat uses (MemoryPlanner over the IndexedDB MemoryStore, the real
 * tokenizer), without the engine. Sets `window.__benchResult`.
 *
 * - cold first prompt: a page load's store open, then the first prompt assembled by a new planner. Three ways,
 *   rotated run by run:
 *   - `restored`: from the index the last load saved (this version);
 *   - `kept`: the saved index deleted first, the per-message derivations kept (the version before the saved index);
 *   - `rebuilt`: both deleted (what every load did before issue 17: everything worked out and indexed again).
 *   The message is stored first, as the chat does. The tokenizer and the memory code are loaded once before (the
 *   page's module cache), as the app loads them beside the engine.
 * - regenerate: the reply of that prompt replaced, and the next prompt (the memory changed in place).
 * - append: a reply stored and taken into the memory (store write and index update), back to back (each meets the
 *   background writes of the one before); and with the page settled from the reply before (its background writes
 *   done, then `SETTLE_MS` idle, as between two replies of a chat, which take seconds to generate).
 * - heap: the live JS heap with a restored memory in use, after a full collection (Chromium's performance.memory,
 *   with --enable-precise-memory-info and --expose-gc).
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

export type ColdMode = 'restored' | 'kept' | 'rebuilt';

export interface MemoryBench {
  turns: number;
  sessions: number;
  docChunks: number;
  cold: Record<ColdMode, Stat>;
  /** Per restored load: the conversations it read again whole, and those it read only the appended turns of. */
  readAgain: number[];
  appended: number[];
  /** Per restored load: its steps in ms (open, append: the store; then the planner's own, and the prompt). */
  steps: Array<Record<string, number>>;
  regenerate: Stat;
  append: Stat;
  appendSettled: Stat;
  /** A save of the index after a restored load's changes (`saveIndexNow`: the comparison with the records, the export, the write). */
  save: Stat;
  heapMB: number | null;
  snapshotBytes: number | null;
  userAgent: string;
  /** The store's name (kept for the fresh visits that follow). */
  db: string;
}

/** Idle time before a settled append: far less than a reply takes to generate, enough for a timer's work to start. */
const SETTLE_MS = 50;

const log = (message: string): void => console.log(`[bench] ${message}`);
const quiet = { warn: (message: string) => console.log(`[store warning] ${message}`) };
const round = (n: number): number => Math.round(n * 10) / 10;
const stat = (samples: number[]): Stat => ({ p50: samples.length === 0 ? NaN : round([...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!), samples: samples.map(round) });

const ZH = ['服务器', '证书', '到期', '续费', '日志', '磁盘满了', '重启服务', '数据库', '备份', '端口', '模型', '检索', '我们', '明天'];
const EN = ['nginx', 'deploy', 'rollback', 'latency', 'the cache', 'kubernetes', 'certificate', 'renew', 'port 8443', 'index', 'timeout', '10.0.3.7'];

function sentences(seed: number): (words: number) => string {
  const rand = prng(seed);
  const pick = (xs: string[]): string => xs[Math.floor(rand() * xs.length)]!;
  return (words) => Array.from({ length: words }, () => (rand() < 0.5 ? pick(ZH) : pick(EN))).join(rand() < 0.5 ? '，' : ' ');
}

function conversation(turns: number, seed: number): ImportTurnInput[] {
  const sentence = sentences(seed);
  const rand = prng(seed + 7);
  return Array.from({ length: turns }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: i % 2 === 0 ? `${sentence(6 + Math.floor(rand() * 10))}？(${i})` : `${sentence(20 + Math.floor(rand() * 40))}。(${i})`,
  }));
}

/** The app's saved index: the conversations' record and the docs'. */
const SNAPSHOT_IDS = ['index', 'index-docs'] as const;

/** Deletes what a mode starts without: the saved index, and for `rebuilt` the kept derivations too. */
async function prepare(name: string, mode: ColdMode): Promise<void> {
  if (mode === 'restored') return;
  const db = await openDB(name);
  for (const id of SNAPSHOT_IDS) await db.delete('meta', `layered:snapshot:${id}`);
  if (mode === 'rebuilt') await db.delete('meta', IDBKeyRange.bound('layered:derived:', 'layered:derived:\uffff'));
  db.close();
}

async function snapshotBytes(name: string): Promise<number | null> {
  const db = await openDB(name);
  const records: unknown[] = await Promise.all(SNAPSHOT_IDS.map((id) => db.get('meta', `layered:snapshot:${id}`)));
  db.close();
  const saved = records.filter((r) => r !== undefined);
  if (saved.length === 0) return null;
  // The packed body (a Blob) by its size; typed arrays by their bytes, strings by UTF-16 code units × 2.
  let bytes = 0;
  const walk = (v: unknown): void => {
    if (v instanceof Blob) bytes += v.size;
    else if (ArrayBuffer.isView(v)) bytes += v.byteLength;
    else if (typeof v === 'string') bytes += v.length * 2;
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  walk(saved);
  return bytes;
}

/** A page's loads of the memory in store `name`, each asking in conversation `last`. */
function pageLoads(name: string, last: string, idle: boolean, firstQuestion: number) {
  const settings: AppSettings = structuredClone(DEFAULT_SETTINGS) as AppSettings;
  let n = firstQuestion;
  /** The question the replies answer (the chat names it, as `replyTo`, when it starts a reply). */
  let lastQuestionId = '';

  /** A page load: the store opened, a new planner, its first prompt (the message stored first, as the chat does). */
  async function coldPrompt(): Promise<{ ms: number; planner: MemoryPlanner; store: MemoryStore; steps: Record<string, number> }> {
    const started = performance.now();
    const store = await MemoryStore.open({ name, logger: quiet });
    if (idle) await store.whenIdle();
    const opened = performance.now();
    const planner = new MemoryPlanner(() => ({ store: Promise.resolve(store), settings }));
    const asked = await store.appendTurn({ sessionId: last, role: 'user', content: `nginx 证书 renew 的端口是多少？(${n++})` });
    lastQuestionId = asked.id;
    const appended = performance.now();
    await planner.plan({ sessionId: last, turn: { id: asked.id, text: asked.content, time: asked.createdAt }, again: false });
    const done = performance.now();
    const memory = Object.values(planner.indexStats.steps).reduce((a, b) => a + b, 0);
    const steps = { open: round(opened - started), append: round(appended - opened), ...planner.indexStats.steps, prompt: round(done - appended - memory) };
    return { ms: done - started, planner, store, steps };
  }

  /** The reply to the last question, stored and taken in. */
  async function reply(store: MemoryStore, planner: MemoryPlanner): Promise<string> {
    const turn = await store.appendTurn({ sessionId: last, role: 'assistant', content: `The port is ${8000 + n}.`, replyTo: lastQuestionId });
    await planner.recordReply(last, turn.id, turn.content, turn.createdAt);
    return turn.id;
  }
  return { coldPrompt, reply };
}

/** What a fresh visit reports: its load's ms and steps. */
export interface FreshVisit {
  ms: number;
  steps: Record<string, number>;
}

/**
 * A visit of its own (`visit=<i>&db=<name>`): a new document, so the code is loaded and compiled afresh, as after
 * a real page load. The tokenizer and the memory code are loaded first, as the app loads them beside the engine;
 * then one restored load is timed, answered and saved, as the in-page loads are. The last visit deletes the store.
 */
async function freshVisit(params: URLSearchParams): Promise<FreshVisit> {
  const name = params.get('db')!;
  await Promise.all([
    import('../src/memory/layered/pipeline.ts'),
    import('../src/memory/layered/durable-working-memory.ts'),
    import('../src/memory/retrieval/retrieval-index.ts'),
    import('../src/ui/controllers/snapshot-keeper.ts'),
    import('../src/context/head.ts'),
    import('../src/memory/store/index-snapshot.ts'),
    import('../src/ui/controllers/context-planner.ts').then((m) => m.qwenCounter()),
  ]);
  const seeded = await MemoryStore.open({ name, logger: quiet });
  const last = (await seeded.listSessions()).sort((a, b) => a.createdAt - b.createdAt).at(-1)!.id;
  await seeded.close();
  const { coldPrompt, reply } = pageLoads(name, last, false, 1_000 + Number(params.get('visit')));
  const { ms, planner, store, steps } = await coldPrompt();
  await reply(store, planner);
  await planner.saveIndexNow();
  await layeredWritesDone(store);
  await store.close();
  if (params.has('lastVisit')) await deleteMemoryDB(name);
  log(`fresh visit ${params.get('visit')}: ${round(ms)} ms`);
  return { ms: round(ms), steps };
}

async function main(): Promise<MemoryBench> {
  const params = new URLSearchParams(location.search);
  const turns = Number(params.get('turns') ?? 10_000);
  const sessions = Number(params.get('sessions') ?? 50);
  const docChunks = Number(params.get('docs') ?? 10_000);
  const runs = Number(params.get('runs') ?? 5);
  const name = `bench-memory-${Date.now()}`;
  const seeded = await MemoryStore.open({ name, logger: quiet });
  const sessionIds: string[] = [];
  for (let s = 0; s < sessions; s++) {
    const session = await seeded.createSession({ title: `conversation ${s}` });
    await seeded.importTurns(session.id, conversation(Math.round(turns / sessions), 100 + s));
    sessionIds.push(session.id);
  }
  // Docs: pages of 100 chunks each, as an imported Markdown folder stores them.
  const sentence = sentences(9);
  for (let d = 0; d * 100 < docChunks; d++) {
    const count = Math.min(100, docChunks - d * 100);
    await seeded.putDoc({ docId: `guide/page-${d}.md`, source: `guide/page-${d}.md`, texts: Array.from({ length: count }, (_, i) => `${sentence(30 + (i % 20))}。(${d}.${i})`) });
  }
  await seeded.close();
  log(`stored ${turns} messages in ${sessions} conversations and ${docChunks} doc chunks`);
  const last = sessionIds.at(-1)!;
  const { coldPrompt, reply } = pageLoads(name, last, params.has('idle'), 0);

  // Each load in a function of its own, so that no suspended frame of main's holds a memory that is done with.
  /** Loads the tokenizer and the memory code, keeps the first derivations and saves the first index. */
  async function firstLoad(): Promise<void> {
    const warm = await coldPrompt();
    await reply(warm.store, warm.planner);
    await warm.planner.saveIndexNow();
    await layeredWritesDone(warm.store);
    await warm.store.close();
  }
  await firstLoad();

  /**
   * The live heap with a restored memory in use: one more restored load, then a full collection (the runner gives
   * Chromium --expose-gc), so the garbage of the loads before is not counted. Null without `gc`.
   */
  async function liveHeapMB(): Promise<number | null> {
    const gc = (globalThis as { gc?: () => void }).gc;
    const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
    if (gc === undefined || memory === undefined) return null;
    const { planner, store } = await coldPrompt();
    gc();
    gc();
    const mb = round(memory.usedJSHeapSize / 1e6);
    // Held until measured: the memory is what the heap holds.
    await planner.saveIndexNow();
    await layeredWritesDone(store);
    await store.close();
    return mb;
  }

  const cold: Record<ColdMode, number[]> = { restored: [], kept: [], rebuilt: [] };
  const readAgain: number[] = [];
  const appended: number[] = [];
  const steps: Array<Record<string, number>> = [];
  const regenerate: number[] = [];
  const append: number[] = [];
  const appendSettled: number[] = [];
  const save: number[] = [];
  const orders: ColdMode[][] = [
    ['restored', 'kept', 'rebuilt'],
    ['kept', 'rebuilt', 'restored'],
    ['rebuilt', 'restored', 'kept'],
  ];
  // `modes=restored`: only those loads (e.g. for a CPU profile of one kind); all three by default.
  const modes = new Set((params.get('modes') ?? 'restored,kept,rebuilt').split(','));
  async function load(run: number, mode: ColdMode): Promise<void> {
    await prepare(name, mode);
    const { ms, planner, store, steps: taken } = await coldPrompt();
    cold[mode].push(ms);
    if (mode === 'restored') {
      readAgain.push(planner.indexStats.readAgain.length);
      appended.push(planner.indexStats.appended.length);
      steps.push(taken);
      // A reply, then the reply replaced: the next prompt.
      const replied = await reply(store, planner);
      const question = (await store.listTurns(last)).filter((t) => t.role === 'user').at(-1)!;
      const t = performance.now();
      await store.updateTurn(replied, { tags: ['hidden'] });
      await planner.plan({ sessionId: last, turn: { id: question.id, text: question.content, time: question.createdAt }, again: true, replaced: [replied] });
      regenerate.push(performance.now() - t);
      // Ten replies back to back, right after the regenerate: each meets the background writes of the one before.
      // Then ten as a chat stores them, each after the page settled from the one before (a reply takes seconds to
      // generate, and the background writes of the last are done by then).
      for (let i = 0; i < 10; i++) {
        const a = performance.now();
        await reply(store, planner);
        append.push(performance.now() - a);
      }
      for (let i = 0; i < 10; i++) {
        await layeredWritesDone(store);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const a = performance.now();
        await reply(store, planner);
        appendSettled.push(performance.now() - a);
      }
    } else await reply(store, planner);
    // Saved before the next load, as a page does in the background once the user stops typing.
    const saving = performance.now();
    await planner.saveIndexNow();
    if (mode === 'restored') save.push(performance.now() - saving);
    await layeredWritesDone(store);
    await store.close();
    log(`run ${run} ${mode}: ${round(ms)} ms`);
  }
  for (let run = 0; run < runs; run++) {
    for (const mode of orders[run % orders.length]!.filter((m) => modes.has(m))) await load(run, mode);
  }
  const heapMB = await liveHeapMB();
  const bytes = await snapshotBytes(name);
  // Fresh visits follow (`visits=N`): they restore from this store, and the last one deletes it.
  if (Number(params.get('visits') ?? 0) === 0) await deleteMemoryDB(name);
  return {
    turns,
    sessions,
    docChunks,
    cold: { restored: stat(cold.restored), kept: stat(cold.kept), rebuilt: stat(cold.rebuilt) },
    readAgain,
    appended,
    steps,
    regenerate: stat(regenerate),
    append: stat(append),
    appendSettled: stat(appendSettled),
    save: stat(save),
    heapMB,
    snapshotBytes: bytes,
    userAgent: navigator.userAgent,
    db: name,
  };
}

const page = new URLSearchParams(location.search);
(page.has('visit') ? freshVisit(page) : main()).then(
  (result) => ((window as unknown as { __benchResult: unknown }).__benchResult = result),
  (error: unknown) => ((window as unknown as { __benchError: string }).__benchError = error instanceof Error ? `${error.message}\n${error.stack}` : String(error)),
);

/**
 * The memory store's benchmark, run in real Chromium by scripts/bench/store.ts. Sets `window.__benchResult`:
 * for each measurement its samples' p50/p95 (ms) and count.
 *
 * - append: one turn stored with its chunk and vector (one transaction), in a session of a few hundred turns;
 * - import: 10,000 turns (5,000 exchanges) into an empty session, until committed and indexed; next to it the
 *   floor: the same records written by plain puts, no store logic;
 * - cold start: reopening a database of 10,000 turns until a search has answered from the rebuilt index;
 * - top-20 search over 10k and 100k random unit vectors of the default embedder's width (256): the flat SIMD
 *   scan and voy's k-d tree, each checked against the other.
 */
import { openDB } from 'idb';
import { deleteMemoryDB } from '../src/memory/store/db.ts';
import { HASHED_NGRAM_DIMENSIONS } from '../src/memory/embedders/hashed-ngram.ts';
import { FlatIndex } from '../src/memory/vector-index/flat-index.ts';
import type { ImportTurnInput } from '../src/memory/store/import-turns.ts';
import { MemoryStore } from '../src/memory/store/store.ts';
import type { IndexEntry, VectorIndex } from '../src/memory/vector-index/vector-index.ts';
import { VoyIndex } from '../src/memory/vector-index/voy-index.ts';
import { loadVoy } from '../src/memory/vector-index/voy-loader.ts';
import { prng } from '../src/shared/prng.ts';

export interface Stat {
  p50: number;
  p95: number;
  n: number;
}

const log = (message: string): void => console.log(`[bench] ${message}`);
const quiet = { warn: (message: string) => console.log(`[store warning] ${message}`) };

function stat(samples: number[]): Stat {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: round(at(0.5)), p95: round(at(0.95)), n: samples.length };
}

const round = (n: number): number => Math.round(n * 1000) / 1000;


const ZH = ['服务器', '证书', '到期', '续费', '日志', '磁盘满了', '重启服务', '数据库', '备份', '上下文窗口', '模型', '检索', '我们', '怎么办'];
const EN = ['nginx', 'deploy', 'rollback', 'latency', 'the cache', 'kubernetes', 'certificate', 'renew', 'query', 'index', 'timeout', 'memory'];

/** A chat-like text of about `words` words, Chinese and English mixed. */
function sentence(rand: () => number, words: number): string {
  const pick = (xs: string[]): string => xs[Math.floor(rand() * xs.length)]!;
  return Array.from({ length: words }, () => (rand() < 0.5 ? pick(ZH) : pick(EN))).join(rand() < 0.5 ? '，' : ' ');
}

function conversation(turns: number, seed: number): ImportTurnInput[] {
  const rand = prng(seed);
  return Array.from({ length: turns }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: i % 2 === 0 ? `${sentence(rand, 6 + Math.floor(rand() * 10))}？(${i})` : `${sentence(rand, 20 + Math.floor(rand() * 40))}。(${i})`,
  }));
}

function randomUnitVectors(count: number, dims: number, seed: number): Float32Array[] {
  const rand = prng(seed);
  const out: Float32Array[] = [];
  for (let n = 0; n < count; n++) {
    const v = new Float32Array(dims);
    let sum = 0;
    for (let i = 0; i < dims; i++) {
      const x = Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
      v[i] = x;
      sum += x * x;
    }
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < dims; i++) v[i] = v[i]! * scale;
    out.push(v);
  }
  return out;
}

async function benchAppend(): Promise<Stat> {
  const name = `bench-append-${Date.now()}`;
  const store = await MemoryStore.open({ name, logger: quiet });
  const session = await store.createSession();
  await store.importTurns(session.id, conversation(400, 1));
  const rand = prng(2);
  const samples: number[] = [];
  for (let i = 0; i < 330; i++) {
    const role = i % 2 === 0 ? ('user' as const) : ('assistant' as const);
    const content = sentence(rand, role === 'user' ? 12 : 40);
    const started = performance.now();
    await store.appendTurn({ sessionId: session.id, role, content });
    if (i >= 30) samples.push(performance.now() - started); // the first ones warm up the JIT
  }
  await store.close();
  await deleteMemoryDB(name);
  return stat(samples);
}

async function benchImportAndColdStart(): Promise<{ import10k: Stat; rawFloor10k: Stat; coldStart10k: Stat; storeSearch10k: Stat; chunks: number }> {
  const turns = conversation(10_000, 3);
  const rawSamples: number[] = [];
  const importSamples: number[] = [];
  const coldSamples: number[] = [];
  const searchSamples: number[] = [];
  let chunks = 0;
  for (let run = 0; run < 3; run++) {
    rawSamples.push(await rawWriteFloor(turns));
    const name = `bench-import-${Date.now()}-${run}`;
    const store = await MemoryStore.open({ name, logger: quiet });
    await store.whenIdle();
    const session = await store.createSession();
    let started = performance.now();
    await store.importTurns(session.id, turns);
    importSamples.push(performance.now() - started);
    chunks = store.index.size('conversation');
    log(`import run ${run}: ${round(importSamples.at(-1)!)} ms, ${chunks} chunks indexed (raw write floor ${round(rawSamples.at(-1)!)} ms)`);
    await store.close();

    for (let reload = 0; reload < 3; reload++) {
      started = performance.now();
      const again = await MemoryStore.open({ name, logger: quiet });
      await again.search('服务器证书到期 renew certificate', { k: 20, wait: true });
      coldSamples.push(performance.now() - started);
      if (again.index.size('conversation') !== chunks) throw new Error(`reload indexed ${again.index.size('conversation')} of ${chunks}`);
      if (reload === 0 && run === 0) {
        const rand = prng(4);
        for (let q = 0; q < 50; q++) {
          const query = sentence(rand, 5);
          const t0 = performance.now();
          await again.search(query, { k: 20 });
          searchSamples.push(performance.now() - t0);
        }
      }
      await again.close();
    }
    log(`cold start run ${run}: ${coldSamples.slice(-3).map(round).join(', ')} ms`);
    await deleteMemoryDB(name);
  }
  return { import10k: stat(importSamples), rawFloor10k: stat(rawSamples), coldStart10k: stat(coldSamples), storeSearch10k: stat(searchSamples), chunks };
}

/**
 * The floor under an import: the same number of records as 10,000 turns make (10,000 turns + 5,000 chunks with
 * their vectors), written by plain puts in batches of 1,000 turns, with the same two indexes. Context for the
 * import number on a given machine.
 */
async function rawWriteFloor(turns: ImportTurnInput[]): Promise<number> {
  const name = `bench-raw-${Date.now()}`;
  const db = await openDB(name, 1, {
    upgrade(d) {
      d.createObjectStore('turns', { keyPath: 'id' }).createIndex('by-session-seq', ['sessionId', 'seq'], { unique: true });
      d.createObjectStore('chunks', { keyPath: 'id' }).createIndex('by-session', 'sessionId');
    },
  });
  const started = performance.now();
  for (let b = 0; b < turns.length; b += 1_000) {
    const tx = db.transaction(['turns', 'chunks'], 'readwrite');
    for (let n = b; n < Math.min(turns.length, b + 1_000); n++) {
      const turn = turns[n]!;
      const id = `t${n}`;
      void tx.objectStore('turns').put({ id, sessionId: 's', seq: n, role: turn.role, content: turn.content, createdAt: 1, updatedAt: 1, tokenCount: 1, status: 'complete', tags: [], replyTo: null });
      if (n % 2 === 0) {
        const text = `${turn.content}\n\n${turns[n + 1]?.content ?? ''}`;
        void tx.objectStore('chunks').put({ id: `x:${id}`, sessionId: 's', kind: 'exchange', turnIds: [id], part: 0, start: 0, end: text.length, text, tokenCount: 1, rev: 1, createdAt: 1, updatedAt: 1, heat: { hits: 0, lastHitAt: null, lastHitRetrieval: 0 }, embedding: { embedder: 'raw', vector: new Float32Array(HASHED_NGRAM_DIMENSIONS) } });
      }
    }
    await tx.done;
  }
  const ms = performance.now() - started;
  db.close();
  await deleteMemoryDB(name);
  return ms;
}

function timeSearches(index: VectorIndex, queries: Float32Array[]): { stat: Stat; results: string[][] } {
  const samples: number[] = [];
  const results: string[][] = [];
  for (const q of queries.slice(0, 3)) index.search(q, 20); // warm-up
  for (const q of queries) {
    const started = performance.now();
    const hits = index.search(q, 20);
    samples.push(performance.now() - started);
    results.push(hits.map((h) => h.id));
  }
  return { stat: stat(samples), results };
}

async function benchSearch(count: number): Promise<{ flat: Stat; voy: Stat; voyBuildMs: number; flatBuildMs: number; mismatches: number }> {
  log(`search at ${count}: generating vectors`);
  const vectors = randomUnitVectors(count, HASHED_NGRAM_DIMENSIONS, count);
  const entries: IndexEntry[] = vectors.map((vector, i) => ({ id: `c${i}`, scope: `s${i % 50}`, vector }));
  const queries = randomUnitVectors(60, HASHED_NGRAM_DIMENSIONS, 7);

  let started = performance.now();
  const flat = new FlatIndex(HASHED_NGRAM_DIMENSIONS, { capacity: count });
  flat.add(entries);
  const flatBuildMs = performance.now() - started;
  const flatRun = timeSearches(flat, queries);
  log(`flat at ${count}: build ${round(flatBuildMs)} ms, top-20 p50 ${flatRun.stat.p50} ms (${flat.kernelKind})`);
  flat.dispose();

  started = performance.now();
  const voy = new VoyIndex(await loadVoy(), HASHED_NGRAM_DIMENSIONS, { onWarning: (m) => log(m) });
  for (let i = 0; i < entries.length; i += 5_000) voy.add(entries.slice(i, i + 5_000));
  const voyBuildMs = performance.now() - started;
  log(`voy at ${count}: built in ${round(voyBuildMs)} ms`);
  const voyRun = timeSearches(voy, count > 10_000 ? queries.slice(0, 25) : queries);
  log(`voy at ${count}: top-20 p50 ${voyRun.stat.p50} ms`);
  voy.dispose();
  const mismatches = voyRun.results.filter((ids, i) => ids.join() !== flatRun.results[i]!.join()).length;
  return { flat: flatRun.stat, voy: voyRun.stat, voyBuildMs: round(voyBuildMs), flatBuildMs: round(flatBuildMs), mismatches };
}

async function main(): Promise<void> {
  log('append');
  const append = await benchAppend();
  log(`append p50 ${append.p50} ms`);
  log('import 10k + cold start');
  const { import10k, rawFloor10k, coldStart10k, storeSearch10k, chunks } = await benchImportAndColdStart();
  const search10k = await benchSearch(10_000);
  const search100k = await benchSearch(100_000);
  (window as unknown as { __benchResult: unknown }).__benchResult = {
    append,
    import10k,
    rawFloor10k,
    coldStart10k,
    storeSearch10k,
    chunks10k: chunks,
    search10k,
    search100k,
    crossOriginIsolated,
    userAgent: navigator.userAgent,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  (window as unknown as { __benchError: string }).__benchError = error instanceof Error ? `${error.message}\n${error.stack}` : String(error);
});

/**
 * What a regenerate or a deleted conversation costs the layered memory, in Node: taking the turns out of the index
 * in place (`forgetTurns` / `forgetSession`) against the rebuild the app did before (a new memory, `loadUser` over
 * every stored turn), each followed by the next prompt. Side by side in one run, medians of `--runs` (default 5).
 *
 *   npm run bench:forget                     # 10,000 turns in 50 conversations
 *   npm run bench:forget -- --turns 2000 --json
 */
import { parseArgs } from 'node:util';
import { CachedTokenCounter } from '../../src/context/tokens.ts';
import { LayeredMemory, type MessageInput } from '../../src/memory/layered/pipeline.ts';
import { SessionWorkingMemory } from '../../src/memory/layered/working-memory.ts';
import { InMemoryChunkStore, type TurnEntry } from '../../src/memory/retrieval/records.ts';
import { loadNodeQwenTokenizer } from '../prepare-tokenizer.ts';

const { values } = parseArgs({ options: { turns: { type: 'string', default: '10000' }, sessions: { type: 'string', default: '50' }, runs: { type: 'string', default: '5' }, json: { type: 'boolean', default: false } } });
const TURNS = Number(values.turns);
const SESSIONS = Number(values.sessions);
const RUNS = Number(values.runs);
const USER = 'bench';
const T0 = Date.UTC(2025, 0, 6, 9);

const TOPICS = ['deploy', 'backup', 'invoice', 'museum', 'recipe', 'router', 'garden', 'concert', 'exam', 'flight'];
const WORDS = ['server', 'port', 'schedule', 'budget', 'ticket', 'weekend', 'version', 'config', 'report', 'meeting', 'price', 'station'];
/** Turn `i` of the synthetic memory: a topic per session, numbers that make turns distinct. */
function text(i: number, session: number, role: 'user' | 'assistant'): string {
  const topic = TOPICS[session % TOPICS.length]!;
  const a = WORDS[(i * 7) % WORDS.length]!;
  const b = WORDS[(i * 11 + 3) % WORDS.length]!;
  return role === 'user' ? `About the ${topic}: what is the ${a} for item ${i} and the ${b} on day ${i % 28}?` : `The ${topic} ${a} for item ${i} is ${(i * 37) % 1000}; the ${b} on day ${i % 28} is set.`;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const counter = new CachedTokenCounter(await loadNodeQwenTokenizer());
  const store = new InMemoryChunkStore();
  const wm = new SessionWorkingMemory();
  const seed = new LayeredMemory({ store, counter, window: 1024, workingMemory: wm });
  // The stored memory: TURNS turns, round-robin over the sessions, written as the pipeline writes them.
  const perSession = Math.ceil(TURNS / SESSIONS);
  for (let s = 0; s < SESSIONS; s++) {
    for (let j = 0; j < perSession && s * perSession + j < TURNS; j++) {
      const i = s * perSession + j;
      const role = j % 2 === 0 ? 'user' : 'assistant';
      const turn: TurnEntry = { id: `t${i}`, userId: USER, sessionId: `s${s}`, seq: j + 1, role, time: T0 + i * 60_000, text: text(i, s, role), entities: [], dates: [], tags: [] };
      await store.putTurn(turn);
    }
  }
  await seed.loadUser(USER);
  const last = `s${SESSIONS - 1}`;
  const question = (n: number): MessageInput => ({ userId: USER, sessionId: last, text: `About the flight: what is the port for item ${n}?`, time: T0 + (TURNS + n) * 60_000, id: `q${n}` });

  const inPlace: number[] = [];
  const rebuild: number[] = [];
  const deleteInPlace: number[] = [];
  const deleteRebuild: number[] = [];
  const deleted = new Set<string>();
  for (let run = 0; run < RUNS; run++) {
    // A question and its reply, then the reply replaced (regenerate).
    const q = question(run);
    await seed.handleUserMessage(q);
    await seed.recordReply({ userId: USER, sessionId: last, text: 'A reply to replace.', time: q.time + 1, id: `r${run}` });
    let t = performance.now();
    seed.forgetTurns(USER, last, [q.id!, `r${run}`]);
    await seed.handleUserMessage(q);
    inPlace.push(performance.now() - t);

    t = performance.now();
    const fresh = new LayeredMemory({ store, counter, window: 1024, workingMemory: wm });
    await fresh.loadUser(USER);
    await fresh.handleUserMessage({ ...q, id: `q${run}-rebuilt` });
    rebuild.push(performance.now() - t);

    // A conversation deleted, then a message elsewhere.
    const victim = `s${run}`;
    t = performance.now();
    seed.forgetSession(USER, victim);
    await seed.handleUserMessage({ ...question(100 + run), id: `d${run}` });
    deleteInPlace.push(performance.now() - t);

    deleted.add(victim);
    const remaining = new InMemoryChunkStore();
    for (const turn of await store.listTurns(USER)) if (!deleted.has(turn.sessionId)) await remaining.putTurn(turn);
    t = performance.now();
    const after = new LayeredMemory({ store: remaining, counter, window: 1024, workingMemory: wm });
    await after.loadUser(USER);
    await after.handleUserMessage({ ...question(100 + run), id: `d${run}-rebuilt` });
    deleteRebuild.push(performance.now() - t);
  }
  const result = {
    turns: TURNS,
    sessions: SESSIONS,
    runs: RUNS,
    regenerateInPlaceMs: median(inPlace),
    regenerateRebuildMs: median(rebuild),
    deleteInPlaceMs: median(deleteInPlace),
    deleteRebuildMs: median(deleteRebuild),
  };
  if (values.json) {
    console.log(JSON.stringify(result));
    return;
  }
  const f = (ms: number): string => `${ms.toFixed(1)} ms`;
  console.log(`${TURNS} turns in ${SESSIONS} conversations, medians of ${RUNS} (each: the change, then the next prompt)`);
  console.log(`  regenerate  in place ${f(result.regenerateInPlaceMs)}   rebuild ${f(result.regenerateRebuildMs)}   ×${(result.regenerateRebuildMs / result.regenerateInPlaceMs).toFixed(1)}`);
  console.log(`  delete      in place ${f(result.deleteInPlaceMs)}   rebuild ${f(result.deleteRebuildMs)}   ×${(result.deleteRebuildMs / result.deleteInPlaceMs).toFixed(1)}`);
}

await main();

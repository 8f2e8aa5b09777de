/**
 * Context-engine benchmark (numbers, not a timed test). Run: `npx tsx scripts/bench/context.ts`.
 *
 * - Assembly over a 1,000-turn history with the token cache warm:
 *     `assemble*`: a full re-selection each time (no state: the compaction path, the worst case);
 *     `append*`:   the turn-by-turn path a chat takes between compactions (state kept, one new exchange per call).
 * - Tokenizer throughput of the real Qwen2.5 tokenizer (@huggingface/tokenizers, pure JS) on fresh text.
 * - The full layered pipeline (working memory, retrieval, rerank, packing, assembly) over 1,000 turns and 10,000
 *   doc chunks, per user message, warm (`layeredP50Ms`, `layeredP99Ms`; targets ≤ 5 ms and ≤ 20 ms), and the
 *   retrieval alone over the same index (`retrievalP50Ms`, `retrievalP99Ms`). Every probe there compacts, so it
 *   takes both retrieval passes: the worst case, measured on a small set of probes asked again and again.
 * - The same memory as the chat goes on (`chatP50Ms`, `chatP99Ms`): new messages written and answered in turn.
 * The last line is one JSON object (`assembleP50Ms`, `assembleP99Ms`, …). Target: assembleP50Ms ≤ 5.
 */
import { assemble, type AssembleResult, type ContextState } from '../../src/context/assemble.ts';
import { DEFAULT_CONTEXT_CONFIG } from '../../src/context/config.ts';
import { CachedTokenCounter } from '../../src/context/tokens.ts';
import type { ChatMessage } from '../../src/engine/protocol.ts';
import { LayeredMemory } from '../../src/memory/layered/index.ts';
import { sectionBudgets } from '../../src/memory/layered/budgets.ts';
import { LABELS } from '../../src/memory/layered/labels.ts';
import { InMemoryChunkStore, buildQuery, keyTerms, retrieve } from '../../src/memory/retrieval/index.ts';
import { loadNodeQwenTokenizer } from '../prepare-tokenizer.ts';
import { prng } from '../../src/shared/prng.ts';


const ZH = ['帮我写一个函数', '把列表里的奇数平方后加到新列表里', '上面那个函数', '如果输入是[1,2,3,4,5]', '输出应该是什么', '改成只处理正数', '负数跳过', '请解释一下原理', '这段代码的复杂度是多少', '谢谢'];
const EN = ['Write a function', 'that sorts the list', 'Is it correct?', 'What does the code above do?', 'explain the previous answer', 'handle negative numbers', 'in linear time', 'thanks a lot'];
const CODE = '```python\ndef square_odds(numbers):\n    return [x**2 for x in numbers if x % 2 == 1]\n```';

function conversation(turns: number, seed: number): ChatMessage[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const sentence = (): string => {
    const words = rand() < 0.5 ? ZH : EN;
    return Array.from({ length: 2 + Math.floor(rand() * 6) }, () => pick(words)).join(rand() < 0.5 ? '，' : ' ');
  };
  const history: ChatMessage[] = [];
  for (let i = 0; i < turns; i++) {
    if (i % 2 === 0) history.push({ role: 'user', content: `${sentence()}？(${i})` });
    else {
      const body = Array.from({ length: 2 + Math.floor(rand() * 5) }, sentence).join('。');
      history.push({ role: 'assistant', content: rand() < 0.2 ? `${body}\n${CODE}\n(${i})` : `${body}。(${i})` });
    }
  }
  return history;
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (n: number, digits = 3): number => Number(n.toFixed(digits));

const loadStart = performance.now();
const tokenizer = await loadNodeQwenTokenizer();
const loadMs = performance.now() - loadStart;
const counter = new CachedTokenCounter(tokenizer);
const config = DEFAULT_CONTEXT_CONFIG;

// 1. Tokenizer throughput on text it has not seen (distinct messages of chat size, and one 100k-char paste).
const corpus = conversation(4000, 7).map((m) => m.content);
let tokens = 0;
let chars = 0;
let started = performance.now();
for (const text of corpus) {
  tokens += tokenizer.encode(text).length;
  chars += text.length;
}
const encodeMs = performance.now() - started;
const paste = corpus.join('\n').slice(0, 100_000);
started = performance.now();
const pasteTokens = tokenizer.encode(paste).length;
const pasteMs = performance.now() - started;

// 2. Full re-selection over 1,000 turns, cache warm.
const history = conversation(1000, 42);
const input = '上面那个函数改成只处理正数，负数跳过。';
for (const m of history) counter.messageTokens(m); // warm every count (a chat that has run this long has them)
for (let i = 0; i < 50; i++) assemble(null, { history, input }, config, counter); // and the JIT
const fresh: number[] = [];
let last: AssembleResult | null = null;
for (let i = 0; i < 300; i++) {
  const t0 = performance.now();
  last = assemble(null, { history, input }, config, counter);
  fresh.push(performance.now() - t0);
}

// 3. Turn by turn on top of that history: state kept, one new exchange per request (counts warmed first).
const future = conversation(400, 99);
for (const m of future) counter.messageTokens(m);
const growing = [...history];
let state: ContextState | null = null;
const append: number[] = [];
let compactions = 0;
for (let i = 0; i + 1 < future.length; i += 2) {
  const t0 = performance.now();
  const result = assemble(state, { history: growing, input: future[i]!.content }, config, counter);
  append.push(performance.now() - t0);
  if (result.report.mode === 'compact') compactions += 1;
  state = result.nextState;
  growing.push(future[i]!, future[i + 1]!);
}

// 4. The full layered pipeline (seed 001): working memory, retrieval over 1,000 turns and 10,000 doc chunks,
// rerank, packing and assembly, per user message; measured as probes (nothing written), warm.
const memory = new LayeredMemory({ store: new InMemoryChunkStore(), counter, window: 1024 });
const docWords = ['nginx', 'apache', 'proxy_read_timeout', 'upstream', 'TLS 证书', '负载均衡', 'PostgreSQL', '备份', 'pg_upgrade', 'replica', '索引', 'vacuum', 'Redis', '缓存失效', 'Kafka', '消费者组', 'debounce', 'throttle', 'React', 'useEffect', 'TypeScript', '泛型', 'Docker', '镜像', 'Kubernetes', 'ingress', '日志', 'systemd', 'cron', '权限'];
const docRand = prng(2026);
// A docs site's vocabulary is large and Zipf-distributed: a few thousand terms, a handful very common. The real
// words above are mixed with generated ones so posting lists have realistic lengths.
const syllables = ['ka', 'ro', 'mi', 'tan', 'sel', 'vor', 'qu', 'lin', 'dex', 'por', 'na', 'ter', 'zu', 'pha', 'gen'];
const vocabulary = [...docWords];
for (let i = 0; vocabulary.length < 6_000; i++) {
  vocabulary.push(`${syllables[i % 15]}${syllables[Math.floor(i / 15) % 15]}${syllables[Math.floor(i / 225) % 15]}`);
}
const zipfWord = (): string => vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(docRand() * Math.log(vocabulary.length))) - 1)]!;
const docSentence = (): string => Array.from({ length: 6 + Math.floor(docRand() * 10) }, zipfWord).join(' ');
for (let i = 0; i < 10_000; i++) {
  await memory.addDoc({ id: `doc-${i}`, docId: `page-${Math.floor(i / 8)}`, source: `docs/page-${Math.floor(i / 8)}.md#section-${i % 8}`, part: i % 8, text: `${docSentence()}. ${docSentence()}. ${docSentence()}.` });
}
let clock = Date.UTC(2026, 10, 1, 9, 0);
for (let i = 0; i + 1 < history.length; i += 2) {
  clock += 60_000;
  await memory.handleUserMessage({ userId: 'bench', sessionId: 'bench', text: history[i]!.content, time: clock });
  await memory.recordReply({ userId: 'bench', sessionId: 'bench', text: history[i + 1]!.content, time: clock + 20_000 });
}
const probes = conversation(120, 5).filter((m) => m.role === 'user').map((m) => m.content);
probes.push('我们服务器的 nginx upstream 超时怎么改？', 'How do I back up PostgreSQL before pg_upgrade?', '上面那个函数改成只处理正数');
for (let i = 0; i < 20; i++) await memory.handleUserMessage({ userId: 'bench', sessionId: 'bench', text: probes[i % probes.length]!, time: clock }, { commit: false });
const layered: number[] = [];
let layeredPrompt = 0;
for (let i = 0; i < 300; i++) {
  const t0 = performance.now();
  const result = await memory.handleUserMessage({ userId: 'bench', sessionId: 'bench', text: probes[i % probes.length]!, time: clock + 60_000 }, { commit: false });
  layered.push(performance.now() - t0);
  layeredPrompt = Math.max(layeredPrompt, result.report.promptTokens);
}

// 5. Retrieval alone over the same index (query, candidates from BM25 over turns and sentences and vectors,
// rerank, exact packing into the 1,024 window's retrieval budget): the part of step 4 that is the retrieval
// index's, without working memory and prompt assembly.
const retrievalBudget = sectionBudgets(1024).retrieval;
const retrievalTimes: number[] = [];
for (let i = 0; i < 320; i++) {
  const text = probes[i % probes.length]!;
  const t0 = performance.now();
  const query = buildQuery({ message: text, entities: keyTerms(text), dates: [] });
  retrieve(memory.index, {
    query,
    scope: { userId: 'bench', sessionId: 'bench', otherSessions: true, docs: true },
    exclude: new Set(),
    budget: retrievalBudget,
    now: clock + 60_000,
    counter,
    labels: LABELS.en,
    offsetMinutes: 0,
  });
  if (i >= 20) retrievalTimes.push(performance.now() - t0); // the first 20 warm the JIT
}

// 6. The same memory as a chat goes on: each message is new (its query, its candidates' lines), written, answered
// and recorded, so it pays the first-time costs a probe repeated from a small set does not. Timed: the user
// message's pipeline (what stands between Enter and the prompt), not the reply's recording.
const chat: number[] = [];
let secondPasses = 0;
const onward = conversation(240, 77);
for (let i = 0; i + 1 < onward.length; i += 2) {
  clock += 90_000;
  const t0 = performance.now();
  const result = await memory.handleUserMessage({ userId: 'bench', sessionId: 'bench', text: onward[i]!.content, time: clock });
  chat.push(performance.now() - t0);
  if (result.report.memory.retrieval.passes === 2) secondPasses += 1;
  await memory.recordReply({ userId: 'bench', sessionId: 'bench', text: onward[i + 1]!.content, time: clock + 20_000 });
}

const summary = {
  historyTurns: history.length,
  assembleP50Ms: round(percentile(fresh, 50)),
  assembleP99Ms: round(percentile(fresh, 99)),
  appendP50Ms: round(percentile(append, 50)),
  appendP99Ms: round(percentile(append, 99)),
  appendRequests: append.length,
  appendCompactions: compactions,
  promptTokens: last?.report.promptTokens ?? 0,
  tokenizerLoadMs: round(loadMs, 1),
  tokensPerSecond: Math.round(tokens / (encodeMs / 1000)),
  charsPerSecond: Math.round(chars / (encodeMs / 1000)),
  paste100kMs: round(pasteMs, 1),
  paste100kTokens: pasteTokens,
  layeredP50Ms: round(percentile(layered, 50)),
  layeredP99Ms: round(percentile(layered, 99)),
  layeredDocChunks: 10_000,
  retrievalP50Ms: round(percentile(retrievalTimes, 50)),
  retrievalP99Ms: round(percentile(retrievalTimes, 99)),
  chatP50Ms: round(percentile(chat, 50)),
  chatP99Ms: round(percentile(chat, 99)),
  chatMessages: chat.length,
  chatSecondPasses: secondPasses,
};
console.log(`tokenizer: loaded in ${summary.tokenizerLoadMs} ms; ${tokens} tokens / ${chars} chars of fresh chat text in ${encodeMs.toFixed(0)} ms`);
console.log(`tokenizer: ${summary.tokensPerSecond} tokens/s, ${summary.charsPerSecond} chars/s; a 100,000-char paste: ${pasteTokens} tokens in ${summary.paste100kMs} ms`);
console.log(`assemble, 1,000-turn history, full re-selection (cache warm): p50 ${summary.assembleP50Ms} ms, p99 ${summary.assembleP99Ms} ms over ${fresh.length} runs (prompt ${summary.promptTokens} tokens)`);
console.log(`assemble, turn by turn on top of it: p50 ${summary.appendP50Ms} ms, p99 ${summary.appendP99Ms} ms over ${append.length} requests, ${compactions} compactions`);
console.log(`layered pipeline, 1,000 turns + 10,000 doc chunks (probe, warm): p50 ${summary.layeredP50Ms} ms, p99 ${summary.layeredP99Ms} ms over ${layered.length} messages (largest prompt ${layeredPrompt} tokens)`);
console.log(`retrieval alone over the same index (1,024 window's ${retrievalBudget}-token budget): p50 ${summary.retrievalP50Ms} ms, p99 ${summary.retrievalP99Ms} ms over ${retrievalTimes.length} messages`);
console.log(`the chat going on over that memory (each message new, written and answered): p50 ${summary.chatP50Ms} ms, p99 ${summary.chatP99Ms} ms over ${chat.length} messages (${secondPasses} needed the second retrieval pass)`);
console.log(JSON.stringify(summary));

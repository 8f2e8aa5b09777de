/**
 * Runs in Chromium: drives the real engine (wllama in its worker) through the scripted conversation under each
 * context strategy and records the engine's own counters per turn. The Node side (scripts/bench/prefill.ts) reads
 * `window.__benchResult`.
 */
import { ContextAssembler, DEFAULT_CONTEXT_CONFIG, GENERATION_PROMPT_TOKENS, loadQwenTokenCounter, renderChatML, sanitizeText, type TokenCounter } from '../src/context/index.ts';
import { EngineClient } from '../src/engine/client.ts';
import type { ChatMessage, ChatResult } from '../src/engine/protocol.ts';
import { LayeredMemory, SessionWorkingMemory, detectLang } from '../src/memory/layered/index.ts';
import { InMemoryChunkStore, type ChunkStore } from '../src/memory/retrieval/index.ts';
import { PREFILL_CONVERSATION, RECALL_QUESTIONS } from './prefill-conversation.ts';
import type { Strategy, StrategyResult, TurnSample } from './prefill-types.ts';


const params = new URLSearchParams(location.search);
const modelUrl = params.get('model') ?? '/models/test/qwen2-tiny.gguf';
const budget = Number(params.get('budget') ?? 1024);
const turnsWanted = Number(params.get('turns') ?? PREFILL_CONVERSATION.length);
const maxTokens = Number(params.get('maxTokens') ?? 64);
const temperature = Number(params.get('temperature') ?? 0.7);
const strategies = (params.get('strategies') ?? 'full,reselect,cache-aware,reselect+reuse,cache-aware+reuse,layered').split(',') as Strategy[];
const chunkReuse = Number(params.get('kvChunkReuse') ?? 32);
/** As the app does once the engine is ready (prompt-warmer.ts): the first prompt's system message is prefilled. */
const warm = params.get('warm') !== '0';
/**
 * The layered row reloads the page before this turn (0: never): a new engine with a cold cache and a new memory over
 * the same store, then (with the warm-up) the start of the next prompt prefilled. `keep=0` reads the store as a
 * build without kept prompts did, so the next prompt is selected afresh.
 */
const reloadAt = Number(params.get('reloadAt') ?? 0);
const keepPrompts = params.get('keep') !== '0';
/** Prints the memory lines each layered turn sends, to read what the model is given. */
const showMemory = params.get('showMemory') === '1';
const log = document.querySelector('#log')!;

function say(line: string): void {
  log.textContent += `\n${line}`;
  console.log(line);
}

/** The new tokens of a turn: the user message with its template, plus the generation prompt. */
function newTokensOf(counter: TokenCounter, input: string): number {
  return counter.messageTokens({ role: 'user', content: input }) + GENERATION_PROMPT_TOKENS;
}

/** Streams one reply and returns its text with the engine's final record. */
async function answer(client: EngineClient, messages: ChatMessage[]): Promise<{ reply: string; final: ChatResult }> {
  let reply = '';
  for await (const event of client.chat(messages, { maxTokens, temperature, topP: 0.9 })) {
    if (event.type === 'delta') reply += event.text;
    else return { reply, final: event.result };
  }
  throw new Error('the stream ended without a final record');
}

/**
 * What the app prefills while the user types before the first message: not counted as a turn's prefill, nor in
 * its time to first token (the user is still typing). Returns the tokens it prefilled.
 */
async function warmUp(client: EngineClient, messages: ChatMessage[]): Promise<number> {
  if (!warm) return 0;
  const result = await client.prefill(messages);
  say(`warm-up: ${result.promptTokens - result.cachedTokens} tokens in ${Math.round(result.ms)} ms`);
  return result.promptTokens - result.cachedTokens;
}

/**
 * New tokens of a layered turn: the user's message with its template and the generation prompt, plus each line of
 * the memory block sent that the previous prompt did not already hold (a line sent again after a compaction took it
 * out counts as prefill, not new). The previous reply is not counted: the engine generated it into its cache.
 */
function layeredNewTokens(counter: TokenCounter, input: string, extras: string, previousPrompt: string): number {
  const fresh = extras.split('\n').filter((line) => line.trim() !== '' && !previousPrompt.includes(line));
  return newTokensOf(counter, input) + fresh.reduce((n, line) => n + counter.count(`${line}\n`), 0);
}

/** The store as a build that kept no prompts read it: the same records, no context states. */
const withoutKeptPrompts = (store: ChunkStore): ChunkStore =>
  new Proxy(store, {
    get(target, key) {
      if (key === 'getContext') return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

async function runLayered(counter: TokenCounter): Promise<StrategyResult> {
  const load = async (): Promise<EngineClient> => {
    const fresh = new EngineClient();
    await fresh.load({ backend: 'wasm', source: { ggufUrl: modelUrl }, contextWindow: budget, kvChunkReuse: chunkReuse });
    return fresh;
  };
  let client = await load();
  const store = new InMemoryChunkStore();
  // Working memory is durable in the app (IndexedDB): one instance lives across the reload.
  const workingMemory = new SessionWorkingMemory();
  let memory = new LayeredMemory({ store, counter, window: budget, workingMemory });
  const conversationTurns = Math.max(0, turnsWanted - RECALL_QUESTIONS.length);
  const script = [...PREFILL_CONVERSATION.slice(0, conversationTurns), ...RECALL_QUESTIONS];
  // The page's language is taken to be the user's (the first message's).
  const warmTokens = await warmUp(client, await memory.nextPrefix('bench', null, detectLang(script[0] ?? '')));
  const result: StrategyResult = {
    strategy: 'layered',
    reserveTokens: memory.budgets.reserve,
    warmTokens,
    script: `conversation 1–${Math.min(conversationTurns, PREFILL_CONVERSATION.length)}, then ${RECALL_QUESTIONS.length} recall questions`,
    turns: [],
  };
  let previousPrompt = '';
  let time = Date.UTC(2026, 10, 30, 9, 0);
  for (let turn = 0; turn < script.length; turn++) {
    const input = script[turn]!;
    time += 90_000;
    const reload = turn + 1 === reloadAt;
    if (reload) {
      client.terminate();
      client = await load();
      memory = new LayeredMemory({ store: keepPrompts ? store : withoutKeptPrompts(store), counter, window: budget, workingMemory });
      await memory.loadUser('bench');
      result.reloadWarmTokens = await warmUp(client, await memory.nextPrefix('bench', 'bench', detectLang(script[0] ?? '')));
      previousPrompt = '';
    }
    const planned = await memory.handleUserMessage({ userId: 'bench', sessionId: 'bench', text: input, time });
    const prompt = renderChatML(planned.messages);
    const { reply, final } = await answer(client, planned.messages);
    const sample: TurnSample = {
      turn: turn + 1,
      promptTokens: final.promptTokens,
      cachedTokens: final.cachedTokens,
      prefill: final.promptTokens - final.cachedTokens,
      newTokens: layeredNewTokens(counter, input, planned.extras, previousPrompt),
      ttftMs: Math.round(final.timings.ttftMs),
      compaction: planned.report.mode === 'compact',
      ...(reload ? { afterReload: true } : {}),
    };
    result.turns.push(sample);
    say(`layered turn ${sample.turn}: ${reload ? '(after a reload) ' : ''}prompt ${sample.promptTokens}, cached ${sample.cachedTokens}, prefill ${sample.prefill}, new ${sample.newTokens}, ttft ${sample.ttftMs} ms${sample.compaction ? ' (compaction)' : ''}, memory sent ${planned.report.sections.extras.tokens} of ${counter.count(planned.memory)} tokens, ${planned.report.memory.block.deferred.length} records deferred`);
    if (showMemory && planned.extras.trim() !== '') say(`layered turn ${sample.turn} memory sent:\n${planned.extras.trim()}`);
    await memory.recordReply({ userId: 'bench', sessionId: 'bench', text: reply, time: time + 30_000 });
    previousPrompt = prompt + reply;
  }
  client.terminate();
  return result;
}

async function runStrategy(strategy: Strategy, counter: TokenCounter): Promise<StrategyResult> {
  if (strategy === 'layered') return runLayered(counter);
  const client = new EngineClient();
  const kvChunkReuse = strategy.endsWith('+reuse') ? chunkReuse : 0;
  await client.load({ backend: 'wasm', source: { ggufUrl: modelUrl }, contextWindow: budget, kvChunkReuse });
  const config = { ...DEFAULT_CONTEXT_CONFIG, budgetTokens: budget, cacheAware: !strategy.startsWith('reselect') };
  const assembler = new ContextAssembler(counter, config);
  const history: ChatMessage[] = [];
  const wraps = turnsWanted > PREFILL_CONVERSATION.length ? ` (from 1 again after ${PREFILL_CONVERSATION.length})` : '';
  const warmTokens = await warmUp(client, [{ role: 'system', content: sanitizeText(config.systemPrompt) }]);
  const result: StrategyResult = { strategy, reserveTokens: config.reserveTokens, warmTokens, script: `conversation 1–${turnsWanted}${wraps}`, turns: [] };
  for (let turn = 0; turn < turnsWanted; turn++) {
    const input = PREFILL_CONVERSATION[turn % PREFILL_CONVERSATION.length]!;
    let messages: ChatMessage[];
    let compaction = false;
    if (strategy === 'full') {
      messages = [{ role: 'system', content: config.systemPrompt }, ...history, { role: 'user', content: input }];
      const tokens = messages.reduce((n, m) => n + counter.messageTokens(m), GENERATION_PROMPT_TOKENS);
      if (tokens + config.reserveTokens > budget) {
        result.stoppedAt = { turn: turn + 1, reason: `prompt ${tokens} + reserve ${config.reserveTokens} > ${budget}` };
        break;
      }
    } else {
      const assembled = assembler.next(history, input);
      messages = assembled.messages;
      compaction = assembled.report.mode === 'compact';
    }
    const { reply, final } = await answer(client, messages);
    const sample: TurnSample = {
      turn: turn + 1,
      promptTokens: final.promptTokens,
      cachedTokens: final.cachedTokens,
      prefill: final.promptTokens - final.cachedTokens,
      newTokens: newTokensOf(counter, input),
      ttftMs: Math.round(final.timings.ttftMs),
      compaction,
    };
    result.turns.push(sample);
    say(`${strategy} turn ${sample.turn}: prompt ${sample.promptTokens}, cached ${sample.cachedTokens}, prefill ${sample.prefill}, new ${sample.newTokens}, ttft ${sample.ttftMs} ms${compaction ? ' (compaction)' : ''}`);
    history.push({ role: 'user', content: input }, { role: 'assistant', content: reply });
  }
  client.terminate();
  return result;
}

async function main(): Promise<void> {
  const counter = await loadQwenTokenCounter((file) => fetch(`/tokenizer/qwen2.5/${file}`).then((r) => r.json()));
  const results: StrategyResult[] = [];
  for (const strategy of strategies) results.push(await runStrategy(strategy, counter));
  (window as unknown as { __benchResult: unknown }).__benchResult = { modelUrl, budget, maxTokens, results };
}

main().catch((error: unknown) => {
  (window as unknown as { __benchError: string }).__benchError = String(error instanceof Error ? error.stack : error);
});

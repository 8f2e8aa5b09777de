/**
 * bench:embed — what the CPU engine's embeddings cost on this machine: N synthetic chat messages embedded as
 * documents through the app's own engine (its client, its worker, wllama on the CPU, in headless Chromium, loaded
 * exactly as the eval's `--embedder engine` loads it: scripts/eval/engine-embedder.ts), in batches as the app sends
 * them, then single query embeddings (what a prompt waits for).
 *
 *   npm run test-model -- --embedding-shaped       # once: the e5-small-shaped model (the default --model)
 *   npm run bench:embed [-- --json] [--model <file.gguf>] [--messages 1000] [--batch 8] [--rounds 2] [--queries 20]
 *
 * The messages are generated here (seeded; English, Chinese and both, 20–80 words or 30–120 characters). Their
 * tokens are counted with the Qwen tokenizer in Node, prefix included, because the page does not pass on wllama's
 * usage; for a model with Qwen's vocabulary (the generated ones) that is the count the engine embeds. Each round
 * embeds different messages, so no cache can serve one round from another. Per-1,000 figures are scaled from
 * --messages. With --json the last line is one JSON object. Exit code 2: the model file is missing.
 */
import { existsSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openEngineEmbedder, type EngineEmbedder } from '../eval/engine-embedder.ts';
import { loadNodeQwenTokenizer } from '../prepare-tokenizer.ts';
import { readGgufHeader } from '../test-model/gguf-reader.ts';
import { EMBEDDING_SHAPED_MODEL_PATH, TINY_MODEL_PATH } from '../test-model/make-test-model.ts';
import { Prng } from '../test-model/prng.ts';

// ---------------------------------------------------------------------------------------------------------------
// Arguments

function usage(): never {
  console.log('usage: bench:embed [--json] [--model <file.gguf>] [--messages 1000] [--batch 8] [--rounds 2] [--queries 20]');
  process.exit(0);
}

function parseArgs(argv: string[]): { json: boolean; model: string; messages: number; batch: number; rounds: number; queries: number } {
  const out = { json: false, model: EMBEDDING_SHAPED_MODEL_PATH, messages: 1000, batch: 8, rounds: 2, queries: 20 };
  const count = (name: string, value: string | undefined, min: number): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) {
      console.error(`--${name} needs a whole number of at least ${min}, got ${value}`);
      process.exit(2);
    }
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--json') out.json = true;
    else if (flag === '--model') out.model = resolve(value() ?? '');
    else if (flag === '--messages') out.messages = count('messages', value(), 1);
    else if (flag === '--batch') out.batch = count('batch', value(), 1);
    else if (flag === '--rounds') out.rounds = count('rounds', value(), 1);
    else if (flag === '--queries') out.queries = count('queries', value(), 0);
    else if (flag === '--help' || flag === '-h') usage();
    else {
      console.error(`unknown argument: ${arg}`);
      process.exit(2);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Synthetic chat messages (word lists written for this bench)

const EN = {
  subjects: ['I', 'we', 'you', 'my sister', 'our team', 'the landlord', 'my manager', 'the kids', 'Anna', 'Tom', 'the doctor', 'everyone at work', 'my neighbour', 'the new intern'],
  verbs: ['need to check', 'forgot about', 'finally booked', 'were talking about', 'should move', 'keep thinking about', 'want to try', 'already paid for', 'have to cancel', 'just found', 'might skip', 'promised to fix', 'asked me about', 'are planning'],
  adjectives: ['old', 'new', 'cheap', 'noisy', 'quiet', 'broken', 'shared', 'weekly', 'last', 'second', 'small', 'huge', 'blue', 'early'],
  nouns: ['flight', 'dentist appointment', 'birthday dinner', 'bike', 'rent', 'laptop', 'garden', 'train ticket', 'meeting notes', 'recipe', 'gym plan', 'passport', 'kitchen sink', 'spreadsheet', 'concert', 'insurance form', 'hiking trip', 'heater'],
  tails: ['on Friday', 'before the weekend', 'at 7:30', 'next month', 'after lunch', 'in Berlin', 'near the station', 'by Tuesday', 'this evening', 'around 3 pm', 'for the third time', 'with the blue folder'],
  openers: ['Honestly,', 'By the way,', 'Quick question:', 'Okay so', 'Also,', 'Reminder:', 'Hmm,', 'Good news:', 'Ugh,', 'Just so you know,'],
  joins: ['and', 'but', 'so', 'because', 'although', 'then'],
  asks: ['Can you remind me tomorrow?', 'What do you think?', 'Is that a bad idea?', 'Does that make sense?', 'Any tips?', 'Should I worry?'],
};

const ZH = {
  subjects: ['我', '我们', '你', '我妈', '老板', '同事', '房东', '孩子们', '小王', '医生', '邻居', '室友'],
  adverbs: ['明天', '下周', '刚才', '已经', '一直', '还是', '终于', '突然', '可能', '今晚'],
  verbs: ['预订了', '忘记了', '想去', '需要修', '打算买', '取消了', '找到了', '在讨论', '要交', '提醒我'],
  objects: ['机票', '牙医预约', '生日晚饭', '自行车', '房租', '笔记本电脑', '花园', '火车票', '会议记录', '菜谱', '健身计划', '护照', '厨房水槽', '演唱会门票', '保险表格', '暖气'],
  places: ['在公司', '在火车站附近', '在上海', '在家里', '在超市', '在学校门口'],
  particles: ['了', '吧', '呢', '啊', ''],
  ends: ['，', '。', '！', '？'],
  asks: ['你觉得怎么样？', '明天提醒我一下好吗？', '这样可以吗？', '有什么建议吗？'],
};

const pick = <T>(rng: Prng, xs: readonly T[]): T => xs[rng.nextU32() % xs.length]!;
const between = (rng: Prng, lo: number, hi: number): number => lo + (rng.nextU32() % (hi - lo + 1));
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** An English message of about `words` words. */
function englishMessage(rng: Prng, words: number): string {
  const parts: string[] = [];
  let n = 0;
  if (rng.nextU32() % 3 === 0) {
    parts.push(pick(rng, EN.openers));
    n += 2;
  }
  while (n < words) {
    let clause = `${pick(rng, EN.subjects)} ${pick(rng, EN.verbs)} the ${pick(rng, EN.adjectives)} ${pick(rng, EN.nouns)} ${pick(rng, EN.tails)}`;
    if (rng.nextU32() % 2 === 0) clause += ` ${pick(rng, EN.joins)} ${pick(rng, EN.subjects)} ${pick(rng, EN.verbs)} the ${pick(rng, EN.nouns)}`;
    const sentence = `${parts.length === 0 || parts[parts.length - 1]!.endsWith('.') ? capital(clause) : clause}.`;
    parts.push(sentence);
    n += sentence.split(' ').length;
  }
  if (rng.nextU32() % 3 === 0) parts.push(pick(rng, EN.asks));
  return parts.join(' ');
}

/** A Chinese message of about `chars` characters. */
function chineseMessage(rng: Prng, chars: number): string {
  let text = '';
  while (Array.from(text).length < chars) {
    const place = rng.nextU32() % 3 === 0 ? pick(rng, ZH.places) : '';
    text += `${pick(rng, ZH.subjects)}${pick(rng, ZH.adverbs)}${place}${pick(rng, ZH.verbs)}${pick(rng, ZH.objects)}${pick(rng, ZH.particles)}${pick(rng, ZH.ends)}`;
  }
  if (rng.nextU32() % 3 === 0) text += pick(rng, ZH.asks);
  return text;
}

/** `count` messages from `seed`: about 55% English, 35% Chinese, 10% both (a Chinese line, then an English one). */
export function syntheticMessages(count: number, seed: number): string[] {
  const rng = new Prng(seed);
  return Array.from({ length: count }, () => {
    const kind = rng.nextU32() % 20;
    if (kind < 11) return englishMessage(rng, between(rng, 20, 80));
    if (kind < 18) return chineseMessage(rng, between(rng, 30, 120));
    return `${chineseMessage(rng, between(rng, 15, 50))} ${englishMessage(rng, between(rng, 10, 35))}`;
  });
}

/** Short prompts, as a user types them: what a query embedding embeds. */
function syntheticQueries(count: number, seed: number): string[] {
  const rng = new Prng(seed);
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? `When is the ${pick(rng, EN.nouns)} ${pick(rng, EN.tails)}? ${pick(rng, EN.asks)}`
      : `${pick(rng, ZH.subjects)}${pick(rng, ZH.adverbs)}${pick(rng, ZH.verbs)}什么${pick(rng, ZH.objects)}？`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const r1 = (n: number): number => Math.round(n * 10) / 10;
const r2 = (n: number): number => Math.round(n * 100) / 100;

interface Round {
  messages: number;
  tokens: number;
  wallS: number;
  sPer1000: number;
  tokensPerS: number;
  medianBatchMs: number;
  batches: number;
}

async function runRound(embedder: EngineEmbedder, texts: string[], tokenCounts: number[], batch: number, log: (line: string) => void): Promise<Round> {
  const batchMs: number[] = [];
  const started = performance.now();
  let nextReport = 0.1;
  for (let i = 0; i < texts.length; i += batch) {
    const t0 = performance.now();
    const vectors = await embedder.source.embed(texts.slice(i, i + batch), { purpose: 'document' });
    batchMs.push(performance.now() - t0);
    if (vectors.length !== Math.min(batch, texts.length - i)) throw new Error(`asked for ${Math.min(batch, texts.length - i)} vectors, got ${vectors.length}`);
    const done = Math.min(texts.length, i + batch) / texts.length;
    if (done >= nextReport) {
      log(`  ${Math.round(done * 100)}% (${Math.min(texts.length, i + batch)} messages, ${r1((performance.now() - started) / 1000)} s)`);
      while (nextReport <= done) nextReport += 0.1;
    }
  }
  const wallS = (performance.now() - started) / 1000;
  const tokens = tokenCounts.reduce((a, b) => a + b, 0);
  return {
    messages: texts.length,
    tokens,
    wallS: r2(wallS),
    sPer1000: r1((wallS / texts.length) * 1000),
    tokensPerS: r1(tokens / wallS),
    medianBatchMs: r1(median(batchMs)),
    batches: batchMs.length,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const where = (p: string): string => {
    const rel = relative(process.cwd(), p);
    return rel && !rel.startsWith('..') ? rel : p;
  };
  if (!existsSync(args.model)) {
    const hint = args.model === EMBEDDING_SHAPED_MODEL_PATH ? 'make it first: npm run test-model -- --embedding-shaped' : 'give an existing GGUF with --model';
    console.error(`${where(args.model)} is missing: ${hint}`);
    process.exit(2);
  }
  if (!existsSync(TINY_MODEL_PATH)) {
    console.error(`${where(TINY_MODEL_PATH)} (the chat model the engine loads first) is missing: run npm run test-model first.`);
    process.exit(2);
  }
  // Progress on stderr, so stdout is the report.
  const log = (line: string): void => void process.stderr.write(`${line}\n`);

  const bytes = statSync(args.model).size;
  let arch = '?';
  let name = basename(args.model);
  try {
    const header = readGgufHeader(args.model);
    arch = String(header.metadata.get('general.architecture') ?? '?');
    name = String(header.metadata.get('general.name') ?? name);
  } catch {
    // Not readable by the test reader: the engine will say what is wrong with it.
  }

  const tokenizer = await loadNodeQwenTokenizer();
  const rounds = Array.from({ length: args.rounds }, (_, r) => syntheticMessages(args.messages, 0xe5b0 + r));
  const queries = syntheticQueries(args.queries, 0x9e77);

  log(`loading ${where(args.model)} in the engine (headless Chromium, wllama on the CPU)…`);
  // The machine's 1-minute load average, before and after: a busy machine (another test run) slows every figure.
  const loadBefore = loadavg()[0]!;
  const loadStarted = performance.now();
  const embedder = await openEngineEmbedder(args.model, { log: (line) => log(`  [page] ${line}`) });
  const loadS = (performance.now() - loadStarted) / 1000;
  try {
    const prefixTokens = (purpose: 'document' | 'query', text: string): number =>
      tokenizer.encode(`${(purpose === 'query' ? embedder.prefixes.queryPrefix : embedder.prefixes.documentPrefix) ?? ''}${text}`).length;
    const results: Round[] = [];
    for (const [r, texts] of rounds.entries()) {
      log(`round ${r + 1} of ${rounds.length}: ${texts.length} messages in batches of ${args.batch}`);
      const counts = texts.map((t) => prefixTokens('document', t));
      results.push(await runRound(embedder, texts, counts, args.batch, log));
    }
    const queryMs: number[] = [];
    for (const q of queries) {
      const t0 = performance.now();
      await embedder.source.embed([q], { purpose: 'query' });
      queryMs.push(performance.now() - t0);
    }
    const queryTokens = queries.map((q) => prefixTokens('query', q));

    const allTokens = results.reduce((a, r) => a + r.tokens, 0);
    const allMessages = results.reduce((a, r) => a + r.messages, 0);
    const meanTokens = allTokens / allMessages;
    const perThousand = median(results.map((r) => r.sPer1000));
    const scaled = args.messages !== 1000;
    const summary = {
      model: where(args.model),
      modelName: name,
      arch,
      modelMB: r1(bytes / 1e6),
      dimensions: embedder.info.dimensions,
      maxTokens: embedder.info.maxTokens,
      documentPrefix: embedder.prefixes.documentPrefix ?? '',
      queryPrefix: embedder.prefixes.queryPrefix ?? '',
      cpus: cpus().length,
      loadAverage: { before: r2(loadBefore), after: r2(loadavg()[0]!) },
      loadS: r1(loadS),
      messagesPerRound: args.messages,
      batch: args.batch,
      tokenCount: 'Qwen tokenizer in Node, prefix included',
      meanTokensPerMessage: r1(meanTokens),
      rounds: results,
      sPer1000Messages: r1(perThousand),
      minPer1000Messages: r2(perThousand / 60),
      scaledFrom: scaled ? args.messages : null,
      tokensPerS: r1(median(results.map((r) => r.tokensPerS))),
      medianBatchMs: r1(median(results.map((r) => r.medianBatchMs))),
      queries: queries.length,
      queryMeanTokens: r1(queryTokens.reduce((a, b) => a + b, 0) / Math.max(1, queryTokens.length)),
      queryMedianMs: r1(median(queryMs)),
      queryMinMs: r1(Math.min(...queryMs)),
      queryMaxMs: r1(Math.max(...queryMs)),
    };

    console.log(`model        ${summary.model} (${summary.modelMB} MB, ${arch}: ${name})`);
    console.log(`engine       dimensions ${summary.dimensions}, max ${summary.maxTokens} tokens, prefixes ${JSON.stringify(summary.documentPrefix)} / ${JSON.stringify(summary.queryPrefix)}, loaded in ${summary.loadS} s, ${summary.cpus} CPUs (load average ${summary.loadAverage.before} before, ${summary.loadAverage.after} after)`);
    console.log(`messages     ${args.messages} a round in batches of ${args.batch}; ${summary.meanTokensPerMessage} tokens a message on average (${summary.tokenCount})`);
    console.log('round  messages  tokens  wall (s)  s/1,000 msgs  tokens/s  median batch (ms)');
    results.forEach((r, i) =>
      console.log(
        `${String(i + 1).padStart(5)}  ${String(r.messages).padStart(8)}  ${String(r.tokens).padStart(6)}  ${r.wallS.toFixed(1).padStart(8)}  ${r.sPer1000.toFixed(1).padStart(12)}  ${r.tokensPerS.toFixed(1).padStart(8)}  ${r.medianBatchMs.toFixed(1).padStart(17)}`,
      ),
    );
    console.log(
      `per 1,000    ${summary.sPer1000Messages} s (${summary.minPer1000Messages} min), median of ${results.length} round${results.length === 1 ? '' : 's'}` +
        (scaled ? `, scaled from ${args.messages} messages` : '') +
        `; ${summary.tokensPerS} tokens/s`,
    );
    if (queries.length > 0) {
      console.log(`query        median ${summary.queryMedianMs} ms of ${queries.length} single-text query embeddings (${summary.queryMeanTokens} tokens on average; min ${summary.queryMinMs}, max ${summary.queryMaxMs})`);
    }
    if (args.json) console.log(JSON.stringify(summary));
  } finally {
    await embedder.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();

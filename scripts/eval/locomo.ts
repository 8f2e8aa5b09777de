/**
 * Evidence and answers on LoCoMo-format data, through the app's own pipeline.
 *
 *   npm run eval -- --locomo <file> [--budget 1024] [--strategy full|recent|seed000] [--baseline tfidf] [--json]
 *                   [--retrieval-budget N] [--roles-only] [--conversations N] [--show-misses N] [--miss-category K]
 *                   [--options '{"pack":{"wholeTop":0}}'] [--hashes <out>]
 *                   [--embedder hashed|engine] [--embedding-model <file.gguf>] [--embed-batch N]
 *   npm run eval -- --memorybank cn|en [--memorybank-dir ../shared/eval] [the options above]
 *
 * `--budget` is the model's whole window, the answer's reserve included; `--retrieval-budget N` gives the retrieval
 * section N tokens and the input section the rest of the two. `--roles-only` replays turns as the app stores them,
 * as user and assistant, without speaker names. `--baseline tfidf` runs the fixed reference selector
 * (tfidf-baseline.ts) instead of the pipeline. Measures (measures.ts), overall and per category (1 multi-hop,
 * 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial): `lenient` (evidence turns held whole or by one
 * informative sentence: LoCoMo's `recall_acc`), `whole` (held whole), `answerShare` and `answer` (short gold
 * answers in the prompt, of those the conversation holds, and of all), `blockLines` (records and chunks in the
 * retrieved block). Prompt tokens are exact Qwen2.5 counts. Data is read from the path given, never from the
 * repository. With `--json` the last line is one JSON object. `--hashes <out>` also writes one line per question
 * with a hash of its prompt and of its retrieval candidates (ids, scores, fates): two runs compared with `cmp` show
 * whether a change to the pipeline changed any prompt.
 *
 * `--embedder engine --embedding-model <file.gguf>` (strategy `full`): the memory's vector search uses that embedding
 * model's vectors, made by the app's own engine (wllama, CPU) in headless Chromium (engine-embedder.ts), with the
 * app's prefixes for the file's name (e5: `query: ` / `passage: `). Every stored turn is embedded before its
 * conversation is replayed, `--embed-batch` texts per request (default 8); each query just before its search. The
 * report then names the model, its dimensions, the texts embedded and the time it took. The default, `hashed`, is
 * the built-in hashed n-gram vectors: its output is what it was before the flag existed. A missing or unreadable
 * model file is a usage error: a message and exit code 2.
 *
 * `--memorybank cn|en` runs the same on MemoryBank's simulated user–assistant chats (memorybank-data.ts) with our
 * hand-labelled evidence (`scripts/eval/data/memorybank/`), always with roles only, as the app stores them, each
 * question the first message of a new session a day after the last, as a user who comes back to ask.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { CachedTokenCounter } from '../../src/context/tokens.ts';
import { formatMemoryReport } from '../../src/memory/layered/report.ts';
import { loadNodeQwenTokenizer } from '../prepare-tokenizer.ts';
import { eachArg } from './args.ts';
import { readLocomo, type LocomoConversation } from './locomo-data.ts';
import { readMemoryBank } from './memorybank-data.ts';
import { conversationHaystack, measureQuestion, totals, type QuestionMeasures, type Totals } from './measures.ts';
import { containsTurn, normalise } from './recall.ts';
import { runBaseline, runFull, type PipelineOverrides, type PromptResult, type ReplayOptions } from './strategies.ts';
import { runTfidf } from './tfidf-baseline.ts';
import { DEFAULT_EMBED_BATCH, embedderChoice, UsageError, type EmbedderChoice } from './embedder-args.ts';
import type { EngineEmbedder } from './engine-embedder.ts';
import { EngineVectors } from '../../src/memory/embedders/engine-vectors.ts';
import { sectionBudgets } from '../../src/memory/layered/budgets.ts';

const hashOf = (value: unknown): string => createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 16);

export const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

type Strategy = 'full' | 'recent' | 'seed000' | 'tfidf';

interface Args {
  file: string;
  /** `--memorybank cn|en`: MemoryBank's chats from `memorybankDir` instead of a LoCoMo file. */
  memorybank: string | null;
  memorybankDir: string;
  budget: number;
  strategy: Strategy;
  retrievalBudget: number | null;
  rolesOnly: boolean;
  json: boolean;
  conversations: number;
  showMisses: number;
  /** Only misses of this LoCoMo category are shown (`--miss-category K`); null shows any. */
  missCategory: number | null;
  options: PipelineOverrides;
  hashes: string | null;
  embedder: EmbedderChoice;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { file: '', memorybank: null, memorybankDir: '../shared/eval', budget: 1024, strategy: 'full', retrievalBudget: null, rolesOnly: false, json: false, conversations: Infinity, showMisses: 0, missCategory: null, options: {}, hashes: null, embedder: { kind: 'hashed' } };
  const embedderFlags = { embedder: 'hashed', embeddingModel: null as string | null, embedBatch: DEFAULT_EMBED_BATCH };
  eachArg(argv, (a, next) => {
    if (a === '--locomo') args.file = next();
    else if (a === '--memorybank') args.memorybank = next();
    else if (a === '--memorybank-dir') args.memorybankDir = next();
    else if (a === '--budget') args.budget = Number(next());
    else if (a === '--strategy') args.strategy = next() as Strategy;
    else if (a === '--baseline') {
      if (next() !== 'tfidf') throw new Error('--baseline must be tfidf');
      args.strategy = 'tfidf';
    } else if (a === '--retrieval-budget') args.retrievalBudget = Number(next());
    else if (a === '--roles-only') args.rolesOnly = true;
    else if (a === '--json') args.json = true;
    else if (a === '--conversations') args.conversations = Number(next());
    else if (a === '--show-misses') args.showMisses = Number(next());
    else if (a === '--miss-category') args.missCategory = Number(next());
    else if (a === '--hashes') args.hashes = next();
    else if (a === '--options') args.options = JSON.parse(next()) as PipelineOverrides;
    else if (a === '--embedder') embedderFlags.embedder = next();
    else if (a === '--embedding-model') embedderFlags.embeddingModel = next();
    else if (a === '--embed-batch') embedderFlags.embedBatch = Number(next());
    else throw new Error(`Unknown argument ${a}`);
  });
  if (args.memorybank !== null) {
    if (args.memorybank !== 'cn' && args.memorybank !== 'en') throw new Error('--memorybank must be cn or en');
    // Its chats are a user's with the assistant: replayed as the app stores them.
    args.rolesOnly = true;
  } else if (args.file === '') throw new Error('Give the data file: --locomo <file> (or --memorybank cn|en)');
  if (!Number.isInteger(args.budget) || args.budget < 256) throw new Error('--budget must be a whole number of tokens ≥ 256');
  if (!['full', 'recent', 'seed000', 'tfidf'].includes(args.strategy)) throw new Error('--strategy must be full, recent or seed000');
  if (args.retrievalBudget !== null && (args.strategy === 'recent' || args.strategy === 'seed000')) throw new Error('--retrieval-budget applies to the pipeline and to --baseline tfidf');
  args.embedder = embedderChoice(embedderFlags, args.strategy);
  return args;
}

/** The engine's vectors for a run with `--embedder engine`, and what they cost, conversation by conversation. */
interface EngineRun {
  readonly embedder: EngineEmbedder;
  readonly vectors: EngineVectors;
  readonly batch: number;
  storedTurns: number;
  withVector: number;
  /** This conversation's document embedding, in ms (set as it is replayed). */
  lastEmbedMs: number;
}

function run(args: Args, conv: LocomoConversation, counter: CachedTokenCounter, engine: EngineRun | null): Promise<PromptResult[]> | PromptResult[] {
  const engineSearch =
    engine === null
      ? {}
      : {
          engine: {
            vectors: engine.vectors,
            batch: engine.batch,
            onReplayed: (info: { embedMs: number; storedTurns: number; withVector: number }) => {
              engine.lastEmbedMs = info.embedMs;
              engine.storedTurns += info.storedTurns;
              engine.withVector += info.withVector;
            },
          },
        };
  const replay: ReplayOptions = { rolesOnly: args.rolesOnly, ...(args.memorybank === null ? {} : { askInNewSession: true }), ...(args.retrievalBudget === null ? {} : { retrievalBudget: args.retrievalBudget }), ...engineSearch };
  if (args.strategy === 'full') return runFull(conv, args.budget, counter, args.options, replay);
  if (args.strategy === 'tfidf') return runTfidf(conv, counter, { retrievalBudget: args.retrievalBudget ?? sectionBudgets(args.budget).retrieval, rolesOnly: args.rolesOnly });
  return runBaseline(conv, args.strategy, args.budget, counter);
}

const fixed = (x: number | null, digits = 3): string => (x === null ? '   – ' : x.toFixed(digits));

function tableRow(label: string, t: Totals): string {
  return `${label.padEnd(15)} ${String(t.n).padStart(4)}   ${fixed(t.lenient)}   ${fixed(t.whole)}   ${fixed(t.answerShare)} (${String(t.answerShareN).padStart(3)})   ${fixed(t.answer)} (${String(t.answerN).padStart(3)})   ${fixed(t.blockLines, 1).padStart(5)}`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const counter = new CachedTokenCounter(await loadNodeQwenTokenizer(), { maxEntries: 200_000 });
  const data = args.memorybank === null ? await readLocomo(args.file) : await readMemoryBank(args.memorybankDir, args.memorybank, fileURLToPath(new URL('./data/memorybank/', import.meta.url)));
  const conversations = data.slice(0, args.conversations);
  const engine = args.embedder.kind === 'engine' ? await openEngine(args.embedder.modelPath, args.embedder.batch) : null;
  try {
    await evaluate(args, conversations, counter, engine, started);
  } finally {
    await engine?.embedder.close();
  }
}

async function openEngine(modelPath: string, batch: number): Promise<EngineRun> {
  const { openEngineEmbedder } = await import('./engine-embedder.ts');
  const embedder = await openEngineEmbedder(modelPath);
  const vectors = new EngineVectors(embedder.source, { modelId: embedder.info.modelId, dimensions: embedder.info.dimensions });
  return { embedder, vectors, batch, storedTurns: 0, withVector: 0, lastEmbedMs: 0 };
}

/** The report's line on the engine embedder: the model, what was embedded and how long that took. */
function engineLines(engine: EngineRun): string[] {
  const { info, prefixes, counts, modelPath } = engine.embedder;
  const prefix = (p: string | undefined): string => (p === undefined ? 'none' : JSON.stringify(p));
  const per = (ms: number, n: number): string => (n === 0 ? '–' : `${(ms / n).toFixed(1)} ms each`);
  return [
    `embedder engine: ${basename(modelPath)} (${info.modelId}), ${info.dimensions} dimensions, ${info.maxTokens} tokens max, prefixes query ${prefix(prefixes.queryPrefix)} / document ${prefix(prefixes.documentPrefix)}`,
    `embedded ${counts.document.texts} stored texts in ${(counts.document.ms / 1000).toFixed(1)} s (${per(counts.document.ms, counts.document.texts)}, ${counts.document.calls} requests of up to ${engine.batch}), ${counts.query.texts} queries in ${(counts.query.ms / 1000).toFixed(1)} s (${per(counts.query.ms, counts.query.texts)}); ${engine.withVector} of ${engine.storedTurns} stored turns in the vector search`,
  ];
}

function engineSummary(engine: EngineRun): Record<string, unknown> {
  const { info, prefixes, counts, modelPath } = engine.embedder;
  return {
    kind: 'engine',
    model: modelPath,
    modelId: info.modelId,
    dimensions: info.dimensions,
    maxTokens: info.maxTokens,
    ...prefixes,
    batch: engine.batch,
    documentsEmbedded: counts.document.texts,
    documentSeconds: Number((counts.document.ms / 1000).toFixed(2)),
    queriesEmbedded: counts.query.texts,
    querySeconds: Number((counts.query.ms / 1000).toFixed(2)),
    storedTurns: engine.storedTurns,
    storedWithVector: engine.withVector,
  };
}

async function evaluate(args: Args, conversations: LocomoConversation[], counter: CachedTokenCounter, engine: EngineRun | null, started: number): Promise<void> {
  const measures: QuestionMeasures[] = [];
  let skipped = 0;
  let shown = 0;
  const log = (line: string): void => console.log(line);
  const hashes: string[] = [];
  for (const conv of conversations) {
    const t0 = performance.now();
    const results = await run(args, conv, counter, engine);
    const turnText = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t.text] as const)));
    const convHay = conversationHaystack(conv);
    results.forEach((r, i) => hashes.push(`${conv.id} ${i} ${hashOf(r.prompt)} ${hashOf(r.turn?.report.memory.retrieval.candidates.map((c) => [c.id, c.score, c.fate]) ?? null)}`));
    const convMeasures = results.map((r) => measureQuestion(convHay, turnText, r));
    measures.push(...convMeasures);
    results.forEach((r, i) => {
      if (convMeasures[i]!.lenient < 1 && shown < args.showMisses && (args.missCategory === null || r.question.category === args.missCategory)) {
        shown += 1;
        showMiss(conv, r, log);
      }
    });
    skipped += conv.skipped;
    const t = totals(convMeasures);
    const embedding = engine === null ? '' : ` (embedding the stored turns ${(engine.lastEmbedMs / 1000).toFixed(1)} s)`;
    log(`${conv.id}: ${results.length} questions, lenient ${fixed(t.lenient)}, whole ${fixed(t.whole)}, answerShare ${fixed(t.answerShare)}, ${((performance.now() - t0) / 1000).toFixed(1)} s${embedding}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const overall = totals(measures);
  const categories = [...new Set(measures.map((m) => m.category))].sort((a, b) => a - b);
  const summary = {
    strategy: args.strategy,
    budget: args.budget,
    retrievalBudget: args.strategy === 'recent' || args.strategy === 'seed000' ? null : (args.retrievalBudget ?? sectionBudgets(args.budget).retrieval),
    rolesOnly: args.rolesOnly,
    ...(engine === null ? {} : { embedder: engineSummary(engine) }),
    ...overall,
    perCategory: Object.fromEntries(categories.map((k) => [String(k), { name: CATEGORY_NAMES[k] ?? `category ${k}`, ...totals(measures.filter((m) => m.category === k)) }])),
    skippedQuestions: skipped,
    conversations: conversations.length,
    seconds: Number(seconds.toFixed(1)),
  };
  log('');
  const retrieval = summary.retrievalBudget === null ? '' : `, retrieval ${summary.retrievalBudget}`;
  log(`strategy ${args.strategy}, window ${args.budget} tokens${retrieval}${args.rolesOnly ? ', roles only' : ', speakers named'}, ${conversations.length} conversations, ${overall.n} questions (${skipped} without evidence skipped)`);
  if (engine !== null) for (const line of engineLines(engine)) log(line);
  log('category        n      lenient whole   answerShare   answer        blockLines');
  for (const k of categories) log(tableRow(`${k} ${CATEGORY_NAMES[k] ?? ''}`, summary.perCategory[String(k)]!));
  log(tableRow('all', overall));
  const block = overall.meanRetrievalTokens === null ? '' : `, retrieved block ${overall.meanRetrievalTokens.toFixed(0)}`;
  log(`mean prompt ${overall.meanPromptTokens.toFixed(0)} tokens${block} (exact Qwen2.5 counts); ${seconds.toFixed(1)} s`);
  if (args.hashes !== null) {
    writeFileSync(args.hashes, `${hashes.join('\n')}\n`);
    log(`prompt hashes of ${hashes.length} questions written to ${args.hashes}`);
  }
  if (args.json) console.log(JSON.stringify(summary));
}

function showMiss(conv: LocomoConversation, r: PromptResult, log: (line: string) => void): void {
  const prompt = normalise(r.prompt);
  const turns = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t] as const)));
  log(`--- miss [cat ${r.question.category}] ${r.question.question}`);
  for (const id of r.question.evidence) {
    const t = turns.get(id)!;
    log(`   ${containsTurn(prompt, t.text) ? 'IN ' : 'OUT'} ${id} ${t.speaker}: ${t.text.slice(0, 160)}`);
  }
  if (r.turn !== undefined) log(formatMemoryReport(r.turn.report, { maxCandidates: 12 }));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = error instanceof UsageError ? error.exitCode : 1;
});

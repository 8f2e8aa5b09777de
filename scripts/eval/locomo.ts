/**
 * Evidence recall on LoCoMo-format data, through the app's own pipeline.
 *
 *   npm run eval -- --locomo <file> [--budget 1024] [--strategy full|recent|seed000] [--json]
 *                   [--conversations N] [--show-misses N] [--options '{"pack":{"wholeTop":0}}'] [--hashes <out>]
 *
 * `--budget` is the model's whole window, the answer's reserve included. Recall is the share of a question's
 * evidence turns that the assembled prompt holds verbatim (whole, or one informative complete sentence; see
 * recall.ts), averaged over questions, overall and per category (1 multi-hop, 2 temporal, 3 open-domain,
 * 4 single-hop, 5 adversarial); prompt tokens are exact Qwen2.5 counts. Data is read from the path given,
 * never from the repository. With `--json` the last line is one JSON object. `--hashes <out>` also writes one line
 * per question with a hash of its prompt and of its retrieval candidates (ids, scores, fates): two runs compared
 * with `cmp` show whether a change to the pipeline changed any prompt.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CachedTokenCounter } from '../../src/context/tokens.ts';
import { formatMemoryReport } from '../../src/memory/layered/report.ts';
import { loadNodeQwenTokenizer } from '../prepare-tokenizer.ts';
import { eachArg } from './args.ts';
import { readLocomo, type LocomoConversation } from './locomo-data.ts';
import { containsTurn, evidenceRecall, normalise } from './recall.ts';
import { runBaseline, runFull, type PipelineOverrides, type PromptResult, type Strategy } from './strategies.ts';

const hashOf = (value: unknown): string => createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 16);

export const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

interface Args {
  file: string;
  budget: number;
  strategy: Strategy;
  json: boolean;
  conversations: number;
  showMisses: number;
  options: PipelineOverrides;
  hashes: string | null;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { file: '', budget: 1024, strategy: 'full', json: false, conversations: Infinity, showMisses: 0, options: {}, hashes: null };
  eachArg(argv, (a, next) => {
    if (a === '--locomo') args.file = next();
    else if (a === '--budget') args.budget = Number(next());
    else if (a === '--strategy') args.strategy = next() as Strategy;
    else if (a === '--json') args.json = true;
    else if (a === '--conversations') args.conversations = Number(next());
    else if (a === '--show-misses') args.showMisses = Number(next());
    else if (a === '--hashes') args.hashes = next();
    else if (a === '--options') args.options = JSON.parse(next()) as PipelineOverrides;
    else throw new Error(`Unknown argument ${a}`);
  });
  if (args.file === '') throw new Error('Give the data file: --locomo <file>');
  if (!Number.isInteger(args.budget) || args.budget < 256) throw new Error('--budget must be a whole number of tokens ≥ 256');
  if (!['full', 'recent', 'seed000'].includes(args.strategy)) throw new Error('--strategy must be full, recent or seed000');
  return args;
}

interface Score {
  sum: number;
  n: number;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const counter = new CachedTokenCounter(await loadNodeQwenTokenizer(), { maxEntries: 200_000 });
  const conversations = (await readLocomo(args.file)).slice(0, args.conversations);
  const overall: Score = { sum: 0, n: 0 };
  const perCategory = new Map<number, Score>();
  let tokens = 0;
  let skipped = 0;
  let shown = 0;
  const log = (line: string): void => console.log(line);
  const hashes: string[] = [];
  for (const conv of conversations) {
    const t0 = performance.now();
    const results = args.strategy === 'full' ? await runFull(conv, args.budget, counter, args.options) : runBaseline(conv, args.strategy, args.budget, counter);
    const turnText = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t.text] as const)));
    let convSum = 0;
    results.forEach((r, i) => hashes.push(`${conv.id} ${i} ${hashOf(r.prompt)} ${hashOf(r.turn?.report.memory.retrieval.candidates.map((c) => [c.id, c.score, c.fate]) ?? null)}`));
    for (const r of results) {
      const evidence = r.question.evidence.map((id) => turnText.get(id)!);
      const recall = evidenceRecall(r.prompt, evidence);
      convSum += recall;
      overall.sum += recall;
      overall.n += 1;
      const c = perCategory.get(r.question.category) ?? { sum: 0, n: 0 };
      c.sum += recall;
      c.n += 1;
      perCategory.set(r.question.category, c);
      tokens += r.promptTokens;
      if (recall < 1 && shown < args.showMisses) {
        shown += 1;
        showMiss(conv, r, log);
      }
    }
    skipped += conv.skipped;
    log(`${conv.id}: ${results.length} questions, recall ${(convSum / Math.max(1, results.length)).toFixed(3)}, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const seconds = (performance.now() - started) / 1000;
  const round = (x: number): number => Number(x.toFixed(4));
  const summary = {
    strategy: args.strategy,
    budget: args.budget,
    recall: round(overall.sum / Math.max(1, overall.n)),
    perCategory: Object.fromEntries(
      [...perCategory.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), { name: CATEGORY_NAMES[k] ?? `category ${k}`, recall: round(v.sum / v.n), n: v.n }]),
    ),
    n: overall.n,
    skippedQuestions: skipped,
    conversations: conversations.length,
    meanPromptTokens: round(tokens / Math.max(1, overall.n)),
    seconds: round(seconds),
  };
  log('');
  log(`strategy ${args.strategy}, window ${args.budget} tokens, ${conversations.length} conversations, ${overall.n} questions (${skipped} without evidence skipped)`);
  log('category        n   recall');
  for (const [k, v] of Object.entries(summary.perCategory)) log(`${`${k} ${v.name}`.padEnd(15)} ${String(v.n).padStart(4)}   ${v.recall.toFixed(3)}`);
  log(`${'all'.padEnd(15)} ${String(overall.n).padStart(4)}   ${summary.recall.toFixed(3)}`);
  log(`mean prompt ${summary.meanPromptTokens.toFixed(0)} tokens (exact Qwen2.5 counts); ${seconds.toFixed(1)} s`);
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
  process.exitCode = 1;
});

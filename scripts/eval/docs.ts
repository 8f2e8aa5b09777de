/**
 * Docs recall on KdConv-format data (kdconv-data.ts), through the app's own pipeline.
 *
 *   npm run eval:docs -- --kdconv <file> [--budget 1024] [--dialogues N] [--json] [--options '{"rerank":{…}}']
 *
 * The replay and its measure are in docs-recall.ts: each knowledge triple is a doc chunk, and a reply's knowledge
 * counts as recalled when the prompt before it carried that doc. Reported overall and per kind of knowledge
 * (attribute), with mean prompt tokens (exact Qwen counts). With `--json` the last line is
 * one JSON object. `--budget` is the model's whole window, the answer's reserve included.
 */
import { performance } from 'node:perf_hooks';
import { CachedTokenCounter } from '../../src/context/tokens.ts';
import { loadNodeQwenTokenizer } from '../prepare-tokenizer.ts';
import { eachArg } from './args.ts';
import { runDocsEval } from './docs-recall.ts';
import { readKdConv } from './kdconv-data.ts';
import type { PipelineOverrides } from './strategies.ts';

interface Args {
  file: string;
  budget: number;
  dialogues: number;
  json: boolean;
  options: PipelineOverrides;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { file: '', budget: 1024, dialogues: Infinity, json: false, options: {} };
  eachArg(argv, (a, next) => {
    if (a === '--kdconv') args.file = next();
    else if (a === '--budget') args.budget = Number(next());
    else if (a === '--dialogues') args.dialogues = Number(next());
    else if (a === '--json') args.json = true;
    else if (a === '--options') args.options = JSON.parse(next()) as PipelineOverrides;
    else throw new Error(`Unknown argument ${a}`);
  });
  if (args.file === '') throw new Error('Give the data file: --kdconv <file>');
  if (!Number.isInteger(args.budget) || args.budget < 256) throw new Error('--budget must be a whole number of tokens ≥ 256');
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const counter = new CachedTokenCounter(await loadNodeQwenTokenizer(), { maxEntries: 200_000 });
  const corpus = await readKdConv(args.file);
  const result = await runDocsEval(corpus, args.budget, counter, args.options, args.dialogues);
  const round = (x: number): number => Number(x.toFixed(4));
  const kinds = [...result.perKind.entries()].sort((a, b) => b[1].n - a[1].n);
  const summary = {
    budget: args.budget,
    recall: round(result.recalled / Math.max(1, result.n)),
    perKind: Object.fromEntries(kinds.map(([kind, v]) => [kind, { recall: round(v.recalled / v.n), n: v.n }])),
    n: result.n,
    docs: corpus.docs.length,
    dialogues: Math.min(args.dialogues, corpus.dialogues.length),
    meanPromptTokens: round(result.promptTokens / Math.max(1, result.prompts)),
    seconds: round((performance.now() - started) / 1000),
  };
  console.log(`window ${args.budget} tokens, ${summary.dialogues} dialogues, ${summary.docs} doc chunks, ${summary.n} knowledge items`);
  console.log('kind              n   recall');
  for (const [kind, v] of kinds) console.log(`${kind.padEnd(14)} ${String(v.n).padStart(5)}   ${(v.recalled / v.n).toFixed(3)}`);
  console.log(`${'all'.padEnd(14)} ${String(result.n).padStart(5)}   ${summary.recall.toFixed(3)}`);
  console.log(`mean prompt ${summary.meanPromptTokens.toFixed(0)} tokens (exact Qwen2.5 counts); ${summary.seconds.toFixed(1)} s`);
  if (args.json) console.log(JSON.stringify(summary));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

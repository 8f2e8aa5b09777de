/**
 * Leave-one-conversation-out choice of the packer's settings and the reranker's weights (issue 18: no fitting to
 * the dev file).
 *
 *   npx tsx scripts/eval/cv.ts --locomo <file> [--budget 1024] [--grid '{"minMatch":[0.05,0.1,0.2],"maxWholeTokens":[100,160,240]}']
 *   npx tsx scripts/eval/cv.ts --locomo <file> --grid '{"date":[0.2,0.4,0.6]}'
 *   npx tsx scripts/eval/cv.ts --locomo <file> --retrieval-budget 160 --grid '{"maxWholeShare":[0.3,0.5,1]}'
 *   npx tsx scripts/eval/cv.ts --locomo <file> --roles-only --grid '{"stated":[0,0.5,1]}'
 *
 * A grid key that names a reranker feature (`date`, `entities`…) sets that feature's weight; the others are pack options.
 * Every setting of the grid is replayed on every conversation once. For each conversation held out, the setting
 * with the best mean of `answerShare` and `lenient` over the other conversations is chosen, and its score on the
 * held-out one is reported beside the in-sample best. Prints one row per fold and the held-out mean.
 */
import { CachedTokenCounter } from '../../src/context/tokens.ts';
import type { PackOptions } from '../../src/memory/retrieval/index.ts';
import { DEFAULT_WEIGHTS } from '../../src/memory/retrieval/rerank.ts';
import { loadNodeQwenTokenizer } from '../prepare-tokenizer.ts';
import { eachArg } from './args.ts';
import { readLocomo } from './locomo-data.ts';
import { conversationHaystack, measureQuestion, totals, type QuestionMeasures } from './measures.ts';
import { runFull } from './strategies.ts';

let file = '';
let budget = 1024;
let retrievalBudget: number | undefined;
/** Replay with roles only, as the app stores turns (`npm run eval -- --roles-only`). */
let rolesOnly = false;
let grid: Record<string, number[]> = { minMatch: [0.05, 0.1, 0.2], maxWholeTokens: [100, 160, 240] };
eachArg(process.argv.slice(2), (a, next) => {
  if (a === '--locomo') file = next();
  else if (a === '--budget') budget = Number(next());
  else if (a === '--retrieval-budget') retrievalBudget = Number(next());
  else if (a === '--roles-only') rolesOnly = true;
  else if (a === '--grid') grid = JSON.parse(next()) as Record<string, number[]>;
  else throw new Error(`Unknown argument ${a}`);
});
if (file === '') throw new Error('Give the data file: --locomo <file>');

/** Every combination of the grid's values. */
function settings(): Array<Record<string, number>> {
  let out: Array<Record<string, number>> = [{}];
  for (const [key, values] of Object.entries(grid)) out = out.flatMap((s) => values.map((v) => ({ ...s, [key]: v })));
  return out;
}

/** A setting as pipeline overrides: feature weights to the reranker, the rest to the packer. */
function overrides(setting: Record<string, number>): { pack: Partial<PackOptions>; rerank?: { weights: typeof DEFAULT_WEIGHTS } } {
  const pack: Record<string, number> = {};
  const weights: Record<string, number> = { ...DEFAULT_WEIGHTS };
  let reweighted = false;
  for (const [key, value] of Object.entries(setting)) {
    if (key in DEFAULT_WEIGHTS) {
      weights[key] = value;
      reweighted = true;
    } else pack[key] = value;
  }
  return { pack: pack as Partial<PackOptions>, ...(reweighted ? { rerank: { weights: weights as typeof DEFAULT_WEIGHTS } } : {}) };
}

const objective = (ms: readonly QuestionMeasures[]): number => {
  const t = totals(ms);
  return ((t.answerShare ?? 0) + t.lenient) / 2;
};

const counter = new CachedTokenCounter(await loadNodeQwenTokenizer(), { maxEntries: 200_000 });
const conversations = await readLocomo(file);
const grids = settings();
// measures[setting][conversation]
const measures: QuestionMeasures[][][] = [];
for (const setting of grids) {
  const row: QuestionMeasures[][] = [];
  for (const conv of conversations) {
    const turnText = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t.text] as const)));
    const hay = conversationHaystack(conv);
    row.push((await runFull(conv, budget, counter, overrides(setting), { rolesOnly, ...(retrievalBudget === undefined ? {} : { retrievalBudget }) })).map((r) => measureQuestion(hay, turnText, r)));
  }
  measures.push(row);
  console.log(`${JSON.stringify(setting)}: ${row.map((ms) => objective(ms).toFixed(3)).join(' ')}  all ${objective(row.flat()).toFixed(3)}`);
}
const held: QuestionMeasures[] = [];
conversations.forEach((conv, k) => {
  const others = (s: number): QuestionMeasures[] => measures[s]!.filter((_, i) => i !== k).flat();
  let best = 0;
  for (let s = 1; s < grids.length; s++) if (objective(others(s)) > objective(others(best))) best = s;
  const out = measures[best]![k]!;
  held.push(...out);
  const t = totals(out);
  console.log(`held out ${conv.id}: chose ${JSON.stringify(grids[best])} → answerShare ${t.answerShare?.toFixed(3)} lenient ${t.lenient.toFixed(3)} whole ${t.whole.toFixed(3)}`);
});
const t = totals(held);
console.log(`held-out folds together: answerShare ${t.answerShare?.toFixed(3)} lenient ${t.lenient.toFixed(3)} whole ${t.whole.toFixed(3)} blockLines ${t.blockLines}`);

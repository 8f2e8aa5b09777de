/**
 * Rules changed across sessions (issue 18): when the user restates a rule or setting with another value, does the
 * prompt hold the latest version, and not an older one?
 *
 *   npm run eval:rules -- [--rules scripts/eval/data/rule-changes.json] [--budget 1024] [--json] [--options '{"pack":{"supersede":false}}']
 *
 * The data (rule-changes.json) was written for this project: multi-session chats, in English and Chinese, where
 * the user changes rules, with probes asked at the end. Each conversation is replayed through the app's own
 * pipeline as the app stores it (user and assistant, no speaker names); each probe is a question in the last
 * session, nothing written. Measures, over `changed` probes: `latest` (the prompt holds the current value),
 * `older` (it holds a value the user replaced), `latestAlone` (the current one and no older one); over `kept`
 * probes (two look-alike statements that are both true): `kept` (every value asked for is there). "The prompt"
 * is everything but the question itself; values match case-insensitively as substrings. With `--json` the last
 * line is one JSON object.
 */
import { readFile } from 'node:fs/promises';
import { CachedTokenCounter } from '../../src/context/tokens.ts';
import { loadNodeQwenTokenizer } from '../prepare-tokenizer.ts';
import { eachArg } from './args.ts';
import type { LocomoConversation } from './locomo-data.ts';
import { runFull, type PipelineOverrides, type PromptResult } from './strategies.ts';

export interface RuleProbe {
  readonly kind: 'changed' | 'kept';
  readonly question: string;
  /** changed: the value the user set last, and those it replaced. */
  readonly latest?: string;
  readonly older?: readonly string[];
  /** kept: the values that must all be there. */
  readonly values?: readonly string[];
}

export interface RuleConversation {
  readonly id: string;
  readonly lang: 'en' | 'zh';
  readonly sessions: ReadonlyArray<{ readonly date: string; readonly turns: ReadonlyArray<{ readonly role: 'user' | 'assistant'; readonly text: string }> }>;
  readonly probes: readonly RuleProbe[];
}

export interface ProbeMeasure {
  readonly kind: 'changed' | 'kept';
  readonly latest: boolean;
  readonly older: boolean;
  readonly kept: boolean;
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** Checks the file's shape; a probe with a missing value is an error, not a silent zero. */
export function parseRules(data: unknown): RuleConversation[] {
  const list = (data as { conversations?: unknown } | null)?.conversations;
  if (!Array.isArray(list)) throw new Error('A rules file is {"conversations": [...]}.');
  for (const c of list as RuleConversation[]) {
    if (!isString(c.id) || !Array.isArray(c.sessions) || !Array.isArray(c.probes)) throw new Error(`Conversation ${String(c.id)}: id, sessions and probes are required.`);
    for (const s of c.sessions) {
      if (Number.isNaN(Date.parse(s.date)) || !Array.isArray(s.turns)) throw new Error(`Conversation ${c.id}: a session needs a date and turns.`);
      for (const t of s.turns) if ((t.role !== 'user' && t.role !== 'assistant') || !isString(t.text)) throw new Error(`Conversation ${c.id}: a turn needs a role and a text.`);
    }
    for (const p of c.probes) {
      const ok = p.kind === 'changed' ? isString(p.latest) && Array.isArray(p.older) && p.older.length > 0 : p.kind === 'kept' && Array.isArray(p.values) && p.values.length > 0;
      if (!ok || !isString(p.question)) throw new Error(`Conversation ${c.id}: probe ${JSON.stringify(p.question)} is malformed.`);
    }
  }
  return list as RuleConversation[];
}

/** The conversation in the form the replay reads (the user is the first speaker; probes are its questions). */
export function asReplay(conv: RuleConversation): LocomoConversation {
  return {
    id: conv.id,
    speakerA: 'user',
    speakerB: 'assistant',
    sessions: conv.sessions.map((s, i) => ({
      index: i + 1,
      time: Date.parse(s.date),
      turns: s.turns.map((t, j) => ({ diaId: `D${i + 1}:${j + 1}`, speaker: t.role, text: t.text })),
    })),
    questions: conv.probes.map((p) => ({ question: p.question, answer: p.latest ?? '', category: 0, evidence: [] })),
    skipped: 0,
  };
}

/** The prompt without the question (its last occurrence: the input at the end). */
export function withoutQuestion(prompt: string, question: string): string {
  const at = prompt.lastIndexOf(question);
  return at < 0 ? prompt : prompt.slice(0, at) + prompt.slice(at + question.length);
}

export function measureProbe(probe: RuleProbe, result: Pick<PromptResult, 'prompt'>): ProbeMeasure {
  const hay = withoutQuestion(result.prompt, probe.question).toLowerCase();
  const has = (v: string): boolean => hay.includes(v.toLowerCase());
  if (probe.kind === 'changed') return { kind: 'changed', latest: has(probe.latest!), older: probe.older!.some(has), kept: false };
  return { kind: 'kept', latest: false, older: false, kept: probe.values!.every(has) };
}

export interface RuleTotals {
  readonly changed: number;
  readonly latest: number | null;
  readonly older: number | null;
  readonly latestAlone: number | null;
  readonly keptN: number;
  readonly kept: number | null;
}

export function ruleTotals(measures: readonly ProbeMeasure[]): RuleTotals {
  const changed = measures.filter((m) => m.kind === 'changed');
  const kept = measures.filter((m) => m.kind === 'kept');
  const share = (list: readonly ProbeMeasure[], f: (m: ProbeMeasure) => boolean): number | null => (list.length === 0 ? null : list.filter(f).length / list.length);
  return {
    changed: changed.length,
    latest: share(changed, (m) => m.latest),
    older: share(changed, (m) => m.older),
    latestAlone: share(changed, (m) => m.latest && !m.older),
    keptN: kept.length,
    kept: share(kept, (m) => m.kept),
  };
}

const fixed = (x: number | null): string => (x === null ? '  – ' : x.toFixed(2));
const row = (label: string, t: RuleTotals): string =>
  `${label.padEnd(12)} ${String(t.changed).padStart(3)}   ${fixed(t.latest)}    ${fixed(t.older)}    ${fixed(t.latestAlone)}        ${String(t.keptN).padStart(2)}   ${fixed(t.kept)}`;

async function main(): Promise<void> {
  let file = 'scripts/eval/data/rule-changes.json';
  let budget = 1024;
  let json = false;
  let options: PipelineOverrides = {};
  eachArg(process.argv.slice(2), (a, next) => {
    if (a === '--rules') file = next();
    else if (a === '--budget') budget = Number(next());
    else if (a === '--json') json = true;
    else if (a === '--options') options = JSON.parse(next()) as PipelineOverrides;
    else throw new Error(`Unknown argument ${a}`);
  });
  if (!Number.isInteger(budget) || budget < 256) throw new Error('--budget must be a whole number of tokens ≥ 256');
  const conversations = parseRules(JSON.parse(await readFile(file, 'utf8')));
  const counter = new CachedTokenCounter(await loadNodeQwenTokenizer(), { maxEntries: 200_000 });
  const all: ProbeMeasure[] = [];
  const perConversation: Record<string, RuleTotals> = {};
  console.log(`window ${budget} tokens, roles only; ${file}`);
  console.log('conversation changed latest  older  latestAlone   kept');
  for (const conv of conversations) {
    const results = await runFull(asReplay(conv), budget, counter, options, { rolesOnly: true });
    const measures = conv.probes.map((p, i) => measureProbe(p, results[i]!));
    all.push(...measures);
    perConversation[conv.id] = ruleTotals(measures);
    console.log(row(conv.id, perConversation[conv.id]!));
  }
  const overall = ruleTotals(all);
  console.log(row('all', overall));
  if (json) console.log(JSON.stringify({ budget, ...overall, perConversation }));
}

if (process.argv[1]?.endsWith('rules.ts')) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}

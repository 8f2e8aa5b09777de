/**
 * Working-memory extraction from the command line, one JSON object per line in and out.
 *
 *   npm run extract -- messages.jsonl          # {id, now, text} per line → {id, entities, facts, deprecate} per line
 *   npm run extract -- - < messages.jsonl      # same, from stdin
 *   npm run extract -- --score ../shared/eval/wm-dev.jsonl [--json] [--min-f1 0.95]
 *
 * A bad line is reported on stderr with its line number and skipped; the others go on, and the exit status
 * is 1 if any line was bad (or, with --min-f1, if the overall F1 is below it).
 * Scoring matches entities by type + value, facts by subject + value + op (case and spacing ignored), and
 * deprecated topics by phrase (case, spacing and edge punctuation ignored); see src/memory/working-memory/score.ts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createExtractor, type Extractor } from '../src/memory/working-memory/extract.ts';
import {
  PARTS,
  scoreMessages,
  type LabelledMessage,
  type PartScore,
  type ScoreReport,
} from '../src/memory/working-memory/score.ts';
import type { Extraction } from '../src/memory/working-memory/types.ts';
import { vocabularySubjects } from '../src/memory/working-memory/vocabulary.ts';
import { toAssistantError } from '../src/shared/errors.ts';

export interface Message {
  readonly id: string | number;
  readonly now: string;
  readonly text: string;
  readonly line: number;
}

export interface ReadResult<T> {
  readonly items: T[];
  readonly errors: string[];
}

function fail(line: number, what: string): never {
  throw new Error(`line ${line}: ${what}`);
}

function parseLine(source: string, line: number): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    fail(line, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail(line, 'expected a JSON object');
  return data as Record<string, unknown>;
}

function message(data: Record<string, unknown>, line: number): Message {
  const { id, now, text } = data;
  if (typeof id !== 'string' && typeof id !== 'number') fail(line, '"id" must be a string or a number');
  if (typeof text !== 'string') fail(line, '"text" must be a string');
  if (typeof now !== 'string') fail(line, '"now" must be an ISO 8601 time such as "2026-03-04T10:00:00+08:00"');
  return { id, now, text, line };
}

function stringList(data: Record<string, unknown>, key: string, line: number): void {
  const v = data[key];
  if (!Array.isArray(v)) fail(line, `"${key}" must be a list`);
  if (key === 'deprecate' && v.some((x) => typeof x !== 'string')) fail(line, '"deprecate" must be a list of strings');
  if (key !== 'deprecate' && v.some((x) => typeof x !== 'object' || x === null))
    fail(line, `"${key}" must be a list of objects`);
}

/** Reads JSON lines; blank lines are skipped, bad ones become errors naming their line number. */
export function readLines<T>(text: string, read: (data: Record<string, unknown>, line: number) => T): ReadResult<T> {
  const items: T[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((source, i) => {
    if (source.trim() === '') return;
    try {
      items.push(read(parseLine(source, i + 1), i + 1));
    } catch (error) {
      errors.push((error as Error).message);
    }
  });
  return { items, errors };
}

export function readMessages(text: string): ReadResult<Message> {
  return readLines(text, message);
}

export function readLabelled(text: string): ReadResult<LabelledMessage & { now: string; line: number }> {
  return readLines(text, (data, line) => {
    const m = message(data, line);
    for (const key of ['entities', 'facts', 'deprecate']) stringList(data, key, line);
    return {
      id: String(m.id),
      now: m.now,
      text: m.text,
      line,
      ...(typeof data['lang'] === 'string' ? { lang: data['lang'] } : {}),
      entities: data['entities'] as LabelledMessage['entities'],
      facts: data['facts'] as LabelledMessage['facts'],
      deprecate: data['deprecate'] as string[],
    };
  });
}

/** Extracts one message; a `now` that is not a time is the message's error, not the run's. */
export function extractMessage(extractor: Extractor, m: Message): Extraction {
  try {
    return extractor.extract(m.text, m.now);
  } catch (error) {
    return fail(m.line, toAssistantError(error).message);
  }
}

/** One output line, in the key order of the labelled set. */
export function formatExtraction(id: string | number, x: Extraction): string {
  return JSON.stringify({ id, entities: x.entities, facts: x.facts, deprecate: x.deprecate });
}

const pct = (x: number): string => (100 * x).toFixed(1).padStart(5);
const row = (name: string, s: PartScore): string =>
  `${name.padEnd(12)} P ${pct(s.precision)}  R ${pct(s.recall)}  F1 ${pct(s.f1)}   (tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`;

/**
 * Facts scored on the labelled facts whose subject the slot vocabulary names (and on what the extractor says of
 * those subjects): how the rules do on the slots they know, apart from slots no rule names yet.
 */
/** Facts scored after `reshape` is applied to both sides' facts (the entities and deprecations set aside). */
function factsScoredAs(pairs: ReadonlyArray<{ label: LabelledMessage; got: Extraction }>, reshape: (facts: Extraction['facts']) => Extraction['facts']): PartScore {
  const only = (x: Pick<Extraction, 'facts'>): Extraction => ({ entities: [], deprecate: [], facts: reshape(x.facts) });
  return scoreMessages(pairs.map(({ label, got }) => ({ label: { ...label, ...only(label) }, got: only(got) }))).parts.facts;
}

function knownSubjectFacts(pairs: ReadonlyArray<{ label: LabelledMessage; got: Extraction }>, known: ReadonlySet<string>): PartScore {
  return factsScoredAs(pairs, (facts) => facts.filter((f) => known.has(f.subject.toLowerCase())));
}

/**
 * Facts matched by value and op alone, subject names aside: how much the extractor finds, apart from whether it names
 * the slot as the labeller did (labellers name "cat name", "pet name" or "cat's name" for one slot).
 */
function valueOnlyFacts(pairs: ReadonlyArray<{ label: LabelledMessage; got: Extraction }>): PartScore {
  return factsScoredAs(pairs, (facts) => facts.map((f) => ({ ...f, subject: '' })));
}

export function formatReport(r: ScoreReport): string {
  const lines = [`${r.messages} messages`, row('overall', r.overall), ...PARTS.map((p) => row(p, r.parts[p]))];
  const langs = Object.keys(r.byLang);
  if (langs.length > 1) lines.push(...langs.sort().map((l) => row(`lang ${l}`, r.byLang[l]!)));
  if (r.misses.length > 0) {
    lines.push('', `misses (${r.misses.length}):`);
    for (const m of r.misses)
      lines.push(`  ${m.id}  ${m.part.padEnd(9)} ${m.kind.padEnd(8)} ${m.item}    « ${m.text.slice(0, 70)} »`);
  }
  return lines.join('\n');
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function readInput(path: string): string {
  return readFileSync(path === '-' ? 0 : path, 'utf8');
}

/** Median milliseconds per message over 9 passes of the set, after 3 warm-up passes (a benchmark: printed, never checked). */
function timePerMessage(extractor: Extractor, items: ReadonlyArray<LabelledMessage & { now: string; line: number }>): { median: number; min: number; max: number } | null {
  if (items.length === 0) return null;
  const pass = (): number => {
    const start = performance.now();
    for (const label of items) {
      try {
        extractMessage(extractor, label);
      } catch {
        // Counted as an error above; its time still counts.
      }
    }
    return (performance.now() - start) / items.length;
  };
  for (let i = 0; i < 3; i++) pass();
  const runs = Array.from({ length: 9 }, pass).sort((a, b) => a - b);
  return { median: runs[4]!, min: runs[0]!, max: runs[8]! };
}

function formatSpeed(speed: { median: number; min: number; max: number } | null): string {
  return speed === null ? 'speed: no messages' : `speed: ${speed.median.toFixed(3)} ms per message (median of 9 passes; ${speed.min.toFixed(3)}–${speed.max.toFixed(3)})`;
}

export function main(args: string[]): number {
  const extractor = createExtractor();
  const scorePath = option(args, '--score');
  if (scorePath !== undefined) {
    const { items, errors } = readLabelled(readInput(scorePath));
    const pairs = [];
    for (const label of items) {
      try {
        pairs.push({ label, got: extractMessage(extractor, label) });
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
    for (const e of errors) console.error(`${scorePath}: ${e}`);
    const report = scoreMessages(pairs);
    const vocabularyFacts = knownSubjectFacts(pairs, vocabularySubjects(extractor.vocabulary));
    const factValues = valueOnlyFacts(pairs);
    const speed = timePerMessage(extractor, items);
    console.log(
      args.includes('--json')
        ? JSON.stringify({ ...report, vocabularyFacts, factValues, msPerMessage: speed }, null, 2)
        : `${formatReport(report)}\n${row('facts, subjects the vocabulary names', vocabularyFacts)}\n${row('facts, values and ops alone', factValues)}\n${formatSpeed(speed)}`,
    );
    const minF1 = option(args, '--min-f1');
    if (minF1 !== undefined && report.overall.f1 < Number(minF1)) return 1;
    return errors.length > 0 ? 1 : 0;
  }
  const path = args.find((a) => !a.startsWith('--') || a === '-');
  if (path === undefined) {
    console.error('usage: npm run extract -- <messages.jsonl | -> | --score <labelled.jsonl> [--json] [--min-f1 F]');
    return 2;
  }
  const { items, errors } = readMessages(readInput(path));
  for (const m of items) {
    try {
      console.log(formatExtraction(m.id, extractMessage(extractor, m)));
    } catch (error) {
      errors.push((error as Error).message);
    }
  }
  for (const e of errors) console.error(`${path}: ${e}`);
  return errors.length > 0 ? 1 : 0;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) process.exitCode = main(process.argv.slice(2));

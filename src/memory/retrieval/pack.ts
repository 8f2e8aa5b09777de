/**
 * Packs ranked candidates into the retrieval budget, exactly (Qwen tokens of the rendered block):
 *  1. coverage — in rank order, each candidate's best sentence (a short turn whole): more distinct turns fit
 *     than whole turns would (measured: whole turns first loses recall at every budget); coverage runs a
 *     little past the budget, then is trimmed back by priority: cold chunks (seed 001 §4.1: not recalled in
 *     their last chances) and older ones go first among those near the cut;
 *  2. expansion — with room left, sentences grow back into their whole turn, best first;
 *  3. pairing — with room still left, the turn before an included one (the question an answer answers).
 * Candidates scoring below a share of the best one are not injected at all, so a message with nothing to recall
 * gets a small block (and a small block keeps the prompt append-only for longer). Counts are exact; a cheap lower
 * bound (the tokenizer's `atLeast`) rules out what cannot fit before anything is tokenized. Pure, no DOM.
 */
import type { Candidate } from './rerank.ts';
import type { DocEntry, TurnEntry } from './records.ts';
import type { Piece } from './pieces.ts';
import { lineParts, lineTokens, lineTokensAtLeast, pieceIndex, smallestLineAtLeast, textTokens, textTokensAtLeast, type TokenCount } from './line-text.ts';
import { dayOf, renderRetrieved, type DocLine, type RecordLabels, type RecordLine } from './render.ts';

export type { TokenCount } from './line-text.ts';

/**
 * Counts lines through a bounded memo: the same candidate lines are measured on every search, and tokenizing
 * them again each time would cost more than the whole search.
 */
export class MemoTokenCount implements TokenCount {
  private readonly _inner: TokenCount;
  private readonly _max: number;
  private _memo = new Map<string, number>();

  constructor(inner: TokenCount, max = 50_000) {
    this._inner = inner;
    this._max = max;
  }

  count(text: string): number {
    let n = this._memo.get(text);
    if (n === undefined) {
      n = this._inner.count(text);
      if (this._memo.size >= this._max) this._memo = new Map();
      this._memo.set(text, n);
    }
    return n;
  }

  atLeast(text: string): number {
    return this._memo.get(text) ?? this._inner.atLeast?.(text) ?? 0;
  }
}

const memos = new WeakMap<TokenCount, MemoTokenCount>();

/** One memo per counter, shared by every search that uses it. */
export function memoCount(counter: TokenCount): TokenCount {
  if (counter instanceof MemoTokenCount) return counter;
  let memo = memos.get(counter);
  if (memo === undefined) memos.set(counter, (memo = new MemoTokenCount(counter)));
  return memo;
}

export interface PackOptions {
  /** Candidates scoring under this share of the best are left out as irrelevant. */
  readonly minRelativeScore: number;
  /** The first this-many candidates go in whole when they fit (0: coverage first, expansion with what is left). */
  readonly wholeTop: number;
  /** A turn longer than this never goes in whole: only its sentences. */
  readonly maxWholeTokens: number;
  /** A turn at most this many tokens longer than its best sentence goes in whole. */
  readonly wholeSlack: number;
  /** Fill the room left after coverage: expansion, then pairing. */
  readonly expand: boolean;
  /** Coverage may go this share past the budget before trimming decides what goes. */
  readonly overshoot: number;
  /** A cold chunk's priority when trimming is its score times this. */
  readonly coldPriority: number;
}

export const DEFAULT_PACK_OPTIONS: PackOptions = Object.freeze({
  minRelativeScore: 0.12,
  wholeTop: 0,
  maxWholeTokens: 160,
  wholeSlack: 3,
  expand: true,
  overshoot: 0.1,
  coldPriority: 0.85,
});

export type PackDecision = 'whole' | 'sentences' | 'paired' | 'over-budget' | 'cold-trimmed' | 'below-threshold';

/** One candidate to pack: a conversation turn or a doc chunk, with its pieces. */
export interface PackCandidate {
  readonly candidate: Candidate;
  readonly turn?: TurnEntry | undefined;
  readonly doc?: DocEntry | undefined;
  readonly text: string;
  readonly pieces: readonly Piece[];
  /** The turn before it in its session (pairing), if any and allowed; asked only for the few that go in. */
  readonly previous?: () => PackCandidate | undefined;
}

export interface PackResult {
  readonly text: string;
  readonly tokens: number;
  /** What became of each candidate; those after the block filled up have no entry: they are over budget. */
  readonly decisions: ReadonlyMap<string, PackDecision>;
  /** Ids injected by pairing (not candidates themselves). */
  readonly paired: readonly string[];
  /** Piece indexes injected per chunk id (`'all'` for whole). */
  readonly chosen: ReadonlyMap<string, readonly number[] | 'all'>;
  /** The lines `text` renders: conversation records and doc chunks. */
  readonly records: readonly RecordLine[];
  readonly docs: readonly DocLine[];
}

interface Entry {
  readonly item: PackCandidate;
  pieces: number[] | 'all';
  cost: number;
}

export interface PackEnv {
  readonly counter: TokenCount;
  readonly labels: RecordLabels;
  readonly offsetMinutes: number;
  readonly speakerOf: (turn: TurnEntry) => string;
}

export function pack(items: readonly PackCandidate[], budget: number, env: PackEnv, options: PackOptions = DEFAULT_PACK_OPTIONS): PackResult {
  const decisions = new Map<string, PackDecision>();
  const entries = new Map<string, Entry>();
  const order: string[] = [];
  const days = new Set<string>();
  const years = new Set<string>();
  let used = 0;
  let hasRecords = false;
  let hasDocs = false;
  const counter = memoCount(env.counter);
  const { labels } = env;
  const lineCost = (e: Entry): number => lineTokens(e.item, e.pieces, labels, env.speakerOf, counter) + 1;
  const lineCostAtLeast = (e: Entry): number => lineTokensAtLeast(e.item, e.pieces, labels, env.speakerOf, counter) + 1;
  // A day's heading costs the same for every record of that day (with or without its year).
  const dayHeadCosts = new Map<string, number>();
  const dayHeadCost = (day: string, withYear: boolean): number => {
    const key = withYear ? `${day}+` : day;
    let cost = dayHeadCosts.get(key);
    if (cost === undefined) dayHeadCosts.set(key, (cost = counter.count(labels.day(day, withYear)) + 1));
    return cost;
  };
  const headCost = (e: Entry): number => {
    if (e.item.turn !== undefined) {
      const day = dayOf(e.item.turn.time, env.offsetMinutes);
      return (hasRecords ? 0 : counter.count(labels.history) + 2) + (days.has(day) ? 0 : dayHeadCost(day, !years.has(day.slice(0, 4))));
    }
    return hasDocs ? 0 : counter.count(labels.docs) + 2;
  };
  const commit = (e: Entry, cost: number): void => {
    entries.set(e.item.candidate.id, e);
    order.push(e.item.candidate.id);
    used += cost;
    if (e.item.turn !== undefined) {
      hasRecords = true;
      const day = dayOf(e.item.turn.time, env.offsetMinutes);
      days.add(day);
      years.add(day.slice(0, 4));
    } else hasDocs = true;
  };

  const minScore = (items[0]?.candidate.score ?? 0) * options.minRelativeScore;
  const relevant: PackCandidate[] = [];
  for (const it of items) {
    if (it.candidate.score > 0 && it.candidate.score >= minScore) relevant.push(it);
    else decisions.set(it.candidate.id, 'below-threshold');
  }
  // 1. Coverage in rank order, a little past the budget.
  const limit = Math.floor(budget * (1 + options.overshoot));
  let rank = 0;
  for (const item of relevant) {
    // Full: every line costs its newline and at least one token (it is never empty: a speaker or source leads
    // it), so the rest cannot fit (each would be ruled out below); `used` only grows here.
    if (used + 2 > limit) break;
    const top = rank++ < options.wholeTop;
    // Ruled out without tokenizing: even its shorter form (whole, or its best sentence) needs more than is left.
    if (used + 1 + smallestLineAtLeast(item, item.candidate.bestPiece, labels, env.speakerOf, counter) > limit) {
      decisions.set(item.candidate.id, 'over-budget');
      continue;
    }
    const first = initialPieces(item, top, env, counter, options);
    const entry: Entry = { item, pieces: first, cost: 0 };
    const head = headCost(entry);
    // A whole turn over the budget gives way to its best sentence. Lines are counted exactly only where a
    // lower bound cannot settle the comparison.
    const splittable = first === 'all' && item.pieces.length > 1;
    let cost: number | null = null;
    if (!splittable || used + head + lineCostAtLeast(entry) <= budget) {
      cost = head + lineCost(entry);
      if (used + cost > budget && splittable) cost = null;
    }
    if (cost === null) {
      entry.pieces = [bestIndex(item)];
      if (used + head + lineCostAtLeast(entry) > limit) {
        decisions.set(item.candidate.id, 'over-budget');
        continue;
      }
      cost = head + lineCost(entry);
    }
    if (used + cost <= limit) {
      entry.cost = cost;
      commit(entry, cost);
      decisions.set(item.candidate.id, entry.pieces === 'all' ? 'whole' : 'sentences');
    } else decisions.set(item.candidate.id, 'over-budget');
  }
  // Trimming back to the budget: lowest priority first — cold chunks count less, and older ones go before newer.
  while (used > budget && order.length > 0) {
    let worst = -1;
    let worstKey = Infinity;
    for (let i = 0; i < order.length; i++) {
      const { candidate: c, turn } = entries.get(order[i]!)!.item;
      const key = c.score * (c.features.cold !== 0 ? options.coldPriority : 1) + (turn?.time ?? 0) * 1e-16;
      if (key < worstKey) {
        worstKey = key;
        worst = i;
      }
    }
    const [id] = order.splice(worst, 1) as [string];
    const entry = entries.get(id)!;
    entries.delete(id);
    used -= entry.cost;
    decisions.set(id, entry.item.candidate.features.cold !== 0 ? 'cold-trimmed' : 'over-budget');
  }
  const paired: string[] = [];
  if (options.expand) {
    // 2. Expansion: sentences back into their turn, best first.
    for (const id of [...order]) {
      const entry = entries.get(id)!;
      if (entry.pieces === 'all' || textTokens(entry.item, -1, labels, env.speakerOf, counter) > options.maxWholeTokens) continue;
      const before = lineCost(entry);
      const grown: Entry = { item: entry.item, pieces: 'all', cost: 0 };
      const delta = lineCost(grown) - before;
      if (used + delta > budget) continue;
      entry.pieces = 'all';
      entry.cost += delta;
      used += delta;
      decisions.set(id, 'whole');
    }
    // 3. Pairing: the turn before an included one, when it is not in already.
    for (const id of [...order]) {
      const prev = entries.get(id)!.item.previous?.();
      if (prev === undefined || entries.has(prev.candidate.id)) continue;
      if (textTokens(prev, -1, labels, env.speakerOf, counter) > options.maxWholeTokens) continue;
      const entry: Entry = { item: prev, pieces: 'all', cost: 0 };
      const cost = headCost(entry) + lineCost(entry);
      if (used + cost > budget) continue;
      entry.cost = cost;
      commit(entry, cost);
      paired.push(prev.candidate.id);
      decisions.set(prev.candidate.id, 'paired');
    }
  }
  // Exact count of the rendered block; drop the lowest-priority lines while it is over (BPE merges at joins).
  let block = renderBlock(order.map((id) => entries.get(id)!), env);
  let tokens = block.text === '' ? 0 : counter.count(block.text);
  while (tokens > budget && order.length > 0) {
    const id = order.pop()!;
    entries.delete(id);
    decisions.set(id, 'over-budget');
    block = renderBlock(order.map((x) => entries.get(x)!), env);
    tokens = block.text === '' ? 0 : counter.count(block.text);
  }
  const chosen = new Map<string, readonly number[] | 'all'>();
  for (const id of order) chosen.set(id, entries.get(id)!.pieces);
  return { text: block.text, records: block.records, docs: block.docs, tokens, decisions, paired: paired.filter((id) => entries.has(id)), chosen };
}

function bestIndex(item: PackCandidate): number {
  return pieceIndex(item.candidate.bestPiece, item.pieces.length);
}

function initialPieces(item: PackCandidate, top: boolean, env: PackEnv, counter: TokenCount, options: PackOptions): number[] | 'all' {
  if (item.pieces.length <= 1) return 'all';
  if (top && textTokens(item, -1, env.labels, env.speakerOf, counter) <= options.maxWholeTokens) return 'all';
  const best = bestIndex(item);
  const piece = textTokens(item, best, env.labels, env.speakerOf, counter);
  // Most turns are far longer than their best sentence: a lower bound on the whole says so without counting it.
  if (textTokensAtLeast(item, -1, env.labels, env.speakerOf, counter) - piece > options.wholeSlack) return [best];
  const whole = textTokens(item, -1, env.labels, env.speakerOf, counter);
  return whole - piece <= options.wholeSlack ? 'all' : [best];
}

function parts(e: Entry): string[] {
  return lineParts(e.item, e.pieces);
}

function renderBlock(entries: readonly Entry[], env: PackEnv): { text: string; records: RecordLine[]; docs: DocLine[] } {
  const records: RecordLine[] = [];
  const docs: DocLine[] = [];
  for (const e of entries) {
    const turn = e.item.turn;
    if (turn !== undefined) {
      records.push({ id: turn.id, time: turn.time, seq: turn.seq, speaker: env.speakerOf(turn), parts: parts(e) });
    } else if (e.item.doc !== undefined) {
      docs.push({ id: e.item.doc.id, source: e.item.doc.source, part: e.item.doc.part, parts: parts(e) });
    }
  }
  const text = renderRetrieved(records, docs, env.labels, env.offsetMinutes);
  return { text, records, docs };
}

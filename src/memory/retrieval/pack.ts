/**
 * Packs ranked candidates into the retrieval budget, exactly (Qwen tokens of the rendered block), for a small
 * model: a few whole turns, the right ones, rather than many one-line fragments (issue 18).
 *  0. relevance — a candidate enters only when its words hold enough of the query on an absolute scale
 *     (`Candidate.match`; less for a turn that states the value asked about, `minMatchStated`), or its vector,
 *     date, shared entities or persona tie it to the query, and it scores within reach of the best. Nothing relevant, nothing injected: the room stays unused, the prompt shorter;
 *  1. whole evidence — in rank order, each candidate whole up to `maxWholeTokens` (a longer one as a passage: its
 *     best sentence and the sentences around it, up to `maxPassageTokens`), and a question brings its answer, the
 *     next turn, with it (the user's question answered by a suggestion brings what the user then decided, too);
 *  2. fragments — with room and lines left, the best sentence of a candidate that did not fit whole;
 *  3. pairing — with room still left, the turn before an included answer (the question it answers).
 * A candidate whose matching sentence a later user message restates with another value is left out
 * ('superseded'); another turn shows none of its superseded sentences (supersede.ts).
 * At most `maxLines` records and doc chunks in all. Code is not cut, except a fenced block too long for any passage,
 * which comes as a closed excerpt of whole lines (pack-forms.ts; docs-index/split.ts fences again the parts of such a
 * block in the same way). Counts are exact; a
 * cheap lower bound (the tokenizer's `atLeast`) rules out what cannot fit before anything is tokenized. Pure.
 */
import type { DateMention } from '../../shared/date-mention.ts';
import type { Candidate } from './rerank.ts';
import type { DocEntry, TurnEntry } from './records.ts';
import type { Piece } from './pieces.ts';
import { closeOverCode, codeExcerpt, codeSpans, excerptLines, passage, runLayout, showRun, type RunLayout } from './pack-forms.ts';
import { lineParts, lineTokens, lineTokensAtLeast, pieceIndex, textTokens, textTokensAtLeast, type TokenCount } from './line-text.ts';
import { dayOf, renderRetrieved, type DocLine, type RecordLabels, type RecordLine } from './render.ts';
import { statementOfCached } from './statements.ts';
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
  /** The absolute relevance gate: a candidate's `match` at least this (or another tie to the query, below). */
  readonly minMatch: number;
  /**
   * The gate for a turn that states the value a question asks about over time (`Features.stated`): "就改到 03:15"
   * holds the question's words only through the turn before it, at ¾ of that turn's match.
   */
  readonly minMatchStated: number;
  /** A candidate whose vector cosine reaches this passes the gate without matching words (hashed n-grams: a shared stem). */
  readonly minVector: number;
  /** Records and doc chunks the block holds at most (each a line, whole or in part). */
  readonly maxLines: number;
  /** A turn up to this many tokens goes in whole; a longer one as a passage of at most this many. */
  readonly maxWholeTokens: number;
  /** …and at most this share of the block's budget, so a small block holds more than one piece of evidence. */
  readonly maxWholeShare: number;
  /**
   * A turn longer than `maxWholeTokens` (an assistant's long answer) goes in as a passage of at most this many: its
   * best sentence and the few around it, so that a block holds several such answers rather than two or three.
   */
  readonly maxPassageTokens: number;
  /** An excerpt of a fenced block too long for a passage (pack-forms.ts `codeExcerpt`) takes at most this many. */
  readonly maxExcerptTokens: number;
  /** A matched question brings the next turn of its session (its answer), when that fits whole. */
  readonly pairAnswers: boolean;
  /** With room left at the end, an included answer brings the turn before it (its question). */
  readonly pairQuestions: boolean;
  /**
   * An assistant turn that goes in (whole or as its passage) brings the user's reply after it when the reply fits whole
   * and gives a value: what the user decided about the suggestion ("就 3200 吧，已经改了", "OK, set it to 64"). The
   * answer a matched question brings does too, only when the question was the user's and the decision is short
   * (`maxDecisionTokens`): unbounded, that chain cost LoCoMo 0.007 `answerShare`, roles only.
   */
  readonly pairDecisions: boolean;
  /** The longest decision (Qwen tokens of its text) that a question's answer brings: "那统一改走 8883", not a new topic. */
  readonly maxDecisionTokens: number;
  /** With room and lines left after the whole candidates, the best sentence of those that did not fit. */
  readonly fragments: boolean;
  /** Leave out statements a later user message restates with another value (supersede.ts). */
  readonly supersede: boolean;
}

/** Checked leave-one-conversation-out over the LoCoMo dev conversations (scripts/eval/cv.ts; README, "What the model is handed"). */
export const DEFAULT_PACK_OPTIONS: PackOptions = Object.freeze({
  minRelativeScore: 0.12,
  minMatch: 0.1,
  minMatchStated: 0.025,
  minVector: 0.5,
  maxLines: 12,
  maxWholeTokens: 160,
  maxWholeShare: 0.35,
  maxPassageTokens: 64,
  maxExcerptTokens: 64,
  pairAnswers: true,
  pairQuestions: true,
  pairDecisions: true,
  maxDecisionTokens: 40,
  fragments: true,
  supersede: true,
});

export type PackDecision = 'whole' | 'passage' | 'sentences' | 'paired' | 'over-budget' | 'below-threshold' | 'superseded';

/** One candidate to pack: a conversation turn or a doc chunk, with its pieces. */
export interface PackCandidate {
  readonly candidate: Candidate;
  readonly turn?: TurnEntry | undefined;
  readonly doc?: DocEntry | undefined;
  readonly text: string;
  readonly pieces: readonly Piece[];
  /** The turn before it in its session (pairing), if any and allowed; asked only for the few that go in. */
  readonly previous?: () => PackCandidate | undefined;
  /** The turn after it in its session (a question's answer), if any and allowed. */
  readonly next?: () => PackCandidate | undefined;
  /** Its pieces that a later user message restates with another value (supersede.ts): never shown. */
  readonly superseded?: () => ReadonlySet<number>;
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
  /** What the line's relative times meant (`RecordLabels.dateNote`), or ''. */
  note: string;
}

export interface PackEnv {
  readonly counter: TokenCount;
  readonly labels: RecordLabels;
  readonly offsetMinutes: number;
  readonly speakerOf: (turn: TurnEntry) => string;
  /** Every day heading with its year (a question about when: the answer is the date, year and all). */
  readonly yearEveryDay?: boolean;
  /**
   * The relative times a record's shown text names, resolved on the day it was written (a question about when):
   * each record line then ends with their meaning (`RecordLabels.dateNote`).
   */
  readonly dateMentions?: (text: string, time: number) => readonly DateMention[];
}

/** Whether a candidate passes the relevance gate (before the relative cut). */
export function isRelevant(c: Candidate, options: PackOptions): boolean {
  if (c.score <= 0) return false;
  const f = c.features;
  return c.match >= options.minMatch || f.vector >= options.minVector || f.date > 0 || f.entities > 0 || f.persona > 0 || (f.stated > 0 && c.match >= options.minMatchStated);
}

/** A turn that asks: its last sentence, or its best, ends in a question mark. */
function asks(item: PackCandidate): boolean {
  const best = item.pieces[pieceIndex(item.candidate.bestPiece, item.pieces.length)]?.text ?? item.text;
  return /[?？][\s"'”’)）]*$/.test(item.text.trimEnd()) || /[?？]/.test(best);
}

/** Whether a user's reply states something (a value): a decision, not "thanks" or another question. */
function decides(reply: PackCandidate): boolean {
  if (reply.turn?.role !== 'user') return false;
  // "ok switch to goose", "going with the pi", "mux then.", 那就换成 chi 吧: a choice among what was suggested, in
  // words no statement rule reads (its value is often a name the vocabulary does not know).
  if (reply.pieces.slice(0, 2).some((p) => CHOOSES.test(p.text))) return true;
  return reply.pieces.some((p, i) => statementOfCached(p.text, reply.pieces[i - 1]?.text ?? '') !== null);
}

/** A reply that picks one of the suggestions. */
const CHOOSES =
  /\b(?:switch(?:ing)? (?:over )?to|go(?:ing)? with|went with|let'?s (?:use|go with|do)|we'?ll (?:use|go with)|i'?ll (?:use|take|go with)|stick(?:ing)? with|move it to)\b|^\s*(?:ok(?:ay)?,?\s+)?[\w.+/-]+(?:\s+[\w.+/-]+)?\s+(?:then|it is)\s*[.!]?\s*$|换成|改成|改用|就用|那就用|决定用|定了用/i;

export function pack(items: readonly PackCandidate[], budget: number, env: PackEnv, options: PackOptions = DEFAULT_PACK_OPTIONS): PackResult {
  const maxWhole = Math.min(options.maxWholeTokens, Math.floor(budget * options.maxWholeShare));
  const maxPassage = Math.min(maxWhole, options.maxPassageTokens);
  const maxExcerpt = Math.min(maxWhole, options.maxExcerptTokens);
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
  const headCost = (item: PackCandidate): number => {
    if (item.turn !== undefined) {
      const day = dayOf(item.turn.time, env.offsetMinutes);
      const withYear = env.yearEveryDay === true || !years.has(day.slice(0, 4));
      return (hasRecords ? 0 : counter.count(labels.history) + 2) + (days.has(day) ? 0 : dayHeadCost(day, withYear));
    }
    return hasDocs ? 0 : counter.count(labels.docs) + 2;
  };
  const commit = (e: Entry, cost: number, decision: PackDecision): void => {
    entries.set(e.item.candidate.id, e);
    order.push(e.item.candidate.id);
    used += cost;
    decisions.set(e.item.candidate.id, decision);
    if (e.item.turn !== undefined) {
      hasRecords = true;
      const day = dayOf(e.item.turn.time, env.offsetMinutes);
      days.add(day);
      years.add(day.slice(0, 4));
    } else hasDocs = true;
  };
  const noteOf = (item: PackCandidate, pieces: number[] | 'all'): string => {
    if (env.dateMentions === undefined || item.turn === undefined || labels.dateNote === undefined) return '';
    const mentions = env.dateMentions(lineParts(item, pieces).join(' '), item.turn.time);
    return mentions.length === 0 ? '' : labels.dateNote(mentions);
  };
  /** Commits `item` as `pieces` when it fits (a lower bound first, then the exact count); false when not. */
  const tryCommit = (item: PackCandidate, pieces: number[] | 'all', decision: PackDecision): boolean => {
    if (order.length >= options.maxLines) return false;
    const entry: Entry = { item, pieces, cost: 0, note: '' };
    const head = headCost(item);
    if (used + head + lineCostAtLeast(entry) > budget) return false;
    entry.note = noteOf(item, pieces);
    const cost = head + lineCost(entry) + (entry.note === '' ? 0 : counter.count(entry.note));
    if (used + cost > budget) return false;
    entry.cost = cost;
    commit(entry, cost, decision);
    return true;
  };
  // As shown: a run inside a fenced block gets its fence lines back, one among a table's rows its header (showRun).
  // A passage is counted once per piece it grows by: the turn's fences and tables are found once per pack.
  const layouts = new Map<PackCandidate, RunLayout>();
  const layoutOf = (item: PackCandidate): RunLayout => {
    let layout = layouts.get(item);
    if (layout === undefined) layouts.set(item, (layout = runLayout(item.text)));
    return layout;
  };
  const textOf = (item: PackCandidate, set: readonly number[]): string =>
    showRun(item.text, item.pieces[set[0]!]!.start, item.pieces[set[set.length - 1]!]!.end, layoutOf(item));
  const bestOf = (item: PackCandidate): number => pieceIndex(item.candidate.bestPiece, item.pieces.length);
  /** What matched is an old version of a rule (the candidate goes), or it has none. */
  const goneOf = (item: PackCandidate): ReadonlySet<number> | undefined => (options.supersede ? item.superseded?.() : undefined);
  const superseded = (item: PackCandidate): boolean => goneOf(item)?.has(bestOf(item)) === true;
  /**
   * The best sentence alone (code closed over, or its own lines of a long block) when it is longer than any passage
   * but within `maxWholeTokens`: a wide table row under its header is one line of evidence, and a candidate ranked
   * above others shows it before they go in whole (null: it is longer still, or `allowed` refuses it).
   */
  const bestAlone = (item: PackCandidate, allowed: (set: readonly number[]) => boolean): number[] | null => {
    const best = bestSentence(item);
    return allowed(best) && counter.count(textOf(item, best)) <= maxWhole ? best : null;
  };
  /** The best sentence, code closed over; inside a block too long to show whole, its own lines of the block. */
  const bestSentence = (item: PackCandidate): number[] => {
    const best = closeOverCode(item.pieces, [bestOf(item)], codeSpans(item.text));
    return counter.count(textOf(item, best)) > maxWhole ? (excerptLines(item.text, item.pieces, bestOf(item)) ?? best) : best;
  };
  /**
   * Whole when short enough; else the best passage within `maxWholeTokens`, code closed over (null: none fits).
   * A turn with superseded sentences shows the passage around its best one that holds none of them.
   */
  const wholeForm = (item: PackCandidate): { pieces: number[] | 'all'; decision: PackDecision } | null => {
    const gone = goneOf(item);
    if (gone !== undefined && gone.size > 0) {
      if (gone.has(bestOf(item))) return null;
      // A long turn's passage is as short as any long turn's; a short one's may be all that is not superseded.
      const limit = textTokens(item, -1, labels, env.speakerOf, counter) <= maxWhole ? maxWhole : maxPassage;
      const fits = (s: readonly number[]): boolean => !s.some((i) => gone.has(i)) && counter.count(textOf(item, s)) <= limit;
      const set =
        passage(item.pieces, bestOf(item), codeSpans(item.text), fits) ??
        codeExcerpt(item.text, item.pieces, bestOf(item), (x) => fits(x) && counter.count(textOf(item, x)) <= maxExcerpt) ??
        bestAlone(item, (x) => !x.some((i) => gone.has(i)));
      return set === null ? null : { pieces: set, decision: 'passage' };
    }
    if (item.pieces.length <= 1 || textTokensAtLeast(item, -1, labels, env.speakerOf, counter) <= maxWhole) {
      if (item.pieces.length <= 1 || textTokens(item, -1, labels, env.speakerOf, counter) <= maxWhole) return { pieces: 'all', decision: 'whole' };
    }
    const fits = (s: readonly number[]): boolean => counter.count(textOf(item, s)) <= maxPassage;
    // A best sentence inside a fenced block too long for any passage: an excerpt of its lines (pack-forms.ts).
    const set =
      passage(item.pieces, bestOf(item), codeSpans(item.text), fits) ??
      codeExcerpt(item.text, item.pieces, bestOf(item), (x) => counter.count(textOf(item, x)) <= maxExcerpt) ??
      bestAlone(item, () => true);
    return set === null ? null : { pieces: set.length === item.pieces.length ? 'all' : set, decision: set.length === item.pieces.length ? 'whole' : 'passage' };
  };

  const minScore = (items[0]?.candidate.score ?? 0) * options.minRelativeScore;
  const relevant: PackCandidate[] = [];
  for (const it of items) {
    if (isRelevant(it.candidate, options) && it.candidate.score >= minScore) relevant.push(it);
    else decisions.set(it.candidate.id, 'below-threshold');
  }
  const paired: string[] = [];
  // 1. Whole evidence, in rank order; a question brings its answer.
  for (const item of relevant) {
    if (order.length >= options.maxLines || used + 2 > budget) break;
    if (entries.has(item.candidate.id)) continue;
    if (superseded(item)) {
      decisions.set(item.candidate.id, 'superseded');
      continue;
    }
    const form = wholeForm(item);
    if (form === null || !tryCommit(item, form.pieces, form.decision)) continue;
    // A question brings its answer; a suggestion of the assistant's brings what the user decided.
    if (item.turn === undefined) continue;
    const question = options.pairAnswers && asks(item);
    if (!question && !(options.pairDecisions && item.turn.role === 'assistant')) continue;
    const reply = item.next?.();
    if (reply === undefined || entries.has(reply.candidate.id) || (!question && !decides(reply))) continue;
    const replyForm = wholeForm(reply);
    if (replyForm === null || (!question && replyForm.decision !== 'whole') || !tryCommit(reply, replyForm.pieces, 'paired')) continue;
    paired.push(reply.candidate.id);
    // The user's question, the assistant's suggestion, then what the user decided ("要不要改 TLS？" … "那统一改走
    // 8883"): the decision is the answer that holds.
    if (!question || !options.pairDecisions || item.turn.role !== 'user' || reply.turn?.role !== 'assistant') continue;
    const decision = reply.next?.();
    if (decision === undefined || entries.has(decision.candidate.id) || !decides(decision) || counter.count(decision.text) > options.maxDecisionTokens) continue;
    const decisionForm = wholeForm(decision);
    if (decisionForm?.decision === 'whole' && tryCommit(decision, decisionForm.pieces, 'paired')) paired.push(decision.candidate.id);
  }
  // 2. Fragments: the best sentence (code closed over) of those that did not fit whole.
  if (options.fragments) {
    for (const item of relevant) {
      if (order.length >= options.maxLines || used + 2 > budget) break;
      if (entries.has(item.candidate.id) || item.pieces.length <= 1 || decisions.get(item.candidate.id) === 'superseded') continue;
      const best = bestSentence(item);
      const gone = goneOf(item);
      if (gone !== undefined && best.some((i) => gone.has(i))) continue;
      if (best.length < item.pieces.length) tryCommit(item, best, 'sentences');
    }
  }
  // 3. Pairing: the turn before an included answer, when it is not in already.
  if (options.pairQuestions) {
    for (const id of [...order]) {
      if (order.length >= options.maxLines) break;
      const entry = entries.get(id)!;
      if (decisions.get(id) === 'paired') continue;
      const prev = entry.item.previous?.();
      if (prev === undefined || entries.has(prev.candidate.id)) continue;
      if (textTokens(prev, -1, labels, env.speakerOf, counter) > maxWhole || (goneOf(prev)?.size ?? 0) > 0) continue;
      if (tryCommit(prev, 'all', 'paired')) paired.push(prev.candidate.id);
    }
  }
  for (const item of relevant) if (!decisions.has(item.candidate.id)) decisions.set(item.candidate.id, 'over-budget');
  // Exact count of the rendered block; drop the last lines while it is over (BPE merges at joins).
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

function renderBlock(entries: readonly Entry[], env: PackEnv): { text: string; records: RecordLine[]; docs: DocLine[] } {
  const records: RecordLine[] = [];
  const docs: DocLine[] = [];
  for (const e of entries) {
    const turn = e.item.turn;
    const parts = lineParts(e.item, e.pieces);
    if (turn !== undefined) records.push({ id: turn.id, time: turn.time, seq: turn.seq, speaker: env.speakerOf(turn), parts, ...(e.note === '' ? {} : { note: e.note }) });
    else if (e.item.doc !== undefined) docs.push({ id: e.item.doc.id, source: e.item.doc.source, part: e.item.doc.part, parts });
  }
  const text = renderRetrieved(records, docs, env.labels, env.offsetMinutes, env.yearEveryDay === true);
  return { text, records, docs };
}

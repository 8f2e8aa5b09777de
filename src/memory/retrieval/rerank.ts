/**
 * Candidates and reranking. Candidates come from three searches over the allowed sessions: BM25 over whole
 * turns (scored with the exchange around them: a question's words help its answer and back), BM25 over
 * sentences, and the built-in embedder's vectors. Each candidate then gets features that a person can read —
 * lexical, exchange context, sentence, vector, shared entities, speaker named, date match, thread relevance,
 * recency, heat, intent fit, persona (a conjecture about a person — or, in the chat's own turns, a first-person
 * conjecture about the user — meets that person speaking about themselves;
 * persona.ts), stated (a question about a value over time meets the person asked about stating one;
 * value-over-time.ts).
 * The score is a weighted sum: evidence (what ties the chunk to the query — its words, its exchange, its entities,
 * its date, its vector beyond chance) plus modifiers (its thread matches, it is recent, the query names its
 * speaker, its intent fits, it is a self-statement the conjecture asks about, it states the value asked about,
 * it is cold).
 * A chunk with no evidence scores 0 however recent or well placed. No model: a reranker that explains itself.
 */
import { gatherCandidates, type GatherContext, type GatherOptions } from './candidates.ts';
import type { IntentTag } from './intent.ts';
import { intentFit } from './intent.ts';
import { rolesNamedBy } from './addressed.ts';
import { asksAboutUser, isHypothetical } from './persona.ts';
import { setsNewValue, statesValue, valueQuestion } from './value-over-time.ts';
import type { RetrievalQuery } from './query.ts';
import type { TurnEntry, TurnRole } from './records.ts';
import { dayOf } from './render.ts';
import { LastMemo, type SharedSearch } from './search-memo.ts';
import { terms } from './text-terms.ts';
import { DAY_MS } from '../../shared/time.ts';

export interface Features {
  /** BM25 of the turn, over the best in this search: [0, 1]. */
  readonly lexical: number;
  /** BM25 of the turns before and after it in its session (its exchange), same scale. */
  readonly context: number;
  /** BM25 of its best sentence, over the best sentence in this search. */
  readonly sentence: number;
  /** Cosine of the built-in embedder's vectors. */
  readonly vector: number;
  /** Entities shared with the query (working-memory entities, names), saturating at 3. */
  readonly entities: number;
  /** The query names the turn's speaker. */
  readonly speaker: number;
  /** A date in the query is the turn's day or a date it mentions (or a month the query names holds one of them). */
  readonly date: number;
  /**
   * How well its session matches: the best lexical score among the session's turns, against the best candidate's,
   * at most 1.5 (the session's best may be a turn the prompt already holds, with no lexical candidate to compare).
   */
  readonly thread: number;
  /** 1 now, halving every `recencyHalfLifeDays`. */
  readonly recency: number;
  /** 1 when cold: a candidate in its last `coldAfter` chances and never injected. */
  readonly cold: number;
  /** Fit of intent tags (troubleshooting / concept / procedure, resolved / unresolved). */
  readonly intent: number;
  /**
   * A conjecture about a person ("Would X likely …?", "What might X …?") and a turn in which X says something
   * about themselves ("I love …", "my dream …", 我喜欢 …): what such a question is answered from.
   */
  readonly persona: number;
  /**
   * The share of the query's term weight the turn's words hold (`Candidate.match`: IDF smoothed, or ¾ of its
   * exchange neighbour's): unlike BM25's score it is not lowered for a long turn, so the one turn that holds the
   * question's rare word outranks short ones that hold only its common words.
   */
  readonly coverage: number;
  /**
   * A question about a value over time and a turn in which the person asked about states one (value-over-time.ts):
   * for what holds now ("现在几点执行？"), a turn that sets a new value (就改到 03:15, "bumped it to 64"); for what it
   * was, how it changed or when (先后用过哪些, "when did…"), a turn that states a value and shares the question's words.
   */
  readonly stated: number;
}

export type FeatureName = keyof Features;

export type RerankWeights = Readonly<Record<FeatureName, number>>;

/** Cosines below this are what unrelated texts share by chance (hashed n-grams); only the excess is evidence. */
export const VECTOR_FLOOR = 0.1;

export const DEFAULT_WEIGHTS: RerankWeights = Object.freeze({
  lexical: 1,
  context: 0.5,
  sentence: 0.15,
  vector: 0.5,
  entities: 0.3,
  speaker: 0.15,
  date: 0.8,
  thread: 0.4,
  recency: 0.05,
  cold: -0.05,
  intent: 0.15,
  persona: 0.8,
  coverage: 1,
  stated: 0.5,
});

/** Pool size (seed 001: top 20 per search; more when the budget can hold more), exchange weights, feedback. */
export interface RerankOptions extends GatherOptions {
  readonly weights: RerankWeights;
  readonly recencyHalfLifeDays: number;
  /** Misses in a row that make a chunk cold (seed 001 §4.1: not recalled in its last 5 chances). */
  readonly coldAfter: number;
}

export const DEFAULT_RERANK_OPTIONS: RerankOptions = Object.freeze({
  weights: DEFAULT_WEIGHTS,
  poolSize: 20,
  previousWeight: 1,
  nextWeight: 0.6,
  recencyHalfLifeDays: 30,
  coldAfter: 5,
  feedbackDocs: 5,
  feedbackTerms: 10,
  feedbackWeight: 0.3,
});

export interface Candidate {
  readonly id: string;
  /** Where it was found: 'lexical' | 'sentence' | 'vector' (one or more). */
  readonly sources: readonly string[];
  readonly features: Features;
  readonly score: number;
  /**
   * How much of the query the chunk's words hold, on an absolute scale (unlike `features.lexical`, which is
   * relative to this search's best): the share of the query terms' weighted IDF that it holds (terms no chunk
   * holds count in the whole), or a little less of what the turn before or after it holds (its exchange). A
   * message about something never discussed leaves every chunk near 0, however the relative scores rank them.
   */
  readonly match: number;
  /** Index into the turn's pieces of its best sentence, or -1. */
  readonly bestPiece: number;
  /** Its slot in its shard's turn index (-1 for a turn that is not a candidate itself: a paired one). */
  readonly slot: number;
}

/** The conversation-specific view the reranker needs; docs pass a flat one. */
export interface CandidateContext extends GatherContext {
  /** The turn in a slot of the shard's turn index (docs have none). */
  readonly turnAt?: (slot: number) => TurnEntry | undefined;
  readonly now: number;
  /** Intent tags of the chunk in a slot. */
  readonly tags: (slot: number) => readonly IntentTag[];
  /** Whether a chunk states something about its speaker (see persona.ts); docs leave it out. */
  readonly selfStatement?: (id: string) => boolean;
}

export function rankCandidates(
  query: RetrievalQuery,
  ctx: CandidateContext,
  options: RerankOptions = DEFAULT_RERANK_OPTIONS,
  offsetMinutes = 0,
): Candidate[] {
  const { shard } = ctx;
  const found = gatherCandidates(query, ctx, options);
  const { ids, slots, lexical, pieceScore, vector, thread } = found;
  const turns = shard.turns;
  let maxLexical = 1e-9;
  let maxPiece = 1e-9;
  for (let i = 0; i < ids.length; i++) {
    maxLexical = Math.max(maxLexical, lexical.bySlot[slots[i]!]!);
    maxPiece = Math.max(maxPiece, pieceScore[i]!);
  }
  // Turns with roles, not names: the roles whose names the question says, from how the candidates address them.
  const turnAt = ctx.turnAt;
  const namedRoles = turnAt === undefined ? new Set<TurnRole>() : rolesNamedBy(query.message, candidateTurns(slots, ids.length, turnAt));
  const own = ownFeaturesOf(query, ctx, options, offsetMinutes, found.search, namedRoles, (slot) => lexical.bySlot[slot]! > 0);
  const coverageQuery = shard.turns.prepareCoverage(query.terms, COVERAGE_PRIOR, unheldShare);
  const links = ctx.links;
  const matchOf = (slot: number): number => {
    const own = shard.turns.coverage(slot, coverageQuery);
    if (links === undefined || own >= 1) return own;
    return Math.max(own, EXCHANGE_MATCH * Math.max(shard.turns.coverage(links.prev(slot), coverageQuery), shard.turns.coverage(links.next(slot), coverageQuery)));
  };
  const kept =
    ctx.turnAt === undefined
      ? null
      : keptBySlot(scoredMemos, found.search, [maxLexical, maxPiece, shard.heatRevision, options.weights, options.coldAfter, options.recencyHalfLifeDays, options.previousWeight, options.nextWeight, ctx.now, offsetMinutes]);
  const w = options.weights;
  const ranked: Candidate[] = new Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const slot = slots[i]!;
    const known = kept?.[slot];
    if (known !== undefined) {
      ranked[i] = { id, sources: found.sources[i]!, features: known.features, score: known.score, match: known.match, bestPiece: found.pieceIndex[i]!, slot };
      continue;
    }
    const mine = own(id, slot);
    const match = matchOf(slot);
    const features: Features = {
      lexical: lexical.bySlot[slot]! / maxLexical,
      context: Math.min(1.5, found.contextOf(slot) / maxLexical),
      sentence: pieceScore[i]! / maxPiece,
      vector: Math.max(0, vector[i]!),
      entities: mine.entities,
      speaker: mine.speaker,
      date: mine.date,
      thread: Math.min(1.5, thread[turns.scopeCodeOf(slot)]! / maxLexical),
      recency: mine.recency,
      cold: shard.missStreakAt(slot) >= options.coldAfter ? 1 : 0,
      intent: mine.intent,
      persona: mine.persona,
      coverage: match,
      stated: mine.stated,
    };
    const score = scoreOf(features, w);
    if (kept !== null) kept[slot] = { features, score, match };
    ranked[i] = { id, sources: found.sources[i]!, features, score, match, bestPiece: found.pieceIndex[i]!, slot };
  }
  return ranked.sort((a, b) => b.score - a.score);
}

/** Documents assumed to hold none of a query's terms when weighing them for `match` (see `Bm25Index.prepareCoverage`). */
export const COVERAGE_PRIOR = 50;
/**
 * How much a Chinese query bigram that no turn holds counts in `match`'s whole. Cut into overlapping bigrams, a
 * Chinese sentence yields about as many that span two words (务在, 器监) as words: no turn holds those, and counted
 * whole they halve a Chinese question's match against the same evidence in English. A word no turn holds (a Latin
 * term) still counts whole: a message about something never discussed keeps a match near 0.
 */
const UNHELD_BIGRAM_SHARE = 0.25;
const unheldShare = (term: string): number => (term.length === 3 && term.startsWith('~') ? UNHELD_BIGRAM_SHARE : 1);

/** A turn's match through its exchange: this share of its neighbour's (an answer to a matched question). */
const EXCHANGE_MATCH = 0.75;

/**
 * Conversation candidates' features, scores and matches by slot, kept with the searches they came from under everything
 * else they depend on (`key`: the two scales, which are the best lexical and sentence scores among the
 * candidates; heat; the options; the time): the pipeline's second pass over a query reranks mostly the same
 * candidates, usually under the same scales.
 */
const scoredMemos: SlotMemos<{ features: Features; score: number; match: number }> = new WeakMap();

/** Values by slot, kept with a search under a key. */
type SlotMemos<T> = WeakMap<SharedSearch, LastMemo<Array<T | undefined>>>;

/** The values kept with `search` under `key` (plain values compared one by one); none yet when the key is new. */
function keptBySlot<T>(memos: SlotMemos<T>, search: SharedSearch, key: readonly unknown[]): Array<T | undefined> {
  let memo = memos.get(search);
  if (memo === undefined) memos.set(search, (memo = new LastMemo()));
  let bySlot = memo.get(key);
  if (bySlot === undefined) memo.set(key, (bySlot = []));
  return bySlot;
}

/** The features of a candidate that depend only on the query and the chunk, not on the other candidates. */
type OwnFeatures = Pick<Features, 'entities' | 'speaker' | 'date' | 'recency' | 'intent' | 'persona' | 'stated'>;

/**
 * Own features by slot, kept with the searches they were worked out for: a second pass over the same query (the
 * pipeline's, after a compaction) reranks mostly the same conversation candidates, and only their scales (the
 * best lexical and sentence scores among them) can differ. Docs are not kept: the retriever keeps their whole
 * ranking.
 */
const ownMemos: SlotMemos<OwnFeatures> = new WeakMap();

function* candidateTurns(slots: ArrayLike<number>, n: number, turnAt: (slot: number) => TurnEntry | undefined): Generator<TurnEntry> {
  for (let i = 0; i < n; i++) {
    const turn = turnAt(slots[i]!);
    if (turn !== undefined) yield turn;
  }
}

function ownFeaturesOf(
  query: RetrievalQuery,
  ctx: CandidateContext,
  options: RerankOptions,
  offsetMinutes: number,
  search: SharedSearch,
  namedRoles: ReadonlySet<TurnRole>,
  /** Whether the chunk in a slot holds any of the query's words (its own, not its exchange's). */
  holdsWords: (slot: number) => boolean,
): (id: string, slot: number) => OwnFeatures {
  const speakerTerms = new Set(terms(query.message));
  const named = new Map<string, boolean>();
  const names = (speaker: string): boolean => {
    let n = named.get(speaker);
    if (n === undefined) named.set(speaker, (n = terms(speaker).some((t) => speakerTerms.has(t))));
    return n;
  };
  const hypothetical = isHypothetical(query.message);
  // The chat's own turns carry a role, not a name: a first-person conjecture is about the user.
  const aboutUser = hypothetical && asksAboutUser(query.message);
  const halfLifeMs = options.recencyHalfLifeDays * DAY_MS;
  const overTime = valueQuestion(query.message);
  // Now: a turn that sets a new value (it may share no word: the subject was in the turn before). The past: a
  // turn that states a value and holds the question's words.
  const statesAsked = (kind: 'now' | 'past', text: string, slot: number): boolean => (kind === 'now' ? setsNewValue(text) : holdsWords(slot) && statesValue(text));
  const compute = (id: string, slot: number): OwnFeatures => {
    const turn = ctx.turnAt?.(slot);
    const shared = turn === undefined ? 0 : countShared(turn.entities, query.entities);
    // (The day is only needed when the query names one.)
    const dated = turn !== undefined && (query.dates.length > 0 || query.months.length > 0) && isDated(turn, query.dates, query.months, offsetMinutes);
    const speaker = turn === undefined ? 0 : turn.speaker !== undefined ? (names(turn.speaker) ? 1 : 0) : namedRoles.has(turn.role) ? 1 : 0;
    return {
      entities: Math.min(1, shared / 3),
      speaker,
      date: dated ? 1 : 0,
      recency: turn === undefined ? 0 : 0.5 ** (Math.max(0, ctx.now - turn.time) / halfLifeMs),
      intent: intentFit(query.tags, ctx.tags(slot)),
      persona:
        hypothetical && (speaker === 1 || (aboutUser && turn !== undefined && turn.speaker === undefined && turn.role === 'user')) && ctx.selfStatement?.(id) === true ? 1 : 0,
      stated: overTime !== null && turn !== undefined && byAskedAbout(turn, speaker, namedRoles) && statesAsked(overTime, turn.text, slot) ? 1 : 0,
    };
  };
  if (ctx.turnAt === undefined) return compute;
  const bySlot = keptBySlot(ownMemos, search, [ctx.now, offsetMinutes, options.recencyHalfLifeDays]);
  return (id, slot) => (bySlot[slot] ??= compute(id, slot));
}

/**
 * Evidence (lexical, context, sentence, vector, entities, date: what ties a chunk to the query) adds up; the
 * other features only scale the sum: without evidence, the modifiers alone (thread, recency…) cannot bring a
 * chunk in. Written out feature by feature, in the order of `Features`: a loop over their names costs a keyed
 * look-up per feature, and this runs for every candidate of every search.
 */
export function scoreOf(f: Features, w: RerankWeights): number {
  const evidence =
    w.lexical * f.lexical +
    w.context * f.context +
    w.sentence * f.sentence +
    (w.vector * Math.max(0, f.vector - VECTOR_FLOOR)) / (1 - VECTOR_FLOOR) +
    w.entities * f.entities +
    w.date * f.date +
    w.coverage * f.coverage;
  const modifiers = w.speaker * f.speaker + w.thread * f.thread + w.recency * f.recency + w.cold * f.cold + w.intent * f.intent + w.persona * f.persona + w.stated * f.stated;
  return evidence > 0 ? Math.max(0, evidence + modifiers) : 0;
}

/**
 * Whether a turn is by the person a question asks about: the speaker it names (a transcript with names), the role
 * whose name it says (roles only: addressed.ts), or else the user, who states the setup in the app's own chats.
 */
function byAskedAbout(turn: TurnEntry, speaker: number, namedRoles: ReadonlySet<TurnRole>): boolean {
  if (turn.speaker !== undefined) return speaker === 1;
  return namedRoles.size > 0 ? namedRoles.has(turn.role) : turn.role === 'user';
}

function countShared(entities: readonly string[], query: ReadonlySet<string>): number {
  let n = 0;
  for (const e of entities) if (query.has(e)) n += 1;
  return n;
}

/** A date in the query is the turn's day or a date it mentions. */
function isDated(turn: TurnEntry, dates: readonly string[], months: readonly string[], offsetMinutes: number): boolean {
  const day = dayOf(turn.time, offsetMinutes);
  return dates.some((d) => d === day || turn.dates.includes(d)) || months.some((m) => day.startsWith(m) || turn.dates.some((d) => d.startsWith(m)));
}

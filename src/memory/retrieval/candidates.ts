/**
 * Gathering candidates for the reranker from three searches over the allowed sessions: BM25 over whole turns
 * (scored with the exchange around them: a question's words help its answer and back, with pseudo-relevance
 * feedback), BM25 over sentences, and the built-in embedder's vectors; and, when the query names a day, the turns
 * written on it ("what did I cook on 9 November?" is answered by that day's talk, whatever its words). Every stage
 * works on slots of the shard's indexes — typed arrays, no per-document maps — and keeps only the pool's best (ties
 * to the document reached first, as a stable sort of everything would). Pure, no DOM.
 */
import { TopK } from '../vector-index/index.ts';
import { Bm25Index, type Bm25Scores } from './bm25.ts';
import { bestPieceOf } from './best-piece.ts';
import { feedback, type FeedbackOptions } from './feedback.ts';
import type { SlotLinks } from './links.ts';
import type { RetrievalQuery } from './query.ts';
import type { Shard } from './retrieval-index.ts';
import type { FirstOrder, SharedSearch } from './search-memo.ts';

export interface GatherOptions extends FeedbackOptions {
  /** How many each search contributes. */
  readonly poolSize: number;
  /**
   * The largest pool a later call with the same query may ask for (default: `poolSize`): the searches are run
   * that deep once and kept, and each call takes its pool from the top of them — the top n of a ranking is the
   * start of its top m ≥ n, so this changes no result.
   */
  readonly searchDepth?: number;
  /** Weights of the previous and next turn's BM25 in the exchange score. */
  readonly previousWeight: number;
  readonly nextWeight: number;
}

export interface GatherContext {
  readonly shard: Shard;
  /** Which scopes a search may read (undefined: every scope — the searches then filter nothing). */
  readonly allow: ((scope: string) => boolean) | undefined;
  readonly scopes: readonly string[] | undefined;
  readonly exclude: ReadonlySet<string>;
  /** Conversation turns' neighbours in their session (docs have none: no exchange). */
  readonly links?: SlotLinks;
  /**
   * Names what `allow` and `scopes` admit (e.g. the session and whether other sessions are open): with it, the
   * searches that do not depend on `exclude` are kept for the next call with the same query object, which then
   * differs only in what it leaves out (the pipeline's second pass).
   */
  readonly scopeKey?: string;
  /** The turns written on the query's days (slots, any order), when it names any; conversations only. */
  readonly writtenOn?: (days: readonly string[]) => readonly number[];
}

/** Where a candidate was found, by bit: 1 lexical, 2 sentence, 4 vector, 8 written on a day the query names. */
const LEXICAL = 1;
const SENTENCE = 2;
const VECTOR = 4;
const DAY = 8;

/** The source names of each bit combination, in the order the searches run (shared: candidates never change them). */
const SOURCE_NAMES: ReadonlyArray<readonly string[]> = Array.from({ length: 16 }, (_, bits) =>
  Object.freeze([
    ...(bits & LEXICAL ? ['lexical'] : []),
    ...(bits & SENTENCE ? ['sentence'] : []),
    ...(bits & VECTOR ? ['vector'] : []),
    ...(bits & DAY ? ['day'] : []),
  ]),
);

/** The candidates and what the reranker reads about them; the arrays are by candidate, in the order of `ids`. */
export interface Gathered {
  /** Candidate ids, in the order they were found (lexical pool, then sentences, then vectors). */
  readonly ids: readonly string[];
  /** Each candidate's slot in `shard.turns`. */
  readonly slots: Int32Array;
  readonly sources: ReadonlyArray<readonly string[]>;
  /** BM25 of each turn of the shard (after feedback), dense by slot of `shard.turns`. */
  readonly lexical: Bm25Scores;
  /** The exchange score of a turn: its neighbours' BM25, weighted. */
  readonly contextOf: (slot: number) => number;
  /** Each candidate's best sentence: its index (-1: none) and BM25. */
  readonly pieceIndex: Int32Array;
  readonly pieceScore: Float64Array;
  /**
   * Each candidate's cosine with the query — floored at 0 where the vector search did not return it (the reranker
   * reads max(0, cosine)) — or 0 without an embedder.
   */
  readonly vector: Float64Array;
  /** The best BM25 among each scope's turns, dense by scope code of `shard.turns`. */
  readonly thread: Float64Array;
  /** The searches these came from: the same object for every call they serve (what is worked out per query may be kept with it). */
  readonly search: SharedSearch;
}

export function gatherCandidates(query: RetrievalQuery, ctx: GatherContext, options: GatherOptions): Gathered {
  const { shard } = ctx;
  const turns = shard.turns;
  const pool = options.poolSize;
  // Per slot, dense (a search touches thousands of a docs shard's slots, and maps of them cost more than arrays):
  // 1 for a slot never to inject; then each candidate's place in the lists below + 1, its best sentence's index
  // into the sentence hits + 1, its vector hit's index + 1 (0: none).
  const slotCount = turns.slotCount;
  const excluded = new Uint8Array(slotCount);
  for (const id of ctx.exclude) {
    const slot = turns.slotOf(id);
    if (slot !== undefined) excluded[slot] = 1;
  }

  const key = ctx.scopeKey === undefined ? null : [query, shard.version, ctx.scopeKey, options.feedbackDocs, options.feedbackTerms, options.feedbackWeight];
  let shared = key === null ? undefined : shard.searchMemo.get(key);
  if (shared === undefined || shared.depth < pool) {
    const depth = Math.max(pool, options.searchDepth ?? pool);
    // 1. Lexical over whole turns: every turn sharing a term (postings only), so neighbours' scores are known.
    let lexical = turns.scoreAll(query.terms, ctx.allow);
    const added = feedback(query.terms, lexical, shard, options);
    if (added !== null) lexical = turns.scoreMore(lexical, added, ctx.allow);
    const pieceScores = shard.pieces.scoreAll(query.terms, ctx.allow);
    shared = {
      depth,
      lexical,
      pieceScores: pieceScores.bySlot,
      pieceHits: Bm25Index.best(pieceScores, depth * 4),
      // (`allow` agrees with `scopes`, so the filter after the search takes nothing from the top.)
      vectorHits: [...shard.vectorSearch(query.vectorText, depth, ctx.allow, ctx.scopes)],
      cosines: new Map(),
      thread: threads(lexical, turns),
      firstOrder: null,
    };
    if (key !== null) shard.searchMemo.set(key, shared);
  }
  const { lexical, thread } = shared;
  const scores = lexical.bySlot;
  const links = ctx.links;
  const contextOf = (slot: number): number => {
    if (links === undefined) return 0;
    const prev = links.prev(slot);
    const next = links.next(slot);
    return options.previousWeight * (prev < 0 ? 0 : scores[prev]!) + options.nextWeight * (next < 0 ? 0 : scores[next]!);
  };
  // The lexical pool: the best `pool` turns not left out. The order of every turn reached is worked out once per
  // search, a little deeper than its deepest pool (for the turns a call leaves out), and each call takes its
  // pool from the top, skipping what it leaves out: what a top k of the rest keeps, in the same order.
  let order = shared.firstOrder;
  if (order === null || order.previousWeight !== options.previousWeight || order.nextWeight !== options.nextWeight) {
    order = shared.firstOrder = firstOrderOf(lexical, contextOf, shared.depth + Math.max(FIRST_MARGIN, 2 * ctx.exclude.size), options);
  }
  const lexicalPool: number[] = [];
  for (let i = 0; i < order.slots.length && lexicalPool.length < pool; i++) if (excluded[order.slots[i]!] === 0) lexicalPool.push(order.slots[i]!);
  if (lexicalPool.length < pool && !order.complete) {
    // Left out more of the order's turns than it holds spare: rank the rest whole.
    const firstStage = new TopK<number>(pool);
    for (const slot of lexical.slots) if (excluded[slot] === 0) firstStage.push(scores[slot]! + contextOf(slot), slot);
    lexicalPool.length = 0;
    for (const { item } of firstStage.result()) lexicalPool.push(item);
  }

  // Candidates by slot, with the bits of the searches that found them; turns never to inject are not candidates.
  const found = new Int32Array(slotCount);
  const candidateSlots: number[] = [];
  const bits: number[] = [];
  const note = (slot: number, source: number): void => {
    const at = found[slot]!;
    if (at !== 0) bits[at - 1]! |= source;
    else if (excluded[slot] === 0) {
      candidateSlots.push(slot);
      found[slot] = candidateSlots.length;
      bits.push(source);
    }
  };
  for (const slot of lexicalPool) note(slot, LEXICAL);

  // 2. Sentences: a turn whose one sentence matches well, even if the rest of it dilutes the turn's score. A
  // chunk's first hit is its best sentence; the first `pool` chunks reached are candidates.
  const bestHit = new Int32Array(slotCount);
  const pieceHits = shared.pieceHits;
  let chunksHit = 0;
  for (let h = 0; h < pieceHits.length && h < pool * 4; h++) {
    const slot = shard.pieceTurn[pieceHits[h]!.slot]!;
    if (bestHit[slot] === 0) {
      bestHit[slot] = h + 1;
      if (++chunksHit <= pool) note(slot, SENTENCE);
    }
  }

  // 3. Vectors: char n-grams catch spellings and inflections the terms miss.
  const vectorHits = shared.vectorHits;
  const vectorRank = new Int32Array(slotCount);
  for (let h = 0; h < vectorHits.length && h < pool; h++) {
    const slot = turns.slotOf(vectorHits[h]![0]);
    if (slot === undefined) continue;
    vectorRank[slot] = h + 1;
    note(slot, VECTOR);
  }

  // 4. The day the query names: its turns, the best by BM25 first (then in the order written), `pool` at most.
  if (query.dates.length > 0 && ctx.writtenOn !== undefined) {
    const onDay = ctx.writtenOn(query.dates).filter((slot) => excluded[slot] === 0);
    onDay.sort((a, b) => scores[b]! - scores[a]! || a - b);
    for (let i = 0; i < onDay.length && i < pool; i++) note(onDay[i]!, DAY);
  }

  const n = candidateSlots.length;
  const ids = candidateSlots.map((slot) => turns.idOf(slot));
  const slots = new Int32Array(candidateSlots);
  const pieceIndex = new Int32Array(n);
  const pieceScore = new Float64Array(n);
  const vector = new Float64Array(n);
  const { cosines } = shared;
  // Cosines for candidates the vector search did not return, floored at 0 as the reranker reads them
  // (remembered for a later pass over the same query).
  const missing = ids.filter((id, i) => vectorRank[slots[i]!] === 0 && !cosines.has(id));
  if (missing.length > 0) shard.positiveCosines(missing, query.vectorText, cosines);
  for (let i = 0; i < n; i++) {
    const slot = slots[i]!;
    const rank = vectorRank[slot]!;
    vector[i] = rank !== 0 ? vectorHits[rank - 1]![1] : (cosines.get(ids[i]!) ?? 0);
    const hit = bestHit[slot]!;
    if (hit !== 0) {
      pieceIndex[i] = shard.pieceIndex[pieceHits[hit - 1]!.slot]!;
      pieceScore[i] = pieceHits[hit - 1]!.score;
    } else {
      // Best sentence for candidates the sentence search did not reach.
      const best = bestPieceOf(slot, shard, shared.pieceScores);
      pieceIndex[i] = best.index;
      pieceScore[i] = best.score;
    }
  }
  return { ids, slots, sources: bits.map((b) => SOURCE_NAMES[b]!), lexical, contextOf, pieceIndex, pieceScore, vector, thread, search: shared };
}

/** Turns the lexical pool's order holds beyond the deepest pool, for those a call leaves out (at least). */
const FIRST_MARGIN = 64;

/** The first `depth` turns reached, by BM25 with their exchange, best first (ties to the turn reached first). */
function firstOrderOf(lexical: Bm25Scores, contextOf: (slot: number) => number, depth: number, options: GatherOptions): FirstOrder {
  const top = new TopK<number>(depth);
  const scores = lexical.bySlot;
  for (const slot of lexical.slots) top.push(scores[slot]! + contextOf(slot), slot);
  const slots = Int32Array.from(top.result(), (hit) => hit.item);
  return { slots, complete: slots.length === lexical.slots.length, previousWeight: options.previousWeight, nextWeight: options.nextWeight };
}

/** The best BM25 among each scope's turns, by scope code. */
function threads(lexical: Bm25Scores, turns: Bm25Index): Float64Array {
  const thread = new Float64Array(turns.scopeCount);
  const scores = lexical.bySlot;
  for (const slot of lexical.slots) {
    const code = turns.scopeCodeOf(slot);
    if (scores[slot]! > thread[code]!) thread[code] = scores[slot]!;
  }
  return thread;
}

/**
 * Gathering candidates for the reranker from three searches over the allowed sessions: BM25 over whole turns
 * (scored with the exchange around them: a question's words help its answer and back, with pseudo-relevance
 * feedback), BM25 over sentences, and the built-in embedder's vectors. Every stage works on slots of the
 * shard's indexes — typed arrays, no per-document maps — and keeps only the pool's best (ties to the document
 * reached first, as a stable sort of everything would). Pure, no DOM.
 */
import { TopK } from '../vector-index.ts';
import { Bm25Index, type Bm25Scores } from './bm25.ts';
import { bestPieceOf, type BestPiece } from './best-piece.ts';
import { feedback, type FeedbackOptions } from './feedback.ts';
import type { SlotLinks } from './links.ts';
import type { RetrievalQuery } from './query.ts';
import type { Shard } from './retrieval-index.ts';

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
  readonly allow: (scope: string) => boolean;
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
}

/** The candidates and what the reranker reads about them. */
export interface Gathered {
  /** Candidate ids, in the order they were found (lexical pool, then sentences, then vectors). */
  readonly ids: readonly string[];
  readonly sources: ReadonlyMap<string, ReadonlySet<string>>;
  /** BM25 of each turn of the shard (after feedback), dense by slot of `shard.turns`. */
  readonly lexical: Bm25Scores;
  /** The exchange score of a turn: its neighbours' BM25, weighted. */
  readonly contextOf: (slot: number) => number;
  readonly bestPiece: ReadonlyMap<string, BestPiece>;
  readonly vectors: ReadonlyMap<string, number>;
  /** The best BM25 among each scope's turns, dense by scope code of `shard.turns`. */
  readonly thread: Float64Array;
}

export function gatherCandidates(query: RetrievalQuery, ctx: GatherContext, options: GatherOptions): Gathered {
  const { shard } = ctx;
  const turns = shard.turns;
  const pool = options.poolSize;
  const excluded = new Set<number>();
  for (const id of ctx.exclude) {
    const slot = turns.slotOf(id);
    if (slot !== undefined) excluded.add(slot);
  }
  const usable = (id: string): boolean => !ctx.exclude.has(id);

  const key = ctx.scopeKey === undefined ? null : [query, shard.version, ctx.scopeKey, options.feedbackDocs, options.feedbackTerms, options.feedbackWeight];
  let shared = key === null ? undefined : shard.searchMemo.get(key);
  if (shared === undefined || shared.depth < pool) {
    const depth = Math.max(pool, options.searchDepth ?? pool);
    // 1. Lexical over whole turns: every turn sharing a term (postings only), so neighbours' scores are known.
    let lexical = turns.scoreAll(query.terms, ctx.allow);
    const expanded = feedback(query.terms, lexical, shard, options);
    if (expanded !== null) lexical = turns.scoreAll(expanded, ctx.allow);
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
  const firstStage = new TopK<number>(pool);
  for (const slot of lexical.slots) if (!excluded.has(slot)) firstStage.push(scores[slot]! + contextOf(slot), slot);

  const sources = new Map<string, Set<string>>();
  const note = (id: string, source: string): void => {
    if (!usable(id) || !shard.chunks.has(id)) return;
    let s = sources.get(id);
    if (s === undefined) sources.set(id, (s = new Set()));
    s.add(source);
  };
  for (const { item } of firstStage.result()) note(turns.idOf(item), 'lexical');

  // 2. Sentences: a turn whose one sentence matches well, even if the rest of it dilutes the turn's score.
  const bestPiece = new Map<string, BestPiece>();
  for (const hit of shared.pieceHits.slice(0, pool * 4)) {
    const id = shard.pieceChunk[hit.slot]!;
    if (!bestPiece.has(id)) {
      bestPiece.set(id, { index: shard.pieceIndex[hit.slot]!, score: hit.score });
      if (bestPiece.size <= pool) note(id, 'sentence');
    }
  }

  // 3. Vectors: char n-grams catch spellings and inflections the terms miss.
  const vectors = new Map(shared.vectorHits.slice(0, pool));
  for (const id of vectors.keys()) note(id, 'vector');

  const ids = [...sources.keys()];
  const { cosines } = shared;
  const missing = ids.filter((id) => !vectors.has(id) && !cosines.has(id));
  for (const [id, cos] of shard.cosines(missing, query.vectorText)) cosines.set(id, cos);
  for (const id of ids) if (!vectors.has(id) && cosines.has(id)) vectors.set(id, cosines.get(id)!);
  // Best sentence for candidates the sentence search did not reach.
  for (const id of ids) if (!bestPiece.has(id)) bestPiece.set(id, bestPieceOf(shard.chunks.get(id)!, shard, shared.pieceScores));
  return { ids, sources, lexical, contextOf, bestPiece, vectors, thread };
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

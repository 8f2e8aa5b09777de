/**
 * Candidates and reranking. Candidates come from three searches over the allowed sessions: BM25 over whole
 * turns (scored with the exchange around them: a question's words help its answer and back), BM25 over
 * sentences, and the built-in embedder's vectors. Each candidate then gets features that a person can read —
 * lexical, exchange context, sentence, vector, shared entities, speaker named, date match, thread relevance,
 * recency, heat, intent fit. The score is a weighted sum: evidence (what ties the chunk to the query — its
 * words, its exchange, its entities, its date, its vector beyond chance) plus modifiers (its thread matches, it
 * is recent, the query names its speaker, its intent fits, it is cold). A chunk with no evidence scores 0
 * however recent or well placed. No model: a reranker that explains itself.
 */
import type { IntentTag } from './intent.ts';
import { intentFit } from './intent.ts';
import type { RetrievalQuery } from './query.ts';
import type { Shard } from './retrieval-index.ts';
import type { TurnEntry } from './records.ts';
import { terms } from './text-terms.ts';

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
  /** A date in the query is the turn's day or a date it mentions. */
  readonly date: number;
  /** How well its session matches: the best lexical score among the session's turns. */
  readonly thread: number;
  /** 1 now, halving every `recencyHalfLifeDays`. */
  readonly recency: number;
  /** 1 when cold: a candidate in its last `coldAfter` chances and never injected. */
  readonly cold: number;
  /** Fit of intent tags (troubleshooting / concept / procedure, resolved / unresolved). */
  readonly intent: number;
}

export type FeatureName = keyof Features;

export type RerankWeights = Readonly<Record<FeatureName, number>>;

/** Features that tie a chunk to the query; the others only scale their sum. */
export const EVIDENCE_FEATURES: ReadonlySet<FeatureName> = new Set<FeatureName>(['lexical', 'context', 'sentence', 'vector', 'entities', 'date']);

/** Cosines below this are what unrelated texts share by chance (hashed n-grams); only the excess is evidence. */
export const VECTOR_FLOOR = 0.1;

export const DEFAULT_WEIGHTS: RerankWeights = Object.freeze({
  lexical: 1,
  context: 0.5,
  sentence: 0.15,
  vector: 0.5,
  entities: 0.3,
  speaker: 0.15,
  date: 0.4,
  thread: 0.4,
  recency: 0.05,
  cold: -0.05,
  intent: 0.15,
});

export interface RerankOptions {
  readonly weights: RerankWeights;
  /** How many each search contributes (seed 001: top 20; more when the budget can hold more). */
  readonly poolSize: number;
  /** Weights of the previous and next turn's BM25 in the context feature. */
  readonly previousWeight: number;
  readonly nextWeight: number;
  readonly recencyHalfLifeDays: number;
  /** Misses in a row that make a chunk cold (seed 001 §4.1: not recalled in its last 5 chances). */
  readonly coldAfter: number;
  /**
   * Pseudo-relevance feedback: the distinctive terms of the best few turns join the query at a low weight, so
   * a turn that says the same thing in other words still gets found ("degree" → "policymaking").
   */
  readonly feedbackDocs: number;
  readonly feedbackTerms: number;
  readonly feedbackWeight: number;
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
  /** Index into the turn's pieces of its best sentence, or -1. */
  readonly bestPiece: number;
}

/** The conversation-specific view the reranker needs; docs pass a flat one. */
export interface CandidateContext {
  readonly shard: Shard;
  readonly allow: (scope: string) => boolean;
  readonly scopes: readonly string[] | undefined;
  readonly exclude: ReadonlySet<string>;
  readonly turn?: (id: string) => TurnEntry | undefined;
  readonly neighbour?: (id: string, offset: number) => TurnEntry | undefined;
  readonly now: number;
  /** Tags of a chunk (doc chunks: computed on the fly). */
  readonly tags: (id: string) => readonly IntentTag[];
}

const DAY_MS = 86_400_000;

function isoDay(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

export function rankCandidates(
  query: RetrievalQuery,
  ctx: CandidateContext,
  options: RerankOptions = DEFAULT_RERANK_OPTIONS,
  offsetMinutes = 0,
): Candidate[] {
  const { shard } = ctx;
  const pool = options.poolSize;
  const usable = (id: string): boolean => !ctx.exclude.has(id);
  // 1. Lexical over whole turns: every turn sharing a term (cheap: postings only), so neighbours' scores are known.
  let lexical = shard.turns.scoreAll(query.terms, ctx.allow);
  const expanded = feedback(query.terms, lexical, shard, options);
  if (expanded !== null) lexical = shard.turns.scoreAll(expanded, ctx.allow);
  const contextOf = (id: string): number => {
    if (ctx.neighbour === undefined) return 0;
    const prev = ctx.neighbour(id, -1);
    const next = ctx.neighbour(id, 1);
    return (
      options.previousWeight * (prev === undefined ? 0 : (lexical.get(prev.id) ?? 0)) +
      options.nextWeight * (next === undefined ? 0 : (lexical.get(next.id) ?? 0))
    );
  };
  const firstStage = [...lexical.keys()]
    .filter(usable)
    .map((id) => ({ id, score: (lexical.get(id) ?? 0) + contextOf(id) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, pool);
  const sources = new Map<string, Set<string>>();
  const note = (id: string, source: string): void => {
    if (!usable(id) || !shard.chunks.has(id)) return;
    let s = sources.get(id);
    if (s === undefined) sources.set(id, (s = new Set()));
    s.add(source);
  };
  for (const c of firstStage) note(c.id, 'lexical');
  // 2. Sentences: a turn whose one sentence matches well, even if the rest of it dilutes the turn's score.
  const bestPiece = new Map<string, { index: number; score: number }>();
  const pieceHits = shard.pieces.search(query.terms, pool * 4, ctx.allow);
  for (const hit of pieceHits) {
    const cut = hit.id.lastIndexOf('#');
    const id = hit.id.slice(0, cut);
    if (!bestPiece.has(id)) {
      bestPiece.set(id, { index: Number(hit.id.slice(cut + 1)), score: hit.score });
      if (bestPiece.size <= pool) note(id, 'sentence');
    }
  }
  // 3. Vectors: char n-grams catch spellings and inflections the terms miss.
  const vectors = shard.vectorSearch(query.vectorText, pool, ctx.allow, ctx.scopes);
  for (const id of vectors.keys()) note(id, 'vector');

  const ids = [...sources.keys()];
  const missing = ids.filter((id) => !vectors.has(id));
  for (const [id, cos] of shard.cosines(missing, query.vectorText)) vectors.set(id, cos);
  // Best sentence for candidates the sentence search did not reach.
  for (const id of ids) {
    if (bestPiece.has(id)) continue;
    const chunk = shard.chunks.get(id)!;
    let best = { index: -1, score: 0 };
    chunk.pieces.forEach((_, i) => {
      const score = shard.pieces.score(`${id}#${i}`, query.terms);
      if (score > best.score) best = { index: i, score };
    });
    // No sentence matches (found through its exchange or its vector): the one that says the most — the
    // highest total IDF — and a statement rather than a question ("That's great!" and "Why?" tell nothing).
    if (best.index < 0 && chunk.pieces.length > 1) {
      let most = -1;
      chunk.pieces.forEach((p, i) => {
        let info = 0;
        for (const t of new Set(terms(p.text))) info += shard.pieces.idf(t);
        if (/[?？]\s*$/.test(p.text)) info *= 0.5;
        if (info > most) {
          most = info;
          best = { index: i, score: 0 };
        }
      });
    }
    bestPiece.set(id, best);
  }

  const maxLexical = Math.max(1e-9, ...ids.map((id) => lexical.get(id) ?? 0));
  const maxPiece = Math.max(1e-9, ...ids.map((id) => bestPiece.get(id)?.score ?? 0));
  const thread = new Map<string, number>();
  for (const [id, score] of lexical) {
    const scope = shard.chunks.get(id)?.scope;
    if (scope !== undefined && score > (thread.get(scope) ?? 0)) thread.set(scope, score);
  }
  const speakerTerms = new Set(terms(query.message));
  const w = options.weights;
  const ranked = ids.map((id): Candidate => {
    const turn = ctx.turn?.(id);
    const chunk = shard.chunks.get(id)!;
    const heat = shard.heatOf(id);
    const shared = turn === undefined ? 0 : turn.entities.filter((e) => query.entities.has(e)).length;
    const day = turn === undefined ? null : isoDay(turn.time, offsetMinutes);
    const dated = turn !== undefined && query.dates.some((d) => d === day || turn.dates.includes(d));
    const named = turn?.speaker !== undefined && terms(turn.speaker).some((t) => speakerTerms.has(t));
    const features: Features = {
      lexical: (lexical.get(id) ?? 0) / maxLexical,
      context: Math.min(1.5, contextOf(id) / maxLexical),
      sentence: (bestPiece.get(id)?.score ?? 0) / maxPiece,
      vector: Math.max(0, vectors.get(id) ?? 0),
      entities: Math.min(1, shared / 3),
      speaker: named ? 1 : 0,
      date: dated ? 1 : 0,
      thread: (thread.get(chunk.scope) ?? 0) / maxLexical,
      recency: turn === undefined ? 0 : 0.5 ** (Math.max(0, ctx.now - turn.time) / (options.recencyHalfLifeDays * DAY_MS)),
      cold: heat.missStreak >= options.coldAfter ? 1 : 0,
      intent: intentFit(query.tags, ctx.tags(id)),
    };
    // Evidence adds up; without any, the modifiers alone (thread, recency…) cannot bring a chunk in.
    let evidence = 0;
    let modifiers = 0;
    for (const name of Object.keys(w) as FeatureName[]) {
      if (!EVIDENCE_FEATURES.has(name)) modifiers += w[name] * features[name];
      else if (name === 'vector') evidence += (w[name] * Math.max(0, features.vector - VECTOR_FLOOR)) / (1 - VECTOR_FLOOR);
      else evidence += w[name] * features[name];
    }
    const score = evidence > 0 ? Math.max(0, evidence + modifiers) : 0;
    return { id, sources: [...sources.get(id)!], features, score, bestPiece: bestPiece.get(id)?.index ?? -1 };
  });
  return ranked.sort((a, b) => b.score - a.score);
}

/** The query plus the feedback terms (null when there is nothing to add). */
function feedback(
  query: ReadonlyMap<string, number>,
  lexical: ReadonlyMap<string, number>,
  shard: Shard,
  options: RerankOptions,
): Map<string, number> | null {
  if (options.feedbackDocs <= 0 || options.feedbackTerms <= 0 || options.feedbackWeight <= 0 || lexical.size === 0) return null;
  const top = [...lexical].sort((a, b) => b[1] - a[1]).slice(0, options.feedbackDocs);
  const weights = new Map<string, number>();
  const seenIn = new Map<string, number>();
  for (const [id] of top) {
    const chunk = shard.chunks.get(id);
    if (chunk === undefined) continue;
    for (const t of new Set(terms(chunk.text))) {
      if (query.has(t)) continue;
      weights.set(t, (weights.get(t) ?? 0) + shard.turns.idf(t));
      seenIn.set(t, (seenIn.get(t) ?? 0) + 1);
    }
  }
  // A term must recur in the feedback turns to say something about the topic rather than about one turn.
  const picked = [...weights]
    .filter(([t]) => (seenIn.get(t) ?? 0) >= 2)
    .sort((a, b) => b[1] - a[1])
    .slice(0, options.feedbackTerms);
  if (picked.length === 0) return null;
  const out = new Map(query);
  for (const [t] of picked) out.set(t, options.feedbackWeight);
  return out;
}

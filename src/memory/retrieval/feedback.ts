/**
 * Pseudo-relevance feedback: the distinctive terms of the best few turns of a first search join the query at a
 * low weight, so a turn that says the same thing in other words still gets found ("degree" → "policymaking").
 * Pure, no DOM.
 */
import { Bm25Index, type Bm25Scores } from './bm25.ts';
import type { Shard } from './retrieval-index.ts';

export interface FeedbackOptions {
  /** How many of the best turns lend their terms. */
  readonly feedbackDocs: number;
  /** How many terms join the query at most. */
  readonly feedbackTerms: number;
  /** The weight they join with. */
  readonly feedbackWeight: number;
}

/** The feedback terms that join the query, with their weight (null when there is nothing to add). */
export function feedback(query: ReadonlyMap<string, number>, lexical: Bm25Scores, shard: Shard, options: FeedbackOptions): Map<string, number> | null {
  if (options.feedbackDocs <= 0 || options.feedbackTerms <= 0 || options.feedbackWeight <= 0 || lexical.size === 0) return null;
  // The best turns; ties go to the turn reached first (a stable sort of everything would pick the same).
  const best = Bm25Index.best(lexical, options.feedbackDocs);
  const weights = new Map<string, number>();
  const seenIn = new Map<string, number>();
  for (const { slot } of best) {
    const chunk = shard.chunks.get(lexical.idOf(slot));
    if (chunk === undefined) continue;
    for (const t of chunk.textTerms) {
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
  return new Map(picked.map(([t]) => [t, options.feedbackWeight]));
}

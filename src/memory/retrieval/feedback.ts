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
  const turns = shard.turns;
  const inQuery = new Set<number>();
  for (const t of query.keys()) {
    const tid = turns.termIdOf(t);
    if (tid !== undefined) inQuery.add(tid);
  }
  // By term (id), in the order first met: the term, its IDF summed over the turns holding it, how many hold it.
  const place = new Map<number, number>();
  const names: string[] = [];
  const weights: number[] = [];
  const seenIn: number[] = [];
  for (const { slot } of best) {
    const chunk = shard.chunks.get(lexical.idOf(slot));
    if (chunk === undefined) continue;
    const ids = chunk.textTermIds;
    for (let i = 0; i < ids.length; i++) {
      const tid = ids[i]!;
      if (inQuery.has(tid)) continue;
      const at = place.get(tid);
      if (at === undefined) {
        place.set(tid, names.length);
        names.push(chunk.textTerms[i]!);
        weights.push(turns.idfOfId(tid));
        seenIn.push(1);
      } else {
        weights[at]! += turns.idfOfId(tid);
        seenIn[at]! += 1;
      }
    }
  }
  // A term must recur in the feedback turns to say something about the topic rather than about one turn.
  const picked = [...names.keys()]
    .filter((i) => seenIn[i]! >= 2)
    .sort((a, b) => weights[b]! - weights[a]!)
    .slice(0, options.feedbackTerms);
  if (picked.length === 0) return null;
  return new Map(picked.map((i) => [names[i]!, options.feedbackWeight]));
}

/**
 * Which sentence of a candidate to inject when only one fits: the one whose BM25 for the query is highest; when
 * none matches (the candidate was found through its exchange or its vector), the one that says the most — the
 * highest total IDF — and a statement rather than a question ("That's great!" and "Why?" tell nothing).
 * Pure, no DOM.
 */
import type { IndexedChunk, Shard } from './retrieval-index.ts';

export interface BestPiece {
  /** Index into the chunk's pieces, or -1. */
  readonly index: number;
  readonly score: number;
}

const QUESTION_END = /[?？]\s*$/;

/**
 * The best piece of a chunk, given the query's BM25 over `shard.pieces` dense by slot (the sentence search's own
 * scores: one pass over the postings scores every sentence, so none is scored twice).
 */
export function bestPieceOf(chunk: IndexedChunk, shard: Shard, pieceScores: Float64Array): BestPiece {
  let best: BestPiece = { index: -1, score: 0 };
  for (let i = 0; i < chunk.pieces.length; i++) {
    const score = pieceScores[chunk.pieceSlots[i]!] ?? 0;
    if (score > best.score) best = { index: i, score };
  }
  if (best.index >= 0 || chunk.pieces.length <= 1) return best;
  return { index: mostInformative(chunk, shard), score: 0 };
}

/**
 * The most informative pieces, by chunk id, while the shard's statistics (its version) are unchanged: they do
 * not depend on the query, and a docs search finds most of its chunks by vector alone, with no word matching.
 */
const informative = new WeakMap<Shard, { version: number; byChunk: Map<string, number> }>();

function mostInformative(chunk: IndexedChunk, shard: Shard): number {
  let memo = informative.get(shard);
  if (memo === undefined || memo.version !== shard.version) informative.set(shard, (memo = { version: shard.version, byChunk: new Map() }));
  let index = memo.byChunk.get(chunk.id);
  if (index === undefined) {
    let most = -1;
    chunk.pieces.forEach((p, i) => {
      let info = 0;
      for (const tid of chunk.pieceTermIds[i]!) info += shard.pieces.idfOfId(tid);
      if (QUESTION_END.test(p.text)) info *= 0.5;
      if (info > most) {
        most = info;
        index = i;
      }
    });
    memo.byChunk.set(chunk.id, (index ??= 0));
  }
  return index;
}

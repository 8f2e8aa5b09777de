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
  let most = -1;
  chunk.pieces.forEach((p, i) => {
    let info = 0;
    for (const tid of chunk.pieceTermIds[i]!) info += shard.pieces.idfOfId(tid);
    if (QUESTION_END.test(p.text)) info *= 0.5;
    if (info > most) {
      most = info;
      best = { index: i, score: 0 };
    }
  });
  return best;
}

/**
 * Which sentence of a candidate to inject when only one fits: the one whose BM25 for the query is highest; when
 * none matches (the candidate was found through its exchange or its vector), the one that says the most — the
 * highest total IDF — and a statement rather than a question ("That's great!" and "Why?" tell nothing).
 * Pure, no DOM.
 */
import type { PreparedQuery } from './bm25.ts';
import type { IndexedChunk, Shard } from './retrieval-index.ts';

export interface BestPiece {
  /** Index into the chunk's pieces, or -1. */
  readonly index: number;
  readonly score: number;
}

const QUESTION_END = /[?？]\s*$/;

/** The best piece of a chunk for a query prepared against `shard.pieces`. */
export function bestPieceOf(chunk: IndexedChunk, shard: Shard, query: PreparedQuery): BestPiece {
  let best: BestPiece = { index: -1, score: 0 };
  for (let i = 0; i < chunk.pieces.length; i++) {
    const score = shard.pieces.scoreSlot(chunk.pieceSlots[i]!, query);
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

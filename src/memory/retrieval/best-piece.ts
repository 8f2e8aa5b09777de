/**
 * Which sentence of a candidate to inject when only one fits: the one whose BM25 for the query is highest; when
 * none matches (the candidate was found through its exchange or its vector), the one that says the most — the
 * highest total IDF — and a statement rather than a question ("That's great!" and "Why?" tell nothing).
 * Pure, no DOM.
 */
import type { Shard } from './retrieval-index.ts';

export interface BestPiece {
  /** Index into the chunk's pieces, or -1. */
  readonly index: number;
  readonly score: number;
}

const QUESTION_END = /[?？]\s*$/;

/**
 * The best piece of the chunk at `slot` of `shard.turns`, given the query's BM25 over `shard.pieces` dense by slot
 * (the sentence search's own scores: one pass over the postings scores every sentence, so none is scored twice).
 * Read by slot from the shard's arrays: a docs search asks this of a hundred chunks out of ten thousand.
 */
export function bestPieceOf(slot: number, shard: Shard, pieceScores: Float64Array): BestPiece {
  const first = shard.firstPiece[slot]!;
  const count = shard.pieceCount[slot]!;
  let index = -1;
  let score = 0;
  for (let i = 0; i < count; i++) {
    const s = pieceScores[first + i] ?? 0;
    if (s > score) {
      index = i;
      score = s;
    }
  }
  if (index >= 0 || count <= 1) return { index, score };
  return { index: mostInformative(slot, shard), score: 0 };
}

/**
 * The most informative pieces, by slot of `shard.turns`, while the shard's statistics (its version) are
 * unchanged: they do not depend on the query, and a docs search finds most of its chunks by vector alone, with
 * no word matching.
 */
const informative = new WeakMap<Shard, { version: number; bySlot: Map<number, number> }>();

function mostInformative(slot: number, shard: Shard): number {
  let memo = informative.get(shard);
  if (memo === undefined || memo.version !== shard.version) informative.set(shard, (memo = { version: shard.version, bySlot: new Map() }));
  let index = memo.bySlot.get(slot);
  if (index === undefined) {
    const chunk = shard.chunks.get(shard.turns.idOf(slot))!;
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
    memo.bySlot.set(slot, (index ??= 0));
  }
  return index;
}

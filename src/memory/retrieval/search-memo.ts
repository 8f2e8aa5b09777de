/**
 * The last search of a shard that does not depend on what it leaves out (lexical scores, sentence hits, vector
 * hits, and the cosines and best sentences worked out for candidates), under a key of plain values compared
 * one by one. The pipeline asks the same query twice when its first prompt shows turns the history already
 * holds; the second ask then only re-filters. Pure, no DOM.
 */
import type { Bm25Scores } from './bm25.ts';
import type { BestPiece } from './best-piece.ts';

export interface SharedSearch {
  /** The pool the hit lists were taken for (a call may use any pool up to it). */
  readonly depth: number;
  readonly lexical: Bm25Scores;
  /** The query's BM25 of every sentence, dense by slot of the shard's sentence index. */
  readonly pieceScores: Float64Array;
  readonly pieceHits: ReadonlyArray<{ readonly slot: number; readonly score: number }>;
  /** Best first. */
  readonly vectorHits: ReadonlyArray<readonly [string, number]>;
  readonly cosines: Map<string, number>;
  readonly bestPieces: Map<string, BestPiece>;
  readonly thread: Float64Array;
}

export class SearchMemo {
  private _key: readonly unknown[] | null = null;
  private _value: SharedSearch | null = null;

  get(key: readonly unknown[]): SharedSearch | undefined {
    const last = this._key;
    if (last === null || this._value === null || last.length !== key.length) return undefined;
    for (let i = 0; i < key.length; i++) if (last[i] !== key[i]) return undefined;
    return this._value;
  }

  set(key: readonly unknown[], value: SharedSearch): void {
    this._key = key;
    this._value = value;
  }
}

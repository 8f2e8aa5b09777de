/**
 * The last value worked out under a key of plain values compared one by one: a shard's search that does not
 * depend on what it leaves out (lexical scores, sentence hits, vector hits, the cosines worked out for
 * candidates), and the docs ranking. The pipeline asks the same query twice when its first prompt shows turns
 * the history already holds; the second ask then only re-filters. Pure, no DOM.
 */
import type { Bm25Scores } from './bm25.ts';

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
  readonly thread: Float64Array;
  /** The lexical pool's order over every turn reached, worked out by the first call that needs it (candidates.ts). */
  firstOrder: FirstOrder | null;
}

/**
 * The turns reached, best first by BM25 with their exchange (ties to the turn reached first), left out or not:
 * the first `slots.length` of them, which are all of them when `complete`.
 */
export interface FirstOrder {
  readonly slots: Int32Array;
  readonly complete: boolean;
  /** The exchange weights it was ranked with. */
  readonly previousWeight: number;
  readonly nextWeight: number;
}

export class LastMemo<T> {
  private _key: readonly unknown[] | null = null;
  private _value: T | null = null;

  get(key: readonly unknown[]): T | undefined {
    const last = this._key;
    if (last === null || this._value === null || last.length !== key.length) return undefined;
    for (let i = 0; i < key.length; i++) if (last[i] !== key[i]) return undefined;
    return this._value;
  }

  set(key: readonly unknown[], value: T): void {
    this._key = key;
    this._value = value;
  }
}

/**
 * What the store needs from a vector index, whichever engine is behind it (flat SIMD scan or voy's k-d tree).
 * Scores are dot products: embedders return unit vectors, so a score is a cosine similarity.
 * Pure TypeScript, no DOM: the flat index and the exact scan also run in Node.
 */

/** Conversation memory and the docs widget's chunks never meet in one search. */
export type Namespace = 'conversation' | 'docs';

export interface IndexEntry {
  /** Chunk id. */
  id: string;
  /** What a search can filter on: the session id (conversation) or the doc id (docs). */
  scope: string;
  vector: Float32Array;
}

export interface SearchHit {
  id: string;
  scope: string;
  score: number;
}

export interface IndexSearchOptions {
  /** Only entries whose scope is one of these (all when absent). */
  scopes?: readonly string[];
}

export interface VectorIndex {
  readonly kind: 'flat' | 'voy';
  readonly dimensions: number;
  readonly size: number;
  has(id: string): boolean;
  /** Adds entries; an id already present is replaced. Vectors of another length are rejected (RangeError). */
  add(entries: readonly IndexEntry[]): void;
  remove(ids: readonly string[]): void;
  removeScope(scope: string): void;
  clear(): void;
  /** The k best entries by score, best first. */
  search(query: Float32Array, k: number, options?: IndexSearchOptions): SearchHit[];
  /** Frees what the index holds outside the JS heap (wasm memory). */
  dispose(): void;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Keeps the k best of a stream of scored items. Ties keep the earlier item: the order is score, then arrival.
 * A binary heap with the worst kept item at its root, so most candidates are rejected by one comparison and an
 * accepted one costs O(log k) — pools of hundreds (sentence search) made a sorted array's inserts the cost.
 */
export class TopK<T> {
  private readonly _k: number;
  private readonly _scores: number[] = [];
  /** Arrival order of each kept item: among equal scores the later one is worse. */
  private readonly _arrivals: number[] = [];
  private readonly _items: T[] = [];
  private _pushed = 0;

  constructor(k: number) {
    this._k = Math.max(0, Math.floor(k));
  }

  /** The score an item must beat to get in. */
  get threshold(): number {
    return this._scores.length < this._k ? -Infinity : this._scores[0]!;
  }

  push(score: number, item: T): void {
    if (this._k === 0 || Number.isNaN(score)) return;
    const arrival = this._pushed++;
    if (this._scores.length === this._k) {
      // Equal to the worst is not better: it arrived later.
      if (score <= this._scores[0]!) return;
      // It replaces the worst, at the root, and sinks.
      TopK._sink(this._scores, this._arrivals, this._items, this._k, 0, score, arrival, item);
      return;
    }
    this._siftUp(this._scores.length, score, arrival, item);
  }

  /**
   * Best first. Heap order read out by popping the worst into the last free place of the result (heapsort on a
   * copy): no comparator calls, and the same order as any sort, since no two kept items tie on (score, arrival).
   */
  result(): Array<{ score: number; item: T }> {
    const scores = this._scores.slice();
    const arrivals = this._arrivals.slice();
    const items = this._items.slice();
    const out = new Array<{ score: number; item: T }>(scores.length);
    for (let n = scores.length; n > 0; n--) {
      out[n - 1] = { score: scores[0]!, item: items[0]! };
      // The last leaf replaces the root, in a heap one smaller.
      TopK._sink(scores, arrivals, items, n - 1, 0, scores[n - 1]!, arrivals[n - 1]!, items[n - 1]!);
    }
    return out;
  }

  /** Whether (s1, a1) ranks below (s2, a2). */
  private static _worse(s1: number, a1: number, s2: number, a2: number): boolean {
    return s1 < s2 || (s1 === s2 && a1 > a2);
  }

  private _set(i: number, score: number, arrival: number, item: T): void {
    this._scores[i] = score;
    this._arrivals[i] = arrival;
    this._items[i] = item;
  }

  /** Places an item at a new leaf `i` and moves it up past better parents. */
  private _siftUp(i: number, score: number, arrival: number, item: T): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!TopK._worse(score, arrival, this._scores[parent]!, this._arrivals[parent]!)) break;
      this._set(i, this._scores[parent]!, this._arrivals[parent]!, this._items[parent]!);
      i = parent;
    }
    this._set(i, score, arrival, item);
  }

  /** Places an item at `i` of the heap held in the first `n` places of the three arrays, moving it down past worse children. */
  private static _sink<U>(scores: number[], arrivals: number[], items: U[], n: number, i: number, score: number, arrival: number, item: U): void {
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && TopK._worse(scores[right]!, arrivals[right]!, scores[left]!, arrivals[left]!)) child = right;
      if (!TopK._worse(scores[child]!, arrivals[child]!, score, arrival)) break;
      scores[i] = scores[child]!;
      arrivals[i] = arrivals[child]!;
      items[i] = items[child]!;
      i = child;
    }
    scores[i] = score;
    arrivals[i] = arrival;
    items[i] = item;
  }
}

/** The reference: scores every entry. Used as the fallback while an index is not ready, and by tests. */
export function exactSearch(
  entries: Iterable<IndexEntry>,
  query: Float32Array,
  k: number,
  options: IndexSearchOptions = {},
): SearchHit[] {
  const scopes = options.scopes === undefined ? null : new Set(options.scopes);
  const top = new TopK<IndexEntry>(k);
  for (const entry of entries) {
    if (scopes !== null && !scopes.has(entry.scope)) continue;
    top.push(dot(entry.vector, query), entry);
  }
  return top.result().map(({ score, item }) => ({ id: item.id, scope: item.scope, score }));
}

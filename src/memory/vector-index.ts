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
 * Keeps the k best of a stream of scored items: a small array sorted ascending, so most candidates are rejected
 * by one comparison with the current k-th score. Ties keep the earlier item.
 */
export class TopK<T> {
  private readonly _k: number;
  private readonly _scores: number[] = [];
  private readonly _items: T[] = [];

  constructor(k: number) {
    this._k = Math.max(0, Math.floor(k));
  }

  /** The score an item must beat to get in. */
  get threshold(): number {
    return this._scores.length < this._k ? -Infinity : this._scores[0]!;
  }

  push(score: number, item: T): void {
    if (this._k === 0 || Number.isNaN(score)) return;
    if (this._scores.length === this._k) {
      if (score <= this._scores[0]!) return;
      this._scores.shift();
      this._items.shift();
    }
    let i = this._scores.length;
    while (i > 0 && this._scores[i - 1]! >= score) i--;
    this._scores.splice(i, 0, score);
    this._items.splice(i, 0, item);
  }

  /** Best first. */
  result(): Array<{ score: number; item: T }> {
    const out: Array<{ score: number; item: T }> = [];
    for (let i = this._scores.length - 1; i >= 0; i--) out.push({ score: this._scores[i]!, item: this._items[i]! });
    return out;
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

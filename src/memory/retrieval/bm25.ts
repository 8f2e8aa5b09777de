/**
 * An incremental BM25 index (Okapi, k1 = 1.2, b = 0.75) over terms from text-terms.ts. Documents are added as
 * turns arrive and removed when deleted; statistics (df, average length) follow every change, so scores never
 * go stale. Postings are per term; a search touches only the documents sharing a term with the query.
 * Pure, no DOM.
 */
import { TopK } from '../vector-index.ts';
import { termCounts } from './text-terms.ts';

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export interface Bm25Hit {
  id: string;
  scope: string;
  score: number;
}

interface Doc {
  id: string;
  scope: string;
  length: number;
  counts: Map<string, number>;
  alive: boolean;
}

export class Bm25Index {
  private readonly _k1: number;
  private readonly _b: number;
  private readonly _docs: Doc[] = [];
  private readonly _slots = new Map<string, number>();
  /** Per term: the slots holding it and, in step, the term's count there (no per-document map look-up when scoring). */
  private readonly _postings = new Map<string, { slots: number[]; tfs: number[] }>();
  /** Scratch accumulator reused across searches, indexed by slot. */
  private _acc = new Float64Array(0);
  private readonly _df = new Map<string, number>();
  private _live = 0;
  private _totalLength = 0;

  constructor(options: Bm25Options = {}) {
    this._k1 = options.k1 ?? 1.2;
    this._b = options.b ?? 0.75;
  }

  get size(): number {
    return this._live;
  }

  has(id: string): boolean {
    return this._slots.has(id);
  }

  /** Adds (or replaces) a document. */
  add(id: string, scope: string, terms: readonly string[]): void {
    this.remove(id);
    const counts = termCounts(terms);
    const slot = this._docs.length;
    this._docs.push({ id, scope, length: terms.length, counts, alive: true });
    this._slots.set(id, slot);
    for (const [term, tf] of counts) {
      let list = this._postings.get(term);
      if (list === undefined) this._postings.set(term, (list = { slots: [], tfs: [] }));
      list.slots.push(slot);
      list.tfs.push(tf);
      this._df.set(term, (this._df.get(term) ?? 0) + 1);
    }
    this._live += 1;
    this._totalLength += terms.length;
  }

  remove(id: string): void {
    const slot = this._slots.get(id);
    if (slot === undefined) return;
    const doc = this._docs[slot]!;
    doc.alive = false;
    this._slots.delete(id);
    for (const term of doc.counts.keys()) {
      const df = (this._df.get(term) ?? 1) - 1;
      if (df <= 0) {
        this._df.delete(term);
        this._postings.delete(term);
      } else this._df.set(term, df);
    }
    this._live -= 1;
    this._totalLength -= doc.length;
  }

  /** Documents holding the term. */
  df(term: string): number {
    return this._df.get(term) ?? 0;
  }

  /** Robertson–Spärck Jones IDF, floored at a small positive value so that very common terms still count a little. */
  idf(term: string): number {
    const df = this._df.get(term) ?? 0;
    return Math.max(0.05, Math.log(1 + (this._live - df + 0.5) / (df + 0.5)));
  }

  /** Scores of every document sharing a term with the query (among allowed scopes): postings only. */
  scoreAll(query: ReadonlyMap<string, number>, allow?: (scope: string) => boolean): Map<string, number> {
    const out = new Map<string, number>();
    for (const [slot, score] of this._scores(query, allow)) out.set(this._docs[slot]!.id, score);
    return out;
  }

  /**
   * The k best documents for weighted query terms (term → weight, e.g. 1 for the message, less for expansions),
   * among the scopes `allow` accepts.
   */
  search(query: ReadonlyMap<string, number>, k: number, allow?: (scope: string) => boolean): Bm25Hit[] {
    if (this._live === 0 || k <= 0) return [];
    const scores = this._scores(query, allow);
    const top = new TopK<number>(k);
    for (const [slot, score] of scores) top.push(score, slot);
    return top.result().map(({ score, item }) => ({ id: this._docs[item]!.id, scope: this._docs[item]!.scope, score }));
  }

  private _scores(query: ReadonlyMap<string, number>, allow?: (scope: string) => boolean): Map<number, number> {
    const scores = new Map<number, number>();
    if (this._live === 0) return scores;
    const avg = this._totalLength / this._live || 1;
    if (this._acc.length < this._docs.length) this._acc = new Float64Array(Math.max(1024, this._docs.length * 2));
    const acc = this._acc;
    const touched: number[] = [];
    const lengthNorm = this._k1 * (1 - this._b);
    const lengthScale = (this._k1 * this._b) / avg;
    for (const [term, weight] of query) {
      const list = this._postings.get(term);
      if (list === undefined || weight <= 0) continue;
      const idf = this.idf(term) * weight * (this._k1 + 1);
      const { slots, tfs } = list;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        const doc = this._docs[slot]!;
        if (!doc.alive) continue;
        const tf = tfs[i]!;
        if (acc[slot] === 0) touched.push(slot);
        acc[slot] += (idf * tf) / (tf + lengthNorm + lengthScale * doc.length);
      }
    }
    // Scope filtering once per document, not once per posting.
    for (const slot of touched) {
      const score = acc[slot]!;
      acc[slot] = 0;
      if (allow !== undefined && !allow(this._docs[slot]!.scope)) continue;
      scores.set(slot, score);
    }
    return scores;
  }

  /** The BM25 score of one stored document for the query (0 when absent): a feature for candidates found otherwise. */
  score(id: string, query: ReadonlyMap<string, number>): number {
    const slot = this._slots.get(id);
    if (slot === undefined) return 0;
    const doc = this._docs[slot]!;
    const avg = this._totalLength / this._live || 1;
    let total = 0;
    for (const [term, weight] of query) {
      const tf = doc.counts.get(term);
      if (tf === undefined || weight <= 0) continue;
      const norm = tf + this._k1 * (1 - this._b + (this._b * doc.length) / avg);
      total += (this.idf(term) * weight * tf * (this._k1 + 1)) / norm;
    }
    return total;
  }
}

/**
 * Document frequencies for the built-in embedder's IDF, over hashed buckets (2^17 of them, 512 KB) rather than a
 * vocabulary that would grow without bound. Only queries are weighted by IDF (see hashed-ngram.ts), so these
 * statistics can change at any time without making a stored vector stale. They are derived data: the store
 * persists a snapshot now and then and recounts from the chunks when the snapshot has drifted.
 */
import type { CorpusSnapshot, CorpusStats } from './embedder.ts';
import { extractFeatures } from './ngram-features.ts';
import { hashString } from './hash.ts';

export const DF_BUCKETS = 1 << 17;
const DF_SEED = 0x2545f491;

export function dfBucket(key: string): number {
  return hashString(key, DF_SEED) & (DF_BUCKETS - 1);
}

export class HashedDocumentFrequencies implements CorpusStats {
  private _documents = 0;
  private _df = new Uint32Array(DF_BUCKETS);

  get documents(): number {
    return this._documents;
  }

  add(texts: readonly string[]): void {
    for (const text of texts) this._count(text, 1);
  }

  remove(texts: readonly string[]): void {
    for (const text of texts) this._count(text, -1);
  }

  /** Smoothed IDF, ln((N + 1) / (df + 1)) + 1: 1 for a word in every document, and for all words of an empty corpus. */
  idf(key: string): number {
    const df = Math.min(this._df[dfBucket(key)]!, this._documents);
    return Math.log((this._documents + 1) / (df + 1)) + 1;
  }

  snapshot(): CorpusSnapshot {
    return { documents: this._documents, df: this._df.slice() };
  }

  restore(snapshot: unknown): boolean {
    if (typeof snapshot !== 'object' || snapshot === null) return false;
    const { documents, df } = snapshot as Partial<CorpusSnapshot>;
    if (typeof documents !== 'number' || !Number.isInteger(documents) || documents < 0) return false;
    if (!(df instanceof Uint32Array) || df.length !== DF_BUCKETS) return false;
    this._documents = documents;
    this._df = df.slice();
    return true;
  }

  reset(): void {
    this._documents = 0;
    this._df = new Uint32Array(DF_BUCKETS);
  }

  private _count(text: string, delta: 1 | -1): void {
    const buckets = new Set<number>();
    for (const key of extractFeatures(text).keys()) buckets.add(dfBucket(key));
    for (const bucket of buckets) {
      const next = this._df[bucket]! + delta;
      this._df[bucket] = next < 0 ? 0 : next;
    }
    this._documents = Math.max(0, this._documents + delta);
  }
}

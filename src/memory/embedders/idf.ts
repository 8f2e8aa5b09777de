/**
 * Document frequencies for the built-in embedder's IDF, over hashed buckets (2^17 of them, 512 KB) rather than a
 * vocabulary that would grow without bound. Only queries are weighted by IDF (see hashed-ngram.ts), so these
 * statistics can change at any time without making a stored vector stale. They are derived data: the store
 * persists a snapshot now and then and recounts from the chunks when the snapshot has drifted.
 */
import type { CorpusSnapshot, CorpusStats } from './embedder.ts';
import { FeatureCache } from './features-cache.ts';
import { mix32 } from './hash.ts';

export const DF_BUCKETS = 1 << 17;
const DF_SEED = 0x2545f491;

export function dfBucket(feature: number): number {
  return mix32(feature ^ DF_SEED) & (DF_BUCKETS - 1);
}

export class HashedDocumentFrequencies implements CorpusStats {
  private _documents = 0;
  private _df = new Uint32Array(DF_BUCKETS);
  private readonly _features: FeatureCache;
  private readonly _seen = new Uint32Array(DF_BUCKETS);
  private _stamp = 0;

  constructor(features: FeatureCache = new FeatureCache()) {
    this._features = features;
  }

  get documents(): number {
    return this._documents;
  }

  add(texts: readonly string[]): void {
    for (const text of texts) this._count(text, 1);
  }

  remove(texts: readonly string[]): void {
    for (const text of texts) this._count(text, -1);
  }

  /**
   * Smoothed IDF, ln((N + 1) / (df + 1)) + 1: 1 for a feature in every document, and for every feature while the
   * corpus is empty. 0 for a feature no stored document has: it cannot match anything, and with the largest IDF
   * of all it would only make the query vector mostly hash-collision noise.
   */
  idf(feature: number): number {
    const df = Math.min(this._df[dfBucket(feature)]!, this._documents);
    if (df === 0 && this._documents > 0) return 0;
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
    // Each bucket once per document: `_seen` holds the stamp of the last document that touched a bucket.
    const stamp = ++this._stamp;
    const { features } = this._features.get(text);
    for (let i = 0; i < features.length; i++) {
      const bucket = dfBucket(features[i]!);
      if (this._seen[bucket] === stamp) continue;
      this._seen[bucket] = stamp;
      const next = this._df[bucket]! + delta;
      this._df[bucket] = next < 0 ? 0 : next;
    }
    this._documents = Math.max(0, this._documents + delta);
  }
}

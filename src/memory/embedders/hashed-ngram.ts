/**
 * The default embedder: no weights, no model, pure TypeScript, the same vectors in Node and the browser.
 *
 * Features (ngram-features.ts) are hashed into 256 signed buckets (the sign halves the bias of collisions), with
 * sublinear term frequency 1 + ln(tf), then scaled to unit length.
 *
 * TF-IDF, and why stored vectors never go stale: IDF changes with every stored turn, and re-embedding the whole
 * history each time is out of the question. So IDF is applied on the query side only, squared: a query vector is
 * Σ tf_q·idf² (normalised) and a document vector Σ tf_d (normalised), whose dot product has exactly the numerator
 * of TF-IDF cosine, Σ tf_q·idf · tf_d·idf. Only the document-length normalisation differs (by tf, not tf·idf).
 * Document vectors depend on nothing but their text and this version, so the IDF statistics may drift, be
 * recounted or be lost without any stored vector becoming wrong.
 *
 * 256 dimensions: the flat index scans 100k of them in ~10 ms with SIMD (384 takes ~18 ms, over the 15 ms
 * target); more dimensions would mean fewer collisions, at a cost paid on every search.
 */
import { normalize, type EmbedOptions, type Embedder } from './embedder.ts';
import { FeatureCache } from './features-cache.ts';
import { mix32 } from './hash.ts';
import { HashedDocumentFrequencies } from './idf.ts';
import { featureWeight } from './ngram-features.ts';

export const HASHED_NGRAM_DIMENSIONS = 256;

export interface HashedNgramOptions {
  dimensions?: number;
}

export class HashedNgramEmbedder implements Embedder {
  readonly id = 'hashed-ngram';
  readonly version = 1;
  readonly dimensions: number;
  readonly stats: HashedDocumentFrequencies;
  private readonly _features = new FeatureCache();

  constructor(options: HashedNgramOptions = {}) {
    this.dimensions = options.dimensions ?? HASHED_NGRAM_DIMENSIONS;
    this.stats = new HashedDocumentFrequencies(this._features);
    if (!Number.isInteger(this.dimensions) || this.dimensions <= 0) throw new RangeError(`bad dimensions: ${this.dimensions}`);
  }

  embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (options.signal?.aborted === true) return Promise.reject(options.signal.reason);
    return Promise.resolve(this.embedSync(texts, options));
  }

  embedSync(texts: readonly string[], options: Omit<EmbedOptions, 'signal'> = {}): Float32Array[] {
    const query = options.purpose === 'query';
    return texts.map((text) => this.embedOne(text, query));
  }

  /** The synchronous core (also used by Node scripts and tests). */
  embedOne(text: string, query = false): Float32Array {
    const vector = new Float32Array(this.dimensions);
    const { features, counts } = this._features.get(text);
    for (let i = 0; i < features.length; i++) {
      const feature = features[i]!;
      let value = featureWeight(feature) * (1 + Math.log(counts[i]!));
      if (query) {
        const idf = this.stats.idf(feature);
        value *= idf * idf;
      }
      const h = mix32(feature);
      const bucket = h % this.dimensions;
      vector[bucket] = vector[bucket]! + (h & 0x80000000 ? -value : value);
    }
    return normalize(vector);
  }
}

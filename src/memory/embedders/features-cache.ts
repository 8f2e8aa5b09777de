/**
 * The last texts' features, shared by the built-in embedder and its IDF statistics: a stored chunk is embedded
 * and counted once each, and extracting its features twice would double the cost of an import.
 */
import { extractFeatures, type FeatureBag } from './ngram-features.ts';

export class FeatureCache {
  private readonly _max: number;
  private readonly _entries = new Map<string, FeatureBag>();

  constructor(max = 512) {
    this._max = max;
  }

  get(text: string): FeatureBag {
    const hit = this._entries.get(text);
    if (hit !== undefined) return hit;
    const features = extractFeatures(text);
    if (this._entries.size >= this._max) this._entries.delete(this._entries.keys().next().value!);
    this._entries.set(text, features);
    return features;
  }
}

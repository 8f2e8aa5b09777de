/**
 * One interface for every embedder: the built-in hashed n-gram one (no weights, the default) and the engine's
 * neural embeddings (an option). Vectors are unit length, so a dot product is a cosine similarity.
 * Vectors carry `embedderKey(embedder)`: two embedders' vectors are never compared.
 */

export type EmbedPurpose = 'document' | 'query';

export interface EmbedOptions {
  /** Queries may be weighted differently from stored documents (the built-in embedder applies IDF to queries). */
  purpose?: EmbedPurpose;
  signal?: AbortSignal;
}

/** Document statistics an embedder weighs by (TF-IDF); the store feeds them and persists their snapshot. */
export interface CorpusStats {
  readonly documents: number;
  add(texts: readonly string[]): void;
  remove(texts: readonly string[]): void;
  reset(): void;
  snapshot(): CorpusSnapshot;
  /** Replaces the statistics; returns false (and keeps the old ones) for a snapshot of the wrong shape. */
  restore(snapshot: unknown): boolean;
}

export interface CorpusSnapshot {
  documents: number;
  /** Document frequency per hashed bucket. */
  df: Uint32Array;
}

export interface Embedder {
  /** Stable name, e.g. `hashed-ngram` or `engine:wllama:qwen2.5-0.5b`. */
  readonly id: string;
  /** Bumped whenever the same text would get a different vector. */
  readonly version: number;
  readonly dimensions: number;
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * Present when embedding is cheap, local and synchronous (no model, no worker): the store then embeds inside
   * its write transaction and commits a turn together with its vectors, atomically. Others are embedded after
   * the turn is stored (write before read), in the background. An embedder that answers from a cache
   * (engine-vectors.ts) gives undefined for a text it holds no vector for.
   */
  embedSync?(texts: readonly string[], options?: Omit<EmbedOptions, 'signal'>): Array<Float32Array | undefined>;
  readonly stats?: CorpusStats;
  /**
   * Maps a cosine to the scale the reranker and the relevance gate were fitted on (the built-in vectors', where
   * unrelated texts are near 0). Neural models crowd every cosine high (unrelated texts at 0.7–0.8 for e5), so theirs
   * is measured against their own background (engine-vectors.ts). Absent: the cosine as it is.
   */
  calibrate?(cosine: number): number;
}

/** `id@version`: what vectors are tagged with and what the meta record names as active. */
export function embedderKey(embedder: Pick<Embedder, 'id' | 'version'>): string {
  return `${embedder.id}@${embedder.version}`;
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  if (sum > 0 && Number.isFinite(sum)) {
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * scale;
  }
  return vector;
}

/**
 * Any asynchronous embedding source (`embed(texts, signal)`) as an `Embedder` for the record store's own
 * re-embedding (`MemoryStore.setEmbedder`, store/reembed.ts). It has no `embedSync`: turns are stored first and
 * embedded in the background. The prompt's memory takes the engine's model through engine-vectors.ts instead,
 * where the engine itself adds the model's prefixes and cuts texts by the model's own tokens
 * (src/engine/embedding-input.ts); `maxChars` and `queryPrefix` here are for sources that do neither.
 */
import { AssistantError } from '../../shared/errors.ts';
import { normalize, type EmbedOptions, type Embedder } from './embedder.ts';

export interface EmbeddingSource {
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface EngineEmbedderOptions {
  /** Names the model, e.g. `engine:wllama:qwen2.5-0.5b-q8`: vectors of another model are never compared. */
  id: string;
  version?: number;
  /** Known width; when absent, `EngineEmbedder.create` asks the engine once. */
  dimensions: number;
  /** Texts per engine call. */
  batchSize?: number;
  /** Longer texts are cut: an embedding model's context is small, and long turns have their parts anyway. */
  maxChars?: number;
  /** Prefix for queries (e5/bge-style models want one, e.g. `query: `). */
  queryPrefix?: string;
}

export class EngineEmbedder implements Embedder {
  readonly id: string;
  readonly version: number;
  readonly dimensions: number;
  private readonly _source: EmbeddingSource;
  private readonly _batchSize: number;
  private readonly _maxChars: number;
  private readonly _queryPrefix: string;

  constructor(source: EmbeddingSource, options: EngineEmbedderOptions) {
    this._source = source;
    this.id = options.id;
    this.version = options.version ?? 1;
    this.dimensions = options.dimensions;
    this._batchSize = Math.max(1, options.batchSize ?? 16);
    this._maxChars = options.maxChars ?? 2_000;
    this._queryPrefix = options.queryPrefix ?? '';
  }

  /** Asks the engine for one embedding to learn its width. */
  static async create(source: EmbeddingSource, options: Omit<EngineEmbedderOptions, 'dimensions'>): Promise<EngineEmbedder> {
    const [probe] = await source.embed(['dimension probe']);
    if (probe === undefined || probe.length === 0) {
      throw new AssistantError('inference_failed', 'The engine returned no embedding for a probe text.');
    }
    return new EngineEmbedder(source, { ...options, dimensions: probe.length });
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const prefix = options.purpose === 'query' ? this._queryPrefix : '';
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this._batchSize) {
      const batch = texts.slice(i, i + this._batchSize).map((t) => prefix + t.slice(0, this._maxChars));
      const vectors = await this._source.embed(batch, options.signal);
      if (vectors.length !== batch.length) {
        throw new AssistantError('inference_failed', `The engine returned ${vectors.length} embeddings for ${batch.length} texts.`);
      }
      for (const vector of vectors) {
        if (vector.length !== this.dimensions) {
          throw new AssistantError(
            'inference_failed',
            `The engine returned a ${vector.length}-dimension embedding; ${this.id} has ${this.dimensions}.`,
          );
        }
        out.push(normalize(Float32Array.from(vector)));
      }
    }
    return out;
  }
}

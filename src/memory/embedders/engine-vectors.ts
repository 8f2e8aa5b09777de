/**
 * The engine's embedding model as the memory's embedder, through a cache. Retrieval is synchronous (a search ranks
 * thousands of candidates in one task), and the engine is a worker away, so vectors are made ahead of the search:
 * stored turns' vectors in the background (the app's indexer, kept in IndexedDB), a query's just before its search
 * (`prepareQuery`, called by the pipeline with the text it will search with). `embedSync` answers from the cache
 * and gives no vector for a text it does not hold: that turn or query then has keyword scores only, and is never
 * compared with another embedder's vector.
 */
import { prng } from '../../shared/prng.ts';
import { normalize, type EmbedOptions, type EmbedPurpose, type Embedder } from './embedder.ts';

/** What the cache embeds through: the engine client (`EngineClient.embed`), or a test's stand-in. */
export interface EngineEmbeddingSource {
  embed(texts: string[], options: { purpose: EmbedPurpose; background?: boolean; signal?: AbortSignal }): Promise<Float32Array[]>;
}

export interface EngineVectorsOptions {
  /** The model's name (a GGUF URL or web-llm id): vectors carry it, so two models' are never compared. */
  modelId: string;
  dimensions: number;
}

/** Pairs of stored texts whose mean cosine is taken as the model's background (`measureBackground`). */
const BACKGROUND_PAIRS = 500;

/** Query vectors kept: a search asks for its query a few times; older questions are not asked again. */
const QUERY_CACHE = 32;

export class EngineVectors implements Embedder {
  readonly id: string;
  readonly version = 1;
  readonly dimensions: number;
  private readonly _documents = new Map<string, Float32Array>();
  private readonly _queries = new Map<string, Float32Array>();
  /** The mean cosine of two unrelated stored texts (0 until measured). */
  private _background = 0;

  constructor(
    private readonly _source: EngineEmbeddingSource,
    options: EngineVectorsOptions,
  ) {
    this.id = `engine:${options.modelId}`;
    this.dimensions = options.dimensions;
  }

  /** How many stored texts have a vector. */
  get documents(): number {
    return this._documents.size;
  }

  hasDocument(text: string): boolean {
    return this._documents.has(text);
  }

  /** A stored text's vector, if held. */
  documentVector(text: string): Float32Array | undefined {
    return this._documents.get(text);
  }

  /** Keeps a stored text's vector (from the engine, or read back from IndexedDB). Wrong widths are refused. */
  putDocument(text: string, vector: Float32Array): boolean {
    if (vector.length !== this.dimensions) return false;
    this._documents.set(text, normalize(Float32Array.from(vector)));
    return true;
  }

  /**
   * Embeds the query now (ahead of the chat: the prompt needs it), unless it is cached. A failure (the engine
   * crashed, the model was unloaded) leaves the query without a vector: the search goes on on keywords.
   */
  async prepareQuery(text: string, signal?: AbortSignal): Promise<boolean> {
    if (this._queries.has(text)) return true;
    try {
      const [vector] = await this._source.embed([text], { purpose: 'query', ...(signal === undefined ? {} : { signal }) });
      if (vector === undefined || vector.length !== this.dimensions) return false;
      this._queries.set(text, normalize(Float32Array.from(vector)));
      while (this._queries.size > QUERY_CACHE) this._queries.delete(this._queries.keys().next().value!);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Measures the model's background: the mean cosine of pairs of stored texts drawn at random (deterministically),
   * most of them unrelated. Call it once the stored texts are embedded, before searching; it stays fixed after, so
   * a search's scores do not drift as messages arrive. Returns it.
   */
  measureBackground(): number {
    const vectors = [...this._documents.values()];
    if (vectors.length < 2) return this._background;
    const random = prng(0x5eed);
    let sum = 0;
    for (let n = 0; n < BACKGROUND_PAIRS; n++) {
      const a = vectors[Math.floor(random() * vectors.length)]!;
      let b = vectors[Math.floor(random() * vectors.length)]!;
      if (b === a) b = vectors[(vectors.indexOf(a) + 1) % vectors.length]!;
      let dot = 0;
      for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
      sum += dot;
    }
    this._background = Math.min(0.95, Math.max(0, sum / BACKGROUND_PAIRS));
    return this._background;
  }

  /** The background this model's cosines are measured against. */
  get background(): number {
    return this._background;
  }

  /** A cosine above the background, rescaled to 0…1: unrelated texts near 0, the same text at 1. */
  calibrate(cosine: number): number {
    const floor = this._background;
    return floor <= 0 ? cosine : Math.max(0, (cosine - floor) / (1 - floor));
  }

  embedSync(texts: readonly string[], options: Omit<EmbedOptions, 'signal'> = {}): Array<Float32Array | undefined> {
    const cache = options.purpose === 'query' ? this._queries : this._documents;
    return texts.map((text) => cache.get(text));
  }

  /** Embeds through the engine (background work for documents). */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const vectors = await this._source.embed([...texts], {
      purpose: options.purpose ?? 'document',
      background: options.purpose !== 'query',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return vectors.map((v) => normalize(Float32Array.from(v)));
  }
}

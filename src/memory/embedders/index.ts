/**
 * Embedders: the built-in hashed n-gram embedder (a function of the text, no download) and the engine's embedding
 * model, behind one `Embedder` interface; `embedderKey` names an embedder so vectors of two are never mixed. The
 * public entry: code outside this folder imports from here.
 */
export { embedderKey, normalize, type CorpusSnapshot, type CorpusStats, type EmbedOptions, type Embedder } from './embedder.ts';
export { HASHED_NGRAM_DIMENSIONS, HashedNgramEmbedder } from './hashed-ngram.ts';
export { EngineVectors, type EngineEmbeddingSource, type EngineVectorsOptions } from './engine-vectors.ts';
export { EngineEmbedder, type EmbeddingSource, type EngineEmbedderOptions } from './engine-embedder.ts';
export { hashString } from './hash.ts';

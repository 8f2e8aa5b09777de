/**
 * Layered memory: the durable store (IndexedDB) of sessions, turns, chunks, vectors, working-memory items and
 * doc chunks, its vector index and its embedders. Browser code; the embedders, chunking and the flat index are
 * pure and also run in Node.
 */
export { MemoryStore, type AppendTurnInput, type ConversationHit, type DocHit, type MemoryChange, type MemoryHit, type MemorySearchOptions, type MemoryStoreOptions } from './store/store.ts';
export { ReplyWriter } from './store/reply-writer.ts';
export type { TurnPatch } from './store/turn-writes.ts';
export type { ImportTurnInput } from './store/import-turns.ts';
export type { ReembedOptions, ReembedProgress } from './store/reembed.ts';
export type { DocInput } from './store/docs.ts';
export type { WorkingItemInput } from './store/working-items.ts';
export type * from './store/records.ts';
export { DEFAULT_DB_NAME, deleteMemoryDB } from './store/db.ts';
export { SCHEMA_VERSION, type MemoryDB } from './store/schema.ts';
export { MemoryIndex, type IndexFactory } from './store/memory-index.ts';
export { FlatIndex } from './vector-index/flat-index.ts';
export { VoyIndex, VOY_MAX_DIMENSIONS } from './vector-index/voy-index.ts';
export { exactSearch, type IndexEntry, type Namespace, type SearchHit, type VectorIndex } from './vector-index/vector-index.ts';
export { embedderKey, type CorpusStats, type EmbedOptions, type Embedder } from './embedders/embedder.ts';
export { HashedNgramEmbedder, HASHED_NGRAM_DIMENSIONS } from './embedders/hashed-ngram.ts';
export { EngineEmbedder, type EmbeddingSource, type EngineEmbedderOptions } from './embedders/engine-embedder.ts';
export { estimateTokens, splitIntoParts, PART_MAX_TOKENS, type TokenCount } from './store/chunking.ts';
export type { MemoryLogger } from './store/validate.ts';

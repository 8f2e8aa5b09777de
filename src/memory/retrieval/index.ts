/**
 * Retrieval over conversation memory and docs: lexical terms (CJK bigrams, light stemming, stopwords), BM25
 * over turns and sentences, the built-in embedder's vectors, an explainable reranker, budget-exact packing and
 * labelled rendering; the small durable store interface with an in-memory implementation. Pure, no DOM.
 */
export { Bm25Index, type Bm25Hit } from './bm25.ts';
export { INTENT_TAGS, INTENT_WORDS, intentFit, intentTags, type IntentTag } from './intent.ts';
export { entityKey, keyTerms } from './key-terms.ts';
export { DEFAULT_PACK_OPTIONS, isRelevant, pack, type PackCandidate, type PackDecision, type PackOptions, type PackResult } from './pack.ts';
export { MAX_PIECE_CHARS, MIN_PIECE_SIZE, contentSize, splitPieces, type Piece } from './pieces.ts';
export { DEFAULT_QUERY_OPTIONS, buildQuery, type Expansion, type QueryInput, type QueryOptions, type RetrievalQuery } from './query.ts';
export {
  InMemoryChunkStore,
  NO_HEAT,
  type ChunkStore,
  type DocEntry,
  type HeatEntry,
  type SessionEntry,
  type TurnEntry,
  type TurnRole,
} from './records.ts';
export {
  chineseDateNote,
  chineseDay,
  dayOf,
  docLine,
  englishDateNote,
  englishDay,
  recordLine,
  renderDocs,
  renderRecords,
  renderRetrieved,
  type DocLine,
  type RecordLabels,
  type RecordLine,
} from './render.ts';
export { COVERAGE_PRIOR, DEFAULT_RERANK_OPTIONS, DEFAULT_WEIGHTS, rankCandidates, type Candidate, type Features, type RerankOptions, type RerankWeights } from './rerank.ts';
export {
  INDEX_ANALYSIS_VERSION,
  RetrievalIndex,
  Shard,
  UserMemory,
  dateTerm,
  type RestoredDocs,
  type RetrievalIndexOptions,
  type RetrievalIndexState,
  type StoredVector,
} from './retrieval-index.ts';
export { allowOf, applyHeat, retrieve, type CandidateReport, type DocScope, type RetrievalResult, type RetrievalScope, type RetrieveRequest } from './retriever.ts';
export { cjkShare, isStopword, stem, terms } from './text-terms.ts';
export { asksForEarlierValues, asksForFact } from './answer-type.ts';
export { valueQuestion } from './value-over-time.ts';

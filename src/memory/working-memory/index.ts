/** Working memory: rule-based extraction from each user message, and the state the prompt is built from. */
export { createExtractor, extract, DEFAULT_MAX_CHARS, type Extractor, type ExtractorOptions } from './extract.ts';
export {
  activeItems,
  applyExtraction,
  createWorkingMemory,
  isActive,
  isDeprecated,
  pinItem,
  pruneExpired,
  type ApplyMeta,
  type DeprecationItem,
  type EntityItem,
  type FactChange,
  type FactItem,
  type WmItem,
  type WorkingMemoryState,
} from './state.ts';
export { renderWorkingMemory } from './render.ts';
export { parseWorkingMemory, serializeWorkingMemory } from './serialize.ts';
export { WorkingMemory } from './working-memory.ts';
export {
  DEFAULT_WORKING_MEMORY_CONFIG,
  resolveWorkingMemoryConfig,
  type RenderConfig,
  type RenderLang,
  type WorkingMemoryConfig,
  type WorkingMemoryConfigInput,
} from './config.ts';
export { DEFAULT_VOCABULARY, resolveVocabulary, type VocabularyOverrides, type WmVocabulary } from './vocabulary.ts';
export {
  ENTITY_TYPES,
  type Entity,
  type EntityType,
  type Extraction,
  type Fact,
  type FactOp,
  type Instant,
} from './types.ts';

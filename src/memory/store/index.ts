/**
 * The durable record store (IndexedDB, through idb): sessions, turns, their chunks and vectors, doc chunks,
 * working-memory items, the layered memory's side records (session gate, deprecations, heat) and the saved
 * retrieval index. Several tabs stay consistent through its transactions, a BroadcastChannel and Web Locks. The
 * public entry: code outside this folder imports from here.
 */
export { MemoryStore, type AppendTurnInput, type ConversationHit, type DocHit, type MemoryChange, type MemoryHit, type MemorySearchOptions, type MemoryStoreOptions } from './store.ts';
export { ReplyWriter } from './reply-writer.ts';
export { textHash } from './memory-vectors.ts';
export type { TurnPatch } from './turn-writes.ts';
export type { ImportTurnInput } from './import-turns.ts';
export type { ReembedOptions, ReembedProgress } from './reembed.ts';
export { draftChunks, type DocInput, type DocWriteContext } from './docs.ts';
export type { WorkingItemInput } from './working-items.ts';
export type * from './records.ts';
export { DEFAULT_DB_NAME, deleteMemoryDB, newId } from './db.ts';
export { SCHEMA_VERSION, type MemoryDB } from './schema.ts';
export { MemoryIndex, type IndexFactory } from './memory-index.ts';
export { PART_MAX_TOKENS, estimateTokens, splitIntoParts, type TokenCount } from './chunking.ts';
export type { MemoryLogger } from './validate.ts';
export { exchangeLockName, holdLock } from './tabs.ts';
export type { LayeredSideEntry } from './layered-side.ts';
export {
  CHANGED_HERE,
  SNAPSHOT_FORMAT,
  coverOf,
  docsStamp,
  readSnapshot,
  sessionMarks,
  snapshotKey,
  writeSnapshot,
  writeSnapshots,
  type SessionMark,
  type SnapshotId,
  type SnapshotRecord,
} from './index-snapshot.ts';

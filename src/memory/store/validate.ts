/**
 * Shape checks for what comes back from IndexedDB. A record written by an old or buggy version, or edited by
 * hand in DevTools, must never crash the app: readers skip it and log a warning naming its key.
 */
import type {
  ChunkRecord,
  DocChunkRecord,
  DocSummary,
  SessionRecord,
  TurnRecord,
  VectorRecord,
  WorkingItemRecord,
} from './records.ts';

export interface MemoryLogger {
  warn(message: string, detail?: unknown): void;
}

export const consoleLogger: MemoryLogger = {
  warn: (message, detail) => (detail === undefined ? console.warn(message) : console.warn(message, detail)),
};

type Loose = Record<string, unknown>;
const obj = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const int = (v: unknown): v is number => Number.isInteger(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every(str);
const numOrNull = (v: unknown): boolean => v === null || num(v);
const strOrNull = (v: unknown): boolean => v === null || str(v);

export function isSessionRecord(v: unknown): v is SessionRecord {
  return obj(v) && str(v['id']) && str(v['title']) && num(v['createdAt']) && num(v['updatedAt']) && int(v['lastSeq']) && (v['rev'] === undefined || int(v['rev'])) && (v['edits'] === undefined || int(v['edits']));
}

export function isTurnRecord(v: unknown): v is TurnRecord {
  return (
    obj(v) &&
    str(v['id']) &&
    str(v['sessionId']) &&
    int(v['seq']) &&
    (v['role'] === 'user' || v['role'] === 'assistant' || v['role'] === 'system') &&
    str(v['content']) &&
    num(v['createdAt']) &&
    num(v['updatedAt']) &&
    num(v['tokenCount']) &&
    (v['status'] === 'streaming' || v['status'] === 'complete' || v['status'] === 'interrupted') &&
    strings(v['tags']) &&
    strOrNull(v['replyTo']) &&
    (v['streamingSince'] === undefined || num(v['streamingSince']))
  );
}

/** The embedding field's shape (its vector is checked when used: `activeVector`). */
function isEmbeddingField(v: unknown): boolean {
  return v === null || (obj(v) && str(v['embedder']));
}

function isHeat(v: unknown): boolean {
  return obj(v) && num(v['hits']) && numOrNull(v['lastHitAt']) && num(v['lastHitRetrieval']);
}

export function isChunkRecord(v: unknown): v is ChunkRecord {
  return (
    obj(v) &&
    str(v['id']) &&
    str(v['sessionId']) &&
    (v['kind'] === 'exchange' || v['kind'] === 'part') &&
    strings(v['turnIds']) &&
    int(v['part']) &&
    int(v['start']) &&
    int(v['end']) &&
    str(v['text']) &&
    num(v['tokenCount']) &&
    int(v['rev']) &&
    num(v['createdAt']) &&
    num(v['updatedAt']) &&
    isHeat(v['heat']) &&
    isEmbeddingField(v['embedding'])
  );
}

function isDocMeta(v: unknown): boolean {
  return v === undefined || (obj(v) && str(v['url']) && str(v['anchor']) && str(v['title']) && str(v['heading']));
}

export function isDocSummary(v: unknown): v is DocSummary {
  return obj(v) && str(v['docId']) && str(v['source']) && str(v['hash']) && int(v['chunks']) && num(v['updatedAt']);
}

export function isDocChunkRecord(v: unknown): v is DocChunkRecord {
  return (
    obj(v) &&
    isDocMeta(v['meta']) &&
    str(v['id']) &&
    str(v['docId']) &&
    str(v['source']) &&
    int(v['part']) &&
    str(v['text']) &&
    num(v['tokenCount']) &&
    int(v['rev']) &&
    num(v['createdAt']) &&
    isHeat(v['heat']) &&
    isEmbeddingField(v['embedding'])
  );
}

/** A Float32Array of the expected length whose every component is finite. */
export function isVector(v: unknown, dimensions: number): v is Float32Array {
  if (!(v instanceof Float32Array) || v.length !== dimensions) return false;
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return false;
  return true;
}

/**
 * The chunk's vector if it is from `embedder` and well-formed; null if it has none from that embedder;
 * 'bad' if it claims one that is malformed (the caller skips it and warns).
 */
export function activeVector(
  chunk: { embedding: { embedder: string; vector?: unknown } | null },
  embedder: string,
  dimensions: number,
): Float32Array | null | 'bad' {
  const embedding = chunk.embedding;
  if (embedding === null || embedding.embedder !== embedder) return null;
  return isVector(embedding.vector, dimensions) ? embedding.vector : 'bad';
}

/** A staged vector record (re-embedding) of the expected length whose every component is finite. */
export function isVectorRecord(v: unknown, dimensions: number): v is VectorRecord {
  if (!(obj(v) && str(v['embedder']) && str(v['chunkId']) && str(v['scope']) && int(v['rev']))) return false;
  if (v['namespace'] !== 'conversation' && v['namespace'] !== 'docs') return false;
  return isVector(v['vector'], dimensions);
}

export function isWorkingItemRecord(v: unknown): v is WorkingItemRecord {
  return (
    obj(v) &&
    str(v['id']) &&
    strOrNull(v['sessionId']) &&
    str(v['kind']) &&
    str(v['key']) &&
    (v['name'] === undefined || str(v['name'])) &&
    str(v['value']) &&
    strOrNull(v['sourceTurnId']) &&
    num(v['createdAt']) &&
    num(v['updatedAt']) &&
    numOrNull(v['expiresAt']) &&
    typeof v['pinned'] === 'boolean'
  );
}

/** Keeps the records that pass `check`, warning once per store read with the keys of the others. */
export function keepValid<T>(
  records: readonly unknown[],
  check: (v: unknown) => v is T,
  what: string,
  logger: MemoryLogger,
): T[] {
  const good: T[] = [];
  const bad: string[] = [];
  for (const record of records) {
    if (check(record)) good.push(record);
    else bad.push(describeKey(record));
  }
  if (bad.length > 0) {
    logger.warn(`[memory] skipped ${bad.length} malformed ${what} record(s): ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', …' : ''}`);
  }
  return good;
}

function describeKey(record: unknown): string {
  if (!obj(record)) return `(${record === null ? 'null' : typeof record})`;
  const id = record['id'] ?? record['chunkId'] ?? record['key'];
  return typeof id === 'string' ? id : '(no id)';
}

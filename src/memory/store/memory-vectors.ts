/**
 * The engine embedding model's vectors of what the prompt's memory indexes (turns and doc chunks), kept so a page
 * load, a second tab, or a switch back to this model costs no embedding again. Keyed [embedder, id]: two models'
 * vectors never meet. Each carries the hash of its text: a text that was rewritten under the same id is embedded
 * again rather than matched to its old vector.
 */
import { hashString } from '../embedders/hash.ts';
import { writeTx } from './db.ts';
import type { MemoryVectorRecord } from './records.ts';
import type { MemoryDatabase } from './schema.ts';

/** Two independent 32-bit hashes and the length: a collision needs all three to agree. */
export function textHash(text: string): string {
  return `${hashString(text).toString(36)}.${hashString(text, 0x9747b28c).toString(36)}.${text.length.toString(36)}`;
}

const isRecord = (value: unknown, embedder: string): value is MemoryVectorRecord => {
  const r = value as Partial<MemoryVectorRecord> | null;
  return typeof r === 'object' && r !== null && r.embedder === embedder && typeof r.id === 'string' && typeof r.textHash === 'string' && r.vector instanceof Float32Array;
};

/** One embedder's vectors, by id (malformed records are skipped). */
export async function readMemoryVectors(db: MemoryDatabase, embedder: string): Promise<Map<string, MemoryVectorRecord>> {
  const out = new Map<string, MemoryVectorRecord>();
  for (const record of (await db.getAll('memoryVectors', IDBKeyRange.bound([embedder], [embedder, []]))) as unknown[]) {
    if (isRecord(record, embedder)) out.set(record.id, record);
  }
  return out;
}

export async function putMemoryVectors(db: MemoryDatabase, records: readonly MemoryVectorRecord[]): Promise<void> {
  if (records.length === 0) return;
  await writeTx(db, ['memoryVectors'], async (tx) => {
    const store = tx.objectStore('memoryVectors');
    await Promise.all(records.map((r) => store.put(r)));
  });
}

/**
 * Deletes every embedder's vectors of ids the memory no longer indexes (a forgotten message, a replaced reply, an
 * edited turn's old text): what the user took out of the memory does not stay on the disk. Returns how many.
 */
export async function sweepMemoryVectors(db: MemoryDatabase, indexed: (id: string) => boolean): Promise<number> {
  return writeTx(db, ['memoryVectors'], async (tx) => {
    let removed = 0;
    let cursor = await tx.objectStore('memoryVectors').openKeyCursor();
    while (cursor !== null) {
      const [, id] = cursor.primaryKey;
      if (!indexed(id)) {
        await tx.objectStore('memoryVectors').delete(cursor.primaryKey);
        removed++;
      }
      cursor = await cursor.continue();
    }
    return removed;
  });
}

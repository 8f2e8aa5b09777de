/**
 * Storage for working-memory items (entities, preferences, facts, dropped topics). What goes in and when is
 * decided elsewhere (src/memory/working-memory/); this is only durable, typed storage with expiry.
 */
import { AssistantError } from '../../shared/errors.ts';
import { newId, writeTx } from './db.ts';
import type { WorkingItemRecord } from './records.ts';
import type { MemoryDatabase } from './schema.ts';
import { isWorkingItemRecord, keepValid, type MemoryLogger } from './validate.ts';

export interface WorkingItemInput {
  id?: string;
  sessionId: string | null;
  kind: string;
  key: string;
  name?: string;
  value: string;
  sourceTurnId?: string | null;
  /** When the item was first and last mentioned (default: now). */
  createdAt?: number;
  updatedAt?: number;
  expiresAt?: number | null;
  pinned?: boolean;
}

/** Inserts or replaces an item (by id); a replaced item keeps its creation time. */
export function putWorkingItem(db: MemoryDatabase, input: WorkingItemInput, now: number): Promise<WorkingItemRecord> {
  checkInput(input);
  return writeTx(db, ['workingItems'], async (tx) => {
    const id = input.id ?? newId();
    const old: unknown = await tx.objectStore('workingItems').get(id);
    const item = recordOf(input, id, isWorkingItemRecord(old) ? old.createdAt : now, now);
    await tx.objectStore('workingItems').put(item);
    return item;
  });
}

/**
 * A session's working memory, replaced whole in one transaction: its items become exactly `inputs` (each with an
 * id), so a reader in another tab never sees half of an update.
 */
export function replaceSessionWorkingItems(db: MemoryDatabase, sessionId: string, inputs: readonly WorkingItemInput[], now: number): Promise<void> {
  for (const input of inputs) {
    checkInput(input);
    if (input.id === undefined || input.sessionId !== sessionId) throw new AssistantError('invalid_input', `A session's working-memory item needs an id and the session ${sessionId}.`);
  }
  return writeTx(db, ['workingItems'], async (tx) => {
    const store = tx.objectStore('workingItems');
    const keep = new Set(inputs.map((i) => i.id!));
    for (const key of await store.index('by-session').getAllKeys(sessionId)) if (!keep.has(key)) await store.delete(key);
    for (const input of inputs) await store.put(recordOf(input, input.id!, input.createdAt ?? now, now));
  });
}

function checkInput(input: WorkingItemInput): void {
  if (input.kind === '' || input.key === '') throw new AssistantError('invalid_input', 'A working-memory item needs a kind and a key.');
}

function recordOf(input: WorkingItemInput, id: string, createdAt: number, now: number): WorkingItemRecord {
  return {
    id,
    sessionId: input.sessionId,
    kind: input.kind,
    key: input.key,
    ...(input.name === undefined ? {} : { name: input.name }),
    value: input.value,
    sourceTurnId: input.sourceTurnId ?? null,
    createdAt,
    updatedAt: input.updatedAt ?? now,
    expiresAt: input.expiresAt ?? null,
    pinned: input.pinned ?? false,
  };
}

/** Items of a session plus the global ones (sessionId null), oldest first; expired ones only if asked. */
export async function listWorkingItems(
  db: MemoryDatabase,
  sessionId: string | null,
  now: number,
  logger: MemoryLogger,
  includeExpired = false,
): Promise<WorkingItemRecord[]> {
  const all = keepValid(await db.getAll('workingItems'), isWorkingItemRecord, 'working-memory item', logger);
  return all
    .filter((item) => item.sessionId === null || item.sessionId === sessionId)
    .filter((item) => includeExpired || item.pinned || item.expiresAt === null || item.expiresAt > now)
    .sort((a, b) => a.createdAt - b.createdAt);
}

export async function deleteWorkingItem(db: MemoryDatabase, id: string): Promise<void> {
  await writeTx(db, ['workingItems'], (tx) => tx.objectStore('workingItems').delete(id));
}

/** Deletes expired, unpinned items; returns how many. */
export function purgeExpiredWorkingItems(db: MemoryDatabase, now: number): Promise<number> {
  return writeTx(db, ['workingItems'], async (tx) => {
    const store = tx.objectStore('workingItems');
    let removed = 0;
    let cursor = await store.index('by-expiry').openCursor(IDBKeyRange.upperBound(now));
    while (cursor !== null) {
      const item: unknown = cursor.value;
      if (!isWorkingItemRecord(item) || !item.pinned) {
        await cursor.delete();
        removed++;
      }
      cursor = await cursor.continue();
    }
    return removed;
  });
}

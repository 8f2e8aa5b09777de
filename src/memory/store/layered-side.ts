/**
 * Storage for the layered memory's small side state (session gates, void turns, heat) in the store's `meta` object
 * store, one record each (`layered:<kind>:<id>`), so it is durable, shared by the tabs, and goes with the rest:
 * deleting a conversation deletes its gate and its turns' state, "delete all my data" all of it. What the records
 * mean is the layered memory's business (src/ui/controllers/layered-store.ts reads them back and checks them).
 */
import { writeTx } from './db.ts';
import type { LayeredSideKind } from './records.ts';
import type { MemoryDatabase } from './schema.ts';

export interface LayeredSideEntry {
  kind: LayeredSideKind;
  id: string;
  data: unknown;
}

export const layeredSideKey = (kind: LayeredSideKind, id: string): `layered:${LayeredSideKind}:${string}` => `layered:${kind}:${id}`;
const rangeOf = (kind: LayeredSideKind): IDBKeyRange => IDBKeyRange.bound(`layered:${kind}:`, `layered:${kind}:\uffff`);

/** Writes (replaces) entries in one transaction. */
export async function putLayeredSide(db: MemoryDatabase, entries: readonly LayeredSideEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await writeTx(db, ['meta'], async (tx) => {
    const meta = tx.objectStore('meta');
    await Promise.all(entries.map((e) => meta.put({ key: layeredSideKey(e.kind, e.id), data: e.data })));
  });
}

/** One entry, or undefined. */
export async function getLayeredSide(db: MemoryDatabase, kind: LayeredSideKind, id: string): Promise<unknown> {
  const record = await db.get('meta', layeredSideKey(kind, id));
  return record !== undefined && 'data' in record ? record.data : undefined;
}

/** Every entry of a kind, by id. */
export async function listLayeredSide(db: MemoryDatabase, kind: LayeredSideKind): Promise<Map<string, unknown>> {
  const prefix = `layered:${kind}:`;
  const out = new Map<string, unknown>();
  for (const record of await db.getAll('meta', rangeOf(kind))) {
    if ('data' in record && typeof record.key === 'string' && record.key.startsWith(prefix)) out.set(record.key.slice(prefix.length), record.data);
  }
  return out;
}

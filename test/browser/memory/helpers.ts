/** Helpers for the memory store's tests in Chromium. */
import { wrap, type IDBPDatabase } from 'idb';
import { deleteMemoryDB } from '../../../src/memory/store/db.ts';
import { MemoryStore, type MemoryStoreOptions } from '../../../src/memory/store/store.ts';
import type { MemoryLogger } from '../../../src/memory/store/validate.ts';
import { prng } from '../../../src/shared/prng.ts';
export { prng };

let counter = 0;

/** A database name no other test uses. */
export function dbName(label: string): string {
  counter += 1;
  return `test-${label}-${Date.now().toString(36)}-${counter}`;
}

/** A logger that keeps warnings for assertions. */
export function captureLogger(): MemoryLogger & { messages: string[] } {
  const messages: string[] = [];
  return { messages, warn: (message) => void messages.push(message) };
}

export async function openStore(name: string, options: Omit<MemoryStoreOptions, 'name'> = {}): Promise<MemoryStore> {
  return MemoryStore.open({ name, logger: captureLogger(), ...options });
}

/** A plain connection that does not go through the store (to look at what is really stored). */
export async function rawDB(name: string, factory: IDBFactory = indexedDB): Promise<IDBPDatabase> {
  const db = (await wrap(factory.open(name))) as IDBPDatabase;
  // Closes itself when someone deletes or upgrades the database, so a failed test cannot block the clean-up.
  db.addEventListener('versionchange', () => db.close());
  return db;
}

export async function countAll(name: string, factory: IDBFactory = indexedDB): Promise<Record<string, number>> {
  const db = await rawDB(name, factory);
  const out: Record<string, number> = {};
  for (const store of db.objectStoreNames) out[store] = await db.count(store);
  db.close();
  return out;
}

export async function dropDB(name: string, factory: IDBFactory = indexedDB): Promise<void> {
  await deleteMemoryDB(name, factory);
}


/** Unit vectors with normally distributed components. */
export function randomUnitVectors(count: number, dims: number, seed: number): Float32Array[] {
  const rand = prng(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  return Array.from({ length: count }, () => {
    const v = new Float32Array(dims);
    let sum = 0;
    for (let i = 0; i < dims; i++) {
      v[i] = gauss();
      sum += v[i]! * v[i]!;
    }
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < dims; i++) v[i] = v[i]! * scale;
    return v;
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts `listTurns` reads per conversation on a store from now on (a rebuild reads every conversation). */
export function countReads(store: MemoryStore): Map<string, number> {
  const reads = new Map<string, number>();
  const original = store.listTurns.bind(store);
  store.listTurns = (sessionId, ...rest) => {
    reads.set(sessionId, (reads.get(sessionId) ?? 0) + 1);
    return original(sessionId, ...rest);
  };
  return reads;
}

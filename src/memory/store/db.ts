/**
 * Opening the database and running transactions with errors the app can show: a full disk or an exhausted quota
 * becomes `storage_full` (the transaction is aborted as a whole, so nothing is half-written).
 */
import { wrap, type IDBPTransaction, type StoreNames } from 'idb';
import { AssistantError } from '../../shared/errors.ts';
import { watchTransactions } from './idle-close.ts';
import { SCHEMA_VERSION, upgrade, type MemoryDatabase, type MemoryDB } from './schema.ts';

export const DEFAULT_DB_NAME = 'qwen-memory';

export interface OpenOptions {
  /** Where the database lives: the page's `indexedDB` by default, or a storage bucket's (`bucket.indexedDB`). */
  factory?: IDBFactory;
  /** Another tab wants a newer schema: this connection must close (the store reopens or tells the user). */
  onVersionChange?: () => void;
  /** The browser closed the connection abnormally (storage cleared, disk error). */
  onTerminated?: () => void;
  /**
   * The open waits for another tab that holds an older version open and ignores the versionchange: tell the
   * user to close it. The open goes on by itself once that tab closes (the promise resolves then).
   */
  onBlocked?: () => void;
  now?: () => number;
}

export async function openMemoryDB(name: string, options: OpenOptions = {}): Promise<MemoryDatabase> {
  const now = options.now ?? Date.now;
  const factory = options.factory ?? globalThis.indexedDB;
  try {
    // idb's openDB, but on any IDBFactory (idb's always uses the global one).
    const request = factory.open(name, SCHEMA_VERSION);
    const opened = wrap(request) as unknown as Promise<MemoryDatabase>;
    // Without a listener a blocked open is silent: the page would wait for the other tab with no word to the user.
    request.addEventListener('blocked', () => options.onBlocked?.());
    request.addEventListener('upgradeneeded', (event) => {
      const db = wrap(request.result) as unknown as MemoryDatabase;
      const tx = wrap(request.transaction!) as unknown as Parameters<typeof upgrade>[2];
      upgrade(db, event.oldVersion, tx, now());
    });
    const db = await opened;
    watchTransactions(db);
    db.addEventListener('versionchange', () => options.onVersionChange?.());
    db.addEventListener('close', () => options.onTerminated?.());
    return db;
  } catch (error) {
    throw storageError(error, `Could not open the memory database "${name}"`);
  }
}

export async function deleteMemoryDB(name: string, factory: IDBFactory = globalThis.indexedDB): Promise<void> {
  await (wrap(factory.deleteDatabase(name)) as unknown as Promise<unknown>);
}


function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name) : '';
}

export function isQuotaError(error: unknown): boolean {
  if (errorName(error) === 'QuotaExceededError') return true;
  const inner = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  return inner !== undefined && errorName(inner) === 'QuotaExceededError';
}

/** Any IndexedDB failure as an AssistantError: `storage_full` for quota, `internal` otherwise. */
export function storageError(error: unknown, context = 'Saving to the memory database failed'): AssistantError {
  if (error instanceof AssistantError) return error;
  if (isQuotaError(error)) {
    return new AssistantError(
      'storage_full',
      'The browser has no more room for this site (storage quota exhausted). Nothing was saved from this change ' +
        'and earlier data is intact; delete old sessions or free disk space, then try again.',
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AssistantError('internal', `${context}: ${message}`, { cause: error });
}

type Stores = StoreNames<MemoryDB>;
export type WriteTx<S extends Stores[]> = IDBPTransaction<MemoryDB, S, 'readwrite'>;

/**
 * One read-write transaction: `body` issues its requests (and awaits nothing but IndexedDB, or the transaction
 * would auto-commit early); the result is returned only once the transaction has committed. A throw in `body`
 * aborts everything it wrote.
 */
export async function writeTx<S extends Stores[], T>(
  db: MemoryDatabase,
  stores: S,
  body: (tx: WriteTx<S>) => Promise<T>,
  durability: IDBTransactionDurability = 'default',
): Promise<T> {
  let tx: WriteTx<S>;
  try {
    tx = db.transaction(stores, 'readwrite', { durability });
  } catch (error) {
    throw storageError(error);
  }
  // idb's `done` (idb 8.0.4, build/index.js `cacheDonePromiseForTransaction`) rejects at the first request error
  // that bubbles to the transaction, with DOMException('AbortError') while `tx.error` is not yet set: that may be
  // before `body` has returned. It is awaited below either way; this keeps it from being reported as unhandled.
  tx.done.catch(() => undefined);
  try {
    const result = await body(tx);
    await tx.done;
    return result;
  } catch (error) {
    try {
      tx.abort();
    } catch {
      // Already aborted by the failing request, or committed.
    }
    await tx.done.catch(() => undefined);
    // A request that fails aborts the transaction, and the requests still pending then fail with AbortError: the
    // body may meet one of those first (it awaits its writes at the end). The transaction keeps the first failure.
    throw storageError(isAbortError(error) && tx.error !== null ? tx.error : error);
  }
}

const isAbortError = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

/** A random id (UUID v4 where available). */
export function newId(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

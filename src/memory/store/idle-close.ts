/**
 * Closing a connection only when none of its transactions runs. `IDBDatabase.close()` with a transaction in flight
 * leaves the connection "close pending" until that transaction ends, and Chromium answers another tab's (or a
 * test's) delete or upgrade in that window with `blocked`, as if the connection had been leaked. So each connection
 * counts its live transactions, and `closeWhenIdle` closes it from the event that ends the last one, before any
 * new transaction can start.
 */
import { unwrap } from 'idb';
import type { MemoryDatabase } from './schema.ts';

interface Watch {
  live: number;
  waiters: Array<() => void>;
}

const watches = new WeakMap<IDBDatabase, Watch>();

/** Starts counting the transactions of `db` (every one, idb's shortcuts included: they all call `transaction`). */
export function watchTransactions(db: MemoryDatabase): void {
  const native = unwrap(db) as IDBDatabase;
  if (watches.has(native)) return;
  const watch: Watch = { live: 0, waiters: [] };
  watches.set(native, watch);
  const ended = (): void => {
    watch.live -= 1;
    if (watch.live === 0) for (const wake of watch.waiters.splice(0)) wake();
  };
  // An own property shadows the prototype's method for this connection only.
  Object.defineProperty(native, 'transaction', {
    configurable: true,
    value: function transaction(this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>): IDBTransaction {
      // The prototype's method as it is now, so instrumentation added later (tests) still sees every transaction.
      const tx = (Object.getPrototypeOf(this) as IDBDatabase).transaction.apply(this, args);
      watch.live += 1;
      // Every transaction ends with exactly one of these.
      tx.addEventListener('complete', ended, { once: true });
      tx.addEventListener('abort', ended, { once: true });
      return tx;
    },
  });
}

/** Closes `db` once no transaction of it runs (at once when none does). */
export function closeWhenIdle(db: MemoryDatabase): Promise<void> {
  const native = unwrap(db) as IDBDatabase;
  const watch = watches.get(native);
  return new Promise<void>((resolve) => {
    const close = (): void => {
      native.close();
      resolve();
    };
    if (watch === undefined || watch.live === 0) close();
    else watch.waiters.push(close);
  });
}

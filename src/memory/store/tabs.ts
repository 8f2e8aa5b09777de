/**
 * Several tabs on one database. IndexedDB already serialises overlapping read-write transactions across
 * connections, so a turn's sequence number is taken and written in one transaction and no write is lost;
 * what the tabs must share beyond that:
 * - BroadcastChannel: what changed, so each tab updates its in-memory vector index and its UI;
 * - Web Locks: "this reply is still streaming" (a lock per streaming turn, held by its writer: a turn left
 *   `streaming` whose lock is free was cut by a closed tab or a crash), "one re-embedding job at a time", and
 *   "one exchange at a time per conversation" (question stored to reply ended), so exchanges never interleave.
 * Both degrade to no-ops where the API is missing (old browsers, Node).
 */
import type { Namespace } from '../vector-index/index.ts';

export type TabMessage =
  | { type: 'turns'; sessionId: string; turnIds: string[] }
  /** Chunks written (re-read them: their vector may be new) or deleted. */
  | { type: 'chunks'; namespace: Namespace; changed: string[]; removed: string[] }
  | { type: 'session-deleted'; sessionId: string }
  | { type: 'doc-deleted'; docId: string }
  | { type: 'everything-deleted' }
  | { type: 'embedder-changed'; active: string }
  | { type: 'working-items'; sessionId: string | null }
  /** The layered memory's session gates, void marks or heat changed. */
  | { type: 'layered-side' };

export class TabChannel {
  private readonly _channel: BroadcastChannel | null;
  private readonly _listeners = new Set<(message: TabMessage) => void>();

  constructor(name: string) {
    this._channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : null;
    if (this._channel !== null) {
      this._channel.onmessage = (event: MessageEvent<unknown>) => {
        const message = event.data;
        if (typeof message !== 'object' || message === null || typeof (message as { type?: unknown }).type !== 'string') return;
        for (const listener of this._listeners) listener(message as TabMessage);
      };
    }
  }

  /** To the other tabs (a BroadcastChannel never echoes to its sender). */
  post(message: TabMessage): void {
    try {
      this._channel?.postMessage(message);
    } catch {
      // A closed channel: this store is shutting down.
    }
  }

  subscribe(listener: (message: TabMessage) => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  close(): void {
    this._listeners.clear();
    this._channel?.close();
  }
}

function locks(): LockManager | null {
  return typeof navigator !== 'undefined' && navigator.locks !== undefined ? navigator.locks : null;
}

/** The lock a conversation's exchange holds, from storing the question to the end of its reply. */
export function exchangeLockName(sessionId: string): string {
  return `qwen-exchange:${sessionId}`;
}

export interface QueueOptions {
  /** Called (once) when another holder makes this request wait. */
  onQueued?: () => void;
  /** Gives up waiting: the promise rejects with an AbortError and the lock is never taken. */
  signal?: AbortSignal;
}

/**
 * Takes an exclusive lock and holds it until `release()` (or until the page dies, which is the point).
 * Resolves once the lock is held.
 */
export async function holdLock(name: string, options: QueueOptions = {}): Promise<() => void> {
  const manager = locks();
  if (manager === null) return () => {};
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const take = (lockOptions: LockOptions): Promise<boolean> =>
    new Promise<boolean>((acquired, failed) => {
      manager
        .request(name, lockOptions, (lock) => {
          acquired(lock !== null);
          return lock === null ? undefined : held;
        })
        .catch(failed);
    });
  // A free lock is taken at once; only a wait is worth telling the caller about.
  if (options.onQueued !== undefined) {
    if (await take({ ifAvailable: true })) return release;
    options.onQueued();
  }
  await take(options.signal === undefined ? {} : { signal: options.signal });
  return release;
}

/**
 * Runs `body` under the lock if nobody holds it; returns `undefined` without running it otherwise.
 * Without Web Locks, runs it.
 */
export async function ifLockFree<T>(name: string, body: () => Promise<T>): Promise<T | undefined> {
  const manager = locks();
  if (manager === null) return body();
  return manager.request(name, { ifAvailable: true }, async (lock) => (lock === null ? undefined : body()));
}

/** Runs `body` under the lock, waiting for it. */
export async function withLock<T>(name: string, body: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const manager = locks();
  if (manager === null) return body();
  return manager.request(name, signal === undefined ? {} : { signal }, () => body());
}

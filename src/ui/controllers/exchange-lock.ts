/**
 * One exchange at a time per conversation, across tabs: the Web Lock is taken before the question is stored and
 * released when its reply ended (complete, stopped, failed), so exchanges never interleave in storage. Where Web
 * Locks are missing or refused, exchanges go ahead unlocked and the display still groups each reply with its
 * question (`groupExchanges`).
 */
import { exchangeLockName, holdLock } from '../../memory/store/index.ts';
import { isAbortError } from '../../shared/errors.ts';

/**
 * Waits for the conversation's exchange lock; `onQueued` runs when another tab's exchange makes it wait. Rejects
 * only when `signal` aborts (a stop, another conversation opened), then holding nothing. Resolves to `release`.
 */
export async function enterExchange(sessionId: string, signal: AbortSignal, onQueued?: () => void): Promise<() => void> {
  let release: () => void;
  try {
    release = await holdLock(exchangeLockName(sessionId), { signal, ...(onQueued === undefined ? {} : { onQueued }) });
  } catch (error) {
    if (signal.aborted || isAbortError(error)) throw error;
    // Web Locks refused (an opaque origin): go on without.
    release = () => {};
  }
  if (signal.aborted) {
    // Stopped just as the lock came.
    release();
    throw signal.reason;
  }
  return release;
}

/** Closing the tab would drop a question that waits and is not stored yet: the browser asks first. */
export function warnBeforeUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
  event.returnValue = '';
}

/**
 * The app's IndexedDB in a fresh storage bucket under a lowered quota (the DevTools protocol's
 * `Storage.overrideQuotaForOrigin`). Chromium caches a bucket's free space once IndexedDB has asked for it, so a
 * quota lowered on the page's default bucket, which earlier tests used, goes unnoticed for a while; a new bucket
 * has asked nothing yet. The page's `indexedDB` is pointed at the bucket's, so the app (which opens its database
 * on the global factory) and the test's own readers see the same data.
 */
import { cdp } from 'vitest/browser';

interface StorageBucketManager {
  open(name: string): Promise<{ indexedDB: IDBFactory }>;
  delete(name: string): Promise<void>;
}
const buckets = (navigator as Navigator & { storageBuckets: StorageBucketManager }).storageBuckets;

export async function setQuota(quotaSize: number | undefined): Promise<void> {
  await cdp().send('Storage.overrideQuotaForOrigin', { origin: location.origin, ...(quotaSize === undefined ? {} : { quotaSize }) });
}

/** Moves the page's IndexedDB into a new bucket with `room` bytes left; returns the undo. */
export async function appStorageWithRoom(room: number): Promise<() => Promise<void>> {
  const name = `fault-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const bucket = await buckets.open(name);
  const { usage } = await navigator.storage.estimate();
  await setQuota((usage ?? 0) + room);
  // The global object holds `indexedDB` itself (not its prototype): keep its descriptor to put it back.
  const own = Object.getOwnPropertyDescriptor(window, 'indexedDB')!;
  Object.defineProperty(window, 'indexedDB', { configurable: true, get: () => bucket.indexedDB });
  return async () => {
    Object.defineProperty(window, 'indexedDB', own);
    await setQuota(undefined);
    await buckets.delete(name);
  };
}

/** Random CJK text: Chromium compresses IndexedDB values, so repeated characters would fit any quota. */
export function randomText(chars: number, seed: number): string {
  let state = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < chars; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out += String.fromCharCode(0x4e00 + (state % 20_000));
  }
  return out;
}

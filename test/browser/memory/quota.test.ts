import { cdp } from 'vitest/browser';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import { countAll, dbName, openStore, prng } from './helpers.ts';

/** Chromium's per-origin quota, set through the DevTools protocol (undefined restores the real one). */
async function overrideQuota(quotaSize: number | undefined): Promise<void> {
  await cdp().send('Storage.overrideQuotaForOrigin', {
    origin: location.origin,
    ...(quotaSize === undefined ? {} : { quotaSize }),
  });
}

/** Random CJK text: Chromium compresses IndexedDB values, so repeated characters would fit any quota. */
function randomText(chars: number, seed: number): string {
  const rand = prng(seed);
  return Array.from({ length: chars }, () => String.fromCharCode(0x4e00 + Math.floor(rand() * 20_000))).join('');
}

interface StorageBucket {
  indexedDB: IDBFactory;
}
interface StorageBucketManager {
  open(name: string): Promise<StorageBucket>;
  delete(name: string): Promise<void>;
}

const stores: MemoryStore[] = [];
const buckets: string[] = [];
const bucketManager = (navigator as Navigator & { storageBuckets: StorageBucketManager }).storageBuckets;
afterEach(async () => {
  await overrideQuota(undefined);
  for (const store of stores.splice(0)) await store.close();
  for (const bucket of buckets.splice(0)) await bucketManager.delete(bucket);
});

describe('storage quota exhausted', () => {
  it('gives a clear storage_full error, writes nothing of the failed turn, and keeps earlier data', async () => {
    // Chromium caches an origin's free space for 30 s once IndexedDB has asked for it, so a quota lowered after
    // that would go unnoticed for a while. A fresh storage bucket has asked nothing yet: lower the quota first,
    // then write there (the store takes any IDBFactory, and the app may keep its memory in a bucket of its own).
    const bucketName = `quota-${Date.now().toString(36)}`;
    buckets.push(bucketName);
    const bucket = await bucketManager.open(bucketName);
    const { usage } = await navigator.storage.estimate();
    // Room for the database files (~80 KB) and the earlier turns, not for a paste of several MB.
    await overrideQuota((usage ?? 0) + 2 * 1024 * 1024);
    const name = dbName('quota');
    const store = await openStore(name, { indexedDB: bucket.indexedDB });
    stores.push(store);
    const session = await store.createSession({ title: 'before' });
    for (let i = 0; i < 5; i++) await store.appendTurn({ sessionId: session.id, role: 'user', content: `earlier turn ${i}` });
    const writer = await store.startReply(session.id);
    writer.append('short start');
    await writer.flush();
    await store.whenIdle();
    const before = await countAll(name, bucket.indexedDB);
    const turnsBefore = await store.listTurns(session.id);

    const error = await store.appendTurn({ sessionId: session.id, role: 'user', content: randomText(600_000, 1) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'storage_full' });
    expect((error as Error).message).toMatch(/quota/i);

    // Nothing half-written: no turn, no chunk, no vector, the sequence counter untouched; earlier data intact.
    expect(await countAll(name, bucket.indexedDB)).toEqual(before);
    expect(await store.listTurns(session.id)).toEqual(turnsBefore);
    expect((await store.getSession(session.id))?.lastSeq).toBe(6);

    // A streaming reply that hits the quota keeps its stored text, reports the error on flush, keeps the rest in
    // memory, and stores it all once there is room again.
    const more = randomText(1_200_000, 2);
    writer.append(more);
    await expect(writer.flush()).rejects.toMatchObject({ code: 'storage_full' });
    expect((await store.getTurn(writer.turnId))?.content).toBe('short start');

    await overrideQuota(undefined);
    const interrupted = await writer.interrupt();
    expect(interrupted).toMatchObject({ status: 'interrupted', content: `short start${more}` });
    const turn = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'after' });
    expect(turn.seq).toBe(7);
  });
});

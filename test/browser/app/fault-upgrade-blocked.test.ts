/**
 * An old tab holds the app's database open at an older schema and ignores the versionchange (a page frozen in the
 * background, or code that never listens). The app's open is then `blocked`: it must say so and what to do, and
 * carry on by itself once that tab closes, rather than wait silently forever. The same for "delete all my data".
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { createV1Database, v1Contents } from '../../fixtures/memory-v1.ts';
import { conversationTitles, deleteTestDatabase, freshDbName, freshStart, mountApp, shadow, unmountApp } from './app-helpers.ts';

let oldTab: IDBDatabase | null = null;
beforeEach(freshStart);
afterEach(async () => {
  oldTab?.close();
  oldTab = null;
  await unmountApp();
});

/** A connection at schema v1 that, like a frozen tab, never answers versionchange. */
function openOldTab(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const alertText = (app: HTMLElement): string => shadow(app).querySelector('.notice[role="alert"]')?.textContent ?? '';

it('tells the user to close the other tab, and opens the conversations once it is closed', async () => {
  const name = freshDbName();
  const embedder = new HashedNgramEmbedder();
  const contents = v1Contents((text) => Array.from(embedder.embedOne(text)));
  await createV1Database(name, contents);
  oldTab = await openOldTab(name);

  const { app } = mountApp({ dbName: name, autoload: false });
  await expect.poll(() => alertText(app)).toMatch(/another tab.*close that tab/i);
  expect(alertText(app)).toContain('storage_blocked');

  oldTab.close();
  oldTab = null;
  // The upgrade runs, the notice goes, and the old conversations are there.
  await expect.poll(() => conversationTitles(app).length).toBe(contents.sessions.length);
  expect(alertText(app)).toBe('');
  await unmountApp();
  await deleteTestDatabase(name);
});

it('delete-all waits for an old tab that keeps the database open, tells the user, and finishes once it closes', async () => {
  const { app, dbName } = mountApp({ autoload: false });
  await expect.poll(() => app.conversations.list).toEqual([]);
  // Like a frozen tab: a connection at the current version that never answers versionchange.
  oldTab = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(dbName);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await userEvent.click(page.getByRole('button', { name: 'Data' }));
  await userEvent.click(page.getByRole('button', { name: 'Delete all my data' }));
  await userEvent.click(page.getByRole('button', { name: 'Delete everything' }));
  await expect.element(page.getByRole('alert').filter({ hasText: 'Close it to finish deleting' })).toBeVisible();
  await expect.element(page.getByRole('alert').filter({ hasText: 'storage_blocked' })).toBeVisible();

  oldTab.close();
  oldTab = null;
  await expect.element(page.getByRole('status').filter({ hasText: 'All your data was deleted from this device.' })).toBeVisible();
  expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(dbName);
});

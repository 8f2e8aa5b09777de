/**
 * The quota fills up while the app writes (Chromium, quota lowered through the DevTools protocol). An import that
 * hits it leaves every stored record as it was and says why; a reply that hits it while streaming stays on the
 * screen whole, the user's message stays stored, and the user is told. Decided: the store keeps the reply as of
 * its last write that fit (never a torn record), and a reload shows that text marked interrupted.
 *
 * The app runs on the scripted UI engine (the real handler and worker protocol; for the reply, one that streams
 * until stopped): the subject is the store under a full quota, not the model, and the scripted engine downloads
 * nothing, so no model file in the origin-private files takes a share of the quota either.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { EXPORT_FORMAT } from '../../../src/ui/data/export-format.ts';
import { changedStores, dumpDatabase } from '../fuzz/store-dump.ts';
import type { TurnRecord } from '../../../src/memory/store/records.ts';
import { rawDB } from '../memory/helpers.ts';
import { SCRIPTED_ENDLESS_URL, conversationTitles, freshStart, messageItems, messageTexts, mountApp, unmountApp } from './app-helpers.ts';
import { appStorageWithRoom, randomText } from './quota-bucket.ts';

let undo: (() => Promise<void>) | null = null;
beforeEach(freshStart);
afterEach(async () => {
  await unmountApp();
  await undo?.();
  undo = null;
});

interface Msg {
  role: 'user' | 'assistant';
  content: string;
}
const exportFile = (conversations: Array<{ id: string; title: string; messages: Msg[] }>): File =>
  new File(
    [
      JSON.stringify({
        format: EXPORT_FORMAT,
        version: 1,
        exportedAt: '',
        conversations: conversations.map((c) => ({ ...c, createdAt: 1, updatedAt: 1, messages: c.messages.map((m) => ({ ...m, createdAt: 1, status: 'complete' })) })),
      }),
    ],
    'export.json',
    { type: 'application/json' },
  );

/** What a file picker does to the input: the chosen file in `files`, then `change`. */
function choose(input: HTMLInputElement, chosen: File): void {
  const transfer = new DataTransfer();
  transfer.items.add(chosen);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

it('an import that fills the quota changes nothing stored and says the storage is full', async () => {
  undo = await appStorageWithRoom(2 * 1024 * 1024);
  const { app, dbName } = mountApp({ engine: 'scripted', autoload: false });
  await userEvent.click(page.getByRole('button', { name: 'Data' }));
  const upload = (f: File) => userEvent.upload(page.getByLabelText('Choose a file'), f);

  await upload(exportFile([{ id: 'kept', title: 'Garden plans', messages: [{ role: 'user', content: 'Which tomatoes grow in shade?' }, { role: 'assistant', content: 'Cherry varieties cope best.' }] }]));
  await expect.element(page.getByRole('status')).toHaveTextContent('Imported 1 conversations.');
  const before = await dumpDatabase(dbName);

  // A small conversation that fits, then one far over the room left, in more than one write batch.
  const big: Msg[] = Array.from({ length: 1_100 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: randomText(1_200, i + 1) }));
  // Chosen in the page itself, as the file picker hands it over: sending these 4 MB through userEvent.upload's
  // test-runner channel took seconds of every run and tests nothing of the app.
  choose(page.getByLabelText('Choose a file').element() as HTMLInputElement, exportFile([
    { id: 'small', title: 'Bike repair', messages: [{ role: 'user', content: 'How tight should the chain be?' }] },
    { id: 'big', title: 'Long notes', messages: big },
  ]));
  await expect.element(page.getByRole('alert')).toHaveTextContent('ran out of room for this site during the import. Nothing was imported');
  await expect.element(page.getByRole('alert')).toHaveTextContent('(storage_full)');

  expect(changedStores(before, await dumpDatabase(dbName))).toEqual([]);
  expect(conversationTitles(app)).toEqual(['Garden plans']);
});

/** Writes random text into a database of its own in the same bucket until not even a few hundred bytes fit. */
async function fillQuota(): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('fault-filler', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('fill');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const put = (value: string): Promise<boolean> =>
    new Promise((resolve) => {
      const tx = db.transaction('fill', 'readwrite');
      tx.objectStore('fill').put(value, Math.random());
      tx.oncomplete = () => resolve(true);
      tx.onabort = () => resolve(false);
    });
  let seed = 1_000;
  for (const size of [200_000, 20_000, 2_000, 200]) while (await put(randomText(size, seed++)));
  db.close();
}

it('a reply that fills the quota while streaming stays on screen, and the user is told; the question stays stored', async () => {
  // Generous waits: a hang detector, and this machine may be loaded by other jobs. (The scripted engine downloads
  // nothing, so there is no model to put in the origin-private files before the quota is lowered.)
  const ready = (app: HTMLElement & { engine: { status: string } }) => expect.poll(() => app.engine.status, { timeout: 90_000 }).toBe('ready');
  undo = await appStorageWithRoom(4 * 1024 * 1024);
  const { app, dbName } = mountApp({ engine: 'scripted', ggufUrl: SCRIPTED_ENDLESS_URL });
  await ready(app);
  const question = 'Tell me everything about compost heaps.';
  await page.getByRole('textbox', { name: 'Message' }).fill(question);
  await userEvent.keyboard('{Enter}');
  const reply = () => messageItems(app, 'assistant')[0];
  const shown = () => reply()?.querySelector('.content')?.textContent ?? '';
  await expect.poll(() => shown().length).toBeGreaterThan(20);

  await fillQuota();
  const atFill = shown().length;
  await expect.poll(() => shown().length).toBeGreaterThan(atFill + 20);
  await userEvent.click(page.getByRole('button', { name: 'Stop' }));

  // What the user saw stays, and the note says it could not all be saved, with the code.
  await expect.poll(() => reply()?.dataset.status).toBe('failed');
  expect(reply()!.querySelector<HTMLElement>('.note[data-status="failed"]')?.dataset.code).toBe('storage_full');
  expect(reply()!.textContent).toContain('ran out of room while saving this reply');
  const finalText = shown();
  expect(finalText.length).toBeGreaterThan(atFill);

  // Stored: the question whole; the reply (stored as it started) as of its last write that fit, a prefix of what
  // was shown.
  const db = await rawDB(dbName);
  const turns = (await db.getAll('turns')) as TurnRecord[];
  db.close();
  expect(turns.find((t) => t.role === 'user')?.content).toBe(question);
  const stored = turns.find((t) => t.role === 'assistant')!;
  expect(finalText.startsWith(stored.content) && stored.content.length < finalText.length).toBe(true);

  // Sending now cannot store the message: the app says so and the text stays in the composer.
  await page.getByRole('textbox', { name: 'Message' }).fill('A second question that cannot be stored.');
  await userEvent.keyboard('{Enter}');
  await expect.element(page.getByRole('alert').filter({ hasText: 'storage_full' })).toBeVisible();
  await expect.element(page.getByRole('textbox', { name: 'Message' })).toHaveValue('A second question that cannot be stored.');

  // A reload, still with no room: the question, and the reply as stored, shown as interrupted.
  await unmountApp();
  const again = mountApp({ engine: 'scripted', dbName, ggufUrl: SCRIPTED_ENDLESS_URL, autoload: false }).app;
  await expect.poll(() => messageTexts(again, 'user')).toEqual([question]);
  await expect.poll(() => messageItems(again, 'assistant')[0]?.dataset.status).toBe('interrupted');
  expect(messageTexts(again, 'assistant')[0]!.trim()).toBe(stored.content.trim());
}, 240_000);

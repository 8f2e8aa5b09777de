/**
 * The browser evicts the downloaded model behind the app's back (storage pressure, the user clearing site files in
 * the browser's settings): the app notices, asks before downloading again (the model is hundreds of MB on the real
 * source), and the conversations stay.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { TEST_MODEL_REPLY } from '../../../scripts/test-model/reply.ts';
import { readModelCache } from '../../../src/ui/data/model-cache.ts';
import { conversationTitles, freshStart, messageItems, messageTexts, mountApp, sendAndWait, unmountApp, waitReady } from './app-helpers.ts';

beforeEach(freshStart);
afterEach(unmountApp);

/** What eviction does: the origin-private files of the CPU engine vanish (the page is not told). */
async function evictModel(): Promise<void> {
  const root = await navigator.storage.getDirectory();
  await root.removeEntry('cache', { recursive: true });
}
const ggufs = async (): Promise<number> => (await readModelCache()).files.filter((f) => f.url.endsWith('.gguf')).length;
const downloadCard = () => page.getByRole('heading', { name: 'Download the model to start' });

it('evicted between visits: the next visit asks to download again and shows the conversations', async () => {
  const { app, dbName } = mountApp({ autoload: false });
  await userEvent.click(page.getByRole('button', { name: 'Load the model' }));
  await waitReady(app);
  await sendAndWait(app, 'Where did I leave the spare key?');
  await unmountApp();

  await evictModel();
  const again = mountApp({ dbName, autoload: false }).app;
  await expect.element(downloadCard()).toBeVisible();
  expect(again.engine.status).toBe('idle');
  await expect.poll(() => conversationTitles(again)).toEqual(['Where did I leave the spare key?']);
  await expect.poll(() => messageTexts(again, 'user')).toEqual(['Where did I leave the spare key?']);
});

it('evicted while open, then the engine restarts: no silent download; the card asks, and Load answers the question', async () => {
  const { app, workers } = mountApp({ autoload: false });
  await userEvent.click(page.getByRole('button', { name: 'Load the model' }));
  await waitReady(app);
  await sendAndWait(app, 'How long do apples keep?');

  await evictModel();
  // The engine has to start over (the OS killed its worker), so its weights must come from somewhere.
  workers.at(-1)!.terminate();
  const input = page.getByRole('textbox', { name: 'Message' });
  const last = () => messageItems(app, 'assistant').at(-1)!;
  await input.fill('And pears?');
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => last().dataset.status, { timeout: 20_000 }).toBe('failed');
  await expect.element(downloadCard()).toBeVisible();

  // Sending again does not download behind the user's back: the reply says why, with a code; no engine starts.
  const workersBefore = workers.length;
  await input.fill('And plums?');
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => messageItems(app, 'user').length).toBe(3);
  await expect.poll(() => last().querySelector<HTMLElement>('.note[data-status="failed"]')?.dataset.code).toBe('model_not_downloaded');
  expect(last().textContent).toContain('removed by the browser to free space');
  expect(workers.length).toBe(workersBefore);
  expect(await ggufs()).toBe(0);
  await expect.element(downloadCard()).toBeVisible();

  // The user agrees: the model downloads again and the last question is answered; nothing was lost.
  await userEvent.click(page.getByRole('button', { name: 'Load the model' }));
  await expect.poll(() => [last().dataset.status, app.engine.status, app.engine.error?.code], { timeout: 45_000 }).toEqual(['complete', 'ready', undefined]);
  expect(messageTexts(app, 'user')).toEqual(['How long do apples keep?', 'And pears?', 'And plums?']);
  expect(last().textContent).toContain(TEST_MODEL_REPLY.slice(0, 10));
  expect(await ggufs()).toBe(1);
  expect(conversationTitles(app)).toEqual(['How long do apples keep?']);
}, 180_000);

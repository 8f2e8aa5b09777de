/**
 * First run and the model manager: before anything large is fetched the app says what it will download and
 * waits; a returning user with the model on the device goes straight in; the manager shows the engine and why,
 * the weights on the device, the storage estimate; the engine preference is kept; deleting the weights brings the
 * first-run question back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { readModelCache } from '../../../src/ui/data/model-cache.ts';
import { BACKEND_STORAGE_KEY } from '../../../src/ui/qwen-chat-app.ts';
import { TINY_MODEL_URL } from '../helpers.ts';
import { freshStart, messageTexts, mountApp, resetAppStorage, send, shadow, unmountApp, waitForReply, waitReady } from './app-helpers.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

/**
 * The test model under a URL of its own (the dev server ignores the query), for a first run that must really
 * download: under the shared URL, a file an earlier test's worker still held open could survive `resetAppStorage`,
 * and the engine, starting from cached weights, was ready before the message was sent (once in a full run).
 */
const FIRST_RUN_MODEL = `${TINY_MODEL_URL}?model-manager-first-run`;

const manager = () => shadow(document.querySelector('qwen-chat-app')!.shadowRoot!.querySelector('qwen-model-manager'));

describe('first run and the model manager', () => {
  // Engine start and a reply, each with its own wait: one 30 s wait for both timed out once on a loaded machine.
  it('a message sent while the engine starts is shown and stored at once, and answered once the engine is ready', { timeout: 120_000 }, async () => {
    const { app } = mountApp({ ggufUrl: FIRST_RUN_MODEL });
    await expect.poll(() => app.engine.status).toBe('loading');
    // On the same clock as the turn's `createdAt` (the page's monotonic clock drifts from it when the system clock is set).
    const readyAt = app.engine.ensureReady().then(() => Date.now());
    await send('What does the deploy script do first?');
    await expect.poll(() => messageTexts(app, 'user')).toEqual(['What does the deploy script do first?']);
    await waitReady(app);
    await waitForReply(app, 0);
    // The question was stored before the engine was ready: the composer did not wait for it.
    const [question] = await (await app.conversations.store()).listTurns(app.chat.sessionId!);
    expect(question!.createdAt).toBeLessThan(await readyAt);
  });

  it('a returning user: the engine starts at once, the memory loads while it reads its weights, and the panel shows each step timed', async () => {
    const first = mountApp({ autoload: false });
    await userEvent.click(page.getByRole('button', { name: 'Load the model' }));
    await waitReady(first.app);
    await unmountApp();

    const { app } = mountApp({ dbName: first.dbName, autoload: false });
    await waitReady(app);
    await expect.poll(() => app.timeline.steps.map((s) => s.name)).toEqual(expect.arrayContaining(['tokenizer', 'memory-code', 'index-restore', 'model-check']));
    const step = (name: string) => app.timeline.steps.find((s) => s.name === name)!;
    expect(app.timeline.steps.map((s) => s.name)).toEqual(expect.arrayContaining(['worker', 'engine-code', 'weights-open', 'wasm', 'model-load']));
    // The memory began loading while the engine read its weights: before the engine was ready, not at the first message.
    expect(step('tokenizer').startMs).toBeLessThan(app.timeline.readyMs!);
    expect(step('tokenizer').startMs).toBeGreaterThanOrEqual(step('model-load').startMs - 5);
    // Weights loaded here before: the engine started without waiting for the storage check.
    expect(step('worker').startMs).toBeLessThan(step('model-check').endMs);

    await userEvent.click(page.getByRole('button', { name: 'Model' }));
    await expect.element(page.getByRole('heading', { name: 'Last start' })).toBeVisible();
    const table = () => shadow(manager().querySelector('qwen-start-steps'));
    await expect.poll(() => table().querySelectorAll('tr[data-step]').length).toBeGreaterThanOrEqual(9);
    expect(table().querySelector('tr[data-step="model-load"]')?.textContent).toMatch(/Reading and building the model[\s\S]*MB read in/);
    expect(Number(table().querySelector<HTMLElement>('[data-ready-ms]')?.dataset.readyMs)).toBe(app.timeline.readyMs);
  });

  it('asks first, loads on the go, goes straight in next time, and deleting the weights asks again', async () => {
    const { app, dbName, workers } = mountApp({ autoload: false });
    // What will be downloaded, from where, how big (the host's own figure), and that it stays here.
    await expect.element(page.getByRole('heading', { name: 'Download the model to start' })).toBeVisible();
    await expect.element(page.getByText('qwen2-tiny.gguf')).toBeVisible();
    await expect.element(page.getByText('16 MB')).toBeVisible();
    await expect.element(page.getByText(location.host, { exact: true })).toBeVisible();
    await expect.element(page.getByText(/in this browser; it stays on this device/)).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(workers, 'no engine before the user says go').toHaveLength(0);
    expect(app.engine.status).toBe('idle');

    await userEvent.click(page.getByRole('button', { name: 'Load the model' }));
    await waitReady(app);
    await userEvent.click(page.getByRole('button', { name: 'Model' }));
    await expect.element(page.getByLabelText('Active model').getByText(/CPU · wllama — WASM CPU/)).toBeVisible();
    await expect.poll(() => Number(manager().querySelector<HTMLElement>('[data-cache-bytes]')?.dataset.cacheBytes ?? 0)).toBeGreaterThan(15_000_000);
    await expect.element(page.getByText(/16 MB in 1 files on this device/)).toBeVisible();
    await expect.element(page.getByText(/used of about/)).toBeVisible();
    expect(manager().querySelector('[data-persisted]')).not.toBeNull();

    // The engine preference is kept.
    await userEvent.click(page.getByRole('radio', { name: /Automatic/ }));
    expect(localStorage.getItem(BACKEND_STORAGE_KEY)).toBe('auto');
    expect(app.backend).toBe('auto');
    await waitReady(app);

    // Next visit: the model is on the device, so no question.
    await unmountApp();
    const again = mountApp({ dbName, autoload: false }).app;
    await waitReady(again);

    // Deleting the weights: confirmed, gone from the device, and the first-run question is back.
    await userEvent.click(page.getByRole('button', { name: 'Model' }));
    await userEvent.click(page.getByRole('button', { name: 'Delete the downloaded model' }));
    await expect.element(page.getByRole('dialog')).toHaveTextContent(/16 MB will be freed/);
    await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
    await expect.element(page.getByText('No model is stored on this device.')).toBeVisible();
    expect((await readModelCache()).files.filter((f) => f.url.endsWith('.gguf'))).toEqual([]);
    expect(again.engine.status).toBe('idle');
    await expect.element(page.getByRole('heading', { name: 'Download the model to start' })).toBeVisible();
  });
});

/**
 * A model load that stops making progress (its worker alive, answering pings: a download whose bytes stopped coming,
 * an engine that never settles) is not a page that says "loading" for ever: after `loadStallMs` without progress the
 * worker is stopped and the load starts again once in a fresh one; a second stall is reported, with Retry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { freshStart, mountApp, resetAppStorage, shadow, unmountApp, waitReady } from './app-helpers.ts';

const createStallingWorker = (): Worker => new Worker(new URL('../engine/stall-worker.ts', import.meta.url), { type: 'module', name: 'qwen-engine-stalling' });

/** Short for the test (the app's own is 30 s): the stalling worker reports once, at the start. */
const STALL_MS = 1_500;

beforeEach(() => freshStart());
afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

describe('a model load that stops making progress', () => {
  it('starts again in a fresh worker, and the app is ready without the user doing anything', async () => {
    const { app, workers } = mountApp({ engine: 'scripted', workers: [createStallingWorker], loadStallMs: STALL_MS });
    await expect.poll(() => app.engine.progress?.text).toBe('Downloading the model');
    await waitReady(app);
    expect(workers).toHaveLength(2);
    expect(app.engine.error).toBeNull();
  });

  it('stalled twice: says so with its code, keeps the page, and Retry loads it', async () => {
    const { app, workers } = mountApp({ engine: 'scripted', workers: [createStallingWorker, createStallingWorker], loadStallMs: STALL_MS });
    await expect.poll(() => app.engine.status, { timeout: 20_000 }).toBe('error');
    expect(app.engine.error?.code).toBe('load_stalled');
    expect(workers).toHaveLength(2);
    const card = () => shadow(shadow(app).querySelector('qwen-load-panel')).querySelector('[role="alert"]');
    await expect.poll(() => card()?.textContent ?? '').toMatch(/stopped loading[\s\S]*load_stalled/);
    await userEvent.click(page.getByRole('button', { name: /^(Try again|Retry)$/ }));
    await waitReady(app);
    expect(workers).toHaveLength(3);
  });
});

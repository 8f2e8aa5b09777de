/**
 * Liveness in real Chromium, through the app a user sees, with the shipped heartbeat (no test override): a worker
 * that closes itself, is terminated, or hangs is found within seconds (the 5 s promise is proven in fake time in
 * test/unit/engine/client.test.ts); a long prefill is not mistaken for a hang; and after
 * a crash with the weights on the device the user is offered Retry, not the download question.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import '../../../src/ui/qwen-chat-app.ts';
import { EngineClient, HEARTBEAT_TIMEOUT_MS, createEngineWorker } from '../../../src/engine/client.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import { freshDbName, messageItems, resetAppStorage } from '../app/app-helpers.ts';
import { LOOP_MODEL_URL } from '../helpers.ts';
import { CLOSE, CLOSING_MARKER, HANG, HANGING_MARKER, PREFILLED_REPLY, createLivenessWorker, prefillFor } from './liveness-script.ts';

/**
 * What the issue promises is 5 s from a worker's death to the report; test/unit/engine/client.test.ts proves that
 * bound exactly, in fake time. Here, in wall time on a shared CI machine, the heartbeat's timers fire late (it counts
 * only time this thread was listening, so a starved page detects later, never falsely), and one CI run measured
 * 5.19 s. So the browser bound is twice the promise: it still fails on the 20 s heartbeat this replaced, and the
 * measured time is logged (3.0–3.6 s on an idle machine).
 */
const DETECT_WITHIN_MS = 10_000;

function mount(createWorker: () => Worker, ggufUrl = 'scripted://liveness.gguf'): { app: QwenChatApp; workers: Worker[] } {
  const workers: Worker[] = [];
  const app = document.createElement('qwen-chat-app');
  app.client = new EngineClient({
    createWorker: () => {
      const worker = createWorker();
      workers.push(worker);
      return worker;
    },
  });
  app.dbName = freshDbName();
  app.source = { ggufUrl };
  app.backend = 'wasm';
  app.autoload = true;
  app.style.height = '700px';
  app.style.display = 'block';
  document.body.replaceChildren(app);
  return { app, workers };
}

const reply = (app: QwenChatApp, n = 0): HTMLElement | undefined => messageItems(app, 'assistant')[n];

/** The moment (performance.now) `test` first holds, checked every 5 ms. */
async function when(test: () => boolean, timeoutMs = 30_000): Promise<number> {
  const started = performance.now();
  while (!test()) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now();
}

async function send(text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await userEvent.keyboard('{Enter}');
}

/** Time from `eventAt` to the reply showing it failed with worker_crashed. */
async function detection(app: QwenChatApp, eventAt: number): Promise<number> {
  const failedAt = await when(() => reply(app)?.dataset.status === 'failed', 20_000);
  expect(reply(app)!.querySelector('[data-code]')!.getAttribute('data-code')).toBe('worker_crashed');
  return failedAt - eventAt;
}

/** The next message after a crash starts a second worker and streams. */
async function nextMessageWorks(app: QwenChatApp, workers: Worker[]): Promise<void> {
  await send('and now?');
  await expect.poll(() => Number(reply(app, 1)?.dataset.chunks ?? 0)).toBeGreaterThan(2);
  expect(workers).toHaveLength(2);
  app.chat.stop();
  await expect.poll(() => reply(app, 1)?.dataset.status).toBe('stopped');
}

beforeEach(() => resetAppStorage());

afterEach(async () => {
  document.querySelector('qwen-chat-app')?.client.terminate();
  document.body.replaceChildren();
  await resetAppStorage();
});

describe('a worker that stops without an error event is reported in seconds, not after the old 20 s heartbeat', () => {
  it('closes itself (self.close()): the reply fails with worker_crashed, and the next message starts a new worker', async () => {
    const { app, workers } = mount(createLivenessWorker);
    await send(`please ${CLOSE}`);
    const closedAt = await when(() => reply(app)?.textContent?.includes(CLOSING_MARKER) === true);
    const ms = await detection(app, closedAt);
    console.info(`[liveness] self-closed worker reported after ${Math.round(ms)} ms`);
    expect(ms).toBeLessThanOrEqual(DETECT_WITHIN_MS);
    await expect.element(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();
    await nextMessageWorks(app, workers);
  });

  it('is terminated (as the OS kills it): reported in seconds, and the next message starts a new worker', async () => {
    const { app, workers } = mount(createLivenessWorker);
    await send('tell me a long story');
    await expect.poll(() => Number(reply(app)?.dataset.chunks ?? 0)).toBeGreaterThan(2);
    const killedAt = performance.now();
    workers[0]!.terminate();
    const ms = await detection(app, killedAt);
    console.info(`[liveness] terminated worker reported after ${Math.round(ms)} ms`);
    expect(ms).toBeLessThanOrEqual(DETECT_WITHIN_MS);
    await nextMessageWorks(app, workers);
  });

  it('hangs (its thread blocked, no ping answered): reported in seconds, and the next message starts a new worker', async () => {
    const { app, workers } = mount(createLivenessWorker);
    await send(`please ${HANG}`);
    const hungAt = await when(() => reply(app)?.textContent?.includes(HANGING_MARKER) === true);
    const ms = await detection(app, hungAt);
    console.info(`[liveness] hung worker reported after ${Math.round(ms)} ms`);
    expect(ms).toBeLessThanOrEqual(DETECT_WITHIN_MS);
    await nextMessageWorks(app, workers);
  });
});

describe('no false alarm while the engine is busy', () => {
  // 6 s of silent, CPU-bound "prefill" on a nested worker: twice the heartbeat's 3 s limit with the shipped
  // settings (a ping every 0.5 s), so a whole limit's worth of pings in it is answered by this worker's free event
  // loop, not by luck. (A full minute runs in fake time in test/unit/engine/client.test.ts; here it would add a
  // minute of wall time to every CI run.)
  const PREFILL_MS = 2 * HEARTBEAT_TIMEOUT_MS;

  it(`a ${PREFILL_MS / 1000} s prefill that sends nothing is not a crash: the reply arrives in the same worker`, async () => {
    const { app, workers } = mount(createLivenessWorker);
    const sentAt = performance.now();
    await send(`a long prompt ${prefillFor(PREFILL_MS)}`);
    await when(() => reply(app)?.dataset.status === 'complete' || reply(app)?.dataset.status === 'failed', PREFILL_MS + 20_000);
    expect(reply(app)!.dataset.status).toBe('complete');
    expect(reply(app)!.querySelector('.content')!.textContent).toBe(PREFILLED_REPLY);
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(PREFILL_MS);
    expect(workers).toHaveLength(1);
    expect(app.engine.status).toBe('ready');
  });
});

describe('after a crash, the weights on the device are known', () => {
  it('offers Retry (not "Download the model"), and Retry answers the question again in a new worker', async () => {
    const { app, workers } = mount(createEngineWorker, LOOP_MODEL_URL);
    await send('keep this question');
    // The real model loads first (slow on a loaded CI machine).
    await expect.poll(() => Number(reply(app)?.dataset.chunks ?? 0), { timeout: 45_000 }).toBeGreaterThan(2);
    await expect.poll(() => app.model.cached).toBe(true);
    workers[0]!.terminate();
    await when(() => reply(app)?.dataset.status === 'failed', 10_000);

    const retry = page.getByRole('button', { name: 'Retry' });
    await expect.element(retry).toBeVisible();
    await expect.element(page.getByText('The model is still on this device', { exact: false })).toBeVisible();
    expect(document.body.innerHTML + app.shadowRoot!.innerHTML).not.toContain('Download the model to start');
    await expect.element(page.getByRole('button', { name: 'Load the model' })).not.toBeInTheDocument();

    await userEvent.click(retry);
    // The failed reply had streamed chunks too: wait for the answer of the new worker, not for the old count (on a
    // loaded machine the poll could read the failed reply before Retry had replaced it).
    await expect
      .poll(() => reply(app)?.dataset.status !== 'failed' && Number(reply(app)?.dataset.chunks ?? 0) > 2, { timeout: 45_000 })
      .toBe(true);
    expect(workers).toHaveLength(2);
    await expect.element(retry).not.toBeInTheDocument();
    app.chat.stop();
    await expect.poll(() => reply(app)?.dataset.status).toBe('stopped');
  }, 120_000);
});

/**
 * Download progress as the user reads it: bytes of the total, speed, time left — from the engine's progress
 * events over time (a scripted engine sends a slow 100 MB download, so speed and time left are known). Once they
 * are read, the rest of the download arrives at once: waiting the other seconds for it tested nothing more.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { EngineClient } from '../../../src/engine/client.ts';
import type { LoadPayload, LoadProgress, LoadResult } from '../../../src/engine/protocol.ts';
import '../../../src/ui/qwen-chat-app.ts';
import { freshDbName, resetAppStorage, unmountApp } from './app-helpers.ts';

afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

const MB = 1024 * 1024;

/** An engine whose model arrives at 20 MB/s, in steps of 100 ms, until `hurry()`: then the rest comes at once. */
function slowEngine(): { client: EngineClient; hurry: () => void } {
  let worker = false;
  let fast = false;
  const client = {
    onCrash: null,
    get hasWorker() {
      return worker;
    },
    async load(payload: LoadPayload, options: { onProgress?: (p: LoadProgress) => void }): Promise<LoadResult> {
      worker = true;
      const total = 100 * MB;
      for (let loaded = 0; loaded <= total; loaded += 2 * MB) {
        options.onProgress?.({ phase: 'download', loadedBytes: loaded, totalBytes: total, fraction: loaded / total, text: 'Downloading the model' });
        if (!fast) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { backend: 'wllama', reason: 'scripted', modelUrl: payload.source.ggufUrl ?? '', contextWindow: payload.contextWindow, steps: [] };
    },
    async unload() {},
    terminate() {
      worker = false;
    },
  };
  return { client: client as unknown as EngineClient, hurry: () => (fast = true) };
}

/** An engine on the device: its wasm, then reading the weights into memory (40 of 100 MB) until `finish()`. */
function readingEngine(): { client: EngineClient; finish: () => void } {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const client = {
    onCrash: null,
    hasWorker: true,
    async load(payload: LoadPayload, options: { onProgress?: (p: LoadProgress) => void }): Promise<LoadResult> {
      options.onProgress?.({ phase: 'init', step: 'wasm', loadedBytes: 0, totalBytes: 0, fraction: 0, text: 'wasm' });
      options.onProgress?.({ phase: 'init', step: 'model-load', loadedBytes: 40 * MB, totalBytes: 100 * MB, fraction: 0.4, text: 'model-load' });
      await done;
      return { backend: 'wllama', reason: 'scripted', modelUrl: payload.source.ggufUrl ?? '', contextWindow: payload.contextWindow, steps: [] };
    },
    async unload() {},
    terminate() {},
  };
  return { client: client as unknown as EngineClient, finish };
}

/**
 * The app on a scripted engine, loading: the user agreed on the load card (a first visit downloads nothing unasked;
 * without this the load is refused with model_not_downloaded unless an earlier file left the test model here).
 */
function loadingApp(client: EngineClient) {
  const app = document.createElement('qwen-chat-app');
  app.client = client;
  app.dbName = freshDbName();
  app.source = { ggufUrl: '/models/test/qwen2-tiny.gguf' };
  app.backend = 'wasm';
  app.style.height = '600px';
  document.body.replaceChildren(app);
  app.engine.agreeToDownload();
  void app.engine.ensureReady();
  return app;
}

describe('download progress', () => {
  it('names the start step under way and how much of the model is read into memory', async () => {
    const engine = readingEngine();
    const app = loadingApp(engine.client);

    const status = page.getByRole('status').filter({ hasText: 'Reading the model into memory…' });
    await expect.element(status).toHaveTextContent(/40 MB of 100 MB/);
    engine.finish();
    await expect.poll(() => app.engine.status, { timeout: 10_000 }).toBe('ready');
  });

  it('shows bytes, speed and time left while the model downloads', async () => {
    const engine = slowEngine();
    const app = loadingApp(engine.client);

    const status = page.getByRole('status').filter({ hasText: 'Downloading the model' });
    await expect.element(status).toHaveTextContent(/\d+ MB of 100 MB · (19|20|21|22)(\.\d)? MB\/s · about \d+ s left/);
    expect(app.engine.rate!.bytesPerSecond / MB).toBeGreaterThan(15);
    expect(app.engine.rate!.bytesPerSecond / MB).toBeLessThan(25);
    const left = app.engine.rate!.secondsLeft!;
    const progress = app.engine.progress!;
    // Time left is what remains at the measured speed.
    expect(left).toBeCloseTo((progress.totalBytes - progress.loadedBytes) / app.engine.rate!.bytesPerSecond, 5);
    engine.hurry();
    await expect.poll(() => app.engine.status, { timeout: 10_000 }).toBe('ready');
  });
});

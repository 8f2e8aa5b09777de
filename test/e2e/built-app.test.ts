/**
 * The production build, served by `vite preview` as a newcomer would run it, driven in Chromium:
 * COOP/COEP sent, engines absent from the first paint, `?model=test` answering with the generated model.
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { CHROMIUM_FLAGS } from '../../scripts/bench/browser-runner.ts';

const OUT = '.cache/e2e-dist';
let server: PreviewServer;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  await build({ configFile: 'vite.config.ts', logLevel: 'error', build: { outDir: OUT, emptyOutDir: true, copyPublicDir: true } });
  server = await preview({ configFile: 'vite.config.ts', logLevel: 'error', build: { outDir: OUT }, preview: { port: 0, host: '127.0.0.1' } });
  origin = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => server?.httpServer.close(() => resolve()));
  rmSync(OUT, { recursive: true, force: true });
});

describe('the built app under vite preview', () => {
  it('sends COOP/COEP, loads no engine before the user asks, then answers with the test model', async () => {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.log('pageerror:', e.message));
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const response = await page.goto(`${origin}/?model=test`);
    expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
    expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
    await page.getByRole('button', { name: 'Load the model' }).waitFor();
    expect(requested.filter((path) => /wllama|web-?llm|\.wasm|\.gguf|tokenizer/i.test(path))).toEqual([]);

    await page.getByRole('button', { name: 'Load the model' }).click();
    await page.getByText(/CPU · wllama — WASM CPU, \d+ threads? \(the model source is a GGUF file\)/).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello from the built app');
    await page.keyboard.press('Enter');
    await page.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).waitFor({ timeout: 30_000 });
    expect(requested.some((path) => path.endsWith('/models/test/qwen2-tiny.gguf'))).toBe(true);
    await page.close();
  }, 90_000);
});

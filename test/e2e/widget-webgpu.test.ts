/**
 * The widget's WebGPU path, self-hosted, on a docs host without COOP/COEP, in Chromium with a WebGPU adapter
 * (`--enable-unsafe-webgpu`: SwiftShader, no shader-f16):
 * - with `mlc-model` pointing below the widget's folder and `backend="webgpu"` (the automatic choice skips a software
 *   adapter; this attribute lets it take one), the engine picks web-llm first: web-llm's runtime comes
 *   from the widget's folder and it asks for the MLC model there. No MLC weights exist offline, so its load fails;
 *   the widget falls back to wllama, says so in its status line (and the whole reason on the console), and answers
 *   with the test model. Every request goes to the site's origin: nothing to Hugging Face, raw.githubusercontent.com
 *   (web-llm's default model libraries) or any CDN.
 * - given a model config there, web-llm next asks for its model library in the folder's libs/, not GitHub.
 * - a bad `mlc-model` is reported on the console by name, and the widget runs wllama only: web-llm is never loaded.
 * The three share one page: the first loads it in a fresh profile, the others set `mlc-model` on it (a new runtime,
 * with its own engine worker, each time).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { TEST_MODEL_ATTRIBUTE } from '../../scripts/site/build.ts';
import { useSite } from './site-harness.ts';
import { ENGINE_READY, grantModelConsent, input, launcher, servePage, setAttribute, statusText, waitForStatus, widget, widgetReady } from './widget-pages.ts';

const site = useSite('widget-webgpu', { isolation: false, docsDir: 'test/e2e/fixtures/widget-runtime-docs', args: ['--enable-unsafe-webgpu'] });

const DOCS = 'docs-index="/docs-index/manifest.json"';
const SINGLE_THREAD = 'WASM CPU, single thread (this page is not cross-origin isolated)';
const THIRD_PARTIES = /huggingface\.co|hf\.co|githubusercontent\.com|github\.com|jsdelivr|unpkg|cdn/i;

function consoleLines(page: Page, type: 'error' | 'warning'): string[] {
  const lines: string[] = [];
  page.on('console', (message) => {
    if (message.type() === type) lines.push(message.text());
  });
  return lines;
}

async function askAndWait(page: Page, question: string): Promise<void> {
  await input(page).fill(question);
  await input(page).press('Enter');
  await widget(page).getByText(TEST_MODEL_REPLY).waitFor({ timeout: 90_000 });
}

/** web-llm's chunk in the built widget folder (the only file that carries its WebGPU error help link). */
function webLlmChunk(widgetDir: string): string {
  const names = readdirSync(widgetDir).filter((name) => name.endsWith('.js') && readFileSync(join(widgetDir, name), 'utf8').includes('webgpureport.org'));
  expect(names).toHaveLength(1);
  return names[0]!;
}

describe('the widget on WebGPU, self-hosted', () => {
  // One page for the three: the first test loads it in a fresh profile; the others change `mlc-model` on it, which
  // gives the widget a new runtime (a new engine worker that picks its engine again) without a new page.
  let context: BrowserContext;
  let page: Page;
  /** Every request of the context since the current test began. */
  let requests: string[] = [];
  let warnings: string[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    context = await site().browser.newContext();
    await grantModelConsent(context);
    context.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith('data:') && !url.startsWith('blob:')) requests.push(url);
    });
  });

  afterAll(() => context?.close());

  beforeEach(() => {
    requests = [];
    warnings.length = 0;
    errors.length = 0;
  });

  /** The panel closed and its conversation cleared, `mlc-model` set to `value`: the next open makes a new runtime. */
  async function switchMlcModel(value: string): Promise<void> {
    if (page === undefined) throw new Error('this test continues on the page the first test of this file opens');
    await widget(page).getByRole('button', { name: 'New conversation' }).click();
    await widget(page).getByRole('button', { name: 'Close' }).click();
    await setAttribute(page, 'mlc-model', value);
    // The runtime that loaded is gone: its status with it.
    expect(await statusText(page)).toBe('Starting…');
  }

  it('with mlc-model and backend="webgpu" tries web-llm from the site first, falls back to wllama with a notice, and asks only the site', async () => {
    const { origin, dir } = site();
    const url = await servePage(context, origin, { attributes: `${DOCS} model="${TEST_MODEL_ATTRIBUTE}" mlc-model="models/mlc/" backend="webgpu"` });
    page = await context.newPage();
    warnings = consoleLines(page, 'warning');
    errors = consoleLines(page, 'error');
    await page.goto(url);
    // The host page is served; nothing else needs intercepting (an intercepting context also skips the HTTP cache).
    await context.unroute(url);
    await widgetReady(page);
    const config = await page.evaluate(() => (document.querySelector('qwen-assistant') as unknown as { runtimeConfig: { mlcModel: string; base: string } }).runtimeConfig);
    expect(config).toMatchObject({ mlcModel: 'models/mlc/', backend: 'webgpu', base: `${origin}/widget/` });

    // This Chromium has a WebGPU adapter (SwiftShader), large enough for web-llm; backend="webgpu" lets the engine
    // pick web-llm first on it.
    const gpu = await page.evaluate(async () => {
      const adapter = await (navigator as unknown as { gpu?: { requestAdapter(): Promise<{ features: Set<string> } | null> } }).gpu?.requestAdapter();
      return adapter == null ? null : { f16: adapter.features.has('shader-f16') };
    });
    expect(gpu, 'no WebGPU adapter in this Chromium even with --enable-unsafe-webgpu').not.toBeNull();
    const variant = gpu!.f16 ? 'q4f16_1' : 'q4f32_1';

    await launcher(page).click();
    const ready = await waitForStatus(page, ENGINE_READY);
    expect(ready).toBe(`${SINGLE_THREAD} · WebGPU could not load the model, so it runs on the CPU · 3 doc pages`);
    await askAndWait(page, 'Which port does the Zorblax daemon listen on?');

    // web-llm ran first: its runtime from the widget's folder, then the model's config below mlc-model (not there).
    expect(requests).toContain(`${origin}/widget/${webLlmChunk(join(dir, 'widget'))}`);
    const mlcConfig = `${origin}/widget/models/mlc/Qwen2.5-0.5B-Instruct-${variant}-MLC/resolve/main/mlc-chat-config.json`;
    expect(requests).toContain(mlcConfig);
    expect(requests.indexOf(mlcConfig)).toBeLessThan(requests.indexOf(`${origin}/widget/${TEST_MODEL_ATTRIBUTE}`));
    // The whole reason, for the site owner: web-llm found no model there.
    expect(warnings.some((line) => line.includes('WebGPU (web-llm) could not load the model') && line.includes(`${mlcConfig} (HTTP 404)`))).toBe(true);

    // Only the site's origin, over the whole visit: no model hub, no raw.githubusercontent.com, no CDN.
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
    expect(requests.filter((u) => THIRD_PARTIES.test(new URL(u).host))).toEqual([]);
  }, 240_000);

  it("asks for web-llm's model library below the mlc-model folder too (libs/, as fetch-model writes it), never GitHub", async () => {
    const { origin, dir } = site();
    // A model config exists (web-llm reads it first, then the model library, then tokenizer and weights); the
    // library does not, so web-llm still fails, a step later.
    const configs = `${origin}/widget/models/mlc/*/resolve/main/mlc-chat-config.json`;
    await context.route(configs, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    try {
      await switchMlcModel(`${origin}/widget/models/mlc`);
      const f16 = await page.evaluate(async () => {
        const adapter = await (navigator as unknown as { gpu?: { requestAdapter(): Promise<{ features: Set<string> } | null> } }).gpu?.requestAdapter();
        return adapter?.features.has('shader-f16') ?? false;
      });
      await launcher(page).click();
      expect(await waitForStatus(page, ENGINE_READY)).toBe(`${SINGLE_THREAD} · WebGPU could not load the model, so it runs on the CPU · 3 doc pages`);
      expect(requests).toContain(`${origin}/widget/models/mlc/libs/Qwen2-0.5B-Instruct-${f16 ? 'q4f16_1' : 'q4f32_1'}_cs1k-webgpu.wasm`);
      // The new runtime fetched web-llm again (its own engine worker): the next test's check that web-llm is not
      // fetched is not hidden by a cache.
      expect(requests).toContain(`${origin}/widget/${webLlmChunk(join(dir, 'widget'))}`);
      expect(requests.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
    } finally {
      await context.unroute(configs);
    }
  }, 240_000);

  it('a bad mlc-model is named on the console, and the widget runs wllama only without loading web-llm', async () => {
    const { origin, dir } = site();
    await switchMlcModel('models/qwen2-tiny.gguf');
    await expect
      .poll(() => errors)
      .toContain(
        'qwen-assistant: invalid attribute "mlc-model": "models/qwen2-tiny.gguf" is a file; give the MLC model folder written by npm run fetch-model (public/models/mlc/); using ""',
      );
    await launcher(page).click();
    expect(await waitForStatus(page, ENGINE_READY)).toBe(`${SINGLE_THREAD} · 3 doc pages`);
    await askAndWait(page, 'Which port does the Zorblax daemon listen on?');
    expect(requests).not.toContain(`${origin}/widget/${webLlmChunk(join(dir, 'widget'))}`);
    expect(requests.filter((u) => u.includes('/mlc') || u.includes('qwen2-tiny.gguf/'))).toEqual([]);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
  }, 240_000);
});

/**
 * The production build, served by `vite preview` as a newcomer would run it, driven in Chromium:
 * COOP/COEP sent, engines absent from the first paint, `?model=test` answering with the generated model.
 */
import { describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { useBuiltApp } from './harness.ts';

const built = useBuiltApp('built-app');

describe('the built app under vite preview', () => {
  it('sends COOP/COEP, loads no engine before the user asks, then answers with the test model', async () => {
    const { browser, origin } = built();
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.log('pageerror:', e.message));
    const requested: Array<{ path: string; method: string }> = [];
    page.on('request', (request) => requested.push({ path: new URL(request.url()).pathname, method: request.method() }));
    const response = await page.goto(`${origin}/?model=test`);
    expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
    expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
    await page.getByRole('button', { name: 'Load the model' }).waitFor();
    // Nothing of the engines, the weights or the tokenizer is fetched before the user's go; only the model's
    // size is asked for (a HEAD request, no body), to say how much will be downloaded.
    const engineFiles = requested.filter((r) => /wllama|web-?llm|\.wasm|\.gguf|tokenizer/i.test(r.path));
    expect(engineFiles.filter((r) => r.method !== 'HEAD')).toEqual([]);
    expect(engineFiles.every((r) => r.path.endsWith('/models/test/qwen2-tiny.gguf'))).toBe(true);

    await page.getByRole('button', { name: 'Load the model' }).click();
    await page.getByText(/CPU · wllama — WASM CPU, \d+ threads? \(the model source is a GGUF file\)/).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello from the built app');
    await page.keyboard.press('Enter');
    await page.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).waitFor({ timeout: 30_000 });
    expect(requested.some((r) => r.method === 'GET' && r.path.endsWith('/models/test/qwen2-tiny.gguf'))).toBe(true);
    await page.close();
  }, 90_000);
});

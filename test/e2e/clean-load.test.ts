/**
 * A normal visit to the production build, served by `vite preview` as a newcomer would run it, is clean: no console
 * error, no uncaught exception and no failed or refused request, in the page, its workers (the engine and wllama's
 * own) or the service worker. A build without a self-hosted model does not ask for models/manifest.json (which
 * answered 404 on every load).
 *
 * The visit with the generated test model is one fresh profile that carries several checks, each of which used to
 * pay for its own model load (built-app.test.ts, csp.test.ts's app-meta test, tokenizer-fetch.test.ts's app test):
 * COOP/COEP are sent, the shipped CSP meta holds and 0 violations happen (every panel opened), no engine file is
 * fetched before the user's go, the model answers on wllama, the tokenizer (4 MB) is fetched from the network once
 * over two replies and the next visit gets it from the service worker's cache.
 */
import type { BrowserContext, ConsoleMessage, Page, Request } from 'playwright';
import { describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { DEFAULT_MODEL_CONNECT } from '../../scripts/csp.ts';
import { guardedContext, sendAndWait, useBuiltApp, waitForReady } from './harness.ts';
import { expectStrictPolicy, metaPolicy, networkFetches, pageResponses, waitUntilAllCached, waitUntilCached, watchCsp } from './visit-checks.ts';

const built = useBuiltApp('clean-load');

/** Who asked, so a failure says which page or worker to look at. */
function initiator(request: Request): string {
  const worker = request.serviceWorker();
  if (worker !== null) return `service worker, ${request.resourceType()}`;
  try {
    return `page ${request.frame().url()}, ${request.resourceType()}`;
  } catch {
    return request.resourceType();
  }
}

/** Everything that would show red in the browser's console, from every page, worker and service worker. */
function recordProblems(context: BrowserContext): string[] {
  const problems: string[] = [];
  const onConsole = (where: string) => (message: ConsoleMessage) => {
    if (message.type() === 'error') problems.push(`${where} console error: ${message.text()}`);
  };
  // A page's console carries its dedicated workers' messages too (the engine worker and wllama's).
  context.on('page', (page) => page.on('console', onConsole('page')));
  context.on('serviceworker', (worker) => worker.on('console', onConsole('service worker')));
  context.on('weberror', (error) => problems.push(`uncaught: ${error.error().message}`));
  context.on('requestfailed', async (request) => {
    // Chromium reports a request whose body nobody read (every HEAD) as aborted after its answer: the answer's
    // status, checked below, decides. A request that got no answer at all failed.
    if ((await request.response()) === null) problems.push(`failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? '?'}; ${initiator(request)})`);
  });
  context.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return problems;
}

/** Waits until the service worker has cached a file whose path matches `path`: its background work is done. */
async function waitForCached(page: Page, path: RegExp): Promise<void> {
  await page.waitForFunction(
    async (source) => (await (await caches.open('qwen-shell-v1')).keys()).some((r) => new RegExp(source).test(new URL(r.url).pathname)),
    path.source,
    { timeout: 20_000, polling: 200 },
  );
}

describe('a normal load of the built app', () => {
  it('the first visit, as a newcomer sees it, logs no error and makes no failed request', async () => {
    const { browser, origin } = built();
    const { context, requests, blocked } = await guardedContext(browser, [origin]);
    // The default model's host (Hugging Face) cannot be reached from here: its answer to the size probe (a HEAD
    // request, no body) is given as the host gives it.
    await context.route('https://huggingface.co/**', (route) =>
      route.fulfill({ status: 200, headers: { 'access-control-allow-origin': '*', 'content-type': 'application/octet-stream' }, body: '' }),
    );
    const problems = recordProblems(context);
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: 'Load the model' }).waitFor();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    await waitForCached(page, /\/assets\/index-.*\.js$/);
    expect(problems).toEqual([]);
    expect(blocked).toEqual([]);
    expect(requests.map((r) => new URL(r.url).pathname)).not.toContain('/models/manifest.json');
    await context.close();
  }, 120_000);

  it(
    'a first visit with the test model and the next: COOP/COEP and the strict CSP meta sent, no engine fetched before the user asks, ' +
      'it answers on wllama and every panel opens with 0 CSP violations, the tokenizer is fetched once over two replies and read from ' +
      "the service worker's cache on the next visit, and no error is logged nor request failed",
    async () => {
      const { browser, origin } = built();
      const tokenizer = `${origin}/tokenizer/qwen2.5/tokenizer.tables-v1.json`;
      const model = '/models/test/qwen2-tiny.gguf';
      const { context, requests, blocked } = await guardedContext(browser, [origin]);
      const problems = recordProblems(context);
      const csp = await watchCsp(context);
      const first = await context.newPage();
      const response = await first.goto(`${origin}/?model=test`);
      expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
      expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');

      // The policy ships as a meta, first in the head, with the directives README.md promises.
      const policy = await metaPolicy(first);
      expectStrictPolicy(policy);
      expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      // Hugging Face, the hosts its downloads redirect to, and web-llm's model libraries; nothing else.
      expect(policy.get('connect-src')).toEqual(["'self'", ...DEFAULT_MODEL_CONNECT]);
      expect(DEFAULT_MODEL_CONNECT).toEqual(expect.arrayContaining(['https://huggingface.co', 'https://*.hf.co', 'https://raw.githubusercontent.com']));

      await first.getByRole('button', { name: 'Load the model' }).waitFor();
      // Nothing of the engines, the weights or the tokenizer is fetched before the user's go; only the model's
      // size is asked for (a HEAD request, no body), to say how much will be downloaded.
      const engineFiles = requests.map((r) => ({ path: new URL(r.url).pathname, method: r.method })).filter((r) => /wllama|web-?llm|\.wasm|\.gguf|tokenizer/i.test(r.path));
      expect(engineFiles.filter((r) => r.method !== 'HEAD')).toEqual([]);
      expect(engineFiles.every((r) => r.path.endsWith(model))).toBe(true);

      await first.getByRole('button', { name: 'Load the model' }).click();
      await waitForReady(first);
      await first.getByText(/CPU · wllama — WASM CPU, \d+ threads? \(the model source is a GGUF file\)/).waitFor({ timeout: 30_000 });
      expect(await first.evaluate(() => crossOriginIsolated)).toBe(true);
      await sendAndWait(first, 'Backups run at 02:00');
      await first.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).waitFor();
      await sendAndWait(first, 'When do backups run?');
      await first.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).nth(1).waitFor();
      expect(requests.some((r) => r.method === 'GET' && new URL(r.url).pathname.endsWith(model))).toBe(true);

      // Every panel: the inspector's token and cache bars and the model manager's meters set widths at run time.
      for (const name of ['Inspector', 'Model', 'Settings', 'Data']) {
        await first.getByRole('toolbar').getByRole('button', { name }).click();
        await first.getByRole('region', { name, exact: true }).waitFor();
      }
      await first.getByRole('toolbar').getByRole('button', { name: 'Inspector' }).click();
      await first.locator('qwen-inspector [data-engine]').waitFor();

      await waitUntilCached(first, 'qwen-shell-v1', tokenizer);
      expect(networkFetches(requests, tokenizer)).toBe(1);
      await first.waitForTimeout(300);
      expect(await csp.found()).toEqual([]);
      // The service worker's background caching is over before the page goes (see waitUntilAllCached).
      await waitUntilAllCached(first, 'qwen-shell-v1', '/assets/');
      await first.close();

      // The next visit: the model is on the device and loads at once; the app files and the tokenizer come from the
      // service worker.
      const second = await context.newPage();
      const responses = pageResponses(second, tokenizer);
      await second.goto(`${origin}/?model=test`);
      await waitForReady(second);
      await sendAndWait(second, 'And on Sundays?');
      // The last conversation reopened: its two replies and this one.
      await second.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).nth(2).waitFor();
      expect(responses).toEqual([true]);
      expect(networkFetches(requests, tokenizer)).toBe(1);
      expect(await csp.found()).toEqual([]);
      expect(problems).toEqual([]);
      expect(blocked).toEqual([]);
      await context.close();
    },
    240_000,
  );
});

/**
 * A normal visit to the production build is clean: no console error, no uncaught exception and no failed or
 * refused request, in the page, its workers (the engine and wllama's own) or the service worker. A build without
 * a self-hosted model does not ask for models/manifest.json (which answered 404 on every load).
 */
import type { BrowserContext, ConsoleMessage, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { guardedContext, sendAndWait, useBuiltApp, waitForReady } from './harness.ts';

const built = useBuiltApp('clean-load');

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
    if ((await request.response()) === null) problems.push(`failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? '?'})`);
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

  it('loading the model, answering and coming back log no error and make no failed request', async () => {
    const { browser, origin } = built();
    const { context, blocked } = await guardedContext(browser, [origin]);
    const problems = recordProblems(context);
    const page = await context.newPage();
    await page.goto(`${origin}/?model=test`);
    await page.getByRole('button', { name: 'Load the model' }).click();
    await waitForReady(page);
    await sendAndWait(page, 'Hello');
    await page.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).waitFor();
    await waitForCached(page, /\/tokenizer\.json$/);
    // The next visit: the model is on the device, the app files come from the service worker.
    await page.reload();
    await waitForReady(page);
    await sendAndWait(page, 'Hello again');
    await page.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).nth(1).waitFor();
    expect(problems).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  }, 240_000);
});

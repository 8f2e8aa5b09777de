/**
 * The Qwen tokenizer (5 MB) is downloaded once: a visit in which the model loads and two messages are answered
 * fetches it from the network exactly once, and the next visit gets it from the service worker's cache — in the
 * app and in the widget on the demo docs site. Every request is intercepted (guardedContext): the service
 * worker's own requests are seen too, and a request answered from its cache never reaches the route.
 */
import type { BrowserContext, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { guardedContext, sendAndWait, useBuiltApp, waitForReady, type RequestLog } from './harness.ts';
import { useSite } from './site-harness.ts';
import { input, launcher, widget } from './widget-pages.ts';

const built = useBuiltApp('tokenizer-fetch');
const site = useSite('tokenizer-fetch', { isolation: false, docsDir: 'test/e2e/fixtures/widget-docs' });

/** How many times `url` went to the network (the page's, its workers' or the service worker's request). */
const networkFetches = (requests: readonly RequestLog[], url: string): number => requests.filter((r) => r.url === url).length;

/** Responses to `url` seen by the page, each marked with whether the service worker answered it from its cache. */
function pageResponses(page: Page, url: string): boolean[] {
  const fromWorker: boolean[] = [];
  page.on('response', (response) => {
    if (response.url() === url) fromWorker.push(response.fromServiceWorker());
  });
  return fromWorker;
}

/** Waits until the service worker's cache `cacheName` holds `url`. */
async function waitUntilCached(page: Page, cacheName: string, url: string): Promise<void> {
  await page.waitForFunction(async ([name, href]) => (await (await caches.open(name)).match(href, { ignoreVary: true })) !== undefined, [cacheName, url] as const, {
    timeout: 20_000,
    polling: 200,
  });
}

async function controlledPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  return page;
}

describe('the app downloads the tokenizer once', () => {
  it('one network fetch while the model loads and two messages are answered; the next visit reads the cache', async () => {
    const { browser, origin } = built();
    const tokenizer = `${origin}/tokenizer/qwen2.5/tokenizer.json`;
    const { context, requests, blocked } = await guardedContext(browser, [origin]);

    const first = await context.newPage();
    await first.goto(`${origin}/?model=test`);
    await first.getByRole('button', { name: 'Load the model' }).click();
    await waitForReady(first);
    await sendAndWait(first, 'Backups run at 02:00');
    await sendAndWait(first, 'When do backups run?');
    await first.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).nth(1).waitFor();
    await waitUntilCached(first, 'qwen-shell-v1', tokenizer);
    expect(networkFetches(requests, tokenizer)).toBe(1);
    await first.close();

    // A later visit: the model is on the device and loads at once; the tokenizer comes from the worker's cache.
    const second = await context.newPage();
    const responses = pageResponses(second, tokenizer);
    await second.goto(`${origin}/?model=test`);
    await waitForReady(second);
    await sendAndWait(second, 'And on Sundays?');
    expect(responses).toEqual([true]);
    expect(networkFetches(requests, tokenizer)).toBe(1);
    expect(blocked).toEqual([]);
    await context.close();
  }, 240_000);
});

describe('the widget downloads the tokenizer once per site, not once per page', () => {
  /** Complete answers shown by the widget. */
  const answers = (page: Page): Promise<number> => widget(page).locator('[part~="assistant"][data-state="complete"]').count();

  /** Asks and waits until one more answer on the page is complete. */
  async function ask(page: Page, question: string): Promise<void> {
    const before = await answers(page);
    await input(page).fill(question);
    await input(page).press('Enter');
    await expect.poll(() => answers(page), { timeout: 90_000, interval: 100 }).toBe(before + 1);
  }

  it('one network fetch on the first page with two answers; the next page reads the cache', async () => {
    const { browser, origin } = site();
    const tokenizer = `${origin}/widget/tokenizer/qwen2.5/tokenizer.json`;
    const { context, requests, blocked } = await guardedContext(browser, [origin]);

    const first = await controlledPage(context, `${origin}/index.html`);
    await launcher(first).click();
    await ask(first, 'How do I install the widget?');
    await ask(first, 'Where does it keep its data?');
    await waitUntilCached(first, 'qwen-assistant-offline-v1', tokenizer);
    expect(networkFetches(requests, tokenizer)).toBe(1);
    await first.close();

    const second = await context.newPage();
    const responses = pageResponses(second, tokenizer);
    await second.goto(`${origin}/guide.html`);
    await launcher(second).click();
    await ask(second, 'How do I install the widget?');
    expect(responses).toEqual([true]);
    expect(networkFetches(requests, tokenizer)).toBe(1);
    expect(blocked).toEqual([]);
    await context.close();
  }, 240_000);
});

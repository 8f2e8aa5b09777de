/**
 * The shipped Content-Security-Policy, in Chromium: the production app and the demo docs site carry it as a meta
 * (and the test first proves it is there, with the directives README.md promises), load the generated model and
 * answer with 0 violations; the app also runs under the equivalent header on every response, so its workers are
 * bound too; and a model host outside connect-src fails with the error that says how to allow it, before any
 * request to that host. The app's meta is checked over the first visit in clean-load.test.ts (one fresh profile
 * carries several checks there); the docs site's visit here also checks that the widget fetches the tokenizer once.
 *
 * Violations are counted by a `securitypolicyviolation` listener installed before any page script, by the
 * browser's "Content Security Policy" console lines (page and workers) (visit-checks.ts), and, under the header, by
 * a listener prepended to the engine worker's script.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { buildCsp, DEFAULT_MODEL_CONNECT, inlineHash } from '../../scripts/csp.ts';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { guardedContext, sendAndWait, useBuiltApp, waitForReady } from './harness.ts';
import { useSite } from './site-harness.ts';
import { expectStrictPolicy, metaPolicy, networkFetches, pageResponses, waitUntilCached, watchCsp } from './visit-checks.ts';
import { grantModelConsent, input, launcher, setAttribute, statusError, waitForAnswer, widget } from './widget-pages.ts';

const app = useBuiltApp('csp');
const site = useSite('csp', { isolation: false, docsDir: 'test/e2e/fixtures/widget-docs' });

describe('the app under its Content-Security-Policy', () => {
  // The shipped meta, the model loaded and answering, and every panel opened with 0 violations: checked over the
  // first visit in clean-load.test.ts, which carries several checks in one fresh profile.

  it('runs under the equivalent header on every response, workers included', async () => {
    const { browser, origin } = app();
    // No service worker: every response, the engine worker's script included, comes through the route below.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await grantModelConsent(context);
    const csp = await watchCsp(context);
    let header = '';
    let workerScripts = 0;
    await context.route(`${origin}/**`, async (route) => {
      const response = await route.fetch();
      const url = new URL(route.request().url());
      let body = await response.body();
      if (route.request().resourceType() === 'document') {
        // The header a host would send for this build: its inline style's hash, the default model hosts.
        const style = /<style\b[^>]*>([\s\S]*?)<\/style>/.exec(body.toString('utf8'))?.[1] ?? '';
        header = buildCsp({ connect: DEFAULT_MODEL_CONNECT, styleHashes: [inlineHash(style)], delivery: 'header' });
      }
      if (/\/assets\/worker-[^/]*\.js$/.test(url.pathname)) {
        // A violation inside the worker is an event there, not in the page: report it on the console.
        workerScripts += 1;
        const listener = `self.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation in the engine worker: ' + e.effectiveDirective + ' ' + e.blockedURI));\n`;
        body = Buffer.concat([Buffer.from(listener), body]);
      }
      // The body may have grown: drop the old length.
      const headers: Record<string, string> = { ...response.headers(), 'content-security-policy': header };
      delete headers['content-length'];
      await route.fulfill({ response, body, headers });
    });
    const page = await context.newPage();
    await page.goto(`${origin}/?model=test&autoload=1`);
    expect(header).toContain("frame-ancestors 'none'");
    await waitForReady(page);
    expect(workerScripts).toBe(1);
    await sendAndWait(page, 'Hello under the header');
    await page.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).waitFor();
    expect(await csp.found()).toEqual([]);
    await context.close();
  });

  it('a ?model= on a host outside connect-src fails with how to allow it, and nothing is asked of that host', async () => {
    const { browser, origin, otherOrigin } = app();
    // The other origin serves the real model: without the check its download from the engine worker (which a meta
    // policy does not bind) would just work.
    const modelUrl = `${otherOrigin}/models/test/qwen2-tiny.gguf`;
    const { context, requests } = await guardedContext(browser, [origin, otherOrigin]);
    await grantModelConsent(context);
    const csp = await watchCsp(context);
    const page = await context.newPage();
    await page.goto(`${origin}/?model=${encodeURIComponent(modelUrl)}`);
    await page.getByRole('button', { name: 'Load the model' }).click();
    const alert = page.getByText(`The model host ${otherOrigin} is not allowed by this page's Content-Security-Policy (connect-src)`);
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain('VITE_MODEL_GGUF_URL');
    expect(text).toContain(`add ${otherOrigin} to connect-src`);
    await page.getByText('invalid_config').waitFor();
    expect(requests.filter((r) => r.url.startsWith(otherOrigin))).toEqual([]);
    expect(await csp.found()).toEqual([]);
    await context.close();
  });
});

describe('the demo docs site under its Content-Security-Policy', () => {
  /** Complete answers shown by the widget. */
  const answers = (page: Page): Promise<number> => widget(page).locator('[part~="assistant"][data-state="complete"]').count();

  /** Asks and waits until one more answer on the page is complete. */
  async function ask(page: Page, question: string): Promise<void> {
    const before = await answers(page);
    await input(page).fill(question);
    await input(page).press('Enter');
    await expect.poll(() => answers(page), { timeout: 90_000, interval: 100 }).toBe(before + 1);
  }

  // One fresh profile also checks that the widget downloads the Qwen tokenizer (4 MB) once per site, not once per
  // page: every request is intercepted (guardedContext), the service worker's own too, and one answered from its
  // cache never reaches the route.
  it(
    'ships the policy as a meta on every page, and the widget answers with 0 violations; it fetches the tokenizer once over two ' +
      "answers on the first page, and the next page reads the service worker's cache",
    async () => {
      const { browser, origin, dir } = site();
      const tokenizer = `${origin}/widget/tokenizer/qwen2.5/tokenizer.tables-v1.json`;
      const { context, requests, blocked } = await guardedContext(browser, [origin]);
      await grantModelConsent(context);
      const csp = await watchCsp(context);
      const first = await context.newPage();
      await first.goto(`${origin}/index.html`);
      const policy = await metaPolicy(first);
      expectStrictPolicy(policy);
      // The test model sits next to the widget (relative): the site's own origin is all the widget connects to.
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      // One hashed inline script, the service worker's registration, and no other.
      expect(policy.get('script-src')).toHaveLength(3);
      for (const file of ['index.html', 'guide.html']) expect(readFileSync(join(dir, file), 'utf8')).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\';');

      await first.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
      await launcher(first).click();
      await ask(first, 'How do I install the widget?');
      const answer = await waitForAnswer(first);
      expect(((await answer.textContent()) ?? '').length).toBeGreaterThan(0);
      await ask(first, 'Where does it keep its data?');
      await waitUntilCached(first, 'qwen-assistant-offline-v1', tokenizer);
      expect(networkFetches(requests, tokenizer)).toBe(1);
      await first.waitForTimeout(300);
      expect(await csp.found()).toEqual([]);
      await first.close();

      // The next page of the site: the tokenizer comes from the service worker's cache.
      const second = await context.newPage();
      const responses = pageResponses(second, tokenizer);
      await second.goto(`${origin}/guide.html`);
      await launcher(second).click();
      await ask(second, 'How do I install the widget?');
      expect(responses).toEqual([true]);
      expect(networkFetches(requests, tokenizer)).toBe(1);
      expect(await csp.found()).toEqual([]);
      expect(blocked).toEqual([]);
      await context.close();
    },
    240_000,
  );

  it('a widget model on a host outside connect-src fails with how to allow it', async () => {
    const { browser, origin, otherOrigin } = site();
    const { context, requests } = await guardedContext(browser, [origin, otherOrigin]);
    await grantModelConsent(context);
    const csp = await watchCsp(context);
    const page = await context.newPage();
    await page.goto(`${origin}/guide.html`);
    await setAttribute(page, 'model', `${otherOrigin}/widget/models/test/qwen2-tiny.gguf`);
    await launcher(page).click();
    await input(page).fill('How do I install the widget?');
    await input(page).press('Enter');
    const error = await statusError(page);
    expect(error).toContain(`invalid_config: The model host ${otherOrigin} is not allowed by this page's Content-Security-Policy (connect-src)`);
    expect(error).toContain(`must add ${otherOrigin} to connect-src`);
    await expect(widget(page).locator('[part="status"].error').isVisible()).resolves.toBe(true);
    expect(requests.filter((r) => r.url.startsWith(otherOrigin))).toEqual([]);
    expect(await csp.found()).toEqual([]);
    await context.close();
  });
});

/**
 * The shipped Content-Security-Policy, in Chromium: the production app and the demo docs site carry it as a meta
 * (and the test first proves it is there, with the directives README.md promises), load the generated model and
 * answer with 0 violations; the app also runs under the equivalent header on every response, so its workers are
 * bound too; and a model host outside connect-src fails with the error that says how to allow it, before any
 * request to that host.
 *
 * Violations are counted by a `securitypolicyviolation` listener installed before any page script, by the
 * browser's "Content Security Policy" console lines (page and workers), and, under the header, by a listener
 * prepended to the engine worker's script.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { buildCsp, DEFAULT_MODEL_CONNECT, inlineHash } from '../../scripts/csp.ts';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { guardedContext, sendAndWait, useBuiltApp, waitForReady } from './harness.ts';
import { useSite } from './site-harness.ts';
import { input, launcher, setAttribute, statusError, waitForAnswer, widget } from './widget-pages.ts';

const app = useBuiltApp('csp');
const site = useSite('csp', { isolation: false, docsDir: 'test/e2e/fixtures/widget-docs' });

interface CspWatch {
  /** Violation events seen by pages, and CSP console lines from pages and workers. */
  found(): Promise<string[]>;
}

/** Starts counting violations in every page and worker of `context` (before any page script runs). */
async function watchCsp(context: BrowserContext): Promise<CspWatch> {
  const lines: string[] = [];
  const pages: Page[] = [];
  context.on('page', (page) => pages.push(page));
  context.on('console', (message) => {
    if (/content.security.policy|csp violation/i.test(message.text())) lines.push(`console: ${message.text()}`);
  });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    // Capture on the document: violations target the element (composed, so through shadow roots) or the document.
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`), true);
  });
  return {
    async found() {
      const events = await Promise.all(
        pages.filter((p) => !p.isClosed()).map((p) => p.evaluate(() => (globalThis as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])),
      );
      return [...events.flat().map((e) => `event: ${e}`), ...lines];
    },
  };
}

/** The page's CSP meta, parsed: directive → sources. Fails when there is none or it is not the first thing that can load. */
async function metaPolicy(page: Page): Promise<Map<string, string[]>> {
  const found = await page.evaluate(() => {
    const metas = [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]')];
    const meta = metas[0];
    const firstLoading = document.head.querySelector('script, style, link:not([rel="icon"])');
    return {
      count: metas.length,
      content: meta?.getAttribute('content') ?? '',
      inHead: meta?.parentElement === document.head,
      beforeLoads: meta !== undefined && firstLoading !== null && (meta.compareDocumentPosition(firstLoading) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
    };
  });
  expect(found).toMatchObject({ count: 1, inHead: true, beforeLoads: true });
  return new Map(
    found.content
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values] as [string, string[]]),
  );
}

/** What every shipped policy must hold, whatever its model hosts. */
function expectStrictPolicy(policy: Map<string, string[]>): void {
  expect(policy.get('default-src')).toEqual(["'none'"]);
  const scripts = policy.get('script-src') ?? [];
  expect(scripts.slice(0, 2)).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  // Nothing else but hashes: no 'unsafe-inline', no 'unsafe-eval', no host.
  expect(scripts.slice(2).every((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s))).toBe(true);
  expect((policy.get('style-src') ?? []).filter((s) => !s.startsWith("'sha256-"))).toEqual(["'self'"]);
  expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(policy.get('worker-src')).toEqual(["'self'", 'blob:']);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('form-action')).toEqual(["'none'"]);
  expect(policy.get('connect-src')?.[0]).toBe("'self'");
}

describe('the app under its Content-Security-Policy', () => {
  it('ships the policy as a meta, loads the model, answers, and opens its panels with 0 violations', async () => {
    const { browser, origin } = app();
    const { context, blocked } = await guardedContext(browser, [origin]);
    const csp = await watchCsp(context);
    const page = await context.newPage();
    await page.goto(`${origin}/?model=test&autoload=1`);
    const policy = await metaPolicy(page);
    expectStrictPolicy(policy);
    expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    // Hugging Face, the hosts its downloads redirect to, and web-llm's model libraries; nothing else.
    expect(policy.get('connect-src')).toEqual(["'self'", ...DEFAULT_MODEL_CONNECT]);
    expect(DEFAULT_MODEL_CONNECT).toEqual(expect.arrayContaining(['https://huggingface.co', 'https://*.hf.co', 'https://raw.githubusercontent.com']));

    await waitForReady(page);
    await sendAndWait(page, 'Hello under a strict policy');
    await page.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).waitFor();
    // Every panel: the inspector's token and cache bars and the model manager's meters set widths at run time.
    for (const name of ['Inspector', 'Model', 'Settings', 'Data']) {
      await page.getByRole('toolbar').getByRole('button', { name }).click();
      await page.getByRole('region', { name, exact: true }).waitFor();
    }
    await page.getByRole('toolbar').getByRole('button', { name: 'Inspector' }).click();
    await page.locator('qwen-inspector [data-engine]').waitFor();
    await page.waitForTimeout(300);
    expect(await csp.found()).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  });

  it('runs under the equivalent header on every response, workers included', async () => {
    const { browser, origin } = app();
    // No service worker: every response, the engine worker's script included, comes through the route below.
    const context = await browser.newContext({ serviceWorkers: 'block' });
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
  it('ships the policy as a meta on every page, and the widget answers with 0 violations', async () => {
    const { browser, origin, dir } = site();
    const { context, blocked } = await guardedContext(browser, [origin]);
    const csp = await watchCsp(context);
    const page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    const policy = await metaPolicy(page);
    expectStrictPolicy(policy);
    // The test model sits next to the widget (relative): the site's own origin is all the widget connects to.
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    // One hashed inline script, the service worker's registration, and no other.
    expect(policy.get('script-src')).toHaveLength(3);
    for (const file of ['index.html', 'guide.html']) expect(readFileSync(join(dir, file), 'utf8')).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\';');

    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await launcher(page).click();
    await input(page).fill('How do I install the widget?');
    await input(page).press('Enter');
    const answer = await waitForAnswer(page);
    expect(((await answer.textContent()) ?? '').length).toBeGreaterThan(0);
    await page.waitForTimeout(300);
    expect(await csp.found()).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  });

  it('a widget model on a host outside connect-src fails with how to allow it', async () => {
    const { browser, origin, otherOrigin } = site();
    const { context, requests } = await guardedContext(browser, [origin, otherOrigin]);
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

/**
 * The widget's runtime in the built demo site, served as most docs hosts are — without COOP/COEP:
 * - it runs single-threaded and says so, answers from the docs with links (`Title › Heading`) that land on their
 *   headings, and every request it ever makes (page, workers, service worker) goes to the site's origin, where the
 *   widget and the model live: no CDN, no third party;
 * - with the network cut after the first visit it still answers, and after an offline reload (the site's service
 *   worker keeps the pages, the widget and the docs index; wllama keeps the model) the page shows and the widget
 *   loads and gives the same answer again;
 * - on a browser without JSPI (Safari, older Chromium) wllama switches to its compat build, which comes from the
 *   widget's folder too.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { useSite } from './site-harness.ts';
import { ENGINE_READY, grantModelConsent, input, launcher, recordRequests, waitForStatus, widget, widgetReady } from './widget-pages.ts';
import { CONSENT_KEY } from '../../src/widget/consent.ts';

const site = useSite('widget-runtime', { isolation: false, docsDir: 'test/e2e/fixtures/widget-runtime-docs' });

const QUESTION = 'Which port does the Zorblax daemon listen on?';
const SINGLE_THREAD = 'WASM CPU, single thread (this page is not cross-origin isolated)';

/** Asks in the panel and waits for the n-th complete answer (1-based); returns its text and its sources (label, link). */
async function ask(page: Page, question: string, nth: number): Promise<{ text: string; sources: Array<[string, string]> }> {
  await input(page).fill(question);
  await input(page).press('Enter');
  const answer = widget(page).getByText(TEST_MODEL_REPLY).nth(nth - 1);
  await answer.waitFor({ timeout: 90_000 });
  const sources = widget(page).locator('[part="sources"]').nth(nth - 1);
  await sources.waitFor({ timeout: 10_000 });
  return {
    text: (await widget(page).locator('[part~="message"][part~="assistant"]').nth(nth - 1).textContent()) ?? '',
    sources: await sources.locator('a').evaluateAll((links) => links.map((a) => [a.textContent ?? '', (a as HTMLAnchorElement).href] as [string, string])),
  };
}

const hrefs = (answer: { sources: Array<[string, string]> }): string[] => answer.sources.map(([, href]) => href);

/** The widget build's copies of @wllama/wllama-compat's files (glue and wasm), found by their sizes. */
function compatFiles(widgetDir: string): string[] {
  const sizes = ['wllama.js', 'wllama.wasm'].map((f) => statSync(join('node_modules/@wllama/wllama-compat/wasm', f)).size);
  const names = readdirSync(widgetDir).filter((name) => sizes.includes(statSync(join(widgetDir, name)).size));
  expect(names).toHaveLength(2);
  return names;
}

async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
}

describe('the widget runtime on a docs host without COOP/COEP', () => {
  it('before the reader consents, it searches the docs as they type and fetches nothing of the model; after, it answers, and with the weights on the device a later visit goes straight in', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const requests = recordRequests(context);
    const page = await context.newPage();
    await page.goto(`${origin}/guide/config.html`);
    await widgetReady(page);
    await launcher(page).click();
    await waitForStatus(page, /3 doc pages/);
    await input(page).fill('daemon port');
    const results = widget(page).locator('[part="result"]');
    await results.first().waitFor({ timeout: 30_000 });
    const first = results.first();
    expect(await first.locator('a').getAttribute('href')).toBe(`${origin}/guide/config.html#daemon-port`);
    expect(await first.locator('.result-title').textContent()).toMatch(/^Configuration › /);
    expect((await first.locator('mark').allTextContents()).map((t) => t.toLowerCase())).toEqual(expect.arrayContaining(['daemon', 'port']));
    // A question in words offers the assistant, naming what it would download.
    await input(page).fill(QUESTION);
    await input(page).press('Enter');
    const consent = widget(page).locator('[part="consent"]');
    await consent.waitFor();
    expect(await consent.textContent()).toContain('qwen2-tiny.gguf');
    await page.waitForTimeout(500);
    // Nothing of the engine so far: no weights, wasm, engine worker, tokenizer or model library.
    const engineAssets = (urls: readonly string[]): string[] => urls.filter((url) => /\.gguf|\.wasm|tokenizer|worker|\/mlc\/|wllama/i.test(new URL(url).pathname));
    expect(engineAssets(requests)).toEqual([]);
    // Accepted: the engine loads and the question is answered.
    await widget(page).locator('[part="consent-accept"]').click();
    await widget(page).getByText(TEST_MODEL_REPLY).first().waitFor({ timeout: 90_000 });
    expect(engineAssets(requests).some((url) => url.endsWith('.gguf'))).toBe(true);
    // Nothing went anywhere but the site (no analytics without a listener, no CDN).
    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);

    // The choice forgotten (storage cleared but not the model's): the weights are on the device, wllama's own
    // cache, so the next visit goes straight in — no consent step, the engine starts when the panel opens.
    await page.evaluate((key) => localStorage.removeItem(key), CONSENT_KEY);
    await page.reload();
    await widgetReady(page);
    await launcher(page).click();
    expect(await waitForStatus(page, ENGINE_READY)).toContain(SINGLE_THREAD);
    expect(await widget(page).locator('[part="consent"]').count()).toBe(0);
    await context.close();
  }, 240_000);

  it('answers single-threaded from the docs with links that land on their headings, asks only its own origin, and gives the same answer offline after one visit', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await grantModelConsent(context);
    const requests = recordRequests(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => console.log('pageerror:', e.message));
    await page.goto(`${origin}/guide/config.html`);
    await widgetReady(page);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    // The site's service worker takes the page before the widget opens (it precached the widget's entry and its
    // static imports at install), so one page view is enough to hold on to all that the widget fetches.
    await waitForServiceWorker(page);

    await launcher(page).click();
    const ready = await waitForStatus(page, ENGINE_READY);
    expect(ready).toContain(SINGLE_THREAD);
    expect(ready).toMatch(/· 3 doc pages$/);
    const first = await ask(page, QUESTION, 1);
    const portLink = `${origin}/guide/config.html#daemon-port`;
    expect(hrefs(first)).toContain(portLink);
    // Each source is a page of the site, labelled with its title and the heading.
    for (const [label, href] of first.sources) {
      expect(href.startsWith(`${origin}/`)).toBe(true);
      expect(label).toMatch(/^(Zorblax docs|Configuration|Theming)( › .+)?$/);
    }
    // A source link lands on its heading.
    await widget(page).locator(`[part="sources"] a[href="${portLink}"]`).first().click();
    await page.waitForURL(portLink);
    expect(await page.locator('[id="daemon-port"]').count()).toBe(1);

    // Network cut: the loaded widget still answers.
    await context.setOffline(true);
    await ask(page, 'Can I change the daemon port?', 2);

    // Offline reload: the page, the widget and the docs index come from the service worker, the model from
    // wllama's cache on this device.
    await page.reload();
    await expect(page.locator('main h1').textContent()).resolves.toBe('#Configuration');
    await widgetReady(page);
    await launcher(page).click();
    const again = await waitForStatus(page, ENGINE_READY);
    expect(again).toContain(SINGLE_THREAD);
    const offline = await ask(page, QUESTION, 1);
    expect(hrefs(offline)).toContain(portLink);
    expect(offline.text).toBe(first.text);

    // Over the whole visit: only the site's origin (the widget's folder holds the widget, its engine files and
    // the model), nothing from a CDN or any other host.
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    const widgetFiles = requests.filter((url) => url.startsWith(`${origin}/widget/`));
    expect(widgetFiles.some((url) => /\/widget\/wllama-[\w-]+\.wasm$/.test(url))).toBe(true);
    expect(widgetFiles.some((url) => /\/widget\/tokenizer\/qwen2\.5\/tokenizer\.tables-v1\.json$/.test(url))).toBe(true);
    // Chromium has JSPI and Memory64: the compat build is never fetched here.
    const compat = compatFiles(join(site().dir, 'widget'));
    expect(requests.filter((url) => compat.some((name) => url.endsWith(`/widget/${name}`)))).toEqual([]);
    await context.close();
  }, 240_000);

  it('without JSPI (as on Safari) wllama loads its compat build from the widget folder, not a CDN', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext();
    await grantModelConsent(context);
    const requests = recordRequests(context);
    // The engine worker is told JSPI is missing, as it is on Safari: wllama then needs its compat build.
    await context.route(/\/widget\/worker-[\w-]+\.js$/, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: `delete WebAssembly.Suspending;\n${await response.text()}` });
    });
    const page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    await widgetReady(page);
    await launcher(page).click();
    await waitForStatus(page, ENGINE_READY, 120_000);
    await ask(page, QUESTION, 1);
    // The compat glue and its wasm, both from the widget's folder.
    for (const name of compatFiles(join(site().dir, 'widget'))) expect(requests).toContain(`${origin}/widget/${name}`);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    await context.close();
  }, 240_000);
});

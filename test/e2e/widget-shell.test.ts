/**
 * The `<qwen-assistant>` shell in the built demo site (no COOP/COEP, as most docs hosts): attribute validation,
 * the keyboard shortcut and Escape, the mobile layout, its eager size and what it fetches before first open.
 * The model URL points at a missing file, so opening it ends in an error the status line shows with its code.
 *
 * The desktop tests share one browser profile, and the first three one host page, in order: what it fetches before
 * it is first opened, the keyboard, then the dialog, its load error and Retry, then what opening it fetched. The
 * widget's runtime (a 4 MB tokenizer built on the page) loads once for the three instead of once each.
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eagerSize, WIDGET_EAGER_BUDGET_BYTES } from '../../scripts/bench/widget-size.ts';
import { useSite } from './site-harness.ts';
import { focusedInWidget, grantModelConsent, input, launcher, panel, runtimeWindow, servePage, setAttribute, statusError, widget, widgetReady, type HostPage } from './widget-pages.ts';

const site = useSite('widget-shell', { isolation: false, docsDir: 'test/e2e/fixtures/widget-docs' });

/** Opens `host` in a new page of `context` (`listen` runs before it loads); the route that serves it is dropped once it is loaded. */
async function openHost(context: BrowserContext, host: HostPage, listen: (page: Page) => void = () => {}): Promise<{ page: Page; url: string }> {
  const page = await context.newPage();
  listen(page);
  const url = await servePage(context, site().origin, host);
  await page.goto(url);
  // Nothing else needs intercepting (and an intercepting context skips the HTTP cache).
  await context.unroute(url);
  await widgetReady(page);
  return { page, url };
}

describe('<qwen-assistant> shell', () => {
  it('keeps its eager JavaScript within 30 KB gzip', () => {
    const size = eagerSize(join(site().dir, 'widget'));
    expect(size.files[0]).toBe('qwen-assistant.js');
    expect(size.gzipBytes).toBeGreaterThan(1000);
    expect(size.gzipBytes).toBeLessThanOrEqual(WIDGET_EAGER_BUDGET_BYTES);
  });

  describe('on a desktop', () => {
    let context: BrowserContext;
    /** Every request of the profile, from its first page on. */
    const requests: string[] = [];
    /** The host page the first tests share (a search field in it), and its URL. */
    let shared: { page: Page; url: string } | undefined;
    const sharedPage = (): Page => {
      if (shared === undefined) throw new Error('this test continues on the page the first desktop test opens');
      return shared.page;
    };

    beforeAll(async () => {
      context = await site().browser.newContext({ viewport: { width: 1280, height: 800 } });
      await grantModelConsent(context);
      context.on('request', (request) => requests.push(request.url()));
    });

    afterAll(() => context?.close());

    it('fetches only its eager chunk until opened', async () => {
      const { origin } = site();
      shared = await openHost(context, { body: '<h1>Host</h1><input id="search" aria-label="Search">' });
      await sharedPage().waitForTimeout(300);
      const before = requests.filter((r) => r !== shared!.url).map((r) => r.slice(origin.length));
      expect(before.every((path) => /^\/widget\/(qwen-assistant|preload-helper-[\w-]+)\.js$/.test(path))).toBe(true);
    });

    it('opens with "/" and Ctrl+K, not while typing in a field; Escape closes and returns focus to the launcher', async () => {
      const page = sharedPage();
      await expect(panel(page).isVisible()).resolves.toBe(false);

      await page.locator('#search').fill('a/b');
      await page.locator('#search').press('/');
      await expect(panel(page).isVisible()).resolves.toBe(false);
      expect(await page.locator('#search').inputValue()).toBe('a/b/');

      await page.locator('h1').click();
      await page.keyboard.press('/');
      await expect(panel(page).isVisible()).resolves.toBe(true);
      expect(await focusedInWidget(page)).toBe('textarea.input');
      // The key that opened it is not typed into the question.
      expect(await input(page).inputValue()).toBe('');
      await expect(launcher(page).getAttribute('aria-expanded')).resolves.toBe('true');

      await page.keyboard.press('Escape');
      await expect(panel(page).isVisible()).resolves.toBe(false);
      expect(await focusedInWidget(page)).toBe('button.launcher');
      await expect(launcher(page).getAttribute('aria-expanded')).resolves.toBe('false');

      await page.locator('#search').focus();
      await page.keyboard.press('Control+k');
      await expect(panel(page).isVisible()).resolves.toBe(true);
      expect(await focusedInWidget(page)).toBe('textarea.input');
      // Escape also closes it with focus on the launcher.
      await launcher(page).focus();
      await page.keyboard.press('Escape');
      await expect(panel(page).isVisible()).resolves.toBe(false);
    });

    it('is a labelled dialog; Enter sends, Shift+Enter adds a line, and a load error shows its code with Retry', async () => {
      const page = sharedPage();
      await launcher(page).click();
      await expect(widget(page).getByRole('dialog', { name: 'Ask the docs' }).isVisible()).resolves.toBe(true);
      await input(page).fill('first line');
      await input(page).press('Shift+Enter');
      await input(page).pressSequentially('second line');
      expect(await input(page).inputValue()).toBe('first line\nsecond line');
      await input(page).press('Enter');
      const user = widget(page).locator('[part~="message"][part~="user"]');
      await expect(user.textContent()).resolves.toContain('first line\nsecond line');
      expect(await input(page).inputValue()).toBe('');

      const error = await statusError(page);
      expect(error).toMatch(/^[a-z_]+: \S/);
      const retry = widget(page).getByRole('button', { name: 'Retry' });
      await expect(retry.isVisible()).resolves.toBe(true);
      // Retrying a load that fails again shows the error again (the widget does not hang in "loading").
      await retry.click();
      await expect(statusError(page)).resolves.toBe(error);
    });

    it('once opened, fetches the runtime from its own folder and nothing outside it or the docs index', async () => {
      const { origin } = site();
      await statusError(sharedPage());
      const after = requests.filter((r) => r !== shared!.url);
      expect(after.some((r) => /\/widget\/runtime-[\w-]+\.js$/.test(r))).toBe(true);
      // Every request went to the widget's folder or the docs index: no CDN, nothing else.
      expect(after.filter((r) => !r.startsWith(`${origin}/widget/`) && !r.startsWith(`${origin}/docs-index/`))).toEqual([]);
      await sharedPage().close();
    });

    it('reports each invalid attribute on the console by name and renders with the defaults', async () => {
      const errors: string[] = [];
      const listen = (page: Page): void => {
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
      };
      const { page } = await openHost(
        context,
        { attributes: 'window="lots" position="top-center" lang="fr" shortcut="ctrl+k" docs-index="/docs-index/manifest.json" model="javascript:alert(1)"' },
        listen,
      );
      for (const name of ['window', 'position', 'lang', 'shortcut', 'model']) {
        expect(errors.filter((e) => e.startsWith(`qwen-assistant: invalid attribute "${name}":`))).toHaveLength(1);
      }
      // Defaults: English (the page's language), bottom right, the "/" shortcut, a 1024-token window.
      const box = (await launcher(page).boundingBox())!;
      expect(box.x + box.width).toBeCloseTo(1280 - 20, 0);
      expect(box.y + box.height).toBeCloseTo(800 - 20, 0);
      await expect(launcher(page).textContent()).resolves.toContain('Ask the docs');
      expect(await runtimeWindow(page)).toBe(1024);

      // A value fixed later is taken without another error; a new bad value is reported again.
      errors.length = 0;
      await setAttribute(page, 'window', '4096');
      await expect.poll(() => runtimeWindow(page)).toBe(4096);
      await setAttribute(page, 'window', '100000');
      await page.waitForTimeout(50);
      expect(errors).toEqual([expect.stringMatching(/^qwen-assistant: invalid attribute "window": "100000" is not an integer from 512 to 32768/)]);

      // The default shortcut, "/", opens it (last: opening starts loading the runtime, which this test does not need).
      await page.keyboard.press('/');
      await expect(panel(page).isVisible()).resolves.toBe(true);
      await page.close();
    });

    it('takes valid attributes: Chinese, bottom left, a custom window', async () => {
      const errors: string[] = [];
      const listen = (page: Page): void => void page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
      const { page } = await openHost(context, { attributes: 'lang="zh" position="bottom-left" window="2048" model="models/missing/none.gguf"' }, listen);
      expect(errors.filter((e) => e.startsWith('qwen-assistant:'))).toEqual([]);
      await expect(launcher(page).textContent()).resolves.toContain('问文档');
      expect((await launcher(page).boundingBox())!.x).toBeCloseTo(20, 0);
      expect(await runtimeWindow(page)).toBe(2048);
      await page.close();
    });
  });

  it('fills the viewport on a phone (390×844)', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await grantModelConsent(context);
    const page = await context.newPage();
    await page.goto(await servePage(context, origin, {}));
    await widgetReady(page);
    await launcher(page).tap();
    const box = (await panel(page).boundingBox())!;
    expect([box.x, box.y, box.width, box.height].map(Math.round)).toEqual([0, 0, 390, 844]);
    // The close button is reachable and works.
    await widget(page).getByRole('button', { name: 'Close' }).tap();
    await expect(panel(page).isVisible()).resolves.toBe(false);
    await context.close();
  });
});

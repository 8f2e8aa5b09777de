/**
 * The `<qwen-assistant>` shell in the built demo site (no COOP/COEP, as most docs hosts): attribute validation,
 * the keyboard shortcut and Escape, the mobile layout, its eager size and what it fetches before first open.
 * The model URL points at a missing file, so opening it ends in an error the status line shows with its code.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eagerSize, WIDGET_EAGER_BUDGET_BYTES } from '../../scripts/bench/widget-size.ts';
import { useSite } from './site-harness.ts';
import { focusedInWidget, input, launcher, panel, runtimeWindow, servePage, setAttribute, statusError, widget, widgetReady } from './widget-pages.ts';

const site = useSite('widget-shell', { isolation: false, docsDir: 'test/e2e/fixtures/widget-docs' });

describe('<qwen-assistant> shell', () => {
  it('keeps its eager JavaScript within 30 KB gzip', () => {
    const size = eagerSize(join(site().dir, 'widget'));
    expect(size.files[0]).toBe('qwen-assistant.js');
    expect(size.gzipBytes).toBeGreaterThan(1000);
    expect(size.gzipBytes).toBeLessThanOrEqual(WIDGET_EAGER_BUDGET_BYTES);
  });

  it('fetches only its eager chunk until opened, then the runtime from its own folder', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext();
    const requests: string[] = [];
    context.on('request', (request) => requests.push(request.url()));
    const page = await context.newPage();
    const url = await servePage(context, origin, {});
    await page.goto(url);
    await widgetReady(page);
    await page.waitForTimeout(300);
    const before = requests.filter((r) => r !== url).map((r) => r.slice(origin.length));
    expect(before.every((path) => /^\/widget\/(qwen-assistant|preload-helper-[\w-]+)\.js$/.test(path))).toBe(true);
    await launcher(page).click();
    await statusError(page);
    const after = requests.filter((r) => r !== url);
    expect(after.some((r) => /\/widget\/runtime-[\w-]+\.js$/.test(r))).toBe(true);
    // Every request went to the widget's folder or the docs index: no CDN, nothing else.
    expect(after.filter((r) => !r.startsWith(`${origin}/widget/`) && !r.startsWith(`${origin}/docs-index/`))).toEqual([]);
    await context.close();
  });

  it('reports each invalid attribute on the console by name and renders with the defaults', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const url = await servePage(context, origin, {
      attributes: 'window="lots" position="top-center" lang="fr" shortcut="ctrl+k" docs-index="/docs-index/manifest.json" model="javascript:alert(1)"',
    });
    await page.goto(url);
    await widgetReady(page);
    for (const name of ['window', 'position', 'lang', 'shortcut', 'model']) {
      expect(errors.filter((e) => e.startsWith(`qwen-assistant: invalid attribute "${name}":`))).toHaveLength(1);
    }
    // Defaults: English (the page's language), bottom right, the "/" shortcut, a 1024-token window.
    const box = (await launcher(page).boundingBox())!;
    expect(box.x + box.width).toBeCloseTo(1280 - 20, 0);
    expect(box.y + box.height).toBeCloseTo(800 - 20, 0);
    await expect(launcher(page).textContent()).resolves.toContain('Ask the docs');
    expect(await runtimeWindow(page)).toBe(1024);
    await page.keyboard.press('/');
    await expect(panel(page).isVisible()).resolves.toBe(true);

    // A value fixed later is taken without another error; a new bad value is reported again.
    errors.length = 0;
    await setAttribute(page, 'window', '4096');
    await expect.poll(() => runtimeWindow(page)).toBe(4096);
    await setAttribute(page, 'window', '100000');
    await page.waitForTimeout(50);
    expect(errors).toEqual([expect.stringMatching(/^qwen-assistant: invalid attribute "window": "100000" is not an integer from 512 to 32768/)]);
    await context.close();
  });

  it('takes valid attributes: Chinese, bottom left, a custom window', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    await page.goto(await servePage(context, origin, { attributes: 'lang="zh" position="bottom-left" window="2048" model="models/missing/none.gguf"' }));
    await widgetReady(page);
    expect(errors.filter((e) => e.startsWith('qwen-assistant:'))).toEqual([]);
    await expect(launcher(page).textContent()).resolves.toContain('问文档');
    expect((await launcher(page).boundingBox())!.x).toBeCloseTo(20, 0);
    expect(await runtimeWindow(page)).toBe(2048);
    await context.close();
  });

  it('opens with "/" and Ctrl+K, not while typing in a field; Escape closes and returns focus to the launcher', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await servePage(context, origin, { body: '<h1>Host</h1><input id="search" aria-label="Search">' }));
    await widgetReady(page);
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
    await context.close();
  });

  it('is a labelled dialog; Enter sends, Shift+Enter adds a line, and a load error shows its code with Retry', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await servePage(context, origin, {}));
    await widgetReady(page);
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
    await context.close();
  });

  it('fills the viewport on a phone (390×844)', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
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

/**
 * The README's screenshots of the docs widget, taken on the demo site (docs/site, built as `npm run build:site --
 * --test-model` builds it) with the generated test model: an answer with its sources, in English and Chinese (the demo docs are
 * English, so the Chinese question names the English terms, as a reader of English docs would).
 * Written to docs/screenshots with UPDATE_SCREENSHOTS=1, else to .cache/screenshots.
 *
 * Both are taken on one page: English first, then a new conversation in Chinese (the `lang` attribute changed, which
 * gives the widget a new runtime with the Chinese prompt, as a page that starts in Chinese has), so the model and the
 * tokenizer are downloaded and built once.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSite } from './site-harness.ts';
import { grantModelConsent, input, launcher, panel, setAttribute, waitForAnswer, waitForStatus, widget } from './widget-pages.ts';

const site = useSite('widget-screenshots', { isolation: false });
const OUT = process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : '.cache/screenshots';

const QUESTIONS = { en: 'How do I change the widget’s colours?', zh: '怎么用 CSS custom properties 修改 qwen-assistant 的颜色？' } as const;
const READY = { en: /doc pages/, zh: /个文档页面/ } as const;

describe('screenshots of the docs widget', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const { origin, browser } = site();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    await grantModelConsent(context);
    page = await context.newPage();
    await page.goto(`${origin}/widget.html`);
  });

  afterAll(() => context?.close());

  for (const lang of ['en', 'zh'] as const) {
    it(`an answer with its sources (${lang})`, async () => {
      const messages = widget(page).locator('[part~="message"]');
      if (await panel(page).isVisible()) {
        // After the other language's screenshot: a new conversation, the panel closed, as on a page just loaded.
        await widget(page).getByRole('button', { name: /^(New conversation|新对话)$/ }).click();
        await expect.poll(() => messages.count()).toBe(0);
        await widget(page).getByRole('button', { name: /^(Close|关闭)$/ }).click();
      }
      await setAttribute(page, 'lang', lang);
      await launcher(page).click();
      expect(await widget(page).locator('.root').getAttribute('lang')).toBe(lang);
      await waitForStatus(page, READY[lang]);
      await input(page).fill(QUESTIONS[lang]);
      await input(page).press('Enter');
      const answer = await waitForAnswer(page);
      // Only this question and its answer are in the panel.
      expect(await messages.count()).toBe(2);
      // The answer links the demo docs' sections on theming.
      expect(await answer.locator('[part="sources"] a').count()).toBeGreaterThan(0);
      await page.mouse.move(10, 790);
      const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
      mkdirSync(OUT, { recursive: true });
      writeFileSync(join(OUT, `widget-${lang}.png`), png);
      expect(png.byteLength).toBeGreaterThan(20_000);
    }, 180_000);
  }
});

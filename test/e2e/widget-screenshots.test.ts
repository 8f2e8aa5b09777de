/**
 * The README's screenshots of the docs widget, taken on the demo site (docs/site, built as `npm run build:site --
 * --test-model` builds it) with the generated test model: an answer with its source links, in English and Chinese (the demo docs are
 * English, so the Chinese question names the English terms, as a reader of English docs would).
 * Written to docs/screenshots with UPDATE_SCREENSHOTS=1, else to .cache/screenshots.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSite } from './site-harness.ts';
import { input, launcher, waitForAnswer, waitForStatus } from './widget-pages.ts';

const site = useSite('widget-screenshots', { isolation: false });
const OUT = process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : '.cache/screenshots';

const QUESTIONS = { en: 'How do I change the widget’s colours?', zh: '怎么用 CSS custom properties 修改 qwen-assistant 的颜色？' } as const;

describe('screenshots of the docs widget', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`an answer with its sources (${lang})`, async () => {
      const { origin, browser } = site();
      const context = await browser.newContext({ locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(`${origin}/widget.html`);
      await page.evaluate((l) => document.querySelector('qwen-assistant')!.setAttribute('lang', l), lang);
      await launcher(page).click();
      await waitForStatus(page, /doc pages|个文档页面/);
      await input(page).fill(QUESTIONS[lang]);
      await input(page).press('Enter');
      const answer = await waitForAnswer(page);
      // The answer links the demo docs' sections on theming.
      expect(await answer.locator('[part="sources"] a').count()).toBeGreaterThan(0);
      await page.mouse.move(10, 790);
      const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
      mkdirSync(OUT, { recursive: true });
      writeFileSync(join(OUT, `widget-${lang}.png`), png);
      expect(png.byteLength).toBeGreaterThan(20_000);
      await context.close();
    }, 180_000);
  }
});

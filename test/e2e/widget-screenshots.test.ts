/**
 * The README's screenshots of the docs widget, taken on the demo site (docs/site, built as `npm run build:site --
 * --test-model` builds it) with the generated test model: an answer with its sources, in English and Chinese (the demo docs are
 * English, so the Chinese question names the English terms, as a reader of English docs would).
 * Written to docs/screenshots with UPDATE_SCREENSHOTS=1, else to .cache/screenshots.
 *
 * Both are taken on one page: English first, then a new conversation in Chinese (the `lang` attribute changed, which
 * gives the widget a new runtime with the Chinese prompt, as a page that starts in Chinese has), so the model and the
 * tokenizer are downloaded and built once.
 *
 * Then, for a reader who has not consented to the model (a fresh profile), in each language: search results as
 * they type (`widget-search-*`), the consent step a question brings (`widget-consent-*`), and, once accepted, a
 * question the docs do not cover (`widget-not-in-docs-*`). Those run under `npm run screenshots` only: each loads
 * the model once more, and what they show is tested on its own (widget-runtime.test.ts's search before consent,
 * test/browser/widget-runtime/runtime.test.ts's "not in the docs", test/browser/widget/search-first.test.ts).
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

const SEARCHES = { en: 'custom properties colours', zh: '颜色 CSS custom properties' } as const;
const OFF_TOPIC = { en: 'What is a good recipe for lemon tart?', zh: '柠檬挞怎么做？' } as const;
const NOT_IN_DOCS = { en: /do not seem to cover this/, zh: /似乎没有讲到/ } as const;

describe.runIf(process.env.UPDATE_SCREENSHOTS === '1')('screenshots of the docs widget before the model', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`search, the consent step, and "not in the docs" (${lang})`, async () => {
      const { origin, browser } = site();
      const context = await browser.newContext({ locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      try {
        const page = await context.newPage();
        await page.goto(`${origin}/widget.html`);
        await setAttribute(page, 'lang', lang);
        await launcher(page).click();
        await input(page).fill(SEARCHES[lang]);
        await widget(page).locator('[part="result"]').first().waitFor({ timeout: 30_000 });
        const shoot = async (name: string): Promise<void> => {
          await page.mouse.move(10, 790);
          const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
          mkdirSync(OUT, { recursive: true });
          writeFileSync(join(OUT, `widget-${name}-${lang}.png`), png);
          expect(png.byteLength).toBeGreaterThan(20_000);
        };
        await shoot('search');
        await widget(page).locator('[part="ask-assistant"]').click();
        await widget(page).locator('[part="consent"]').waitFor();
        await shoot('consent');
        await widget(page).locator('[part="consent-decline"]').click();
        await input(page).fill(OFF_TOPIC[lang]);
        await input(page).press('Enter');
        await widget(page).locator('[part="consent-accept"]').click();
        const reply = widget(page).locator('[part~="message"][part~="assistant"]').last();
        await expect.poll(async () => (await reply.textContent()) ?? '', { timeout: 120_000 }).toMatch(NOT_IN_DOCS[lang]);
        await reply.locator('[part="sources"]').waitFor();
        await shoot('not-in-docs');
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});

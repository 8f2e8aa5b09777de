/**
 * The README's screenshots, taken from the built app with the generated test model: the main screen, the
 * context inspector and the memory panel, in English and Chinese (the UI follows the browser's language), and the dark theme (it
 * follows the system). Sample conversations are imported through the Data panel; one message is sent live so
 * the inspector shows a real request. Written to docs/screenshots with UPDATE_SCREENSHOTS=1, else to
 * .cache/screenshots (so a test run does not change committed files).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { afterAll, describe, expect, it } from 'vitest';
import { LIVE_MESSAGES, sampleExport } from './fixtures/sample-conversations.ts';
import { guardedContext, sendAndWait, useBuiltApp, waitForReady } from './harness.ts';

const built = useBuiltApp('screenshots');
const OUT = process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : '.cache/screenshots';

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  // Nothing blinks, moves or hovers in a screenshot: no caret, no transitions, the pointer on the footer.
  await page.mouse.move(640, 795);
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  writeFileSync(join(OUT, `${name}.png`), png);
  expect(png.byteLength).toBeGreaterThan(20_000);
}

async function prepare(lang: 'en' | 'zh'): Promise<{ page: Page; close: () => Promise<void> }> {
  const { browser, origin } = built();
  const { context } = await guardedContext(browser, [origin], { locale: lang === 'zh' ? 'zh-CN' : 'en-US', colorScheme: 'light', deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${origin}/?model=test&autoload=1`);
  await waitForReady(page);
  // Import the sample conversations as a user would (Data → Import).
  await page.getByRole('button', { name: lang === 'zh' ? '数据' : 'Data' }).click();
  await page.locator('qwen-data-panel input[type="file"][accept*="json"]').setInputFiles({
    name: 'sample.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(sampleExport(lang))),
  });
  await page.getByText(lang === 'zh' ? '已导入 3 个对话。' : 'Imported 3 conversations.').waitFor();
  await page.getByRole('button', { name: lang === 'zh' ? '关闭面板' : 'Close the panel' }).click();
  const featured = sampleExport(lang).conversations[0]!.title;
  await page.getByRole('button', { name: featured, exact: true }).click();
  await page.getByRole('heading', { name: featured }).waitFor();
  for (const message of LIVE_MESSAGES[lang]) await sendAndWait(page, message);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  return { page, close: () => context.close() };
}

/** Closes the open panel, if any, with its ✕ (the next screenshot starts from the main screen, as after prepare). */
async function closePanel(page: Page, lang: 'en' | 'zh'): Promise<void> {
  const close = page.getByRole('button', { name: lang === 'zh' ? '关闭面板' : 'Close the panel' });
  if ((await close.count()) > 0) await close.click();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

describe('screenshots for the README', () => {
  // One prepared page per language (the UI follows the browser's language, a setting of the profile): the English
  // one serves both the light and the dark screenshots, the theme being the system's (emulated per page).
  const prepared = new Map<'en' | 'zh', ReturnType<typeof prepare>>();
  const preparedPage = (lang: 'en' | 'zh') => {
    if (!prepared.has(lang)) prepared.set(lang, prepare(lang));
    return prepared.get(lang)!;
  };
  afterAll(async () => {
    for (const page of prepared.values()) await (await page.catch(() => undefined))?.close();
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`main screen and inspector (${lang})`, async () => {
      const { page } = await preparedPage(lang);
      await page.emulateMedia({ colorScheme: 'light' });
      await closePanel(page, lang);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : 'en');
      await shoot(page, `main-${lang}`);
      await page.getByRole('button', { name: lang === 'zh' ? '上下文检查器' : 'Inspector' }).click();
      await page.getByRole('heading', { name: lang === 'zh' ? '上下文检查器' : 'Context inspector' }).waitFor();
      await page.locator('qwen-inspector dd[data-field="prompt"]').waitFor();
      await shoot(page, `inspector-${lang}`);
      // Further down: the memory that was considered, and working memory with where each item came from.
      await page.locator('qwen-inspector #h-retrieval').evaluate((h) => h.scrollIntoView({ block: 'start' }));
      await shoot(page, `inspector-memory-${lang}`);
      // The memory panel: what the conversation taught, each item with its source, age and expiry, and its controls.
      await page.getByRole('button', { name: lang === 'zh' ? '记忆' : 'Memory', exact: true }).click();
      await page.getByRole('heading', { name: lang === 'zh' ? '助手记住了什么' : 'What the assistant remembers' }).waitFor();
      await page.locator('qwen-memory-panel li').first().waitFor();
      await shoot(page, `memory-${lang}`);
    }, 120_000);
  }

  it('dark theme follows the system', async () => {
    const { page } = await preparedPage('en');
    await closePanel(page, 'en');
    const background = () => page.evaluate(() => getComputedStyle(document.querySelector('qwen-chat-app')!).backgroundColor);
    expect(await background()).not.toBe('rgb(23, 23, 26)');
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      expect(await background()).toBe('rgb(23, 23, 26)');
      await page.getByRole('button', { name: 'Inspector' }).click();
      await page.locator('qwen-inspector dd[data-field="prompt"]').waitFor();
      await shoot(page, 'inspector-en-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }, 120_000);
});

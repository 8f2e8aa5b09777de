/**
 * Language and access: the UI follows the browser's language and can be switched (the choice is kept), both
 * languages have every text, panels open and close from the keyboard with focus returned, Esc stops a reply,
 * and the live region announces replies politely. The reply that Esc stops comes from the scripted engine
 * (test/browser/engine/ui-worker.ts), one that goes on until stopped.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { en } from '../../../src/ui/i18n/en.ts';
import { browserLang, locale } from '../../../src/ui/i18n/index.ts';
import { zh } from '../../../src/ui/i18n/zh.ts';
import { SCRIPTED_ENDLESS_URL, freshStart, messageItems, mountApp, resetAppStorage, unmountApp, waitReady } from './app-helpers.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  locale.set('en', false);
  await unmountApp();
  await resetAppStorage();
});

describe('language and access', () => {
  it('follows the browser language, switches to 中文 and back, and keeps the choice', async () => {
    expect(browserLang(['zh-CN', 'en-US'])).toBe('zh');
    expect(browserLang(['zh-TW'])).toBe('zh');
    expect(browserLang(['fr-FR', 'en-GB'])).toBe('en');
    expect(browserLang(['de-DE'])).toBe('en');
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    expect(Object.entries(zh).filter(([, text]) => text.trim() === '')).toEqual([]);

    const { dbName } = mountApp({ engine: 'scripted', autoload: false });
    expect(locale.lang).toBe(browserLang(navigator.languages));
    await userEvent.selectOptions(page.getByRole('combobox', { name: 'Language' }), 'zh');
    await expect.element(page.getByRole('textbox', { name: '消息' })).toBeVisible();
    await expect.element(page.getByRole('button', { name: '加载模型' })).toBeVisible();
    await expect.element(page.getByRole('button', { name: '上下文检查器' })).toBeVisible();
    expect(document.documentElement.lang).toBe('zh-CN');

    await unmountApp();
    mountApp({ engine: 'scripted', dbName, autoload: false });
    await expect.element(page.getByRole('button', { name: '发送' })).toBeVisible();
    await userEvent.selectOptions(page.getByRole('combobox', { name: '语言' }), 'en');
    await expect.element(page.getByRole('button', { name: 'Send' })).toBeVisible();
    expect(document.documentElement.lang).toBe('en');
  });

  it('works from the keyboard: panels open and close with focus returned, Esc stops a reply, replies are announced', async () => {
    const { app } = mountApp({ engine: 'scripted', ggufUrl: SCRIPTED_ENDLESS_URL });
    await waitReady(app);
    const inspectorButton = page.getByRole('button', { name: 'Inspector' });
    (inspectorButton.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.element(page.getByRole('heading', { name: 'Context inspector' })).toBeVisible();
    await expect.element(inspectorButton).toHaveAttribute('aria-pressed', 'true');
    await userEvent.keyboard('{Escape}');
    await expect.element(page.getByRole('heading', { name: 'Context inspector' })).not.toBeInTheDocument();
    await expect.poll(() => app.shadowRoot!.activeElement?.getAttribute('data-panel')).toBe('inspector');

    const live = app.shadowRoot!.querySelector('[aria-live]')!;
    expect(live.getAttribute('aria-live')).toBe('polite');
    await userEvent.click(page.getByRole('textbox', { name: 'Message' }));
    await userEvent.keyboard('tell me a long story{Enter}');
    await expect.poll(() => Number(messageItems(app, 'assistant')[0]?.dataset.chunks ?? 0)).toBeGreaterThan(3);
    expect(live.textContent).toBe('The assistant is replying…');
    await userEvent.keyboard('{Escape}');
    await expect.poll(() => messageItems(app, 'assistant')[0]!.dataset.status).toBe('stopped');
  });
});

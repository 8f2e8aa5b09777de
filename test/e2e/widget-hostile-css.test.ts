/**
 * The widget on a hostile host page: global resets with `!important`, `button { display: none !important }`,
 * inherited 30px red serif text, a root font size of 30px, custom elements with names like ours and a global named
 * like our class. Its computed styles, boxes and pixels are those it has on a plain page; opening and typing
 * still work; and the page's own globals, style sheets and custom elements are as the page left them.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSite } from './site-harness.ts';
import { grantModelConsent, input, launcher, panel, servePage, statusError, widget, widgetReady, type HostPage } from './widget-pages.ts';

const site = useSite('widget-hostile-css', { isolation: false, docsDir: 'test/e2e/fixtures/widget-docs' });

const HOSTILE_STYLE = `<style>
  html { font-size: 30px !important; line-height: 3 !important; }
  * { all: unset !important; font: 30px serif !important; color: red !important; letter-spacing: 4px !important;
      text-transform: uppercase !important; box-sizing: content-box !important; }
  /* The page keeps its head hidden: the point is what reaches the widget, not a page that prints its CSS. */
  head, style, script, title, meta { display: none !important; }
  button { display: none !important; }
  div, p, header, h2, form, textarea, progress, ul, li, a { margin: 40px !important; padding: 40px !important; border: 9px solid lime !important; }
  *:focus, *:focus-visible { outline: 6px dashed orange !important; }
  [part], [role], [hidden] { display: block !important; position: static !important; }
  qwen-assistant { font-size: 50px !important; color: blue !important; }
  qwen-assistant * { display: none !important; }
  qwen-assistant-launcher, qwen-chat { display: block !important; }
</style>`;

/** The host's own script: things the widget must leave alone, recorded before the widget's module runs. */
const HOST_SCRIPT = `<script>
  window.QwenAssistant = 'the host\\'s value';
  window.qwenAssistant = 'the host\\'s other value';
  class HostLauncher extends HTMLElement { connectedCallback() { this.textContent = 'host launcher'; } }
  class HostChat extends HTMLElement { connectedCallback() { this.textContent = 'host chat'; } }
  customElements.define('qwen-assistant-launcher', HostLauncher);
  customElements.define('qwen-chat', HostChat);
  window.hostRecord = { globals: Object.getOwnPropertyNames(window), sheets: document.styleSheets.length, head: document.head.children.length, HostLauncher, HostChat };
</script>`;

const BODY = '<h1>Host</h1><p>Short text.</p><qwen-assistant-launcher></qwen-assistant-launcher><qwen-chat></qwen-chat>';
// At the end of the body: it runs while the page is parsed, so before the widget's module (deferred) runs.
const PLAIN: HostPage = { body: BODY + HOST_SCRIPT };
const HOSTILE: HostPage = { head: HOSTILE_STYLE, body: BODY + HOST_SCRIPT };

/** Computed styles and boxes of the widget's parts, read in the page. */
function snapshot(page: Page): Promise<unknown> {
  return page.evaluate(() => {
    const root = document.querySelector('qwen-assistant')!.shadowRoot!;
    const selectors = ['.launcher', '.launcher span', '.panel', 'header', 'h2', 'header button', '.messages', '[part~="message"]', '.status', '.status button', 'textarea', '.send', '.hint'];
    const props = ['display', 'position', 'font-family', 'font-size', 'font-weight', 'font-style', 'line-height', 'color', 'background-color', 'letter-spacing', 'text-transform',
      'box-sizing', 'margin-top', 'padding-top', 'padding-left', 'border-top-width', 'border-top-color', 'border-radius', 'outline-style', 'z-index', 'visibility', 'opacity'];
    return selectors.map((selector) => {
      const element = root.querySelector(selector);
      if (element === null) return { selector, missing: true };
      const style = getComputedStyle(element);
      const r = element.getBoundingClientRect();
      return { selector, box: [r.x, r.y, r.width, r.height].map(Math.round), style: Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)])) };
    });
  });
}

/** Pixels inside the launcher's and the panel's boxes, inset past their rounded corners. */
async function shoot(page: Page): Promise<Buffer[]> {
  const shots: Buffer[] = [];
  for (const [part, inset] of [[launcher(page), 24], [panel(page), 12]] as const) {
    const box = (await part.boundingBox())!;
    shots.push(await page.screenshot({ clip: { x: box.x + inset, y: box.y, width: box.width - 2 * inset, height: box.height }, animations: 'disabled', caret: 'hide' }));
  }
  return shots;
}

/**
 * The pixels once the page has settled: shot until two shots in a row agree (a loaded machine can still be
 * painting — fonts, the results list — when the first is taken), at most ten times.
 */
async function pixels(page: Page): Promise<Buffer[]> {
  let last = await shoot(page);
  for (let i = 0; i < 10; i++) {
    await page.waitForTimeout(200);
    const next = await shoot(page);
    if (next.length === last.length && next.every((shot, j) => shot.equals(last[j]!))) return next;
    last = next;
  }
  return last;
}

describe('<qwen-assistant> on a hostile page', () => {
  let context: BrowserContext;
  let plain: Page;
  let hostile: Page;

  /** Both pages in the same state: opened, a question sent, the missing model's error shown. */
  async function open(page: Page, url: string): Promise<void> {
    await page.goto(url);
    await widgetReady(page);
    await launcher(page).click();
    await input(page).fill('How do I install it?');
    // The search as they typed has answered (the docs index is in), so both pages keep the same results.
    await widget(page).locator('[part="search"]').waitFor();
    await input(page).press('Enter');
    expect(await statusError(page)).toMatch(/^model_not_found: /);
    await page.mouse.move(0, 0);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  }

  beforeAll(async () => {
    const { origin, browser } = site();
    // Reduced motion: no hover transition half-way through when the styles are read.
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    await grantModelConsent(context);
    plain = await context.newPage();
    hostile = await context.newPage();
    // The tokenizer is not served to these pages: the runtime still fails on the missing model and shows that error
    // (the engine's failure is reported first), without building a 4 MB tokenizer on each page first.
    await context.route(`${origin}/widget/tokenizer/**`, (route) => route.abort());
    const urls = [await servePage(context, origin, PLAIN), await servePage(context, origin, HOSTILE)] as const;
    // Side by side: each page loads the widget's runtime until the error shows.
    await Promise.all([open(plain, urls[0]), open(hostile, urls[1])]);
  }, 120_000);

  afterAll(() => context.close());

  it('the hostile CSS does reach the host page (the test is not vacuous)', async () => {
    const h1 = (page: Page) => page.evaluate(() => getComputedStyle(document.querySelector('h1')!).fontSize);
    expect(await h1(plain)).toBe('32px');
    expect(await h1(hostile)).toBe('30px');
  });

  it('has the same computed styles and boxes', async () => {
    const a = await snapshot(plain);
    expect(JSON.stringify(a)).not.toContain('"missing"');
    expect(await snapshot(hostile)).toEqual(a);
  });

  it('looks the same, pixel for pixel', async () => {
    const [a, b] = [await pixels(plain), await pixels(hostile)];
    expect(b.length).toBe(a.length);
    for (let i = 0; i < a.length; i++) expect(b[i]!.equals(a[i]!)).toBe(true);
  });

  it('opens, takes a question and shows the user message on the hostile page', async () => {
    await expect(panel(hostile).isVisible()).resolves.toBe(true);
    await expect(widget(hostile).locator('[part~="message"][part~="user"]').textContent()).resolves.toContain('How do I install it?');
    await widget(hostile).getByRole('button', { name: 'Close' }).click();
    await expect(panel(hostile).isVisible()).resolves.toBe(false);
    await hostile.keyboard.press('/');
    await expect(panel(hostile).isVisible()).resolves.toBe(true);
  });

  it('leaves the host page’s globals, style sheets and custom elements alone', async () => {
    for (const page of [plain, hostile]) {
      const state = await page.evaluate(() => {
        const record = (window as unknown as { hostRecord: { globals: string[]; sheets: number; head: number; HostLauncher: unknown; HostChat: unknown } }).hostRecord;
        const before = new Set(record.globals);
        return {
          added: Object.getOwnPropertyNames(window).filter((name) => !before.has(name) && name !== 'hostRecord'),
          sheets: document.styleSheets.length - record.sheets,
          adopted: document.adoptedStyleSheets.length,
          head: document.head.children.length - record.head,
          launcher: customElements.get('qwen-assistant-launcher') === record.HostLauncher,
          chat: customElements.get('qwen-chat') === record.HostChat,
          launcherText: document.querySelector('qwen-assistant-launcher')!.textContent,
          globals: [(window as unknown as { QwenAssistant: unknown }).QwenAssistant, (window as unknown as { qwenAssistant: unknown }).qwenAssistant],
        };
      });
      expect(state).toEqual({
        added: [],
        sheets: 0,
        adopted: 0,
        head: 0,
        launcher: true,
        chat: true,
        launcherText: 'host launcher',
        globals: ["the host's value", "the host's other value"],
      });
    }
  });
});

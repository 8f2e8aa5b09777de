/**
 * Host pages for the widget's e2e tests, served from the demo site's origin by intercepting their URL (so the
 * widget script at /widget/ is same-origin, as on a real docs site), and small readers of the widget's state.
 */
import type { BrowserContext, Locator, Page, Request } from 'playwright';
import { CONSENT_KEY } from '../../src/widget/consent.ts';

export interface HostPage {
  /** Extra `<head>` markup (styles, scripts) before the widget's script. */
  head?: string;
  body?: string;
  /** Attributes of `<qwen-assistant>`, as written. */
  attributes?: string;
  lang?: string;
}

/** A model URL that does not exist: loading fails quickly with an error the status line shows. */
export const MISSING_MODEL = 'models/missing/none.gguf';

let counter = 0;

/** Serves `page` at a fresh URL below `origin` in `context` and returns that URL. */
export async function servePage(context: BrowserContext, origin: string, page: HostPage): Promise<string> {
  const url = `${origin}/host-${++counter}.html`;
  const html = `<!doctype html><html lang="${page.lang ?? 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title>
${page.head ?? ''}
<script type="module" src="/widget/qwen-assistant.js"></script></head>
<body>${page.body ?? '<h1>Host page</h1><p>Some text.</p>'}
<qwen-assistant ${page.attributes ?? `docs-index="/docs-index/manifest.json" model="${MISSING_MODEL}"`}></qwen-assistant>
</body></html>`;
  await context.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  return url;
}

/**
 * The reader consented to the model on this site at an earlier visit (the choice the widget remembers, consent.ts):
 * opening the panel starts the engine. Tests of the steps before consent leave it out.
 */
export async function grantModelConsent(context: BrowserContext): Promise<void> {
  await context.addInitScript((key: string) => {
    try {
      localStorage.setItem(key, 'granted');
    } catch {
      // An opaque origin (about:blank) has no storage; the widget is never there.
    }
  }, CONSENT_KEY);
}

export const widget = (page: Page): Locator => page.locator('qwen-assistant');
export const launcher = (page: Page): Locator => widget(page).locator('button[part="launcher"]');
export const panel = (page: Page): Locator => widget(page).getByRole('dialog');
export const input = (page: Page): Locator => widget(page).locator('textarea[part="input"]');
export const status = (page: Page): Locator => widget(page).locator('[part="status"]');

/** Waits until the element is defined and rendered. */
export async function widgetReady(page: Page): Promise<void> {
  await page.waitForFunction(() => customElements.get('qwen-assistant') !== undefined && document.querySelector('qwen-assistant')?.shadowRoot?.querySelector('.launcher') != null);
}

/** The element focused inside the widget's shadow root, as `tag.part` (null when focus is elsewhere). */
export function focusedInWidget(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const host = document.querySelector('qwen-assistant');
    if (document.activeElement !== host) return null;
    const active = host?.shadowRoot?.activeElement;
    return active == null ? null : `${active.tagName.toLowerCase()}.${active.getAttribute('part') ?? ''}`;
  });
}

/** Waits for the status line to show an error (`code: message`) and returns its text. */
export async function statusError(page: Page, timeout = 60_000): Promise<string> {
  const error = widget(page).locator('[part="status"].error');
  await error.waitFor({ timeout });
  return (await error.locator('.text').textContent()) ?? '';
}

/** The context window the widget would create its runtime with (after attribute validation). */
export function runtimeWindow(page: Page): Promise<number> {
  return page.evaluate(() => (document.querySelector('qwen-assistant') as unknown as { runtimeConfig: { window: number } }).runtimeConfig.window);
}

/** Sets an attribute on the widget element. */
export function setAttribute(page: Page, name: string, value: string): Promise<void> {
  return page.evaluate(([n, v]) => document.querySelector('qwen-assistant')!.setAttribute(n!, v!), [name, value]);
}

/** Every URL the context's pages, workers and service workers request (not data: or blob:). */
export function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  const keep = (request: Request): void => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:')) urls.push(url);
  };
  context.on('request', keep);
  return urls;
}

export async function statusText(page: Page): Promise<string> {
  return (await status(page).textContent())?.trim() ?? '';
}

/**
 * The status once the engine runs ("<engine> · 3 doc pages"). Before it starts, the panel shows the pages alone
 * ("3 doc pages": the docs are searchable), so waiting for "doc pages" alone could read the line too early.
 */
export const ENGINE_READY = /· \d+ doc pages/;

/** Waits until the status line matches `pattern`; fails at once when it shows an error. */
export async function waitForStatus(page: Page, pattern: RegExp, timeout = 120_000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await statusText(page);
    if (pattern.test(text)) return text;
    if ((await status(page).getAttribute('class'))?.split(' ').includes('error')) throw new Error(`the widget failed: "${text}"`);
    if (Date.now() > deadline) throw new Error(`status "${text}" never matched ${String(pattern)}`);
    await page.waitForTimeout(100);
  }
}

/** Waits until the newest answer in the panel is complete (its `data-state`) and returns its element. */
export async function waitForAnswer(page: Page): Promise<Locator> {
  await page.waitForFunction(
    () => [...(document.querySelector('qwen-assistant')?.shadowRoot?.querySelectorAll<HTMLElement>('[part~="assistant"]') ?? [])].at(-1)?.dataset.state === 'complete',
    undefined,
    { timeout: 90_000, polling: 100 },
  );
  return widget(page).locator('[part~="message"][part~="assistant"]').last();
}

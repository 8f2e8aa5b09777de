/**
 * The production build served by `vite preview` (COOP/COEP, the service worker) and a Chromium to drive it.
 * The app is built once per run (global-setup.ts) and each e2e file serves that folder with its own server.
 *
 * The model can be fetched from a second origin: the app is served at http://127.0.0.1:<port> and the same
 * server answers as http://localhost:<port>, which the browser treats as another site (with CORS, as a model
 * host must send under COEP). Service-worker network events are on, so `context.route` sees the worker's own
 * requests too.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type APIResponse, type Browser, type BrowserContext, type Page, type Route } from 'playwright';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { SHARED_APP_DIR } from './global-setup.ts';

/** As in ARCHITECTURE.md: Debian's Chromium, headless, nothing running in the background. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

export interface BuiltApp {
  /** Where the app is served. */
  origin: string;
  /** The same server under another origin, for a model host that is not the app. */
  otherOrigin: string;
  browser: Browser;
}

/** Serves the app built once for the run (global-setup.ts) for the calling file; the getter is valid inside tests. */
export function useBuiltApp(name: string): () => BuiltApp {
  let server: PreviewServer | undefined;
  let app: BuiltApp | undefined;

  beforeAll(async () => {
    // Set before the browser starts: lets context.route see requests made by the service worker itself.
    process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';
    if (!existsSync(join(SHARED_APP_DIR, 'index.html'))) throw new Error(`${SHARED_APP_DIR} is missing: the e2e global setup builds it (run through the e2e project) [${name}]`);
    server = await preview({ configFile: 'vite.config.ts', logLevel: 'error', build: { outDir: SHARED_APP_DIR }, preview: { port: 0, host: '127.0.0.1' } });
    const port = (server.httpServer.address() as AddressInfo).port;
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    app = { origin: `http://127.0.0.1:${port}`, otherOrigin: `http://localhost:${port}`, browser };
  }, 120_000);

  afterAll(async () => {
    await app?.browser.close();
    await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()));
  });

  return () => {
    if (app === undefined) throw new Error('the built app is not running (beforeAll failed?)');
    return app;
  };
}

export interface RequestLog {
  url: string;
  method: string;
}

/**
 * A fresh browser profile in which every request is intercepted: requests to `allowed` origins go through,
 * anything else is aborted and kept in `blocked`. `connect`: hosts added to the connect-src of the pages' CSP meta,
 * as an operator allows a model host that the build did not know (README "Content-Security-Policy").
 */
export async function guardedContext(
  browser: Browser,
  allowed: readonly string[],
  options: Parameters<Browser['newContext']>[0] = {},
  { connect = [] }: { connect?: readonly string[] } = {},
): Promise<{ context: BrowserContext; requests: RequestLog[]; blocked: RequestLog[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const requests: RequestLog[] = [];
  const blocked: RequestLog[] = [];
  await context.route('**/*', async (route) => {
    const request = route.request();
    const entry = { url: request.url(), method: request.method() };
    const origin = new URL(entry.url).origin;
    if (entry.url.startsWith('data:') || entry.url.startsWith('blob:')) return route.continue();
    if (allowed.includes(origin)) {
      requests.push(entry);
      const path = new URL(entry.url).pathname;
      if (connect.length > 0 && (path.endsWith('/') || path.endsWith('.html'))) return fulfillAllowing(route, connect);
      return route.continue();
    }
    blocked.push(entry);
    return route.abort('blockedbyclient');
  });
  return { context, requests, blocked };
}

/** Answers a page with `hosts` appended to its CSP meta's connect-src (the network error as it is, offline). */
async function fulfillAllowing(route: Route, hosts: readonly string[]): Promise<void> {
  let response: APIResponse;
  try {
    response = await route.fetch();
  } catch {
    return route.abort('internetdisconnected');
  }
  const html = (await response.text()).replace(/(http-equiv="Content-Security-Policy" content="[^"]*?connect-src 'self')/, `$1 ${hosts.join(' ')}`);
  return route.fulfill({ response, body: html });
}

/** The app's shadow roots are open: Playwright's locators reach inside them. */
export async function waitForReady(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('qwen-chat-app') as unknown as { engine?: { status: string } } | null)?.engine?.status === 'ready', undefined, {
    timeout,
    polling: 100,
  });
}

/** Types a message, sends it with Enter and waits until the reply is complete. */
export async function sendAndWait(page: Page, text: string, timeout = 60_000): Promise<void> {
  const count = () =>
    page.evaluate(() => (document.querySelector('qwen-chat-app') as unknown as { chat: { messages: Array<{ role: string; status: string }> } }).chat.messages.filter((m) => m.role === 'assistant' && m.status === 'complete').length);
  const before = await count();
  await page.getByRole('textbox', { name: /^(Message|消息)$/ }).fill(text);
  await page.keyboard.press('Enter');
  const deadline = Date.now() + timeout;
  while ((await count()) <= before) {
    if (Date.now() > deadline) throw new Error(`no complete reply to “${text}” within ${timeout} ms`);
    await page.waitForTimeout(100);
  }
}

/** Statuses of the messages shown, in order (`user:complete`, `assistant:interrupted`, …). */
export function messageStates(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (document.querySelector('qwen-chat-app') as unknown as { chat: { messages: Array<{ role: string; status: string }> } }).chat.messages.map((m) => `${m.role}:${m.status}`),
  );
}

export function conversationTitles(page: Page): Promise<string[]> {
  return page.evaluate(() => (document.querySelector('qwen-chat-app') as unknown as { conversations: { list: Array<{ title: string }> } }).conversations.list.map((c) => c.title));
}

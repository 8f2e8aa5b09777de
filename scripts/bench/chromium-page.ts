/**
 * Opens a page of this repo in headless Chromium, served by Vite with the app's config (COOP/COEP included),
 * and waits for the page to set `window.__benchResult`. For benchmarks that must run in a real browser.
 */
import { chromium } from 'playwright';
import { createServer } from 'vite';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

export async function openInChromium<T>(path: string, options: { timeoutMs: number; onConsole?: (line: string) => void }): Promise<T> {
  const server = await createServer({ configFile: 'vite.config.ts', server: { port: 0, host: '127.0.0.1', hmr: false, watch: null }, logLevel: 'error' });
  await server.listen();
  const address = server.httpServer?.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    if (options.onConsole) page.on('console', (message) => options.onConsole!(message.text()));
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(`http://127.0.0.1:${port}${path}`);
    const handle = await page.waitForFunction(() => (window as unknown as { __benchResult?: unknown }).__benchResult, undefined, {
      timeout: options.timeoutMs,
      polling: 500,
    });
    return (await handle.jsonValue()) as T;
  } finally {
    await browser.close();
    await server.close();
  }
}

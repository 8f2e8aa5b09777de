/**
 * Runs a benchmark page in real Chromium and returns what it reports. Generic: any bench page under the repo
 * that, when done, sets `window.__benchResult` (any JSON value) or `window.__benchError` (a message).
 * The page's console output is forwarded, so a page can print progress with console.log.
 *
 * A Vite dev server (the repo's vite.config.ts: cross-origin isolation headers, voy/wllama left unbundled)
 * serves the page on a free port; Chromium is Debian's (`CHROMIUM_PATH` overrides), headless.
 */
import { writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { chromium } from 'playwright';
import { createServer } from 'vite';

export interface BrowserBenchOptions {
  /** Fails the run after this long (default 5 minutes). */
  timeoutMs?: number;
  /** Extra Chromium flags. */
  args?: string[];
  /** Receives the page's console lines (default: printed to stderr, so stdout stays for results). */
  onLog?: (line: string) => void;
  /** Query string appended to the page URL (without `?`). */
  query?: string;
}

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Serves the repo, opens `pagePath` (e.g. `/bench/store.html`) and resolves with the page's result. */
export async function runBrowserBench(pagePath: string, options: BrowserBenchOptions = {}): Promise<unknown> {
  const [result] = await runBrowserBenchVisits(pagePath, options, () => null);
  return result;
}

/**
 * Like `runBrowserBench`, then visits the page again in the same tab (a new document: its code loaded and compiled
 * afresh, its origin's storage kept) for as long as `next` gives a query, each after the result before it.
 * Resolves with every visit's result, in order.
 */
export async function runBrowserBenchVisits(
  pagePath: string,
  options: BrowserBenchOptions,
  next: (results: readonly unknown[]) => string | null,
): Promise<unknown[]> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const log = options.onLog ?? ((line: string) => process.stderr.write(`${line}\n`));
  const port = await freePort();
  const server = await createServer({
    configFile: 'vite.config.ts',
    logLevel: 'error',
    // No file watching: an edit elsewhere in the repo must not reload a page in the middle of a long run.
    server: { port, strictPort: true, host: '127.0.0.1', hmr: false, watch: null },
  });
  await server.listen();
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, ...(options.args ?? [])],
  });
  try {
    const page = await browser.newPage();
    page.on('console', (message) => log(message.text()));
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    // BENCH_CPU_PROFILE=file.cpuprofile: the page's main thread sampled for the whole run (open it in DevTools);
    // each visit after the first gets a profile of its own (file.cpuprofile.1, .2…): a new document ends a profile.
    const profilePath = process.env['BENCH_CPU_PROFILE'];
    const cdp = profilePath === undefined ? null : await page.context().newCDPSession(page);
    const results: unknown[] = [];
    const stopProfile = async (): Promise<void> => {
      if (cdp === null || profilePath === undefined) return;
      const { profile } = await cdp.send('Profiler.stop');
      const path = results.length <= 1 ? profilePath : `${profilePath}.${results.length - 1}`;
      writeFileSync(path, JSON.stringify(profile));
      log(`CPU profile written to ${path}`);
    };
    for (let query: string | null = options.query ?? ''; query !== null; query = next(results)) {
      if (cdp !== null) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
        await cdp.send('Profiler.start');
      }
      await page.goto(`http://127.0.0.1:${port}${pagePath}${query === '' ? '' : `?${query}`}`);
      const handle = await page.waitForFunction(
        () => {
          const w = window as unknown as { __benchResult?: unknown; __benchError?: string };
          if (w.__benchError !== undefined) return { error: w.__benchError };
          return w.__benchResult === undefined ? false : { result: w.__benchResult };
        },
        undefined,
        { timeout: timeoutMs, polling: 250 },
      );
      const outcome = (await handle.jsonValue()) as { error?: string; result?: unknown };
      if (outcome.error !== undefined) throw new Error(`bench page failed: ${outcome.error}`);
      results.push(outcome.result);
      await stopProfile();
    }
    return results;
  } finally {
    await browser.close();
    await server.close();
  }
}

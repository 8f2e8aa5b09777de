/**
 * The demo docs site with the widget, built once per test file and served by `vite preview`, with or without
 * COOP/COEP (a typical docs host sends neither), and a Chromium to drive it.
 *
 *   const site = useSite('offline', { isolation: false });
 *   it('…', async () => { const { origin, browser } = site(); … });
 *
 * The site is built from docs/site (or `docsDir`) into .cache/site-<name> with the widget (built once per run by
 * global-setup.ts) in widget/, the test model in widget/models/test/ (the `model` attribute points at it unless
 * `model` is given) and the docs index in docs-index/. As in harness.ts, the same server also answers as http://localhost:<port>, a second origin.
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { isolationHeaders } from '../../scripts/isolation-headers.ts';
import { buildSite } from '../../scripts/site/build.ts';
import { SHARED_WIDGET_DIR } from './global-setup.ts';
import { CHROMIUM_ARGS } from './harness.ts';

export interface UseSiteOptions {
  /** Serve with COOP/COEP (cross-origin isolated: wllama may use threads) or without (single thread). */
  isolation: boolean;
  /** The widget's `model` attribute; default: the generated test model copied next to the widget. */
  model?: string;
  /** Docs folder to build the site from (default docs/site). */
  docsDir?: string;
  /** Chromium flags added to the harness's own (e.g. `--enable-unsafe-webgpu` for a WebGPU adapter). */
  args?: readonly string[];
}

export interface ServedSite {
  /** Where the site is served, e.g. http://127.0.0.1:41234; pages are `${origin}/index.html`, the widget `${origin}/widget/`. */
  origin: string;
  /** The same server under another origin (http://localhost:<port>). */
  otherOrigin: string;
  browser: Browser;
  /** The built site's folder. */
  dir: string;
  /** The `model` attribute the pages carry. */
  model: string;
}

/** Builds and serves the site once for the calling file; the getter is valid inside tests. */
export function useSite(name: string, options: UseSiteOptions): () => ServedSite {
  const dir = `.cache/site-${name}`;
  let server: PreviewServer | undefined;
  let site: ServedSite | undefined;

  beforeAll(async () => {
    // Lets context.route see the requests the service worker makes itself.
    process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';
    const built = await buildSite({
      outDir: dir,
      widgetDir: SHARED_WIDGET_DIR,
      testModel: true,
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.docsDir !== undefined ? { docsDir: options.docsDir } : {}),
      log: () => {},
    });
    server = await preview({
      configFile: false,
      root: process.cwd(),
      appType: 'mpa',
      logLevel: 'error',
      build: { outDir: dir },
      preview: { port: 0, host: '127.0.0.1', headers: options.isolation ? isolationHeaders : {} },
    });
    const port = (server.httpServer.address() as AddressInfo).port;
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...(options.args ?? [])] });
    site = { origin: `http://127.0.0.1:${port}`, otherOrigin: `http://localhost:${port}`, browser, dir, model: built.model };
  }, 240_000);

  afterAll(async () => {
    await site?.browser.close();
    await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  return () => {
    if (site === undefined) throw new Error(`the site "${name}" is not running (beforeAll failed?)`);
    return site;
  };
}

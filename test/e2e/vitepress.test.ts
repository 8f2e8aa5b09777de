/**
 * The package's VitePress plugin, as a site uses it: the packed package installed into a VitePress site of its own
 * (test/e2e/fixtures/vitepress-docs, whose config wraps itself in `withQwenAssistant`), `vitepress build`, the output
 * served without COOP/COEP, and a question asked with the generated model: the cited link is a page of that site
 * and lands on one of its headings. Heading ids follow VitePress's rule (`Install & run` → `install-run`, not
 * GitHub's `install--run`) and an explicit `{#id}`. Under `vitepress dev` the widget is there too, and searches the
 * pages as they are edited.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headingIds } from '../../scripts/package/vitepress-pages.ts';
import { TEST_MODEL_FILE } from '../../scripts/site/build.ts';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import type { DocsManifest, DocsPageFile } from '../../src/docs-index/format.ts';
import { CHROMIUM_ARGS } from './harness.ts';
import { installPackage, serveStatic, type StaticServer } from './package-install.ts';
import { grantModelConsent, input, launcher, waitForStatus, widget, widgetReady } from './widget-pages.ts';

// Inside the repository, so that the site's config finds `vitepress` in its node_modules (a site has it installed)
// while `qwen-assistant` comes from the site's own node_modules, installed from the tarball.
const SITE = '.cache/vitepress-site';
const DIST = join(SITE, 'docs/.vitepress/dist');

let server: StaticServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  rmSync(SITE, { recursive: true, force: true });
  installPackage(SITE);
  cpSync('test/e2e/fixtures/vitepress-docs', join(SITE, 'docs'), { recursive: true });
  mkdirSync(join(SITE, 'docs/public/models'), { recursive: true });
  cpSync(TEST_MODEL_FILE, join(SITE, 'docs/public/models/qwen2-tiny.gguf'));
  execFileSync(process.execPath, [resolve('node_modules/vitepress/bin/vitepress.js'), 'build', 'docs'], {
    cwd: SITE,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'pipe',
  });
  server = await serveStatic(DIST);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(SITE, { recursive: true, force: true });
});

const read = (path: string): string => readFileSync(join(DIST, path), 'utf8');

/** A port free now (for `vitepress dev --port`). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
    probe.on('error', fail);
  });
}

/** Starts `vitepress dev` in the site and waits until it has indexed the pages. */
async function startDev(port: number): Promise<ChildProcess> {
  const dev = spawn(process.execPath, [resolve('node_modules/vitepress/bin/vitepress.js'), 'dev', 'docs', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: SITE,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`vitepress dev did not index the pages:\n${output}`)), 90_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/qwen-assistant: indexed 3 pages/.test(output)) {
        clearTimeout(timer);
        done();
      }
    };
    dev.stdout!.on('data', read);
    dev.stderr!.on('data', read);
    dev.on('exit', (code) => fail(new Error(`vitepress dev exited (${code}):\n${output}`)));
  });
  return dev;
}

describe('qwen-assistant/vitepress on a VitePress site', () => {
  it('indexes the pages VitePress built under their URLs, every anchor a heading id of its built page, and adds the widget to every page', () => {
    const manifest = JSON.parse(read('docs-index/manifest.json')) as DocsManifest;
    expect(manifest.baseUrl).toBe('/');
    // index.md is the site's root; the others keep VitePress's .html URLs.
    expect(manifest.pages.map((p) => p.url).sort()).toEqual(['', 'guide/setup.html', 'guide/sharing.html']);
    const anchors: string[] = [];
    for (const entry of manifest.pages) {
      const built = headingIds(read(entry.url === '' ? 'index.html' : entry.url));
      const page = JSON.parse(read(join('docs-index', entry.file))) as DocsPageFile;
      for (const chunk of page.chunks) {
        expect(built.has(chunk.anchor), `${entry.url}#${chunk.anchor}`).toBe(true);
        anchors.push(`${entry.url}#${chunk.anchor}`);
      }
    }
    expect(anchors).toEqual(expect.arrayContaining(['guide/setup.html#install-run', 'guide/setup.html#where-notebooks-live', 'guide/sharing.html#_2-revoking-access']));
    for (const page of ['index.html', 'guide/setup.html', 'guide/sharing.html', '404.html']) {
      const html = read(page);
      expect(html.match(/<qwen-assistant /g), page).toHaveLength(1);
      expect(html).toContain('<script type="module" src="/qwen-assistant/qwen-assistant.js"></script>');
      expect(html).toContain('<qwen-assistant docs-index="/docs-index/manifest.json" model="/models/qwen2-tiny.gguf" lang="en" suggestions="Which port does it use? | Where are notebooks kept?"></qwen-assistant>');
    }
    expect(read('qwen-assistant/qwen-assistant.js')).toContain('qwen-assistant');
  });

  it('answers on the served site (no COOP/COEP) and the cited link lands on a heading of that site', async () => {
    const origin = server!.origin;
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await grantModelConsent(context);
      const page = await context.newPage();
      await page.goto(`${origin}/guide/sharing.html`);
      await widgetReady(page);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
      await launcher(page).click();
      await waitForStatus(page, /· 3 doc pages$/);
      await input(page).fill('Which port does the Quillfeather daemon listen on?');
      await input(page).press('Enter');
      await widget(page).getByText(TEST_MODEL_REPLY).first().waitFor({ timeout: 90_000 });
      const sources = widget(page).locator('[part="sources"]').first();
      await sources.waitFor({ timeout: 10_000 });
      const links = await sources.locator('a').evaluateAll((list) => list.map((a) => (a as HTMLAnchorElement).href));
      const portLink = `${origin}/guide/setup.html#daemon-port-address`;
      expect(links).toContain(portLink);
      for (const link of links) expect(link.startsWith(`${origin}/`)).toBe(true);

      await sources.locator(`a[href="${portLink}"]`).click();
      await page.waitForURL(portLink);
      const target = page.locator('[id="daemon-port-address"]');
      expect(await target.count()).toBe(1);
      expect(await target.evaluate((el) => el.tagName)).toBe('H2');
      expect(await target.textContent()).toContain('Daemon port & address');
    } finally {
      await context.close();
    }
  });

  it('under `vitepress dev` adds and serves the widget, whose search finds a section added while the server runs', async () => {
    const port = await freePort();
    const dev = await startDev(port);
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const origin = `http://127.0.0.1:${port}`;
      const page = await context.newPage();
      await page.goto(`${origin}/guide/sharing.html`);
      await widgetReady(page);
      await launcher(page).click();
      await input(page).fill('daemon port');
      const first = widget(page).locator('[part="result"]').first();
      await first.waitFor({ timeout: 60_000 });
      expect(await first.locator('a').getAttribute('href')).toBe(`${origin}/guide/setup.html#daemon-port-address`);

      // An edited page is indexed again; a later visit's widget finds the new section.
      appendFileSync(join(SITE, 'docs/guide/sharing.md'), '\n## Backups & snapshots\n\nQuillfeather snapshots every notebook hourly into a tarball.\n');
      await expect
        .poll(
          async () => {
            await page.reload();
            await widgetReady(page);
            await launcher(page).click();
            await input(page).fill('hourly snapshots tarball');
            const hit = widget(page).locator('[part="result"]').first();
            await hit.waitFor({ timeout: 30_000 });
            return hit.locator('a').getAttribute('href');
          },
          { timeout: 90_000, interval: 1_000 },
        )
        .toBe(`${origin}/guide/sharing.html#backups-snapshots`);
    } finally {
      await context.close();
      dev.kill();
    }
  });
});

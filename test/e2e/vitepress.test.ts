/**
 * The package's VitePress plugin, as a site uses it: the packed package installed into a VitePress site of its own
 * (test/e2e/fixtures/vitepress-docs, whose config wraps itself in `withQwenAssistant`), `vitepress build`, the output
 * served without COOP/COEP, and a question asked with the generated model: the cited link is a page of that site
 * and lands on one of its headings. Heading ids follow VitePress's rule (`Install & run` → `install-run`, not
 * GitHub's `install--run`) and an explicit `{#id}`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
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
});

/**
 * The README's recipes for docs sites other than VitePress (Docusaurus, MkDocs, a plain static site): each run as
 * written — the packed package installed, `npx qwen-assistant index-docs` over the built site, `copy-widget` into
 * it — on a built site in that generator's layout (test/e2e/fixtures/recipes, our own pages with the tags each
 * recipe adds), served without COOP/COEP. A page loads the widget, a search finds the right section, and its link
 * lands on that heading. (The generators themselves are not run here; see the fixtures' README.)
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocsManifest } from '../../src/docs-index/format.ts';
import { CHROMIUM_ARGS } from './harness.ts';
import { installPackage, npx, serveStatic } from './package-install.ts';
import { input, launcher, widget, widgetReady } from './widget-pages.ts';

interface Recipe {
  name: string;
  /** The built site's folder (copied from the fixture of the same name). */
  built: string;
  /** `index-docs` arguments after the folder, as the README's recipe gives them. */
  indexArgs: string[];
  pages: string[];
  /** The page a reader opens, a search, and the link its first result must have (paths below the origin). */
  open: string;
  query: string;
  link: string;
}

const RECIPES: Recipe[] = [
  {
    name: 'docusaurus',
    built: 'build',
    indexArgs: ['--out', 'build/docs-index', '--exclude', '404.html'],
    pages: ['docs/guide/install/index.html', 'docs/intro/index.html'],
    open: '/docs/intro/',
    query: 'gutter margin',
    link: '/docs/guide/install/index.html#paper-sizes--margins',
  },
  {
    name: 'mkdocs',
    built: 'site',
    indexArgs: ['--out', 'site/docs-index', '--base-url', '../', '--exclude', '404.html', '--exclude', 'search'],
    pages: ['guide/install/index.html', 'index.html'],
    open: '/',
    query: 'Modbus controller',
    link: '/guide/install/index.html#crane-controller-bus',
  },
  {
    name: 'static',
    built: 'site',
    indexArgs: ['--out', 'site/docs-index'],
    pages: ['guide/rules.html', 'index.html'],
    open: '/index.html',
    query: 'door clear width',
    link: '/guide/rules.html#minimum-clear-width',
  },
];

let installed = '';
let browser: Browser | undefined;

beforeAll(async () => {
  installed = mkdtempSync(join(tmpdir(), 'qwen-assistant-recipes-'));
  installPackage(installed);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (installed !== '') rmSync(installed, { recursive: true, force: true });
});

describe('the README recipes', () => {
  it.each(RECIPES)('$name: the built site indexed, the widget copied in, a page loads it and a search result lands on its heading', async (recipe) => {
    const site = join(installed, recipe.name);
    cpSync(join('test/e2e/fixtures/recipes', recipe.name), site, { recursive: true });
    const indexed = npx(site, ['index-docs', recipe.built, ...recipe.indexArgs]);
    expect(indexed.status, indexed.output).toBe(0);
    expect(npx(site, ['copy-widget', join(recipe.built, 'qwen-assistant')]).status).toBe(0);
    const manifest = JSON.parse(readFileSync(join(site, recipe.built, 'docs-index/manifest.json'), 'utf8')) as DocsManifest;
    expect(manifest.pages.map((p) => p.url).sort()).toEqual(recipe.pages);

    const server = await serveStatic(join(site, recipe.built));
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.origin}${recipe.open}`);
      await widgetReady(page);
      await launcher(page).click();
      await input(page).fill(recipe.query);
      const first = widget(page).locator('[part="result"]').first();
      await first.waitFor({ timeout: 30_000 });
      const href = `${server.origin}${recipe.link}`;
      expect(await first.locator('a').getAttribute('href')).toBe(href);
      await first.locator('a').click();
      await page.waitForURL(href);
      const heading = page.locator(`[id="${recipe.link.split('#')[1]!}"]`);
      expect(await heading.evaluate((el) => /^H[1-6]$/.test(el.tagName))).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  });
});

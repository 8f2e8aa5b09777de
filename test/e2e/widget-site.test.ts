/**
 * The demo docs site as `npm run build:site -- --test-model` makes it, served without COOP/COEP: heading ids that
 * match the index's anchors, the widget answering with the generated test model (single thread) and linking its
 * sources, and — with its service worker — the page and the widget still working with the network cut.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import type { DocsManifest, DocsPageFile } from '../../src/docs-index/format.ts';
import { useSite } from './site-harness.ts';
import { input, launcher, status, waitForAnswer, widget } from './widget-pages.ts';

const site = useSite('widget-site', { isolation: false, docsDir: 'test/e2e/fixtures/widget-docs' });

/** Asks a question and waits until the answer is complete; returns its text and source links. */
async function askAndWait(page: Page, question: string): Promise<{ text: string; sources: Array<[string, string]> }> {
  await input(page).fill(question);
  await input(page).press('Enter');
  const answer = await waitForAnswer(page);
  const sources = await answer.locator('[part="sources"] a').evaluateAll((links) => links.map((a) => [a.textContent ?? '', (a as HTMLAnchorElement).href] as [string, string]));
  return { text: (await answer.textContent()) ?? '', sources };
}

describe('the demo docs site', () => {
  it('renders pages whose heading ids are the index’s anchors', () => {
    const { dir } = site();
    const manifest = JSON.parse(readFileSync(join(dir, 'docs-index/manifest.json'), 'utf8')) as DocsManifest;
    expect(manifest.baseUrl).toBe('../');
    expect(manifest.pages.map((p) => p.url).sort()).toEqual(['guide.html', 'index.html']);
    for (const entry of manifest.pages) {
      const html = readFileSync(join(dir, entry.url), 'utf8');
      const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
      const page = JSON.parse(readFileSync(join(dir, 'docs-index', entry.file), 'utf8')) as DocsPageFile;
      for (const chunk of page.chunks) if (chunk.anchor !== '') expect(ids.has(chunk.anchor), `${entry.url}#${chunk.anchor}`).toBe(true);
      expect(html).toContain('<qwen-assistant docs-index="docs-index/manifest.json" model="models/test/qwen2-tiny.gguf">');
      expect(html).toContain('<script type="module" src="widget/qwen-assistant.js"></script>');
    }
    // Two headings with the same text get distinct ids, as the indexer numbers them; .md links point at .html.
    const guide = readFileSync(join(dir, 'guide.html'), 'utf8');
    expect(guide).toContain('id="install-the-widget"');
    expect(guide).toContain('id="install-the-widget-1"');
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain('href="guide.html#install-the-widget"');
  });

  it('answers single-threaded with the test model, links its sources, and works offline after one visit', async () => {
    const { origin, browser } = site();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    // The page registered the widget's service worker; wait until it controls the page.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await launcher(page).click();
    const first = await askAndWait(page, 'How do I install the widget?');
    expect(first.text.length).toBeGreaterThan(0);
    await expect(status(page).textContent()).resolves.toContain('single thread');
    expect(first.sources.length).toBeGreaterThan(0);
    for (const [label, href] of first.sources) {
      expect(href.startsWith(`${origin}/`)).toBe(true);
      expect(label).toMatch(/^(Guide|Widget test docs)( › .+)?$/);
    }
    // A source link lands on its heading.
    const withAnchor = first.sources.find(([, href]) => href.includes('#'));
    if (withAnchor !== undefined) {
      await widget(page).locator(`[part="sources"] a[href="${withAnchor[1]}"]`).first().click();
      await page.waitForURL(withAnchor[1]);
      const id = decodeURIComponent(new URL(withAnchor[1]).hash.slice(1));
      expect(await page.locator(`[id="${id}"]`).count()).toBe(1);
    }

    await context.setOffline(true);
    await page.goto(`${origin}/index.html`);
    await expect(page.locator('main h1').textContent()).resolves.toBe('#Widget test docs');
    await launcher(page).click();
    const offline = await askAndWait(page, 'How do I install the widget?');
    expect(offline.text).toBe(first.text);
    await context.close();
  });
});

/**
 * The demo docs site as `npm run build:site -- --test-model` makes it: heading ids that match the index's anchors,
 * and pages that carry the widget with the generated test model. Only the built files are read here: the widget
 * answering on such a site (single thread, its sources linking their headings) and working offline after one
 * visit with its service worker is widget-runtime.test.ts's first test.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../scripts/site/build.ts';
import type { DocsManifest, DocsPageFile } from '../../src/docs-index/format.ts';
import { SHARED_WIDGET_DIR } from './global-setup.ts';

const dir = '.cache/site-widget-site';

beforeAll(async () => {
  await buildSite({ outDir: dir, widgetDir: SHARED_WIDGET_DIR, testModel: true, docsDir: 'test/e2e/fixtures/widget-docs', log: () => {} });
}, 240_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the demo docs site', () => {
  it('renders pages whose heading ids are the index’s anchors', () => {
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
});

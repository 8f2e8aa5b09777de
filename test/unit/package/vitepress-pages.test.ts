import { describe, expect, it } from 'vitest';
import { headingIds, vitepressHtmlFile, vitepressPageUrl, vitepressSlug } from '../../../scripts/package/vitepress-pages.ts';

describe('VitePress page URLs and heading ids', () => {
  it('slugs headings as VitePress does: punctuation runs as one dash, accents dropped, a leading digit prefixed, CJK kept', () => {
    expect(vitepressSlug('Install & run')).toBe('install-run');
    expect(vitepressSlug('  What’s new in v2.0?  ')).toBe('what-s-new-in-v2-0');
    expect(vitepressSlug('Café crème')).toBe('cafe-creme');
    expect(vitepressSlug('2. Revoking access')).toBe('_2-revoking-access');
    expect(vitepressSlug('安装 与 配置')).toBe('安装-与-配置');
    expect(vitepressSlug('`config.toml` (optional)')).toBe('config-toml-optional');
  });

  it('publishes pages under VitePress URLs: index pages as their folder, .html unless cleanUrls, rewrites followed', () => {
    const site = { rewrites: { map: { 'packages/a/README.md': 'a/index.md' } } };
    expect(vitepressPageUrl('index.md', site)).toBe('');
    expect(vitepressPageUrl('guide/index.md', site)).toBe('guide/');
    expect(vitepressPageUrl('guide/setup.md', site)).toBe('guide/setup.html');
    expect(vitepressPageUrl('guide/setup.md', { ...site, cleanUrls: true })).toBe('guide/setup');
    expect(vitepressPageUrl('packages/a/README.md', site)).toBe('a/');
    expect(vitepressHtmlFile('packages/a/README.md', site)).toBe('a/index.html');
    expect(vitepressHtmlFile('guide/setup.md', site)).toBe('guide/setup.html');
  });

  it('reads the ids of a built page’s headings, entities decoded, and not those of other elements', () => {
    const html = '<div id="app"><h1 id="top" tabindex="-1">T</h1><h2 class="x" id="a&amp;b">A</h2><H3 ID=\'c\'>C</H3><p id="not-a-heading"></p></div>';
    expect([...headingIds(html)]).toEqual(['top', 'a&b', 'c']);
  });
});

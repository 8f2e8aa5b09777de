/**
 * Searching the docs before any model (docs-search.ts): the retrieval index's own ranking and relevance gate, one
 * result per section, a scope, and snippets with the matched words marked as text. Our own small docs.
 */
import { describe, expect, it } from 'vitest';
import { RetrievalIndex } from '../../../src/memory/retrieval/index.ts';
import { docsMemoryOf } from '../../../src/widget/runtime/docs-memory.ts';
import { inScope, relatedSections, searchDocs, topSections } from '../../../src/widget/runtime/docs-search.ts';
import { markTerms, readable, snippetOf } from '../../../src/widget/runtime/snippet.ts';
import { terms } from '../../../src/memory/retrieval/index.ts';
import type { DocSource } from '../../../src/widget/runtime/types.ts';

const SITE = 'https://docs.example';
const SECTIONS: Array<{ id: string; page: string; title: string; heading: string; anchor: string; text: string }> = [
  { id: 'install#0', page: '/guide/install.html', title: 'Install', heading: 'Install › From npm', anchor: 'from-npm', text: 'Install the Frobnic package from npm with npm install frobnic. Installing needs Node 20 or later.' },
  { id: 'install#1', page: '/guide/install.html', title: 'Install', heading: 'Install › From npm', anchor: 'from-npm', text: 'After the npm install finishes, run frobnic init to write the config file.' },
  { id: 'daemon#0', page: '/guide/daemon.html', title: 'The daemon', heading: 'The daemon › Ports', anchor: 'ports', text: 'The Frobnic daemon listens on port 7431 by default. Change it with the --port flag.' },
  { id: 'cache#0', page: '/zh/cache.html', title: '缓存', heading: '缓存 › 模型缓存', anchor: 'model-cache', text: '模型文件缓存在浏览器的 OPFS 里，第二次打开页面时不再下载。清除缓存请在设置里点“删除全部数据”。' },
  { id: 'license#0', page: '/about/license.html', title: 'License', heading: 'License', anchor: '', text: 'Frobnic is released under the MIT license. You may use it in commercial products.' },
  { id: 'install#2', page: '/guide/install.html', title: 'Install', heading: 'Install › From source', anchor: 'from-source', text: 'To build from source, clone the repository and run make.' },
  { id: 'tutorial#0', page: '/tutorial/first-app.html', title: 'Your first app', heading: 'Your first app › Install', anchor: 'install', text: 'This tutorial assumes you already ran npm install frobnic and have a terminal open.' },
];

function docs() {
  const index = new RetrievalIndex();
  const links = new Map<string, DocSource>();
  SECTIONS.forEach((s, part) => {
    index.addDoc({ id: s.id, docId: s.page, source: s.title, part, text: s.text });
    links.set(s.id, { href: `${SITE}${s.page}${s.anchor === '' ? '' : `#${s.anchor}`}`, title: s.title, heading: s.heading });
  });
  return docsMemoryOf(index, links);
}

const marked = (parts: ReadonlyArray<{ text: string; mark: boolean }>): string[] => parts.filter((p) => p.mark).map((p) => p.text);

describe('searching the docs without a model', () => {
  it('finds the section that answers, best first, one result per section, with its link', () => {
    const hits = searchDocs(docs(), 'how do I install it from npm', { now: 0 });
    expect(hits[0]).toMatchObject({ href: `${SITE}/guide/install.html#from-npm`, title: 'Install', heading: 'Install › From npm' });
    // The two chunks of that section are one result.
    expect(hits.filter((h) => h.href === `${SITE}/guide/install.html#from-npm`)).toHaveLength(1);
    expect(marked(hits[0]!.snippet).map((t) => t.toLowerCase())).toEqual(expect.arrayContaining(['install', 'npm']));
  });

  it('finds a Chinese section for a Chinese query, its matched words marked', () => {
    const hits = searchDocs(docs(), '模型缓存在哪里', { now: 0 });
    expect(hits[0]?.href).toBe(`${SITE}/zh/cache.html#model-cache`);
    expect(marked(hits[0]!.snippet).join('')).toContain('模型');
  });

  it('answers nothing for a question the docs do not cover (the memory’s own relevance gate)', () => {
    expect(searchDocs(docs(), 'what is the capital of Peru', { now: 0 })).toEqual([]);
    expect(searchDocs(docs(), '   ', { now: 0 })).toEqual([]);
  });

  it('keeps to the scope: only pages under the path prefix', () => {
    const all = searchDocs(docs(), 'npm install frobnic', { now: 0 });
    expect(all.map((h) => new URL(h.href).pathname)).toEqual(expect.arrayContaining(['/guide/install.html', '/tutorial/first-app.html']));
    const guide = searchDocs(docs(), 'npm install frobnic', { now: 0, scope: '/guide/' });
    expect(guide.length).toBeGreaterThan(0);
    expect(guide.every((h) => new URL(h.href).pathname.startsWith('/guide/'))).toBe(true);
  });

  it('stops at the limit', () => {
    expect(searchDocs(docs(), 'frobnic', { now: 0, limit: 2 })).toHaveLength(2);
  });

  it('inScope reads the link’s path', () => {
    expect(inScope(`${SITE}/guide/a.html#x`, '/guide/')).toBe(true);
    expect(inScope(`${SITE}/guidebook/a.html`, '/guide/')).toBe(false);
    expect(inScope(`${SITE}/x.html`, '')).toBe(true);
    expect(inScope('not a url', '/guide/')).toBe(false);
  });
});

describe('what the widget suggests', () => {
  it('an empty panel: the docs’ pages by title, in index order, within the scope', () => {
    expect(topSections(docs(), 3).map((s) => s.title)).toEqual(['Install', 'The daemon', '缓存']);
    expect(topSections(docs(), 4, '/guide/').map((s) => s.href)).toEqual([`${SITE}/guide/install.html`, `${SITE}/guide/daemon.html`]);
  });

  it('after an answer: the other sections of the pages it cited, none it cited', () => {
    const cited = [{ href: `${SITE}/guide/install.html#from-npm`, title: 'Install', heading: 'Install › From npm' }];
    expect(relatedSections(docs(), cited)).toEqual([{ href: `${SITE}/guide/install.html#from-source`, title: 'Install', heading: 'Install › From source' }]);
    expect(relatedSections(docs(), [])).toEqual([]);
  });
});

describe('snippets', () => {
  it('marks the words the index would match (stems, CJK bigrams), and nothing else', () => {
    const q = new Set(terms('install packages'));
    expect(marked(markTerms('Installing the package: run install.', q))).toEqual(['Installing', 'package', 'install']);
    expect(marked(markTerms('模型文件缓存在浏览器里', new Set(terms('缓存'))))).toEqual(['缓存']);
  });

  it('reads Markdown as text: fences, backticks, heading and list marks, bold and link targets go', () => {
    expect(readable('## Colours\n\nSet **two** [custom properties](https://x.example/a) in CSS:\n\n```css\nqwen-assistant { --accent: #0b7a53; }\n```\n- `snake_case` stays')).toBe(
      'Colours Set two custom properties in CSS: qwen-assistant { --accent: #0b7a53; } snake_case stays',
    );
  });

  it('keeps markup in doc text as characters', () => {
    const parts = markTerms('Use <b onclick="x()">install</b> & go', new Set(terms('install')));
    expect(parts.map((p) => p.text).join('')).toBe('Use <b onclick="x()">install</b> & go');
    expect(marked(parts)).toEqual(['install']);
  });

  it('cuts a long text around its first match, with ellipses', () => {
    const long = `${'Filler words go here. '.repeat(30)}The daemon port is set with --port. ${'More filler after. '.repeat(30)}`;
    const parts = snippetOf(long, new Set(terms('daemon port')), 120);
    const text = parts.map((p) => p.text).join('');
    expect(text.startsWith('… ')).toBe(true);
    expect(text.endsWith(' …')).toBe(true);
    expect([...text].length).toBeLessThanOrEqual(124);
    expect(marked(parts)).toEqual(expect.arrayContaining(['daemon', 'port']));
  });
});

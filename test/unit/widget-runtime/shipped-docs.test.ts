/**
 * The docs memory `index-docs` ships: what a reader loads from it is the memory the widget would have built from
 * the same page files (the same prompt, the same links), and a file that is not exactly that (other pages, another
 * embedder, another layout, damaged) is refused with its reason, so the widget indexes the pages itself.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadNodeQwenCounter } from '../../../scripts/prepare-tokenizer.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { DOCS_INDEX_VERSION, type DocsManifest, type DocsPageFile } from '../../../src/docs-index/format.ts';
import { pageHref } from '../../../src/docs-index/href.ts';
import { buildDocsPage } from '../../../src/docs-index/page.ts';
import { HashedNgramEmbedder, embedderKey } from '../../../src/memory/embedders/index.ts';
import { draftChunks } from '../../../src/memory/store/index.ts';
import { packState, unpackState } from '../../../src/memory/store/state-codec.ts';
import { DocsMemoryBuilder, docsLayeredMemory, type DocsMemory } from '../../../src/widget/runtime/docs-memory.ts';
import { pageInput } from '../../../src/widget/runtime/docs-sync.ts';
import { buildShippedDocsFile, readShippedDocsMemory } from '../../../src/widget/runtime/shipped-docs.ts';

const MANIFEST_URL = 'https://docs.example/assets/index/manifest.json';

const SOURCES: Array<[string, string]> = [
  ['guide/install.md', '# Install\n\nInstalling takes a minute.\n\n## From npm\n\nThe Frobnic daemon listens on port 5521; change it with --frob-port.\n'],
  ['faq.md', '# FAQ\n\n## License\n\nFrobnic is released under the MIT license.\n\n## Offline\n\nAfter the first visit the docs work offline.\n'],
  ['zh/guide.md', '# 指南\n\n## 缓存\n\n模型缓存在浏览器的存储里，第二次打开不用再下载。\n'],
];

let counter: CachedTokenCounter;
let pages: DocsPageFile[];
let manifest: DocsManifest;
const embedder = new HashedNgramEmbedder();
const options = (): { counter: CachedTokenCounter; window: number; lang: 'en' } => ({ counter, window: 1024, lang: 'en' });
const linkOf = (url: string): string => pageHref(MANIFEST_URL, manifest, { url }, '');

beforeAll(async () => {
  counter = await loadNodeQwenCounter();
  pages = await Promise.all(SOURCES.map(([path, text]) => buildDocsPage(path, text, { counter, embedder })));
  manifest = {
    version: DOCS_INDEX_VERSION,
    createdAt: '2026-01-01T00:00:00.000Z',
    embedder: { id: embedder.id, version: embedder.version, dimensions: embedder.dimensions },
    baseUrl: '/',
    pages: pages.map((p) => ({ url: p.url, title: p.title, hash: p.hash, file: `pages/${p.hash}.json`, chunks: p.chunks.length })),
  };
});

/** The memory a widget builds in the page from the same page files, as its store would hold them. */
async function builtInPage(): Promise<DocsMemory> {
  const builder = new DocsMemoryBuilder();
  const key = embedderKey(embedder);
  const ctx = { counter, embedder, embedderKey: key, now: 1 };
  for (const [i, page] of pages.entries()) await builder.add(draftChunks(pageInput(page, manifest.pages[i]!, linkOf(page.url), key), [], ctx));
  return builder.finish({ listDocs: async () => [] } as never);
}

const ask = (docs: DocsMemory, text: string) => docsLayeredMemory(docs, options()).handleUserMessage({ userId: 'reader', sessionId: 's', text, time: 1_700_000_000_000 }, { commit: false });

describe('the shipped docs memory', () => {
  it('loads as the memory the widget would build itself: the same prompt, the same links', async () => {
    const file = await buildShippedDocsFile(manifest, pages);
    const shipped = await readShippedDocsMemory(file.slice().buffer, manifest, linkOf, embedder);
    if (typeof shipped === 'string') throw new Error(`refused: ${shipped}`);
    const built = await builtInPage();
    expect(shipped.chunks).toBe(built.chunks);
    expect(shipped.pages).toBe(3);
    expect([...shipped.links]).toEqual([...built.links]);
    expect(shipped.links.get('d:guide/install.html:1')).toEqual({ href: 'https://docs.example/guide/install.html#from-npm', title: 'Install', heading: 'Install › From npm' });
    for (const question of ['Which port does the Frobnic daemon use?', '模型缓存在哪里？', 'Is it MIT licensed?']) {
      const [a, b] = [await ask(shipped, question), await ask(built, question)];
      expect(a.messages).toEqual(b.messages);
      expect(a.report.memory.retrieval.injected).toEqual(b.report.memory.retrieval.injected);
    }
    expect(JSON.stringify((await ask(shipped, 'Which port does the Frobnic daemon use?')).messages)).toContain('port 5521');
  });

  it('is refused with its reason when it is not exactly this widget’s for these pages', async () => {
    const file = await buildShippedDocsFile(manifest, pages);
    const read = (bytes: Uint8Array, m: Pick<DocsManifest, 'pages'> = manifest, e = embedder) => readShippedDocsMemory(bytes.slice().buffer, m, linkOf, e);
    // A page changed since the file was built.
    const changed = { pages: manifest.pages.map((p, i) => (i === 1 ? { ...p, hash: 'f'.repeat(64) } : p)) };
    expect(await read(file, changed)).toBe('other-pages');
    expect(await read(file, { pages: manifest.pages.slice(1) })).toBe('other-pages');
    // A store with another embedder (here: another width) would have other vectors.
    expect(await read(file, manifest, new HashedNgramEmbedder({ dimensions: 128 }))).toBe('other-embedder');
    // Built by a widget whose index layout is another.
    const plain = new Uint8Array(await new Response(new Blob([file]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
    const value = unpackState(plain.buffer) as { key: string };
    const other = new Uint8Array(await packState({ ...value, key: `${value.key}-older` }).arrayBuffer());
    expect(await read(other)).toBe('other-layout');
    // Served already gunzipped (a host that sent it with Content-Encoding: gzip): read as it is.
    expect(typeof (await read(plain))).toBe('object');
    // Cut short, or not a packed state at all.
    expect(await read(file.subarray(0, file.byteLength >> 1))).toBe('damaged');
    expect(await read(new TextEncoder().encode('<!doctype html><title>404</title>'))).toBe('damaged');
  });
});

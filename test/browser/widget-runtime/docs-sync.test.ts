/**
 * `syncDocsIndex` on its own (no engine): an index from another embedder is re-embedded here, a page file that
 * does not match its manifest entry is reported and skipped while the rest is written (and nothing is deleted on
 * such an incomplete read), and a missing or unreachable index fails with its own code.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { DocsManifest } from '../../../src/docs-index/format.ts';
import { deleteMemoryDB } from '../../../src/memory/store/db.ts';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { syncDocsIndex, type DocsSyncProgress } from '../../../src/widget/runtime/docs-sync.ts';
import { fixtureDir, writeDocsIndex, removeFixtures, writeRaw, type FixturePage } from './docs-fixture.ts';

const names: string[] = [];
const stores: MemoryStore[] = [];

afterAll(removeFixtures);

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const n of names.splice(0)) await deleteMemoryDB(n);
});

async function fresh(label: string): Promise<MemoryStore> {
  const name = `test-docs-sync-${label}-${Date.now().toString(36)}`;
  names.push(name);
  const store = await MemoryStore.open({ name, logger: { warn: () => {} } });
  stores.push(store);
  return store;
}

const page = (url: string, text: string): FixturePage => ({ url, title: url, sections: [{ anchor: 'top', heading: url, text }] });

describe('syncDocsIndex', () => {
  it('re-embeds locally when the index was made with another embedder', async () => {
    const dir = fixtureDir('other-embedder');
    const { manifest } = await writeDocsIndex(dir, [page('a.html', 'Backups run nightly at two in the morning.')]);
    const other: DocsManifest = { ...manifest, embedder: { id: 'engine:wllama:qwen', version: 3, dimensions: 896 } };
    await writeRaw(`${dir}/manifest.json`, JSON.stringify(other));
    const store = await fresh('other');
    const result = await syncDocsIndex(store, `/${dir}/manifest.json`);
    expect(result).toMatchObject({ pages: 1, fetched: 1, reembedded: true, failed: [] });
    const hits = await store.search('when do the backups run', { namespace: 'docs', k: 3 });
    expect(hits[0]?.chunk.text).toBe('Backups run nightly at two in the morning.');
    expect(hits[0]?.chunk.meta?.url).toBe(`${location.origin}/docs-site/a.html`);
  });

  it('skips a page file that does not match its entry, writes the others, and deletes nothing on that run', async () => {
    const dir = fixtureDir('mismatch');
    const store = await fresh('mismatch');
    const first = await writeDocsIndex(dir, [page('old.html', 'An old page about quokkas.'), page('a.html', 'Alpha.')]);
    await syncDocsIndex(store, `/${dir}/manifest.json`);
    // Re-index: old.html is gone, b.html is new, but b.html's file on the server is another page's.
    const second = await writeDocsIndex(dir, [page('a.html', 'Alpha.'), page('b.html', 'Beta.')]);
    const b = second.manifest.pages[1]!;
    await writeRaw(`${dir}/${b.file}`, JSON.stringify({ ...second.files[0]!, hash: b.hash }));
    const progress: DocsSyncProgress[] = [];
    const result = await syncDocsIndex(store, `/${dir}/manifest.json`, { onProgress: (p) => progress.push(p) });
    expect(result.failed).toEqual([{ url: 'b.html', code: 'docs_index_invalid', message: expect.stringContaining('does not match') }]);
    expect(result).toMatchObject({ fetched: 0, removed: 0 });
    expect((await store.listDocs()).map((d) => d.docId).sort()).toEqual(['a.html', 'old.html']);
    expect(progress.at(0)).toEqual({ done: 0, total: 1 });
    expect(first.manifest.pages).toHaveLength(2);
  });

  it('names a missing index, an unreachable host and a malformed manifest by code', async () => {
    const store = await fresh('codes');
    await expect(syncDocsIndex(store, '/.cache/widget-runtime/none/manifest.json')).rejects.toMatchObject({ code: 'docs_index_not_found' });
    await expect(syncDocsIndex(store, 'http://127.0.0.1:9/manifest.json')).rejects.toMatchObject({ code: 'network' });
    const dir = fixtureDir('garbage');
    await writeRaw(`${dir}/manifest.json`, '{"version": 1, "pages": [');
    await expect(syncDocsIndex(store, `/${dir}/manifest.json`)).rejects.toMatchObject({ code: 'docs_index_invalid' });
    expect(await store.listDocs()).toEqual([]);
  });
});

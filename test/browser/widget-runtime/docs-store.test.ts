/**
 * The store's docs namespace as a docs index fills it: chunks keep the vectors they came with (when they are from
 * the store's embedder), their links, and the page's hash in a summary read without touching a chunk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deleteMemoryDB } from '../../../src/memory/store/db.ts';
import { embedderKey } from '../../../src/memory/embedders/embedder.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { MemoryStore } from '../../../src/memory/store/store.ts';

const names: string[] = [];
const stores: MemoryStore[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const n of names.splice(0)) await deleteMemoryDB(n);
});

async function fresh(label: string): Promise<MemoryStore> {
  const name = `test-docs-store-${label}-${Date.now().toString(36)}`;
  names.push(name);
  const store = await MemoryStore.open({ name, logger: { warn: () => {} } });
  stores.push(store);
  return store;
}

const embedder = new HashedNgramEmbedder();
const KEY = embedderKey(embedder);
const link = (anchor: string) => ({ url: 'https://docs.example/guide.html', anchor, title: 'Guide', heading: anchor === '' ? '' : `Guide › ${anchor}` });

describe('docs namespace: precomputed vectors, links, page hashes', () => {
  it('uses the vectors it is given (from its own embedder) instead of embedding the text', async () => {
    const store = await fresh('vectors');
    // The chunk says one thing, its vector says another: the stored vector is the given one.
    const given = embedder.embedOne('rotate TLS certificates with certbot');
    await store.putDocs([
      {
        docId: 'guide.html',
        source: 'Guide',
        texts: ['Chapter one.'],
        vectors: { embedder: KEY, vectors: [given] },
        tokenCounts: [3],
        meta: [link('rotate')],
        hash: 'a'.repeat(64),
      },
    ]);
    const [hit] = await store.searchVector(given, { namespace: 'docs', k: 3 });
    expect(hit?.score).toBeCloseTo(1, 5);
    const [chunk] = await store.listDocChunks('guide.html');
    expect(chunk!.id).toBe(hit!.id);
    expect(Array.from(chunk!.embedding!.vector)).toEqual(Array.from(given));
    expect(chunk!.meta).toEqual(link('rotate'));
    expect(chunk!.tokenCount).toBe(3);
    expect(await store.listDocs()).toEqual([{ docId: 'guide.html', source: 'Guide', hash: 'a'.repeat(64), chunks: 1, updatedAt: expect.any(Number) }]);
  });

  it('embeds the texts itself when the vectors are from another embedder', async () => {
    const store = await fresh('reembed');
    await store.putDoc({
      docId: 'ops.html',
      source: 'Ops',
      texts: ['Backups run nightly at two.'],
      vectors: { embedder: 'engine:other@3', vectors: [embedder.embedOne('something unrelated entirely')] },
    });
    const hits = await store.search('when do backups run', { namespace: 'docs', k: 3 });
    expect(hits.map((h) => h.chunk.text)).toEqual(['Backups run nightly at two.']);
    expect(hits[0]!.chunk.embedding?.embedder).toBe(KEY);
  });

  it('replaces a page whole, and deleting it removes its summary', async () => {
    const store = await fresh('replace');
    await store.putDoc({ docId: 'p', source: 'P', texts: ['one', 'two', 'three'], meta: [link(''), link('a'), link('b')], hash: '1'.repeat(64) });
    await store.putDoc({ docId: 'p', source: 'P', texts: ['only'], meta: [link('')], hash: '2'.repeat(64) });
    expect((await store.listDocChunks('p')).map((c) => [c.text, c.rev])).toEqual([['only', 2]]);
    expect((await store.listDocs()).map((d) => [d.hash, d.chunks])).toEqual([['2'.repeat(64), 1]]);
    await store.deleteDoc('p');
    expect(await store.listDocs()).toEqual([]);
    expect(await store.search('only', { namespace: 'docs', k: 3 })).toEqual([]);
  });

  it('refuses a page whose vectors, counts or links do not match its chunks, writing nothing', async () => {
    const store = await fresh('mismatch');
    await expect(store.putDoc({ docId: 'x', source: 'X', texts: ['a', 'b'], meta: [link('')] })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(store.putDoc({ docId: 'x', source: 'X', texts: ['a'], tokenCounts: [-1] })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(
      store.putDocs([
        { docId: 'y', source: 'Y', texts: ['fine'] },
        { docId: 'x', source: 'X', texts: ['a'], vectors: { embedder: KEY, vectors: [] } },
      ]),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await store.listDocs()).toEqual([]);
  });
});

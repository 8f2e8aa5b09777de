import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { FlatIndex } from '../../../src/memory/vector-index/flat-index.ts';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import { exactSearch, type IndexEntry, type VectorIndex } from '../../../src/memory/vector-index/vector-index.ts';
import { VoyIndex, type VoyModule } from '../../../src/memory/vector-index/voy-index.ts';
import { loadVoy } from '../../../src/memory/vector-index/voy-loader.ts';
import { captureLogger, dbName, dropDB, openStore, prng, randomUnitVectors } from './helpers.ts';

const DIMS = 256;
let voy: VoyModule;
beforeAll(async () => {
  voy = await loadVoy();
});

function entries(count: number, seed: number, scopes = 8): IndexEntry[] {
  return randomUnitVectors(count, DIMS, seed).map((vector, i) => ({ id: `c${i}`, scope: `s${i % scopes}`, vector }));
}

const ids = (hits: Array<{ id: string }>): string[] => hits.map((h) => h.id);

const kinds: Array<[string, () => VectorIndex]> = [
  ['flat', () => new FlatIndex(DIMS)],
  ['voy', () => new VoyIndex(voy, DIMS)],
];

describe.each(kinds)('%s index on random data', (_kind, make) => {
  const data = entries(4_000, 11);
  const queries = randomUnitVectors(20, DIMS, 99);
  let index: VectorIndex;
  beforeAll(() => {
    index = make();
    index.add(data);
  });

  it('returns the same top-20 as an exact scan', () => {
    expect(index.size).toBe(data.length);
    for (const q of queries) {
      const got = index.search(q, 20);
      const want = exactSearch(data, q, 20);
      expect(ids(got)).toEqual(ids(want));
      got.forEach((hit, i) => expect(hit.score).toBeCloseTo(want[i]!.score, 5));
    }
  });

  it('filters by session (scope) like an exact scan does', () => {
    for (const q of queries.slice(0, 5)) {
      expect(ids(index.search(q, 20, { scopes: ['s1', 's6'] }))).toEqual(ids(exactSearch(data, q, 20, { scopes: ['s1', 's6'] })));
    }
    expect(index.search(queries[0]!, 5, { scopes: ['nobody'] })).toEqual([]);
  });

  it('forgets deleted entries: they disappear from results, which match an exact scan of the rest', () => {
    const doomed = new Set<string>();
    for (const q of queries) for (const hit of index.search(q, 3)) doomed.add(hit.id);
    for (let i = 0; i < data.length; i += 7) doomed.add(`c${i}`);
    index.remove([...doomed]);
    index.removeScope('s5');
    const rest = data.filter((e) => !doomed.has(e.id) && e.scope !== 's5');
    expect(index.size).toBe(rest.length);
    for (const q of queries) {
      const got = ids(index.search(q, 20));
      expect(got.some((id) => doomed.has(id))).toBe(false);
      expect(got).toEqual(ids(exactSearch(rest, q, 20)));
    }
  });

  it('replaces an entry added again under the same id', () => {
    const fresh = make();
    const [a, b] = randomUnitVectors(2, DIMS, 5);
    fresh.add([{ id: 'x', scope: 's', vector: a! }]);
    fresh.add([{ id: 'x', scope: 's', vector: b! }]);
    expect(fresh.size).toBe(1);
    expect(fresh.search(b!, 1)[0]).toMatchObject({ id: 'x' });
    expect(fresh.search(b!, 1)[0]!.score).toBeCloseTo(1, 5);
    expect(() => fresh.add([{ id: 'bad', scope: 's', vector: new Float32Array(3) }])).toThrow(RangeError);
    fresh.dispose();
  });
});

describe('voy with what the product really stores', () => {
  it('indexes the built-in embedder\'s sparse vectors and repeated texts without its k-d tree panicking', () => {
    const embedder = new HashedNgramEmbedder();
    const rand = prng(3);
    const words = ['服务器', '证书', '到期', 'nginx', 'deploy', 'backup', '谢谢', '好的', 'kubernetes', '日志'];
    const texts = Array.from({ length: 1_500 }, (_, i) =>
      i % 10 === 0 ? '谢谢' : Array.from({ length: 1 + Math.floor(rand() * 4) }, () => words[Math.floor(rand() * words.length)]).join(' '),
    );
    const data = texts.map((text, i) => ({ id: `t${i}`, scope: 's', vector: embedder.embedOne(text) }));
    const warnings: string[] = [];
    const index = new VoyIndex(voy, embedder.dimensions, { onWarning: (m) => warnings.push(m) });
    index.add(data);
    expect(index.fallbackReason).toBeNull();
    expect(warnings).toEqual([]);
    const q = embedder.embedOne('证书 到期', true);
    const got = index.search(q, 20);
    const want = exactSearch(data, q, 20);
    // Many texts are identical here, so compare scores (ties may come in any order).
    expect(got.map((h) => h.score.toFixed(5))).toEqual(want.map((h) => h.score.toFixed(5)));
    index.dispose();
  });

  it('refuses vectors wider than 768 dimensions (voy would truncate them) and serves exact scans instead', () => {
    const index = new VoyIndex(voy, 896, { onWarning: () => {} });
    expect(index.fallbackReason).toContain('768');
    const data = randomUnitVectors(300, 896, 8).map((vector, i) => ({ id: `w${i}`, scope: 's', vector }));
    index.add(data);
    const q = randomUnitVectors(1, 896, 9)[0]!;
    expect(ids(index.search(q, 10))).toEqual(ids(exactSearch(data, q, 10)));
  });
});

describe('the store with either index', () => {
  const names: string[] = [];
  const stores: MemoryStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const name of names.splice(0)) await dropDB(name);
  });

  it.each(['flat', 'voy'] as const)('%s: rebuilt at start-up from the stored vectors; searches before that scan exactly', async (kind) => {
    const name = dbName(`idx-${kind}`);
    names.push(name);
    const first = await openStore(name, { index: kind });
    const session = await first.createSession();
    for (let i = 0; i < 50; i++) {
      await first.appendTurn({ sessionId: session.id, role: 'user', content: `ticket ${i}: ${i % 2 === 0 ? 'disk full on db' : 'login page slow'} ${i}` });
    }
    await first.close();

    const logger = captureLogger();
    const second = await openStore(name, { index: kind, logger });
    stores.push(second);
    const early = await second.search('disk full', { k: 5 });
    await second.index.ready;
    expect(second.index.kind).toBe(kind);
    expect(second.index.size('conversation')).toBe(50);
    const late = await second.search('disk full', { k: 5 });
    // The texts tie on score (they differ only in numbers), so compare scores, not the order among ties.
    expect(late.map((h) => h.score.toFixed(5))).toEqual(early.map((h) => h.score.toFixed(5)));
    expect(late.every((h) => h.chunk.text.includes('disk full'))).toBe(true);
    expect(logger.messages).toEqual([]);
  });
});

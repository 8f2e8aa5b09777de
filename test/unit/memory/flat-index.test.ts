import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { BLOCK_ROWS, createInt8DotKernel, dotKernelBytes, rowByte } from '../../../src/memory/vector-index/dot-kernel.ts';
import { FlatIndex } from '../../../src/memory/vector-index/flat-index.ts';
import { dot, exactSearch, type IndexEntry, type SearchHit } from '../../../src/memory/vector-index/vector-index.ts';

const vector = (dims: number): fc.Arbitrary<Float32Array> =>
  fc.array(fc.float({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }), { minLength: dims, maxLength: dims }).map((xs) => Float32Array.from(xs));

describe('int8 dot kernel', () => {
  it('is valid WebAssembly with SIMD in Node 20 and computes int8 × int16 dot products over the pairs listed, for every row of every block', () => {
    expect(WebAssembly.validate(dotKernelBytes())).toBe(true);
    const kernel = createInt8DotKernel()!;
    expect(kernel).not.toBeNull();
    const dims = 32;
    const blockBytes = dims * BLOCK_ROWS;
    const rows = 2 * BLOCK_ROWS + 5; // a last block only partly used
    const blocks = Math.ceil(rows / BLOCK_ROWS);
    kernel.memory.grow(1);
    const [pairsAt, lanesAt, dataAt] = [0, 64, 512];
    const outAt = dataAt + blocks * blockBytes;
    const data = new Int8Array(kernel.memory.buffer, dataAt, blocks * blockBytes);
    const value = (r: number, d: number): number => (r === 3 ? 127 : r === 4 ? -127 : ((r * 7 + d * 13) % 255) - 127);
    for (let r = 0; r < rows; r++) for (let d = 0; d < dims; d++) data[rowByte(r, d, blockBytes)] = value(r, d);
    // A sparse query: pairs 0, 5 (one of its two set) and 15, at the int16 extremes.
    const query = new Array<number>(dims).fill(0);
    [query[0], query[1], query[11], query[30], query[31]] = [32_767, -3, -32_768, 1000, -1];
    const listed = [0, 5, 15];
    const pairs = new Int32Array(kernel.memory.buffer, pairsAt, listed.length);
    const lanes = new Int16Array(kernel.memory.buffer, lanesAt, listed.length * 8);
    listed.forEach((p, i) => {
      pairs[i] = p;
      for (let l = 0; l < 8; l += 2) [lanes[i * 8 + l], lanes[i * 8 + l + 1]] = [query[2 * p]!, query[2 * p + 1]!];
    });
    kernel.scores(dataAt, pairsAt, pairsAt + listed.length * 4, lanesAt, outAt, blocks, blockBytes);
    const want = Array.from({ length: rows }, (_, r) => query.reduce((sum, q, d) => sum + q * value(r, d), 0));
    expect(Array.from(new Int32Array(kernel.memory.buffer, outAt, rows))).toEqual(want);
  });
});

describe('flat index', () => {
  it('returns exactly what an exact scan returns, after any adds, replaces, removes and scope filters', () => {
    const dims = 12;
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), id: fc.integer({ min: 0, max: 30 }), scope: fc.integer({ min: 0, max: 3 }), v: vector(dims) }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant('removeScope' as const), scope: fc.integer({ min: 0, max: 3 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), vector(dims), fc.integer({ min: 1, max: 10 }), fc.boolean(), fc.boolean(), (ops, q, k, filter, useJs) => {
        const index = new FlatIndex(dims, { kernel: useJs ? 'js' : 'auto' });
        const model = new Map<string, IndexEntry>();
        for (const o of ops) {
          if (o.kind === 'add') {
            const entry = { id: `c${o.id}`, scope: `s${o.scope}`, vector: o.v };
            index.add([entry]);
            model.set(entry.id, entry);
          } else if (o.kind === 'remove') {
            index.remove([`c${o.id}`]);
            model.delete(`c${o.id}`);
          } else {
            index.removeScope(`s${o.scope}`);
            for (const [id, e] of model) if (e.scope === `s${o.scope}`) model.delete(id);
          }
        }
        expect(index.size).toBe(model.size);
        const options = filter ? { scopes: ['s0', 's2'] } : {};
        const got = index.search(q, k, options);
        const want = exactSearch(model.values(), q, k, options);
        expect(got.map((h) => h.score)).toEqual(want.map((h) => expect.closeTo(h.score, 5)));
        // Same ids wherever scores are not tied.
        got.forEach((hit, i) => {
          const tied = want.filter((w) => Math.abs(w.score - hit.score) < 1e-4).map((w) => w.id);
          expect(tied.length > 1 || hit.id === want[i]!.id).toBe(true);
          expect(hit.scope).toBe(model.get(hit.id)!.scope);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('grows past its first capacity and keeps vectors intact', () => {
    const index = new FlatIndex(5);
    const entries = Array.from({ length: 1_000 }, (_, i) => ({ id: `v${i}`, scope: 's', vector: Float32Array.from([i, 1, 0, 0, 0]) }));
    index.add(entries);
    expect(index.size).toBe(1_000);
    expect(Array.from(index.vector('v999')!)).toEqual([999, 1, 0, 0, 0]);
    expect(index.kernelKind).toBe('simd-int8');
    expect(index.search(Float32Array.from([1, 0, 0, 0, 0]), 2).map((h) => h.id)).toEqual(['v999', 'v998']);
    expect(() => index.add([{ id: 'x', scope: 's', vector: new Float32Array(4) }])).toThrow(RangeError);
  });
});

/** Same ids, scopes and order, and the same score bits (Object.is: +0 is not -0). */
const expectSameHits = (got: readonly SearchHit[], want: readonly SearchHit[]): void => {
  expect(got.map((h) => [h.id, h.scope])).toEqual(want.map((h) => [h.id, h.scope]));
  got.forEach((hit, i) => expect(Object.is(hit.score, want[i]!.score)).toBe(true));
};

describe('flat index, SIMD path against the plain scan', () => {
  // Components from a few levels and rows drawn from a small pool: many rows tie exactly, so a floor (the k-th
  // largest lower bound) set too high would drop a tied row from the top k, or change which of the tied rows win.
  const level = fc.integer({ min: -3, max: 3 }).map((x) => x / 4);
  const pooled = (dims: number): fc.Arbitrary<Float32Array> => fc.array(level, { minLength: dims, maxLength: dims }).map((xs) => Float32Array.from(xs));

  it('returns the same hits bit for bit, ties in the same order, with scope filters and k past the allowed rows', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(7, 16, 40),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 40 }),
        (dims, seed, n, removed) => {
          let state = seed;
          const rand = (): number => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296);
          const pool = fc.sample(pooled(dims), { seed, numRuns: 1 + Math.floor(rand() * 12) });
          const entries = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, scope: `s${Math.floor(rand() * 4)}`, vector: pool[Math.floor(rand() * pool.length)]! }));
          const simd = new FlatIndex(dims);
          const js = new FlatIndex(dims, { kernel: 'js' });
          simd.add(entries);
          js.add(entries);
          const queries = [...fc.sample(pooled(dims), { seed: seed + 1, numRuns: 2 }), pool[0]!];
          const scopes = [undefined, ['s1'], ['s0', 's2'], ['none']];
          const check = (): void => {
            for (const query of queries) {
              for (const filter of scopes) {
                const options = filter === undefined ? {} : { scopes: filter };
                const allowed = entries.filter((e) => simd.has(e.id) && (filter === undefined || filter.includes(e.scope))).length;
                for (const k of new Set([1, 2, 5, allowed - 1, allowed, allowed + 3, n + 10].filter((x) => x > 0))) {
                  expectSameHits(simd.search(query, k, options), js.search(query, k, options));
                }
              }
            }
          };
          // Adds only: the slots are in insertion order, as exactSearch's arrivals are.
          expect(simd.kernelKind).toBe('simd-int8');
          for (const query of queries) expectSameHits(simd.search(query, 7), exactSearch(entries, query, 7));
          check();
          // Removes move rows between slots; both indexes move them alike.
          const gone = entries.slice(0, removed).map((e) => e.id);
          simd.remove(gone);
          js.remove(gone);
          simd.removeScope('s3');
          js.removeScope('s3');
          check();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('selects the exact k-th lower bound among 10,000 rows in tied groups, for k at and around the groups\' edges', () => {
    const dims = 32;
    // 25 scores 0.04 apart, each bound within ±0.01 of its score: a floor one group too high leaves rows of the
    // k-th group out, and one group too low re-scores a group more (the result would not show it: counted below).
    const values = 25;
    const entries = Array.from({ length: 10_000 }, (_, i) => {
      const v = new Float32Array(dims);
      v[0] = ((i * 7919) % values) / values; // the score against the query, groups interleaved over the slots
      v[1 + (i % (dims - 1))] = 0.5;
      return { id: `c${i}`, scope: `s${i % 3}`, vector: v };
    });
    const simd = new FlatIndex(dims);
    const js = new FlatIndex(dims, { kernel: 'js' });
    simd.add(entries);
    js.add(entries);
    const query = new Float32Array(dims);
    query[0] = 1;
    query[5] = 0.01;
    const exact = vi.spyOn(FlatIndex.prototype as unknown as { _exact: (slot: number, query: Float32Array) => number }, '_exact');
    try {
      for (const scopes of [undefined, ['s1']]) {
        const options = scopes === undefined ? {} : { scopes };
        const scores = entries.filter((e) => scopes === undefined || scopes.includes(e.scope)).map((e) => dot(e.vector, query));
        scores.sort((x, y) => y - x);
        const edges = scores.flatMap((score, i) => (i > 0 && score !== scores[i - 1] ? [i] : [])).slice(0, 3);
        const ks = [1, ...edges.flatMap((e) => [e - 1, e, e + 1]), scores.length - 1, scores.length, scores.length + 1];
        for (const k of ks) {
          exact.mockClear();
          const got = simd.search(query, k, options);
          // Rows re-scored: those of the groups down to the k-th score's, no more.
          const kth = scores[Math.min(k, scores.length) - 1]!;
          expect(exact.mock.calls.length).toBe(scores.filter((score) => score > kth - 0.02).length);
          expectSameHits(got, js.search(query, k, options));
        }
      }
    } finally {
      exact.mockRestore();
    }
  });

  it('answers a zero query with the first k allowed rows, scored +0, skipping rows with non-finite values', () => {
    const dims = 8;
    const at = (i: number): Float32Array => Float32Array.from({ length: dims }, (_, j) => (i === 2 ? Number.NaN : i === 4 && j === 3 ? Infinity : (i + j) / 10 - 0.3));
    const entries = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, scope: `s${i % 2}`, vector: at(i) }));
    const simd = new FlatIndex(dims);
    const js = new FlatIndex(dims, { kernel: 'js' });
    simd.add(entries);
    js.add(entries);
    const zero = Float32Array.from({ length: dims }, (_, j) => (j % 2 === 0 ? 0 : -0));
    for (const options of [{}, { scopes: ['s0'] }]) {
      for (const k of [1, 3, 6, 20]) expectSameHits(simd.search(zero, k, options), js.search(zero, k, options));
    }
    expect(simd.search(zero, 4).map((h) => h.id)).toEqual(['c0', 'c1', 'c3', 'c5']);
    expect(simd.search(zero, 4).every((h) => Object.is(h.score, 0))).toBe(true);
  });

  it('dotWith gives dot(query, vector) bit for bit without copying, and undefined for an unknown id', () => {
    fc.assert(
      fc.property(fc.array(vector(19), { minLength: 1, maxLength: 20 }), vector(19), fc.boolean(), (vectors, query, useJs) => {
        const index = new FlatIndex(19, { kernel: useJs ? 'js' : 'auto' });
        index.add(vectors.map((v, i) => ({ id: `c${i}`, scope: 's', vector: v })));
        index.remove(['c0']);
        for (let i = 1; i < vectors.length; i++) expect(Object.is(index.dotWith(`c${i}`, query), dot(query, index.vector(`c${i}`)!))).toBe(true);
        expect(index.dotWith('c0', query)).toBeUndefined();
      }),
    );
  });
});

describe('flat index with sparse queries', () => {
  // A hashed-n-gram query sets a fifth of its dimensions or fewer, and the index then sums only those. Rows
  // here hold -0, NaN and ±Infinity too: the sums must still be dot()'s, bit for bit.
  const value = fc.oneof(
    { weight: 12, arbitrary: fc.float({ min: -4, max: 4, noNaN: true, noDefaultInfinity: true }) },
    { weight: 2, arbitrary: fc.constantFrom(0, -0) },
    { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Infinity, -Infinity, 3e38) },
  );
  const row = (dims: number): fc.Arbitrary<Float32Array> => fc.array(value, { minLength: dims, maxLength: dims }).map((xs) => Float32Array.from(xs));
  const sparse = (dims: number): fc.Arbitrary<Float32Array> =>
    fc
      .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(0, -0) }, { weight: 1, arbitrary: value }), { minLength: dims, maxLength: dims })
      .map((xs) => Float32Array.from(xs));

  it('gives dot(query, vector) bit for bit for every row, and the exact scan\'s hits, with either kernel', () => {
    fc.assert(
      fc.property(fc.constantFrom(8, 16, 33), fc.integer({ min: 1, max: 40 }), fc.boolean(), fc.integer(), (dims, n, useJs, seed) => {
        const [vectors, queries] = [fc.sample(row(dims), { seed, numRuns: n }), fc.sample(sparse(dims), { seed: seed + 1, numRuns: 4 })];
        const entries = vectors.map((vector, i) => ({ id: `c${i}`, scope: `s${i % 3}`, vector }));
        const index = new FlatIndex(dims, { kernel: useJs ? 'js' : 'auto' });
        index.add(entries);
        for (const query of queries) {
          const dots = [...entries.map((e) => e.id), 'unknown'].map((id) => index.dotWith(id, query));
          entries.forEach((e, i) => expect(Object.is(dots[i], dot(query, e.vector))).toBe(true));
          expect(dots[entries.length]).toBeUndefined();
          for (const k of [1, 5, n]) {
            expectSameHits(index.search(query, k), exactSearch(entries, query, k));
            expectSameHits(index.search(query, k, { scopes: ['s1'] }), exactSearch(entries, query, k, { scopes: ['s1'] }));
          }
        }
        // A row moved into a removed one's slot keeps what it knows about its values.
        index.remove(['c0']);
        const query = queries[0]!;
        entries.slice(1).forEach((e) => expect(Object.is(index.dotWith(e.id, query), dot(query, e.vector))).toBe(true));
      }),
      { numRuns: 150 },
    );
  });

  it('floors dots at 0 bit for bit, answering rows the last scan bounds below 0 without their floats, and only while that scan holds', () => {
    const dims = 64;
    const rand = (() => {
      let state = 7;
      return (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
    })();
    const sparseVector = (): Float32Array => Float32Array.from({ length: dims }, () => (rand() < 0.3 ? rand() * 2 - 1 : 0));
    const entries = Array.from({ length: 300 }, (_, i) => ({ id: `c${i}`, scope: 's', vector: sparseVector() }));
    const index = new FlatIndex(dims);
    index.add(entries);
    const query = sparseVector();
    const ids = entries.map((e) => e.id);
    const floored = (q: Float32Array): number[] => entries.map((e) => Math.max(0, dot(q, e.vector)));
    const exact = vi.spyOn(index as unknown as { _exact: () => number }, '_exact');
    // No scan of this query yet: every row is read.
    expect(index.positiveDotsWith(ids, query)).toEqual(floored(query));
    expect(exact).toHaveBeenCalledTimes(300);
    index.search(query, 10);
    exact.mockClear();
    const got = index.positiveDotsWith([...ids, 'unknown'], query);
    got.slice(0, 300).forEach((x, i) => expect(Object.is(x, floored(query)[i])).toBe(true));
    expect(got[300]).toBeUndefined();
    const below = floored(query).filter((x) => x === 0).length;
    expect(below).toBeGreaterThan(50);
    expect(exact.mock.calls.length).toBeLessThan(300 - below / 2); // most rows below 0 were answered from the scan
    // Another query object (the same values), or a write since the scan: every row is read again.
    exact.mockClear();
    expect(index.positiveDotsWith(ids, query.slice())).toEqual(floored(query));
    expect(exact).toHaveBeenCalledTimes(300);
    index.add([{ id: 'c0', scope: 's', vector: sparseVector() }]);
    entries[0] = { ...entries[0]!, vector: index.vector('c0')! };
    exact.mockClear();
    expect(index.positiveDotsWith(ids, query)).toEqual(floored(query));
    expect(exact).toHaveBeenCalledTimes(300);
  });

  it('a query longer than the rows sums only the rows\' dimensions, as dot() does', () => {
    const index = new FlatIndex(4, { kernel: 'js' });
    index.add([{ id: 'a', scope: 's', vector: Float32Array.from([1, 2, 3, 4]) }]);
    const query = Float32Array.from([0, 0, 0, 0.5, 0, 0, 0, 0, 0, 9]);
    expect(index.dotWith('a', query)).toBe(2);
  });
});

describe('flat index exactness at scale', () => {
  it('returns the exact top-20 of 20,000 random unit vectors, with and without scope filters', () => {
    const dims = 256;
    let seed = 9;
    const rand = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296) - 0.5;
    const unit = (): Float32Array => {
      const v = Float32Array.from({ length: dims }, rand);
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    };
    const entries = Array.from({ length: 20_000 }, (_, i) => ({ id: `c${i}`, scope: `s${i % 7}`, vector: unit() }));
    const index = new FlatIndex(dims);
    index.add(entries);
    for (let q = 0; q < 10; q++) {
      const query = unit();
      const options = q % 2 === 0 ? {} : { scopes: ['s3'] };
      expect(index.search(query, 20, options).map((h) => h.id)).toEqual(exactSearch(entries, query, 20, options).map((h) => h.id));
    }
  });
});


describe('flat index rows in their int8 form (a saved index)', () => {
  const rand = (seed: number) => () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const make = (n: number, dims: number, seed: number): IndexEntry[] => {
    const r = rand(seed);
    return Array.from({ length: n }, (_, i) => ({ id: `r${i}`, scope: `s${i % 5}`, vector: Float32Array.from({ length: dims }, () => r()) }));
  };

  for (const kernel of ['auto', 'js'] as const) {
    it(`restored with floats worked out on demand, searches and dots give the same bits as the index saved (${kernel})`, () => {
      const dims = 48;
      const data = make(300, dims, 7);
      const byId = new Map(data.map((e) => [e.id, e.vector]));
      const saved = new FlatIndex(dims, { kernel });
      saved.add(data);
      saved.remove(['r3', 'r100']); // rows moved into the holes
      const given = new Set(['r7', 'r250']);
      const rows = structuredClone(saved.exportQuantized((id) => given.has(id)));
      expect(rows.keep.rows.length).toBe(2);
      const asked: string[] = [];
      const restored = new FlatIndex(dims, { kernel });
      restored.importQuantized(rows, (id) => {
        asked.push(id);
        return given.has(id) ? undefined : byId.get(id);
      });
      // With the kernel nothing is worked out until a search re-scores a row; without it, every row at once.
      expect(asked.length).toBe(kernel === 'js' ? 296 : 0);
      const queries = make(12, dims, 99).map((e) => e.vector);
      for (const q of queries) {
        expect(restored.search(q, 10)).toEqual(saved.search(q, 10));
        expect(restored.search(q, 5, { scopes: ['s1', 's3'] })).toEqual(saved.search(q, 5, { scopes: ['s1', 's3'] }));
        const ids = ['r0', 'r7', 'r250', 'r299', 'r3'];
        expect(restored.positiveDotsWith(ids, q)).toEqual(saved.positiveDotsWith(ids, q));
      }
      if (kernel === 'auto') expect(asked.length).toBeLessThan(296);
      expect(asked).not.toContain('r7');
      // It changes as the saved one would, and exports the same rows again.
      restored.remove(['r10']);
      saved.remove(['r10']);
      expect(restored.search(queries[0]!, 10)).toEqual(saved.search(queries[0]!, 10));
      for (const { id } of data) expect(restored.vector(id)).toEqual(saved.vector(id));
      expect(restored.exportQuantized(() => true)).toEqual(saved.exportQuantized(() => true));
    });
  }

  it('refuses rows that do not fit, and a missing float row', () => {
    const saved = new FlatIndex(16);
    saved.add(make(20, 16, 3));
    const rows = saved.exportQuantized(() => false);
    expect(() => new FlatIndex(32).importQuantized(rows, () => undefined)).toThrow(RangeError);
    expect(() => new FlatIndex(16).importQuantized({ ...rows, scale: rows.scale.slice(1) }, () => undefined)).toThrow(RangeError);
    const restored = new FlatIndex(16);
    restored.importQuantized(rows, () => undefined);
    expect(() => restored.vector('r1')).toThrow(/no float row/);
  });
});

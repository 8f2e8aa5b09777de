import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInt8DotKernel, dotKernelBytes } from '../../../src/memory/dot-kernel.ts';
import { FlatIndex } from '../../../src/memory/flat-index.ts';
import { TopK, exactSearch, type IndexEntry } from '../../../src/memory/vector-index.ts';

const vector = (dims: number): fc.Arbitrary<Float32Array> =>
  fc.array(fc.float({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }), { minLength: dims, maxLength: dims }).map((xs) => Float32Array.from(xs));

describe('int8 dot kernel', () => {
  it('is valid WebAssembly with SIMD in Node 20 and computes int8 × int16 dot products', () => {
    expect(WebAssembly.validate(dotKernelBytes())).toBe(true);
    const kernel = createInt8DotKernel()!;
    expect(kernel).not.toBeNull();
    const query = new Int16Array(kernel.memory.buffer, 0, 32);
    query.set(Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? 1000 : -3)));
    const rows = new Int8Array(kernel.memory.buffer, 64, 64);
    rows.set(Array.from({ length: 64 }, (_, i) => (i < 32 ? 127 : i % 5) - 2));
    kernel.scores(64, 0, 256, 2, 32);
    const want = [0, 1].map((r) => Array.from({ length: 32 }, (_, j) => rows[r * 32 + j]! * query[j]!).reduce((a, b) => a + b, 0));
    expect(Array.from(new Int32Array(kernel.memory.buffer, 256, 2))).toEqual(want);
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

describe('TopK', () => {
  it('keeps the k best, best first, ignoring NaN', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 })), fc.integer({ min: 0, max: 8 }), (scores, k) => {
        const top = new TopK<number>(k);
        scores.forEach((s, i) => top.push(s, i));
        top.push(Number.NaN, -1);
        const want = [...scores].sort((a, b) => b - a).slice(0, k);
        expect(top.result().map((r) => r.score)).toEqual(want);
      }),
    );
  });
});

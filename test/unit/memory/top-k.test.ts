import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TopK } from '../../../src/memory/vector-index/vector-index.ts';

describe('TopK', () => {
  it('keeps what a stable sort of everything would keep: the k best, best first, ties to the earlier item', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 200 }), fc.integer({ min: 0, max: 40 }), (scores, k) => {
        const top = new TopK<number>(k);
        scores.forEach((s, i) => top.push(s, i));
        // Array.prototype.sort is stable: equal scores stay in arrival order.
        const want = scores.map((score, item) => ({ score, item })).sort((a, b) => b.score - a.score).slice(0, k);
        expect(top.result()).toEqual(want);
        if (k > 0) expect(top.threshold).toBe(scores.length < k ? -Infinity : want[k - 1]!.score);
      }),
    );
  });

  it('takes infinities and ignores NaN', () => {
    const top = new TopK<string>(2);
    for (const [score, item] of [[1, 'a'], [Number.NaN, 'nan'], [Infinity, 'inf'], [-Infinity, 'minus'], [Infinity, 'inf2']] as const) top.push(score, item);
    expect(top.result()).toEqual([{ score: Infinity, item: 'inf' }, { score: Infinity, item: 'inf2' }]);
  });
});

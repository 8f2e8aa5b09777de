/**
 * A long paste is split and counted on the page's thread in slices (issue 15): the same parts and the same count
 * as in one go, with the page given a turn every few milliseconds.
 */
import { describe, expect, it } from 'vitest';
import { countSliced, splitIntoParts, splitIntoPartsSliced, type TokenCount } from '../../../src/memory/store/chunking.ts';
import { mixedProse } from '../../fixtures/mixed-prose.ts';
import { realCounter } from '../context/helpers.ts';

/** Times between the pauses: how long the page would have waited each time. */
function pauseRecorder(): { pause: () => Promise<void>; gaps: number[] } {
  let last = performance.now();
  const gaps: number[] = [];
  return {
    gaps,
    pause: async () => {
      gaps.push(performance.now() - last);
      await new Promise((resolve) => setTimeout(resolve, 0));
      last = performance.now();
    },
  };
}

/** A counter that takes about 1 ms a call, so slicing shows on any machine. */
const slowCounter: TokenCount = {
  count(text) {
    const until = performance.now() + 1;
    while (performance.now() < until);
    return Math.ceil(text.length / 4);
  },
};

describe('splitting and counting a long paste in slices', () => {
  it('gives the parts and the exact count that one go gives (real Qwen counter)', async () => {
    const text = mixedProse(40_000, 1);
    const counter = await realCounter();
    const { pause } = pauseRecorder();
    const sliced = await splitIntoPartsSliced(text, counter, pause);
    expect(sliced).toEqual(splitIntoParts(text, await realCounter()));
    expect(sliced.map((p) => p.text).join('')).toBe(text);
    expect(await countSliced(text, counter, pause)).toBe((await realCounter()).count(text));
  });

  it('pauses often: no stretch of work much longer than a slice', async () => {
    const { pause, gaps } = pauseRecorder();
    await splitIntoPartsSliced(mixedProse(30_000, 2), slowCounter, pause);
    expect(gaps.length).toBeGreaterThan(5);
    // A slice is 12 ms and one step adds a few counts of 1 ms, so no stretch is a large share of the work. Compared
    // with the whole, not with a fixed time: a loaded machine stretches both alike.
    const total = gaps.reduce((a, b) => a + b, 0);
    expect(Math.max(...gaps)).toBeLessThan(total / 2);
  });
});

/**
 * The fuzzers' own mutator must make finite text: a CI run once failed on a stack overflow inside it (the root
 * array spliced into itself), which says nothing about the code under test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutate, mutatedText, serialize } from '../../fixtures/fuzz/json-mutations.ts';
import { fuzzRuns } from '../../fixtures/fuzz/time-bound.ts';

describe('json mutations', () => {
  it('duplicating the root array repeats its first item instead of putting the root inside itself', () => {
    const tree = mutate(['a', 'b'], { kind: 'duplicate', at: 0, times: 5 });
    expect(serialize(tree)).toBe('["a","b","a","a","a","a","a"]');
  });

  it('every chain of mutations serializes to finite text', () => {
    const valid = { version: 1, pages: [{ url: 'a.html', chunks: [{ text: 'hi', path: ['x', 'y'] }] }], meta: { dims: 8 } };
    fc.assert(
      fc.property(mutatedText(valid, 200_000), (text) => typeof text === 'string'),
      fuzzRuns(300, 60_000),
    );
  });
});

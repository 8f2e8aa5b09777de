import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokens, exchangeText, splitIntoParts, type TokenCount } from '../../../src/memory/store/chunking.ts';

/** A counter where every character is a token, except that "ab" merges into one (joins may change counts). */
const mergingCounter: TokenCount = { count: (text) => text.length - (text.match(/ab/g)?.length ?? 0) };

const textArb = fc
  .array(
    fc.oneof(
      fc.constantFrom('。', '！', '？', '. ', '\n', '\n\n', ' ', 'ab', '🙂', '服务器', 'certificate '),
      fc.string({ maxLength: 30 }),
      fc.stringMatching(/^[a-z]{1,80}$/),
    ),
    { maxLength: 120 },
  )
  .map((parts) => parts.join(''));

describe('splitting long turns into parts', () => {
  it('covers the text exactly, in order, each part within the limit', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 4, max: 60 }), fc.constantFrom(estimateTokens, mergingCounter), (text, max, counter) => {
        const parts = splitIntoParts(text, counter, max);
        if (counter.count(text) <= max) {
          expect(parts).toEqual([]);
          return;
        }
        expect(parts.map((p) => p.text).join('')).toBe(text);
        let at = 0;
        for (const part of parts) {
          expect(part.start).toBe(at);
          expect(text.slice(part.start, part.end)).toBe(part.text);
          expect(part.tokens).toBe(counter.count(part.text));
          // A part over the limit can only be one that cannot be cut: a single character.
          if (part.tokens > max) expect([...part.text].length).toBe(1);
          at = part.end;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('cuts at paragraph and sentence boundaries when it can', () => {
    const para = (n: number): string => `${'字'.repeat(n)}。`;
    const text = [para(300), para(300), para(300)].join('\n\n');
    const parts = splitIntoParts(text, estimateTokens, 400);
    expect(parts.map((p) => p.text)).toEqual([`${para(300)}\n\n`, `${para(300)}\n\n`, para(300)]);
  });

  it('stays fast on a 1 MB paste with no boundaries at all', () => {
    const text = '大'.repeat(1_000_000);
    const started = performance.now();
    const parts = splitIntoParts(text, estimateTokens, 400);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(parts).toHaveLength(2_500);
  });

  it('never splits a surrogate pair', () => {
    const text = '🙂'.repeat(1_000);
    for (const part of splitIntoParts(text, estimateTokens, 33)) expect(part.text).toMatch(/^(🙂)+$/u);
  });

  it('joins an exchange as question then answer', () => {
    expect(exchangeText('q', 'a')).toBe('q\n\na');
    expect(exchangeText('q', null)).toBe('q');
    expect(exchangeText(null, 'a')).toBe('a');
  });
});

import { describe, expect, it } from 'vitest';
import { cutToCharacterBound, cutToTokens, withPurpose } from '../../../src/engine/embedding-input.ts';
import { refusedLength, shorterFor } from '../../../src/engine/backends/wllama-embed.ts';

/** A stand-in tokenizer: one token per Han character or word, plus two specials. */
const count = (text: string): number => 2 + (text.match(/\p{Script=Han}|[\p{L}\p{N}]+/gu)?.length ?? 0);

describe('what an embedding model is given', () => {
  it('a query gets the query prefix, a document the document prefix, and none is added where the model has none', () => {
    const e5 = { queryPrefix: 'query: ', documentPrefix: 'passage: ' };
    expect(withPurpose('where is it', 'query', e5)).toBe('query: where is it');
    expect(withPurpose('it is here', 'document', e5)).toBe('passage: it is here');
    expect(withPurpose('it is here', 'document', { queryPrefix: 'Represent: ' })).toBe('it is here');
  });

  it('cuts to the longest start within the token limit, between code points, and leaves a text that fits alone', () => {
    expect(cutToTokens('short text', 512, count)).toBe('short text');
    const long = '记忆'.repeat(600);
    const cut = cutToTokens(long, 512, count);
    expect(count(cut)).toBe(512);
    expect(long.startsWith(cut)).toBe(true);
    // An astral character is never split in half.
    const astral = '𝄞'.repeat(100);
    const cutAstral = cutToTokens(astral, 10, (t) => Array.from(t).length);
    expect(cutAstral).toBe('𝄞'.repeat(10));
  });

  it('without a tokenizer, a character bound that cannot exceed the window', () => {
    const cut = cutToCharacterBound('字'.repeat(2_000), 512);
    expect(Array.from(cut)).toHaveLength(510);
    expect(count(cut)).toBeLessThanOrEqual(512);
    expect(cutToCharacterBound('short', 512)).toBe('short');
  });
});

describe("llama.cpp's refusal of a long input (wllama 3.13; messages pinned in test/browser/engine-embedding-model.test.ts)", () => {
  it('is recognised with the token count it names, and the text is cut in proportion', () => {
    const refused = refusedLength(new Error('input (3340 tokens) is too large to process. increase the physical batch size (current batch size: 512)'));
    expect(refused).toEqual({ tokens: 3340 });
    const text = 'a'.repeat(10_000);
    const shorter = shorterFor(text, refused!.tokens, 512);
    expect(shorter.length).toBeLessThan((10_000 * 512) / 3340);
    expect(shorter.length).toBeGreaterThan((10_000 * 512) / 3340 * 0.9);
    expect(refusedLength(new Error('input (600 tokens) is larger than the max context size (512 tokens). skipping'))).toEqual({ tokens: 600 });
  });

  it('other failures are not taken for one, and a refusal without a count halves the text', () => {
    expect(refusedLength(new Error('Model failed to start inference'))).toBeNull();
    expect(shorterFor('abcdefgh', null, 512)).toBe('abcd');
  });
});

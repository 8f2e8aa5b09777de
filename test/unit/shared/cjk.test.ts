/**
 * One definition of CJK text (src/shared/cjk.ts) for retrieval, the embedder and working memory: the three copies
 * it replaces disagreed on Hangul jamo, the kana extension and Han extension B, so such a word was one Latin-like
 * word to the index, n-grams to the embedder, and not CJK at all to the working-memory rules.
 */
import { describe, expect, it } from 'vitest';
import { hasCjk, isCjkCodePoint } from '../../../src/shared/cjk.ts';
import { terms } from '../../../src/memory/retrieval/text-terms.ts';

const cp = (ch: string): number => ch.codePointAt(0)!;

describe('CJK text', () => {
  it('covers Han with its extensions, kana with its extension, and Hangul syllables and jamo; nothing Latin', () => {
    for (const ch of ['中', '㐀', '𠀀', '豈', 'か', 'カ', 'ㇰ', '한', 'ᄀ', 'ㄱ']) expect(isCjkCodePoint(cp(ch)), ch).toBe(true);
    for (const ch of ['a', 'Z', '7', 'é', 'ß', 'Ж', '。', '，', ' ']) expect(isCjkCodePoint(cp(ch)), ch).toBe(false);
  });

  it('finds a CJK character anywhere in a text', () => {
    expect(hasCjk('deploy to 𠀀 region')).toBe(true);
    expect(hasCjk('port 8443, café')).toBe(false);
  });

  it('retrieval splits Hangul jamo and the kana extension as CJK (bigrams), as the embedder always did', () => {
    expect(terms('the ᄀᄁᄂ shrine')).toEqual(['~ᄀᄁ', '~ᄁᄂ', 'shrin']);
    expect(terms('ㇰㇱㇲ tour')).toEqual(['~ㇰㇱ', '~ㇱㇲ', 'tour']);
  });
});

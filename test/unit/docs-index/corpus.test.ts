import { beforeAll, describe, expect, it } from 'vitest';
import { SECTIONS_PER_PAGE, corpusPage } from '../../../scripts/index-docs/generate-corpus.ts';
import { loadNodeQwenCounter } from '../../../scripts/prepare-tokenizer.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { chunkDoc } from '../../../src/docs-index/page.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await loadNodeQwenCounter();
});

describe('the generated benchmark corpus', () => {
  it('is deterministic and splits into exactly ten chunks per page, English and Chinese', () => {
    expect(corpusPage(1, 7)).toEqual(corpusPage(1, 7));
    expect(corpusPage(1, 7).text).not.toBe(corpusPage(2, 7).text);
    for (const page of [0, 3, 4, 9, 123]) {
      const { path, text } = corpusPage(1, page);
      const { chunks } = chunkDoc(path, text, counter);
      expect(chunks).toHaveLength(SECTIONS_PER_PAGE);
      for (const c of chunks) expect(c.tokens).toBeLessThanOrEqual(400);
    }
    expect(corpusPage(1, 4).text).toMatch(/[\u4e00-\u9fff]/);
  });
});

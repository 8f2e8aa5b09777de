/**
 * Fuzzing the docs splitter (`chunkDoc`: front matter, Markdown or HTML, split into chunks), which both `index-docs`
 * and the app's docs import run: a mutated page is either split into well-formed chunks or refused with a
 * `DocSkipError` (an `invalid_input` AssistantError with a reason), within 2 s. A fast stand-in counts tokens here
 * (the real tokenizer is linear but slow on 100 KB words); index-docs.test.ts runs the real one on smaller pages.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkDoc } from '../../../src/docs-index/page.ts';
import { DocSkipError } from '../../../src/docs-index/skip.ts';
import { PART_MAX_TOKENS, type TokenCount } from '../../../src/memory/store/chunking.ts';
import { DOCS } from '../../fixtures/fuzz/docs-folder.ts';
import { described, mutatedPage } from '../../fixtures/fuzz/text-mutations.ts';
import { outcome, fuzzRuns, within } from '../../fixtures/fuzz/time-bound.ts';

/** About a token per word or symbol, and one per 4 characters of a long word: deterministic and linear. */
const counter: TokenCount = {
  count: (text) => {
    let tokens = 0;
    for (const m of text.matchAll(/\p{L}+|\p{N}+|[^\s\p{L}\p{N}]/gu)) tokens += Math.ceil(m[0].length / 4);
    return tokens;
  },
};

const page = fc.constantFrom(...Object.keys(DOCS)).chain((path) => mutatedPage(DOCS[path]!).map((text) => described({ path, text }, text)));

describe('chunkDoc under mutated Markdown and HTML', () => {
  it('splits into bounded chunks with exact counts, or skips the page with a coded reason', async () => {
    await fc.assert(
      fc.asyncProperty(page, async ({ path, text }) => {
        const result = await outcome(2_000, `chunkDoc(${path})`, () => chunkDoc(path, text, counter));
        if (!result.ok) {
          expect(result.error).toBeInstanceOf(DocSkipError);
          expect((result.error as DocSkipError).code).toBe('invalid_input');
          return;
        }
        expect(typeof result.value.title).toBe('string');
        expect(result.value.chunks.length).toBeGreaterThan(0);
        for (const c of result.value.chunks) {
          expect(c.text).not.toBe('');
          expect(c.tokens).toBe(counter.count(c.text));
          // Over the limit only when one unbreakable piece is (a single over-long "word").
          if (c.tokens > PART_MAX_TOKENS) expect(c.text.length).toBeGreaterThan(PART_MAX_TOKENS);
        }
      }),
      fuzzRuns(120, 60_000),
    );
  }, 60_000);

  // The counterexample this property found (seed 265217538): a long run of blanks in a paragraph, a quote, a link or
  // emphasis. Trimming blanks before each line break was quadratic in the run (64,000 blanks: 1.8 s; 200,000: about
  // 18 s); now it is linear (milliseconds). The bound is the hang detector's, far above either.
  it('splits a page with a 200,000-blank run in a paragraph, a quote and a link without hanging', async () => {
    const run = ' '.repeat(200_000);
    for (const text of [`---\ntitle: Blanks\n---\nword${run}`, `> quoted${run}`, `[link${run}](x.html)`, `word${'\t'.repeat(200_000)}end`]) {
      const { chunks } = await within(5_000, 'chunkDoc(blanks.md)', () => chunkDoc('guide/blanks.md', text, counter));
      expect(chunks.length).toBeGreaterThan(0);
    }
  }, 60_000);
});

/**
 * The start of a long paste that the pipeline works on (issue 15): found a slice at a time, it must hold exactly
 * the text's first tokens, so the message is cut the same as if the whole text had been tokenized.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/context/config.ts';
import { promptHead, promptHeadSliced } from '../../../src/context/head.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { cutToFit } from '../../../src/context/truncate.ts';
import { mixedProse } from '../../fixtures/mixed-prose.ts';
import { realCounter } from './helpers.ts';

const TEXT = mixedProse(60_000, 3);

describe('promptHeadSliced', () => {
  let counter: CachedTokenCounter;
  let all: number[];
  beforeAll(async () => {
    counter = await realCounter();
    all = counter.encode(TEXT);
  });

  it.each([256, 2_048])('keeps exactly the first tokens of the text for a %i-token window', async (window) => {
    const head = await promptHeadSliced(TEXT, window, counter, async () => {});
    expect(TEXT.startsWith(head)).toBe(true);
    expect(head.length).toBeLessThan(TEXT.length);
    expect(counter.encode(head).slice(0, window + 64)).toEqual(all.slice(0, window + 64));
    // Tighter than the cheap bound, which takes a run of Chinese characters for one token.
    expect(head.length).toBeLessThan(promptHead(TEXT, window, counter).length);
    // (Whether it pauses depends on the clock: the counter's memo may make the whole count one short slice.)
  });

  it('gives the same cut as the whole text', async () => {
    const config = resolveConfig({});
    const head = await promptHeadSliced(TEXT, 1_024, counter, async () => {});
    const fromHead = cutToFit({ role: 'user', content: head }, 1_024, counter, config);
    const fromAll = cutToFit({ role: 'user', content: TEXT }, 1_024, counter, config);
    expect(fromHead?.message).toEqual(fromAll?.message);
    expect(fromHead?.keptTokens).toBe(fromAll?.keptTokens);
  });

  it('leaves a short text whole', async () => {
    expect(await promptHeadSliced('A short question?', 1_024, counter, async () => {})).toBe('A short question?');
  });
});

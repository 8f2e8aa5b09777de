import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/context/config.ts';
import type { SelectionUnit } from '../../../src/context/select.ts';
import { cutToFit, fillUnits, graphemeBoundary } from '../../../src/context/truncate.ts';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { fakeCounter } from './helpers.ts';

const config = resolveConfig({ truncationMarker: '…[cut]', minCutTokens: 4 });
const bytes = (s: string): number => new TextEncoder().encode(s).length;

describe('cutToFit (one UTF-8 byte per token, so cuts can fall inside characters)', () => {
  it('returns the message unchanged when it fits', () => {
    const counter = fakeCounter();
    const m: ChatMessage = { role: 'user', content: 'short' };
    expect(cutToFit(m, 100, counter, config)).toEqual({ message: m, originalTokens: 13, keptTokens: 13 });
  });

  it('never splits a character and never exceeds the limit', () => {
    const counter = fakeCounter();
    const content = '汉字😀👨‍👩‍👧é'.repeat(40);
    for (let max = 30; max < 200; max += 7) {
      const cut = cutToFit({ role: 'user', content }, max, counter, config)!;
      expect(cut.keptTokens).toBeLessThanOrEqual(max);
      expect(cut.keptTokens).toBe(counter.count(`user\n${cut.message.content}`) + 3);
      const kept = cut.message.content.slice(0, -config.truncationMarker.length);
      expect(cut.message.content.endsWith(config.truncationMarker)).toBe(true);
      expect(content.startsWith(kept)).toBe(true);
      expect(kept).not.toContain('\uFFFD');
      // Ends on a grapheme boundary: no half family emoji.
      expect(graphemeBoundary(content, kept.length)).toBe(kept.length);
    }
  });

  it('prefers a sentence end within the search window, and ignores dots inside numbers', () => {
    const counter = fakeCounter();
    const content = 'Start here. ' + 'x'.repeat(20) + ' pi is 3.14159 and then some more words go on here';
    const max = 3 + bytes('assistant\n') + bytes(config.truncationMarker) + 48;
    const wide = resolveConfig({ ...config, sentenceSearchRatio: 1 });
    expect(cutToFit({ role: 'assistant', content }, max, counter, wide)!.message.content).toBe(`Start here.${config.truncationMarker}`);
    // With the default window (last 30 %) there is no sentence end near the cut: it cuts mid-sentence, at the limit.
    const narrow = cutToFit({ role: 'assistant', content }, max, counter, config)!;
    expect(narrow.message.content).toBe(`${content.slice(0, 48).trimEnd()}${config.truncationMarker}`);
    expect(narrow.keptTokens).toBeLessThanOrEqual(max);
  });

  it('gives up (null) when not even minCutTokens fit', () => {
    expect(cutToFit({ role: 'user', content: 'y'.repeat(100) }, 18, fakeCounter(), config)).toBeNull();
  });
});

describe('fillUnits', () => {
  const history: ChatMessage[] = [
    { role: 'user', content: 'a'.repeat(20) }, // 28 tokens as a message (3 + "user\n" 5 + 20)
    { role: 'assistant', content: 'b'.repeat(90) }, // 103
    { role: 'user', content: 'c'.repeat(10) }, // 18
    { role: 'assistant', content: 'd'.repeat(10) }, // 23
  ];
  const unit = (kind: SelectionUnit['kind'], ...indices: number[]): SelectionUnit => ({
    kind,
    picks: indices.map((index) => ({ index, reason: kind === 'code' ? 'code-block' : 'recent' })),
  });

  it('adds whole units by priority and lets a smaller one in after a big one fails', () => {
    const r = fillUnits([unit('recent', 2, 3), unit('code', 1), unit('recent', 0)], (i) => history[i]!, 80, fakeCounter(), config);
    expect([...r.included.keys()]).toEqual([2, 3, 0]);
    expect(r.used).toBe(18 + 23 + 28);
    expect(r.shortfalls.get(1)).toMatchObject({ reason: 'oversize' });
  });

  it('marks a turn over-budget when it alone would fit the room but not what is left', () => {
    const r = fillUnits([unit('recent', 2, 3), unit('code', 1)], (i) => history[i]!, 120, fakeCounter(), config);
    expect(r.shortfalls.get(1)).toMatchObject({ reason: 'over-budget' });
  });

  it('cuts the one oversize turn of the first unit to the room left', () => {
    const r = fillUnits([unit('recent', 0, 1), unit('recent', 2, 3)], (i) => history[i]!, 80, fakeCounter(), config);
    expect(r.cuts.get(1)!.keptTokens).toBeLessThanOrEqual(80 - 28);
    expect([...r.included.keys()]).toEqual([0, 1]);
    expect(r.used).toBeLessThanOrEqual(80);
    expect(r.shortfalls.get(2)).toMatchObject({ reason: 'over-budget' });
  });
});

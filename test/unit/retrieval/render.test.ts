import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chineseDay, dayOf, englishDay } from '../../../src/memory/retrieval/render.ts';

const DAY = 86_400_000;

/** What `dayOf` answered before it remembered days: Date's own ISO day. */
function reference(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** The answer or the error's kind, so that both paths can be compared on anything. */
function outcome(f: () => string): string {
  try {
    return f();
  } catch (e) {
    return `throws ${(e as Error).name}`;
  }
}

describe('dayOf', () => {
  it("names the day Date names, either side of a day's edges and of 1970", () => {
    const edges = [0, -0, 1, -1, DAY - 1, DAY, -DAY, -DAY + 1, -DAY - 1, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2024, 2, 1), Date.UTC(1969, 11, 31, 12)];
    for (const ms of edges) {
      for (const offset of [0, -0, 1, -1, 330, -300, 840, -720]) {
        // Twice: the first call names the day, the second reads it back.
        expect(dayOf(ms, offset)).toBe(reference(ms, offset));
        expect(dayOf(ms, offset)).toBe(reference(ms, offset));
      }
    }
  });

  it('leaves fractions and the ends of Date’s range to Date, errors included', () => {
    const odd = [0.5, -0.5, -DAY - 0.5, DAY - 0.25, 8.64e15, -8.64e15, 8.64e15 - 1, -8.64e15 + 1, 8.64e15 + 1, -8.64e15 - 1, 2 ** 53, NaN, Infinity, -Infinity];
    for (const ms of odd) {
      for (const offset of [0, 1, -1, 0.5]) expect(outcome(() => dayOf(ms, offset))).toBe(outcome(() => reference(ms, offset)));
    }
  });

  it('agrees with Date on any time', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.7e15, max: 8.7e15 }), fc.integer({ min: -1440, max: 1440 }), (ms, offset) => {
        expect(outcome(() => dayOf(ms, offset))).toBe(outcome(() => reference(ms, offset)));
        expect(outcome(() => dayOf(ms, offset))).toBe(outcome(() => reference(ms, offset)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('day names', () => {
  it('name a day with its year or without, again the same', () => {
    for (let k = 0; k < 2; k++) {
      expect(englishDay('2023-05-08')).toBe('8 May 2023');
      expect(englishDay('2023-05-08', false)).toBe('8 May');
      expect(chineseDay('2023-05-08')).toBe('2023年5月8日');
      expect(chineseDay('2023-05-08', false)).toBe('5月8日');
    }
  });
});

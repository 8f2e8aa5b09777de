import { describe, expect, it } from 'vitest';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { splitPieces } from '../../../src/memory/retrieval/pieces.ts';
import { lineParts, lineText, lineTokens, lineTokensAtLeast, pieceIndex, textTokens, textTokensAtLeast, type TokenCount } from '../../../src/memory/retrieval/line-text.ts';
import type { Piece } from '../../../src/memory/retrieval/pieces.ts';
import type { DocEntry } from '../../../src/memory/retrieval/records.ts';

const labels = LABELS.en;
const speakerOf = (): string => 'User';

/** Counts words; its floor is a third of them, so a floor and a count of the same line always differ. */
function wordCounter(): TokenCount & { counted: number; floored: number } {
  return {
    counted: 0,
    floored: 0,
    count(text: string) {
      this.counted += 1;
      return text.split(' ').length;
    },
    atLeast(text: string) {
      this.floored += 1;
      return Math.floor(text.split(' ').length / 3);
    },
  };
}

/** A doc chunk of `n` pieces, the i-th of i + 2 words. */
function docItem(n: number): { doc: DocEntry; text: string; pieces: Piece[] } {
  const pieces: Piece[] = [];
  let text = '';
  for (let i = 0; i < n; i++) {
    if (i > 0) text += ' ';
    const piece = `${'word '.repeat(i + 1)}end${i}.`;
    pieces.push({ text: piece, start: text.length, end: text.length + piece.length });
    text += piece;
  }
  const doc: DocEntry = { id: `doc-${n}`, docId: 'd', source: 'guide.md', part: 0, text };
  return { doc, text, pieces };
}

describe('line text', () => {
  it('answers a floor until the count is known, then the count, for every line form', () => {
    const item = docItem(9);
    expect(item.pieces.length).toBe(9);
    const counter = wordCounter();
    const forms: Array<number[] | 'all'> = ['all', ...item.pieces.map((_, i) => [i])];
    for (const form of forms) {
      const words = lineText(item, form, labels, speakerOf).split(' ').length;
      expect(lineTokensAtLeast(item, form, labels, speakerOf, counter)).toBe(Math.floor(words / 3));
      expect(lineTokens(item, form, labels, speakerOf, counter)).toBe(words);
      expect(lineTokensAtLeast(item, form, labels, speakerOf, counter)).toBe(words);
    }
    // Each line was floored and counted once.
    expect(counter.floored).toBe(forms.length);
    expect(counter.counted).toBe(forms.length);
    // Another counter starts the counts over.
    const other = wordCounter();
    expect(lineTokensAtLeast(item, [7], labels, speakerOf, other)).toBe(Math.floor(lineText(item, [7], labels, speakerOf).split(' ').length / 3));
    expect(textTokensAtLeast(item, -1, labels, speakerOf, other)).toBe(Math.floor(item.text.split(' ').length / 3));
    expect(textTokens(item, -1, labels, speakerOf, other)).toBe(item.text.split(' ').length);
    expect(textTokensAtLeast(item, -1, labels, speakerOf, other)).toBe(item.text.split(' ').length);
  });

  it('shows a best piece in range (else the first), and bounds the whole line and a piece line alike', () => {
    const item = docItem(8);
    const counter = wordCounter();
    const floor = (form: number[] | 'all'): number => Math.floor(lineText(item, form, labels, speakerOf).split(' ').length / 3);
    for (const best of [-1, 0, 3, 6, 7, 8, 42]) {
      const piece = pieceIndex(best, item.pieces.length);
      expect(piece).toBe(best >= 0 && best < 8 ? best : 0);
      expect(lineTokensAtLeast(item, [piece], labels, speakerOf, counter)).toBe(floor([piece]));
    }
    expect(lineTokensAtLeast(item, 'all', labels, speakerOf, counter)).toBe(floor('all'));
  });

  it('shows adjacent pieces as one verbatim run, and marks only real gaps', () => {
    const text = 'First line of the plan.\nSecond line follows it. Third one ends right here. Fourth one stands well apart.';
    const item = { text, pieces: splitPieces(text) };
    expect(item.pieces.length).toBe(4);
    expect(lineParts(item, [0, 1])).toEqual(['First line of the plan.\nSecond line follows it.']);
    expect(lineParts(item, [0, 1, 3])).toEqual(['First line of the plan.\nSecond line follows it.', 'Fourth one stands well apart.']);
    expect(lineParts(item, 'all')).toEqual([text]);
  });

  it('keeps a record\'s lines in its index\'s table by slot when it has one: counted once, and started over for another text in that slot', () => {
    const item = docItem(5);
    const table: unknown[] = [];
    const inTable = { ...item, lineTable: table, lineSlot: 3 };
    const counter = wordCounter();
    const want = lineText(item, [2], labels, speakerOf).split(' ').length;
    expect(lineTokens(inTable, [2], labels, speakerOf, counter)).toBe(want);
    expect(lineTokens({ ...inTable, doc: { ...item.doc } }, [2], labels, speakerOf, counter)).toBe(want); // the same slot, a new record object
    expect(counter.counted).toBe(1);
    expect(table[3]).toBeDefined();
    expect(table.length).toBe(4);
    // Another text in the slot (a table handed a new record there) is counted for itself.
    const other = docItem(6);
    expect(lineTokens({ ...other, lineTable: table, lineSlot: 3 }, [5], labels, speakerOf, counter)).toBe(lineText(other, [5], labels, speakerOf).split(' ').length);
    expect(counter.counted).toBe(2);
  });
});

/**
 * Sub-chunks of a turn: its sentences, as exact slices of the text (joined in order they give the turn back).
 * Retrieval can then inject the one sentence that matters instead of a whole turn, and a long turn (a pasted
 * log) is recalled by its parts. Too-short sentences ("Wow!", "好的。") are merged into a neighbour so that every
 * piece says something on its own; too-long ones are cut at clause marks, then at a character budget.
 * Pure, no DOM.
 */

export interface Piece {
  readonly text: string;
  /** UTF-16 offsets into the turn's text. */
  readonly start: number;
  readonly end: number;
}

/** A sentence ends after one of these (`.` only before whitespace, so 3.5 and example.com stay whole). */
const SENTENCE_END = /[。！？!?；;…]+["'”’」』)）]*\s*|\.+["'”’)]*\s+|\n+/g;
const CLAUSE_END = /[，,、：:]\s*/g;

/** A markdown table row, trimmed: `| a | b |` (as pack-forms.ts reads tables). */
const TABLE_ROW = /^\|.*\|$/;

/** A code fence line (``` or ~~~, a language after an opening one). */
const FENCE_LINE = /^\s*(?:`{3,}|~{3,})/;

/** Latin words + CJK characters / 2: a rough "how much does it say" measure. */
export function contentSize(text: string): number {
  let size = 0;
  let inWord = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x2e80 && !(cp >= 0xff00 && cp <= 0xffef)) {
      size += 0.5;
      inWord = false;
    } else if (/[\p{L}\p{N}]/u.test(ch)) {
      if (!inWord) size += 1;
      inWord = true;
    } else inWord = false;
  }
  return size;
}

/** A piece worth injecting alone: four words, or eight CJK characters. */
export const MIN_PIECE_SIZE = 4;
/** Longer sentences are cut (≈ 60–90 tokens), so one sentence of a paste never eats the budget. */
export const MAX_PIECE_CHARS = 320;

function boundaries(text: string, pattern: RegExp, from: number, to: number): number[] {
  const cuts: number[] = [];
  pattern.lastIndex = 0;
  const slice = text.slice(from, to);
  for (const m of slice.matchAll(pattern)) {
    const end = from + m.index + m[0].length;
    if (end > from && end < to) cuts.push(end);
  }
  return cuts;
}

/** Cuts [start, end) into spans of at most MAX_PIECE_CHARS, at clause marks where possible. */
function cutLong(text: string, start: number, end: number): Array<[number, number]> {
  if (end - start <= MAX_PIECE_CHARS) return [[start, end]];
  const out: Array<[number, number]> = [];
  const clauses = [...boundaries(text, CLAUSE_END, start, end), end];
  let from = start;
  let last = start;
  for (const cut of clauses) {
    if (cut - from > MAX_PIECE_CHARS && last > from) {
      out.push([from, last]);
      from = last;
    }
    while (cut - from > MAX_PIECE_CHARS) {
      let at = from + MAX_PIECE_CHARS;
      // Never split a surrogate pair.
      if (/[\uD800-\uDBFF]/.test(text[at - 1]!)) at -= 1;
      out.push([from, at]);
      from = at;
    }
    last = cut;
  }
  if (from < end) out.push([from, end]);
  return out;
}

/**
 * The pieces of a turn's text. A text that is one piece anyway gives one piece covering it; empty text none.
 */
export function splitPieces(text: string): Piece[] {
  if (text.trim() === '') return [];
  const spans: Array<[number, number]> = [];
  let from = 0;
  for (const cut of [...boundaries(text, SENTENCE_END, 0, text.length), text.length]) {
    spans.push(...cutLong(text, from, cut));
    from = cut;
  }
  // Merge short spans forward (a short last one backward), within the length cap. A code fence stays with its block:
  // a closing fence joins the code before it (not the prose after), and nothing before an opening fence joins it.
  // A markdown table's rows join each other, never the prose after the table: its short last row goes back to the
  // rows before it (shown, a run of rows gets the table's header back: pack-forms.ts `showRun`).
  const merged: Array<[number, number]> = [];
  /** Whether each merged span ends on a table row. */
  const endsInRow: boolean[] = [];
  /** Whether the last merged span ends on a closing fence: nothing after it joins it. */
  let closed = false;
  let inFence = false;
  const short = (span: readonly [number, number]): boolean => contentSize(text.slice(span[0], span[1])) < MIN_PIECE_SIZE;
  for (const span of spans) {
    const fence = FENCE_LINE.test(text.slice(span[0], span[1]));
    const opens = fence && !inFence;
    if (fence) inFence = !inFence;
    const row = !fence && !inFence && TABLE_ROW.test(text.slice(span[0], span[1]).trim());
    const prev = merged[merged.length - 1];
    if (fence && !opens && prev !== undefined) {
      prev[1] = span[1];
      endsInRow[endsInRow.length - 1] = false;
      closed = true;
      continue;
    }
    if (prev !== undefined && endsInRow[endsInRow.length - 1] === true && !row) {
      const before = merged[merged.length - 2];
      if (before !== undefined && endsInRow[endsInRow.length - 2] === true && short(prev) && prev[1] - before[0] <= MAX_PIECE_CHARS) {
        before[1] = prev[1];
        merged.pop();
        endsInRow.pop();
      }
      merged.push([span[0], span[1]]);
      endsInRow.push(false);
      closed = false;
      continue;
    }
    if (prev !== undefined && !closed && !opens && short(prev) && span[1] - prev[0] <= MAX_PIECE_CHARS) {
      prev[1] = span[1];
      endsInRow[endsInRow.length - 1] = row;
    } else {
      merged.push([span[0], span[1]]);
      endsInRow.push(row);
    }
    closed = false;
  }
  if (merged.length > 1) {
    const last = merged[merged.length - 1]!;
    const prev = merged[merged.length - 2]!;
    const leavesTable = endsInRow[endsInRow.length - 2] === true && endsInRow[endsInRow.length - 1] !== true;
    if (!leavesTable && short(last) && last[1] - prev[0] <= MAX_PIECE_CHARS) {
      prev[1] = last[1];
      merged.pop();
    }
  }
  return merged
    .map(([start, end]) => ({ start, end, text: text.slice(start, end).trim() }))
    .filter((p) => p.text !== '')
    .map((p) => {
      // Offsets of the trimmed text, so `text` is exactly turn.slice(start, end).
      const lead = text.slice(p.start, p.end).indexOf(p.text);
      return { text: p.text, start: p.start + lead, end: p.start + lead + p.text.length };
    });
}

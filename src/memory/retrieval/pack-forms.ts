/**
 * The forms a packed chunk can take, as sets of its pieces (sentences): whole, a passage (its best sentence with
 * the sentences around it, up to a size), or its best sentence alone. Code is never cut: a fenced block or an
 * inline code span that a chosen sentence touches comes in whole with it, so no "| wc -l`" or lone "```bash"
 * line reaches the model. Pure, no DOM.
 */
import type { Piece } from './pieces.ts';

/** Fenced blocks (``` or ~~~, an unclosed one running to the end) and inline code spans, as [start, end) offsets. */
export function codeSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (!text.includes('`') && !text.includes('~~~')) return spans;
  const fence = /^[ \t]*(```|~~~)[^\n]*$/gm;
  let open: { at: number; mark: string } | null = null;
  for (const m of text.matchAll(fence)) {
    if (open === null) open = { at: m.index, mark: m[1]! };
    else if (m[1] === open.mark) {
      spans.push([open.at, m.index + m[0].length]);
      open = null;
    }
  }
  if (open !== null) spans.push([open.at, text.length]);
  const inFence = (at: number): boolean => spans.some(([s, e]) => at >= s && at < e);
  for (const m of text.matchAll(/`[^`\n]+`/g)) if (!inFence(m.index)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/**
 * `chosen` (piece indexes) grown until no code span is cut: every piece overlapping a span that a chosen piece
 * overlaps joins, and again for the spans those touch. Ascending, no duplicates.
 */
export function closeOverCode(pieces: readonly Piece[], chosen: readonly number[], spans: ReadonlyArray<readonly [number, number]>): number[] {
  const set = new Set(chosen);
  if (spans.length === 0) return [...set].sort((a, b) => a - b);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [s, e] of spans) {
      const touched = [...set].some((i) => pieces[i]!.start < e && pieces[i]!.end > s);
      if (!touched) continue;
      pieces.forEach((p, i) => {
        if (!set.has(i) && p.start < e && p.end > s) {
          set.add(i);
          grew = true;
        }
      });
    }
  }
  return [...set].sort((a, b) => a - b);
}

/**
 * A passage around piece `best`: it, then its neighbours (the one after first: an answer follows its lead-in)
 * while `fits` accepts the grown set; code is closed over at every step. null when even the best piece (with the
 * code it touches) does not fit.
 */
export function passage(pieces: readonly Piece[], best: number, spans: ReadonlyArray<readonly [number, number]>, fits: (set: readonly number[]) => boolean): number[] | null {
  let set = closeOverCode(pieces, [best], spans);
  if (!fits(set)) return null;
  for (;;) {
    const lo = set[0]!;
    const hi = set[set.length - 1]!;
    let grown: number[] | null = null;
    for (const next of [hi + 1, lo - 1]) {
      if (next < 0 || next >= pieces.length) continue;
      const trial = closeOverCode(pieces, [...set, next], spans);
      if (fits(trial)) {
        grown = trial;
        break;
      }
    }
    if (grown === null) return set;
    set = grown;
  }
}

/**
 * The forms a packed chunk can take, as sets of its pieces (sentences): whole, a passage (its best sentence with
 * the sentences around it, up to a size), or its best sentence alone. Code is not cut: a fenced block or an
 * inline code span that a chosen sentence touches comes in whole with it, so no "| wc -l`" or lone "```bash"
 * line reaches the model. The one exception is a fenced block too long for any passage (a 40-line function in an
 * assistant's answer): rather than lose the turn, its best lines come as an excerpt of whole lines that is a
 * fenced block of its own, opened with the block's own fence line and closed again, "…" where lines were left
 * out (`codeExcerpt`, and `showRun` when it is shown). Likewise a passage that starts inside a markdown table is
 * shown under the table's header row, so its cells keep their column names. Pure, no DOM.
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

/** A fenced block: where it starts and ends, its body between the fence lines, and the fence lines themselves. */
export interface FencedBlock {
  readonly start: number;
  readonly end: number;
  /** After the opening fence line and its line break. */
  readonly bodyStart: number;
  /** Where the closing fence line starts (the end of the text for an unclosed block). */
  readonly bodyEnd: number;
  readonly open: string;
  readonly close: string;
}

const FENCE_LINE = /^[ \t]*(```|~~~)[^\n]*$/gm;

/** The fenced blocks of `text` (an unclosed one running to the end). */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  if (!text.includes('```') && !text.includes('~~~')) return blocks;
  let open: { at: number; line: string; mark: string } | null = null;
  for (const m of text.matchAll(FENCE_LINE)) {
    if (open === null) open = { at: m.index, line: m[0], mark: m[1]! };
    else if (m[1] === open.mark) {
      const bodyStart = Math.min(open.at + open.line.length + 1, m.index);
      blocks.push({ start: open.at, end: m.index + m[0].length, bodyStart, bodyEnd: m.index, open: open.line.trim(), close: m[0].trim() });
      open = null;
    }
  }
  if (open !== null) {
    const bodyStart = Math.min(open.at + open.line.length + 1, text.length);
    blocks.push({ start: open.at, end: text.length, bodyStart, bodyEnd: text.length, open: open.line.trim(), close: open.mark });
  }
  return blocks;
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
export function passage(
  pieces: readonly Piece[],
  best: number,
  spans: ReadonlyArray<readonly [number, number]>,
  fits: (set: readonly number[]) => boolean,
  /** Grow on the side that has grown less first (code: the line that names a function may be above the best). */
  balanced = false,
): number[] | null {
  let set = closeOverCode(pieces, [best], spans);
  if (!fits(set)) return null;
  for (;;) {
    const lo = set[0]!;
    const hi = set[set.length - 1]!;
    let grown: number[] | null = null;
    const sides = balanced && best - lo < hi - best ? [lo - 1, hi + 1] : [hi + 1, lo - 1];
    for (const next of sides) {
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

/** Code spans for an excerpt around piece `best`: its fenced block's lines each a span of their own (null: not in one). */
function excerptSpans(text: string, pieces: readonly Piece[], best: number): Array<[number, number]> | null {
  const piece = pieces[best];
  if (piece === undefined) return null;
  const block = fencedBlocks(text).find((b) => piece.start < b.bodyEnd && piece.end > b.bodyStart);
  if (block === undefined) return null;
  const spans = codeSpans(text).filter(([s, e]) => s !== block.start || e !== block.end);
  for (let at = block.bodyStart; at < block.bodyEnd; ) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl < 0 || nl >= block.bodyEnd ? block.bodyEnd : nl + 1;
    spans.push([at, lineEnd]);
    at = lineEnd;
  }
  return spans;
}

/**
 * For a best piece inside a fenced block that no passage can hold whole: a passage in which that block's lines
 * count as code spans of their own (whole lines, never part of one), other code still closed over. null when the
 * best piece is in no fenced block, or even its own lines do not fit.
 */
export function codeExcerpt(text: string, pieces: readonly Piece[], best: number, fits: (set: readonly number[]) => boolean): number[] | null {
  const spans = excerptSpans(text, pieces, best);
  return spans === null ? null : passage(pieces, best, spans, fits, true);
}

/** The best piece's own lines of its fenced block (null: it is in none): the smallest excerpt. */
export function excerptLines(text: string, pieces: readonly Piece[], best: number): number[] | null {
  const spans = excerptSpans(text, pieces, best);
  return spans === null ? null : closeOverCode(pieces, [best], spans);
}

/** A markdown table: its first line (the header), the end of its separator row, and its end. */
export interface TableBlock {
  readonly start: number;
  /** After the separator row and its line break: where the rows start. */
  readonly rowsStart: number;
  readonly end: number;
  /** The header and separator rows, without the final line break. */
  readonly head: string;
}

const TABLE_LINE = /^[ \t]*\|.*\|[ \t]*$/;
const SEPARATOR_ROW = /^[ \t]*\|?(?:[ \t]*:?-{2,}:?[ \t]*\|)+(?:[ \t]*:?-{2,}:?[ \t]*)?$/;

/** The markdown tables of `text` outside fenced blocks: a header row, a separator row, then rows. */
export function tableBlocks(text: string, fences: readonly FencedBlock[] = fencedBlocks(text)): TableBlock[] {
  const tables: TableBlock[] = [];
  if (!text.includes('|')) return tables;
  const lines: Array<{ start: number; end: number; text: string }> = [];
  for (let at = 0; at <= text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    lines.push({ start: at, end, text: text.slice(at, end) });
    if (nl < 0) break;
    at = nl + 1;
  }
  const inFence = (at: number): boolean => fences.some((b) => at >= b.start && at < b.end);
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i]!;
    const sep = lines[i + 1]!;
    if (!TABLE_LINE.test(head.text) || !SEPARATOR_ROW.test(sep.text) || inFence(head.start)) continue;
    let j = i + 2;
    while (j < lines.length && TABLE_LINE.test(lines[j]!.text)) j++;
    const last = lines[j - 1]!;
    tables.push({ start: head.start, rowsStart: Math.min(sep.end + 1, text.length), end: last.end, head: text.slice(head.start, sep.end) });
    i = j - 1;
  }
  return tables;
}

/** Where a turn's fenced blocks and tables are: what `showRun` needs to show a run of it closed. */
export interface RunLayout {
  readonly fences: readonly FencedBlock[];
  readonly tables: readonly TableBlock[];
}

export function runLayout(text: string): RunLayout {
  const fences = fencedBlocks(text);
  return { fences, tables: tableBlocks(text, fences) };
}

/**
 * A run of a turn's text [start, end) as shown: fenced code closed (`fenceRun`), and a run that starts among a
 * table's rows under the table's header and separator rows (one that starts on the separator row starts at the
 * header instead).
 */
export function showRun(text: string, from: number, to: number, layout: RunLayout = runLayout(text)): string {
  if (layout.fences.length === 0 && layout.tables.length === 0) return text.slice(from, to);
  let start = from;
  const table = layout.tables.find((t) => start > t.start && start < t.end);
  if (table !== undefined && start < table.rowsStart) start = table.start;
  const shown = fenceRun(text, start, to, layout.fences);
  return table !== undefined && start >= table.rowsStart ? `${table.head}\n${shown.replace(/^\n+/, '')}` : shown;
}

/**
 * A run of a turn's text [start, end) as shown: a run that begins or ends inside a fenced block without its fence
 * lines gets them back (the block's own opening line, its closing mark), with "…" for the lines left out, so what
 * the model reads is always a closed block.
 */
export function fenceRun(text: string, from: number, to: number, blocks: readonly FencedBlock[] = fencedBlocks(text)): string {
  if (blocks.length === 0) return text.slice(from, to);
  let start = from;
  let end = to;
  // Inside a block, whole lines: a piece may start after a line's indentation or stop before its break.
  for (const b of blocks) {
    // A run that starts on the opening fence line after its indentation (a block inside a list item) starts at it.
    if (start > b.start && start < b.bodyStart) start = b.start;
    if (start > b.bodyStart && start < b.bodyEnd) start = Math.max(b.bodyStart, text.lastIndexOf('\n', start - 1) + 1);
    if (end > b.bodyStart && end < b.bodyEnd && text[end - 1] !== '\n') {
      const nl = text.indexOf('\n', end);
      end = nl < 0 || nl >= b.bodyEnd ? b.bodyEnd : nl + 1;
    }
  }
  let out = text.slice(start, end);
  for (const b of blocks) {
    if (b.end <= start || b.start >= end) continue;
    const opensInside = start > b.start;
    const closesInside = end < b.end;
    if (!opensInside && !closesInside) continue;
    if (closesInside) {
      const cut = end < b.bodyEnd && text.slice(end, b.bodyEnd).trim() !== '';
      out = `${out.replace(/\n+$/, '')}\n${cut ? '…\n' : ''}${b.close}`;
    }
    if (opensInside) {
      const cut = start > b.bodyStart && text.slice(b.bodyStart, start).trim() !== '';
      out = `${b.open}\n${cut ? '…\n' : ''}${out.replace(/^\n+/, '')}`;
    }
  }
  return out;
}

/**
 * The one line a packed chunk takes in the prompt (`Speaker: text`, or `(source) text`), whole or as one of its
 * sentences — the two forms packing measures on every search. The same line comes back as the same string
 * object while the record, its speaker and the labels are unchanged, and its token count is kept next to it:
 * packing weighs hundreds of candidates per search, mostly the same records again. Pure, no DOM.
 */
import { runLayout, showRun } from './pack-forms.ts';
import type { Piece } from './pieces.ts';
import type { DocEntry, TurnEntry } from './records.ts';
import { docLine, recordLine, type RecordLabels } from './render.ts';

export interface LineSource {
  readonly turn?: TurnEntry | undefined;
  readonly doc?: DocEntry | undefined;
  readonly text: string;
  readonly pieces: readonly Piece[];
  /**
   * Where the record's lines are kept, when its index keeps a table of them by slot (`Shard.lineCaches`): packing
   * reads hundreds of candidates per search by slot, and an array read costs less than a weak map's. Without
   * one, a weak map keyed by the record keeps them.
   */
  readonly lineTable?: LineTable;
  readonly lineSlot?: number;
}

/** A table of cached lines by slot; what it holds is this module's own. */
export type LineTable = unknown[];

export interface TokenCount {
  count(text: string): number;
  /** A lower bound on `count(text)` that needs no tokenizing (see `TextTokenizer.atLeast`). */
  atLeast?(text: string): number;
}

/**
 * One record's lines and counts, by slot: the form's index + 1 (slot 0 the whole text, slot i + 1 piece i
 * alone); undefined is a value not known yet. Packing reads an entry for every candidate of every search, mostly
 * only to rule the candidate out by a line's floor, and mostly an entry nothing touched since the last search:
 * the floors of the first slots are fields of the entry itself, so that path reads this one object (an array's
 * elements lie elsewhere in memory, and in the pipeline fetching them cost more than the rest of the look-up).
 */
interface Cached {
  readonly labels: RecordLabels;
  readonly speaker: string;
  readonly text: string;
  /** Counts under `counter`: of the line, and of the bare text or piece. */
  counter: TokenCount | null;
  /** How many pieces the text has: they follow from it, as the piece lines kept here do (no need to read them). */
  readonly pieceCount: number;
  /**
   * What `lineTokensAtLeast` answers for slots 0–5 (the whole, and pieces 0–4: most candidates' best): the count
   * once known, else the counter's floor. `lineLows` holds the slots after.
   */
  low0: number | undefined;
  low1: number | undefined;
  low2: number | undefined;
  low3: number | undefined;
  low4: number | undefined;
  low5: number | undefined;
  lineLows: number[];
  lineTokens: number[];
  /** What `textTokensAtLeast` answers, as `low0`… do for lines. */
  textLows: number[];
  textTokens: number[];
  readonly lines: string[];
}

const cache = new WeakMap<TurnEntry | DocEntry, Cached>();

/**
 * The parts a line shows: the whole text, or the chosen pieces in order — a run of adjacent pieces as one part,
 * the turn's own text from the first to the last (verbatim, its line breaks kept), so only real gaps are marked.
 */
export function lineParts(item: LineSource, pieces: readonly number[] | 'all'): string[] {
  if (pieces === 'all') return [item.text];
  const parts: string[] = [];
  // A run inside a fenced block (an excerpt of a long one) is shown as a closed block of its own, and one among a
  // table's rows under the table's header (pack-forms.ts `showRun`).
  const layout = runLayout(item.text);
  const plain = layout.fences.length === 0 && layout.tables.length === 0;
  for (let i = 0; i < pieces.length; i++) {
    let j = i;
    while (j + 1 < pieces.length && pieces[j + 1] === pieces[j]! + 1) j++;
    const start = item.pieces[pieces[i]!]!.start;
    const end = item.pieces[pieces[j]!]!.end;
    parts.push(!plain ? showRun(item.text, start, end, layout) : j === i ? item.pieces[pieces[i]!]!.text : item.text.slice(start, end));
    i = j;
  }
  return parts;
}

function cachedOf(item: LineSource, labels: RecordLabels, speaker: string): Cached | null {
  const owner = item.turn ?? item.doc;
  if (owner === undefined) return null;
  const table = item.lineSlot === undefined ? undefined : item.lineTable;
  let c = table === undefined ? cache.get(owner) : (table[item.lineSlot!] as Cached | undefined);
  if (c === undefined || c.labels !== labels || c.speaker !== speaker || c.text !== item.text) {
    c = {
      labels,
      speaker,
      text: item.text,
      counter: null,
      pieceCount: item.pieces.length,
      low0: undefined,
      low1: undefined,
      low2: undefined,
      low3: undefined,
      low4: undefined,
      low5: undefined,
      lineLows: [],
      lineTokens: [],
      textLows: [],
      textTokens: [],
      lines: [],
    };
    if (table === undefined) cache.set(owner, c);
    else table[item.lineSlot!] = c;
  }
  return c;
}

/** The line floor (or count) of `slot`, undefined when not known yet. */
function lineLow(c: Cached, slot: number): number | undefined {
  switch (slot) {
    case 0:
      return c.low0;
    case 1:
      return c.low1;
    case 2:
      return c.low2;
    case 3:
      return c.low3;
    case 4:
      return c.low4;
    case 5:
      return c.low5;
    default:
      return c.lineLows[slot];
  }
}

function setLineLow(c: Cached, slot: number, n: number): void {
  switch (slot) {
    case 0:
      c.low0 = n;
      break;
    case 1:
      c.low1 = n;
      break;
    case 2:
      c.low2 = n;
      break;
    case 3:
      c.low3 = n;
      break;
    case 4:
      c.low4 = n;
      break;
    case 5:
      c.low5 = n;
      break;
    default:
      c.lineLows[slot] = n;
  }
}

function speakerOfItem(item: LineSource, speakerOf: (turn: TurnEntry) => string): string {
  const { turn } = item;
  return turn !== undefined ? speakerOf(turn) : (item.doc?.source ?? '');
}

function render(item: LineSource, pieces: readonly number[] | 'all', labels: RecordLabels, speaker: string): string {
  return item.turn !== undefined ? recordLine({ speaker, parts: lineParts(item, pieces) }, labels) : docLine({ source: speaker, parts: lineParts(item, pieces) }, labels);
}

/** The cache's slot for a line form: 0 whole, the piece + 1 for one piece, null for several (not cached). */
function slotOf(pieces: readonly number[] | 'all'): number | null {
  return pieces === 'all' ? 0 : pieces.length === 1 ? pieces[0]! + 1 : null;
}

/** The line in `slot`, rendered once per cache entry. */
function cachedLine(c: Cached, item: LineSource, slot: number): string {
  let line = c.lines[slot];
  if (line === undefined) c.lines[slot] = line = render(item, slot === 0 ? 'all' : [slot - 1], c.labels, c.speaker);
  return line;
}

export function lineText(item: LineSource, pieces: readonly number[] | 'all', labels: RecordLabels, speakerOf: (turn: TurnEntry) => string): string {
  const speaker = speakerOfItem(item, speakerOf);
  const slot = slotOf(pieces);
  const c = slot === null ? null : cachedOf(item, labels, speaker);
  return c === null || slot === null ? render(item, pieces, labels, speaker) : cachedLine(c, item, slot);
}

/** Counts kept for `counter` only: another counter (another tokenizer) starts them over. */
function countsFor(c: Cached, counter: TokenCount): Cached {
  if (c.counter !== counter) {
    c.counter = counter;
    c.low0 = c.low1 = c.low2 = c.low3 = c.low4 = c.low5 = undefined;
    c.lineLows = [];
    c.lineTokens = [];
    c.textLows = [];
    c.textTokens = [];
  }
  return c;
}

/** The piece a one-piece line shows for an item of `count` pieces whose best is `best`: it, or the first. */
export function pieceIndex(best: number, count: number): number {
  return best >= 0 && best < count ? best : 0;
}

// The functions below run hundreds of times per search: no closures, one cache look-up each.

/** Tokens of `lineText(...)`, remembered with the line. */
export function lineTokens(item: LineSource, pieces: readonly number[] | 'all', labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const speaker = speakerOfItem(item, speakerOf);
  const slot = slotOf(pieces);
  const c = slot === null ? null : cachedOf(item, labels, speaker);
  if (c === null || slot === null) return counter.count(render(item, pieces, labels, speaker));
  const counts = countsFor(c, counter);
  let n = counts.lineTokens[slot];
  if (n === undefined) {
    counts.lineTokens[slot] = n = counter.count(cachedLine(c, item, slot));
    setLineLow(counts, slot, n);
  }
  return n;
}

/** `lineTokensAtLeast` of a cached form: the count when it is known, else the floor (remembered). */
function lineAtLeastIn(c: Cached, item: LineSource, slot: number, counter: TokenCount): number {
  let n = lineLow(c, slot);
  if (n === undefined) setLineLow(c, slot, (n = counter.atLeast?.(cachedLine(c, item, slot)) ?? 0));
  return n;
}

/** A lower bound on `lineTokens(...)`: the count when it is known, else the counter's cheap bound (or 0). */
export function lineTokensAtLeast(item: LineSource, pieces: readonly number[] | 'all', labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const speaker = speakerOfItem(item, speakerOf);
  const slot = slotOf(pieces);
  const c = slot === null ? null : cachedOf(item, labels, speaker);
  if (c === null || slot === null) return counter.atLeast?.(render(item, pieces, labels, speaker)) ?? 0;
  return lineAtLeastIn(countsFor(c, counter), item, slot, counter);
}

/** The bare text (slot 0) or one piece. */
function bare(item: LineSource, slot: number): string {
  return slot === 0 ? item.text : item.pieces[slot - 1]!.text;
}

/** Tokens of the bare text (`piece` -1) or of one piece, remembered with the record's lines. */
export function textTokens(item: LineSource, piece: number, labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const slot = piece < 0 ? 0 : piece + 1;
  const c = cachedOf(item, labels, speakerOfItem(item, speakerOf));
  if (c === null) return counter.count(bare(item, slot));
  const counts = countsFor(c, counter);
  let n = counts.textTokens[slot];
  if (n === undefined) counts.textTokens[slot] = counts.textLows[slot] = n = counter.count(bare(item, slot));
  return n;
}

/** A lower bound on `textTokens(...)`: the count when it is known, else the counter's cheap bound (or 0). */
export function textTokensAtLeast(item: LineSource, piece: number, labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const slot = piece < 0 ? 0 : piece + 1;
  const c = cachedOf(item, labels, speakerOfItem(item, speakerOf));
  if (c === null) return counter.atLeast?.(bare(item, slot)) ?? 0;
  const lows = countsFor(c, counter).textLows;
  let n = lows[slot];
  if (n === undefined) lows[slot] = n = counter.atLeast?.(bare(item, slot)) ?? 0;
  return n;
}

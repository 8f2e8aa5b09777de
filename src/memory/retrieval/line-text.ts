/**
 * The one line a packed chunk takes in the prompt (`Speaker: text`, or `(source) text`), whole or as one of its
 * sentences — the two forms packing measures on every search. The same line comes back as the same string
 * object while the record, its speaker and the labels are unchanged, and its token count is kept next to it:
 * packing weighs hundreds of candidates per search, mostly the same records again. Pure, no DOM.
 */
import type { Piece } from './pieces.ts';
import type { DocEntry, TurnEntry } from './records.ts';
import { docLine, recordLine, type RecordLabels } from './render.ts';

export interface LineSource {
  readonly turn?: TurnEntry;
  readonly doc?: DocEntry;
  readonly text: string;
  readonly pieces: readonly Piece[];
}

export interface TokenCount {
  count(text: string): number;
  /** A lower bound on `count(text)` that needs no tokenizing (see `TextTokenizer.atLeast`). */
  atLeast?(text: string): number;
}

/**
 * One record's lines and counts. Values per line form sit in arrays by slot, the form's index + 1 (slot 0 the
 * whole text, slot i + 1 piece i alone); a hole is a value not known yet. Arrays, not maps: packing reads them
 * for every candidate of every search, and one array read is cheaper than a map look-up.
 */
interface Cached {
  readonly labels: RecordLabels;
  readonly speaker: string;
  readonly text: string;
  readonly lines: string[];
  /** Counts under `counter`: of the line, and of the bare text or piece. */
  counter: TokenCount | null;
  readonly lineTokens: number[];
  readonly textTokens: number[];
  /** Lower bounds of counts not known yet. */
  readonly lineFloors: number[];
  readonly textFloors: number[];
}

const cache = new WeakMap<TurnEntry | DocEntry, Cached>();

/** The parts a line shows: the whole text, or the chosen pieces in order. */
export function lineParts(item: LineSource, pieces: readonly number[] | 'all'): string[] {
  return pieces === 'all' ? [item.text] : pieces.map((i) => item.pieces[i]!.text);
}

function cachedOf(item: LineSource, labels: RecordLabels, speaker: string): Cached | null {
  const owner = item.turn ?? item.doc;
  if (owner === undefined) return null;
  let c = cache.get(owner);
  if (c === undefined || c.labels !== labels || c.speaker !== speaker || c.text !== item.text) {
    c = { labels, speaker, text: item.text, lines: [], counter: null, lineTokens: [], textTokens: [], lineFloors: [], textFloors: [] };
    cache.set(owner, c);
  }
  return c;
}

function speakerOfItem(item: LineSource, speakerOf: (turn: TurnEntry) => string): string {
  return item.turn !== undefined ? speakerOf(item.turn) : (item.doc?.source ?? '');
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
    c.lineTokens.length = 0;
    c.textTokens.length = 0;
    c.lineFloors.length = 0;
    c.textFloors.length = 0;
  }
  return c;
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
  if (n === undefined) counts.lineTokens[slot] = n = counter.count(cachedLine(c, item, slot));
  return n;
}

/** `lineTokensAtLeast` of a cached form: the count when it is known, else the floor (remembered). */
function lineAtLeastIn(c: Cached, item: LineSource, slot: number, counter: TokenCount): number {
  let n = c.lineTokens[slot];
  if (n !== undefined) return n;
  n = c.lineFloors[slot];
  if (n === undefined) c.lineFloors[slot] = n = counter.atLeast?.(cachedLine(c, item, slot)) ?? 0;
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

/**
 * A lower bound on the shorter of two lines: the whole, and `piece` alone (-1: the whole only) — the smaller of
 * their `lineTokensAtLeast`, from one cache look-up (packing asks it of every candidate of every search).
 */
export function smallestLineAtLeast(item: LineSource, piece: number, labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const c = cachedOf(item, labels, speakerOfItem(item, speakerOf));
  if (c === null) {
    const whole = lineTokensAtLeast(item, 'all', labels, speakerOf, counter);
    return piece < 0 ? whole : Math.min(whole, lineTokensAtLeast(item, [piece], labels, speakerOf, counter));
  }
  const counts = countsFor(c, counter);
  const whole = lineAtLeastIn(counts, item, 0, counter);
  return piece < 0 ? whole : Math.min(whole, lineAtLeastIn(counts, item, piece + 1, counter));
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
  const counts = countsFor(c, counter).textTokens;
  let n = counts[slot];
  if (n === undefined) counts[slot] = n = counter.count(bare(item, slot));
  return n;
}

/** A lower bound on `textTokens(...)`: the count when it is known, else the counter's cheap bound (or 0). */
export function textTokensAtLeast(item: LineSource, piece: number, labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const slot = piece < 0 ? 0 : piece + 1;
  const c = cachedOf(item, labels, speakerOfItem(item, speakerOf));
  if (c === null) return counter.atLeast?.(bare(item, slot)) ?? 0;
  const counts = countsFor(c, counter);
  let n = counts.textTokens[slot];
  if (n !== undefined) return n;
  n = counts.textFloors[slot];
  if (n === undefined) counts.textFloors[slot] = n = counter.atLeast?.(bare(item, slot)) ?? 0;
  return n;
}

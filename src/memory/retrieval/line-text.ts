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

interface Cached {
  readonly labels: RecordLabels;
  readonly speaker: string;
  readonly text: string;
  /** Index -1: the whole text; otherwise that piece alone. */
  readonly lines: Map<number, string>;
  /** Counts by the same index, under `counter`: of the line, and of the bare text or piece. */
  counter: TokenCount | null;
  readonly lineTokens: Map<number, number>;
  readonly textTokens: Map<number, number>;
  /** Lower bounds of counts not known yet, by the same indexes. */
  readonly lineFloors: Map<number, number>;
  readonly textFloors: Map<number, number>;
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
    c = { labels, speaker, text: item.text, lines: new Map(), counter: null, lineTokens: new Map(), textTokens: new Map(), lineFloors: new Map(), textFloors: new Map() };
    cache.set(owner, c);
  }
  return c;
}

const speakerOfItem = (item: LineSource, speakerOf: (turn: TurnEntry) => string): string =>
  item.turn !== undefined ? speakerOf(item.turn) : (item.doc?.source ?? '');

function render(item: LineSource, pieces: readonly number[] | 'all', labels: RecordLabels, speaker: string): string {
  return item.turn !== undefined ? recordLine({ speaker, parts: lineParts(item, pieces) }, labels) : docLine({ source: speaker, parts: lineParts(item, pieces) }, labels);
}

/** The cache's index for a line form: -1 whole, the piece for one piece, null for several (not cached). */
function formKey(pieces: readonly number[] | 'all'): number | null {
  return pieces === 'all' ? -1 : pieces.length === 1 ? pieces[0]! : null;
}

export function lineText(item: LineSource, pieces: readonly number[] | 'all', labels: RecordLabels, speakerOf: (turn: TurnEntry) => string): string {
  const speaker = speakerOfItem(item, speakerOf);
  const key = formKey(pieces);
  const c = key === null ? null : cachedOf(item, labels, speaker);
  if (c === null || key === null) return render(item, pieces, labels, speaker);
  let line = c.lines.get(key);
  if (line === undefined) c.lines.set(key, (line = render(item, pieces, labels, speaker)));
  return line;
}

/** Counts kept for `counter` only: another counter (another tokenizer) starts them over. */
function countsFor(c: Cached, counter: TokenCount): Cached {
  if (c.counter !== counter) {
    c.counter = counter;
    c.lineTokens.clear();
    c.textTokens.clear();
    c.lineFloors.clear();
    c.textFloors.clear();
  }
  return c;
}

/** The remembered value under `key`, or `compute()` remembered. */
function remembered(map: Map<number, number>, key: number, compute: () => number): number {
  let n = map.get(key);
  if (n === undefined) map.set(key, (n = compute()));
  return n;
}

/** Tokens of `lineText(...)`, remembered with the line. */
export function lineTokens(item: LineSource, pieces: readonly number[] | 'all', labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const count = (): number => counter.count(lineText(item, pieces, labels, speakerOf));
  const key = formKey(pieces);
  const c = key === null ? null : cachedOf(item, labels, speakerOfItem(item, speakerOf));
  return c === null || key === null ? count() : remembered(countsFor(c, counter).lineTokens, key, count);
}

/** A lower bound on `lineTokens(...)`: the count when it is known, else the counter's cheap bound (or 0). */
export function lineTokensAtLeast(item: LineSource, pieces: readonly number[] | 'all', labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const floor = (): number => counter.atLeast?.(lineText(item, pieces, labels, speakerOf)) ?? 0;
  const key = formKey(pieces);
  const c = key === null ? null : cachedOf(item, labels, speakerOfItem(item, speakerOf));
  if (c === null || key === null) return floor();
  const counts = countsFor(c, counter);
  return counts.lineTokens.get(key) ?? remembered(counts.lineFloors, key, floor);
}

/** Tokens of the bare text (`piece` -1) or of one piece, remembered with the record's lines. */
export function textTokens(item: LineSource, piece: number, labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const count = (): number => counter.count(piece < 0 ? item.text : item.pieces[piece]!.text);
  const c = cachedOf(item, labels, speakerOfItem(item, speakerOf));
  return c === null ? count() : remembered(countsFor(c, counter).textTokens, piece, count);
}

/** A lower bound on `textTokens(...)`: the count when it is known, else the counter's cheap bound (or 0). */
export function textTokensAtLeast(item: LineSource, piece: number, labels: RecordLabels, speakerOf: (turn: TurnEntry) => string, counter: TokenCount): number {
  const floor = (): number => counter.atLeast?.(piece < 0 ? item.text : item.pieces[piece]!.text) ?? 0;
  const c = cachedOf(item, labels, speakerOfItem(item, speakerOf));
  if (c === null) return floor();
  const counts = countsFor(c, counter);
  return counts.textTokens.get(piece) ?? remembered(counts.textFloors, piece, floor);
}

/**
 * The one line a packed chunk takes in the prompt (`Speaker: text`, or `(source) text`), whole or as one of its
 * sentences — the two forms packing measures on every search. The same line comes back as the same string
 * object while the record, its speaker and the labels are unchanged, so the token memo finds it by identity
 * instead of hashing a fresh copy each time. Pure, no DOM.
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

interface Cached {
  readonly labels: RecordLabels;
  readonly speaker: string;
  readonly text: string;
  /** Index -1: the whole text; otherwise that piece alone. */
  readonly lines: Map<number, string>;
}

const cache = new WeakMap<TurnEntry | DocEntry, Cached>();

/** The parts a line shows: the whole text, or the chosen pieces in order. */
export function lineParts(item: LineSource, pieces: readonly number[] | 'all'): string[] {
  return pieces === 'all' ? [item.text] : pieces.map((i) => item.pieces[i]!.text);
}

export function lineText(item: LineSource, pieces: readonly number[] | 'all', labels: RecordLabels, speakerOf: (turn: TurnEntry) => string): string {
  const owner = item.turn ?? item.doc;
  const speaker = item.turn !== undefined ? speakerOf(item.turn) : (item.doc?.source ?? '');
  const render = (): string =>
    item.turn !== undefined ? recordLine({ speaker, parts: lineParts(item, pieces) }, labels) : docLine({ source: speaker, parts: lineParts(item, pieces) }, labels);
  if (owner === undefined || (pieces !== 'all' && pieces.length !== 1)) return render();
  let c = cache.get(owner);
  if (c === undefined || c.labels !== labels || c.speaker !== speaker || c.text !== item.text) {
    cache.set(owner, (c = { labels, speaker, text: item.text, lines: new Map() }));
  }
  const key = pieces === 'all' ? -1 : pieces[0]!;
  let line = c.lines.get(key);
  if (line === undefined) c.lines.set(key, (line = render()));
  return line;
}

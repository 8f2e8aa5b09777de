/** A BM25 index's state as flat data (bm25.ts's `exportState` / `fromState`), and its check. Pure, no DOM. */

/**
 * Everything a `Bm25Index` holds, flat (typed arrays and string lists: structured-clone friendly), so that a
 * snapshot restores the same index, slot for slot, without analysing a text again (index-snapshot.ts).
 */
export interface Bm25State {
  k1: number;
  b: number;
  /** By slot (removed ones too): id, scope code, length, liveness; each document's distinct term ids, flat. */
  ids: string[];
  scopeOf: Int32Array;
  length: Float64Array;
  alive: Uint8Array;
  docTermStarts: Int32Array;
  docTerms: Int32Array;
  scopes: string[];
  /** By term id: the term, its postings (flat), its live document frequency. */
  terms: string[];
  postingStarts: Int32Array;
  postingSlots: Int32Array;
  postingTfs: Int32Array;
  df: Int32Array;
}

/**
 * Throws a RangeError unless every array of the state has its length and every reference is in range (duplicate
 * terms are found by `Bm25Index.fromState` as it maps them).
 */
export function checkBm25State(state: Bm25State): void {
  const bad = (what: string): never => {
    throw new RangeError(`damaged BM25 state: ${what}`);
  };
  const slots = state.ids.length;
  const terms = state.terms.length;
  if (!Number.isFinite(state.k1) || !Number.isFinite(state.b)) bad('parameters');
  if (state.scopeOf.length !== slots || state.length.length !== slots || state.alive.length !== slots) bad('slot arrays');
  if (state.docTermStarts.length !== slots + 1 || state.docTermStarts[slots] !== state.docTerms.length) bad('document terms');
  if (state.postingStarts.length !== terms + 1 || state.postingStarts[terms] !== state.postingSlots.length) bad('postings');
  if (state.postingTfs.length !== state.postingSlots.length || state.df.length !== terms) bad('term arrays');
  for (let s = 0; s < slots; s++) {
    if (state.docTermStarts[s]! > state.docTermStarts[s + 1]!) bad('document term order');
    if (state.scopeOf[s]! < 0 || state.scopeOf[s]! >= state.scopes.length) bad('scope code');
  }
  for (let t = 0; t < terms; t++) if (state.postingStarts[t]! > state.postingStarts[t + 1]!) bad('posting order');
  if (!inRange(state.docTerms, terms)) bad('term id');
  if (!inRange(state.postingSlots, slots)) bad('posting slot');
}

/** Whether every value is in [0, end): one tight pass (a restore checks millions of them). */
export function inRange(values: Int32Array | Uint32Array, end: number): boolean {
  let min = 0;
  let max = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min >= 0 && max < end;
}


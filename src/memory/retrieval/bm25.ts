/**
 * An incremental BM25 index (Okapi, k1 = 1.2, b = 0.75) over terms from text-terms.ts. Documents are added as
 * turns arrive and removed when deleted; statistics (df, average length) follow every change, so scores never
 * go stale.
 *
 * Built for speed at 10k+ documents: terms and scopes are interned to integers once, postings are typed arrays
 * (slot, term count), document lengths and scopes live in typed arrays by slot, and a search walks only the
 * postings of the query's terms, accumulating into a dense array that it returns as it is (`Bm25Scores`) — no
 * per-document map, no sort of everything touched. Scores are computed term by term in the query's order with
 * the same arithmetic as the straightforward formula (test/unit/retrieval/bm25.test.ts checks them against a
 * reference scorer). Pure, no DOM.
 */
import { kthLargest, TopK } from '../vector-index/index.ts';
import { Bm25Scores } from './bm25-scores.ts';
import { Postings } from './postings.ts';
import { checkBm25State, type Bm25State } from './bm25-state.ts';

export type { Bm25State };
import { Interner } from '../../shared/interner.ts';

export { Bm25Scores };

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export interface Bm25Hit {
  id: string;
  scope: string;
  score: number;
}

/** A query with its terms resolved to the index's term ids (terms the index lacks are left out). */
export interface CoverageQuery {
  readonly ids: Int32Array;
  readonly weights: Float64Array;
  readonly total: number;
  /** A bit per `id & (COVERAGE_FILTER_BITS - 1)`: most of a document's terms miss it and are never compared. */
  readonly filter: Uint32Array;
  /** Scratch: which query terms the document being measured holds (cleared after each use). */
  readonly held: Uint8Array;
}

/** Bits of a coverage query's filter (a power of two): a query's few dozen terms set a few per cent of them. */
const COVERAGE_FILTER_BITS = 4096;

export interface PreparedQuery {
  readonly ids: Int32Array;
  readonly weights: Float64Array;
}

export class Bm25Index {
  private readonly _k1: number;
  private readonly _b: number;
  /** Per slot: id, scope code, length, liveness, and the document's distinct term ids (to undo them on removal). */
  private readonly _ids: string[] = [];
  private _scopeOf: Int32Array<ArrayBuffer> = new Int32Array(64);
  private _length = new Float64Array(64);
  private _alive = new Uint8Array(64);
  private readonly _docTerms: Array<Int32Array | undefined> = [];
  /** A restored index's document terms, flat (see `_termsOf`). */
  private _savedTerms: { terms: Int32Array; starts: Int32Array; slots: number } | null = null;
  /** Live id → slot; a restored index builds it on first use (`_slots`): a search over a restored index needs none. */
  private _slotMap: Map<string, number> | null = new Map<string, number>();
  private readonly _scopes = new Interner();
  /** Per term id: its postings and its live document frequency. */
  private readonly _termIds = new Map<string, number>();
  private readonly _postings: Postings[] = [];
  private _df: Int32Array<ArrayBuffer> = new Int32Array(64);
  private _live = 0;
  private _totalLength = 0;
  /** Adds and removes so far, and the IDF memo (by term id, 0 = not yet) valid at that count. */
  private _changes = 0;
  private _idfAt = -1;
  private _idfMemo = new Float64Array(0);

  constructor(options: Bm25Options = {}) {
    this._k1 = options.k1 ?? 1.2;
    this._b = options.b ?? 0.75;
  }

  get size(): number {
    return this._live;
  }

  /** Slots ever used (live or not): the length a dense per-slot array needs. */
  get slotCount(): number {
    return this._ids.length;
  }

  /** Scopes ever seen: the length a dense per-scope array needs. */
  get scopeCount(): number {
    return this._scopes.size;
  }

  has(id: string): boolean {
    return this._slots.has(id);
  }

  slotOf(id: string): number | undefined {
    return this._slots.get(id);
  }

  idOf(slot: number): string {
    return this._ids[slot]!;
  }

  scopeCodeOf(slot: number): number {
    return this._scopeOf[slot]!;
  }

  /** The index as flat arrays (copies: the index may change right after). */
  exportState(): Bm25State {
    const slots = this._ids.length;
    const docTermStarts = new Int32Array(slots + 1);
    for (let s = 0; s < slots; s++) docTermStarts[s + 1] = docTermStarts[s]! + this._termsOf(s).length;
    const docTerms = new Int32Array(docTermStarts[slots]!);
    for (let s = 0; s < slots; s++) docTerms.set(this._termsOf(s), docTermStarts[s]!);
    const termCount = this._postings.length;
    const postingStarts = new Int32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) postingStarts[t + 1] = postingStarts[t]! + this._postings[t]!.length;
    const postingSlots = new Int32Array(postingStarts[termCount]!);
    const postingTfs = new Int32Array(postingStarts[termCount]!);
    for (let t = 0; t < termCount; t++) {
      const list = this._postings[t]!;
      postingSlots.set(list.slots.subarray(0, list.length), postingStarts[t]!);
      postingTfs.set(list.tfs.subarray(0, list.length), postingStarts[t]!);
    }
    return {
      k1: this._k1,
      b: this._b,
      ids: [...this._ids],
      scopeOf: this._scopeOf.slice(0, slots),
      length: this._length.slice(0, slots),
      alive: this._alive.slice(0, slots),
      docTermStarts,
      docTerms,
      scopes: this._scopes.names(),
      terms: [...this._termIds.keys()],
      postingStarts,
      postingSlots,
      postingTfs,
      df: this._df.slice(0, termCount),
    };
  }

  /**
   * The index a state describes, using the state's arrays (do not change them afterwards); throws a RangeError for
   * a state that does not hold together (damaged).
   */
  static fromState(state: Bm25State): Bm25Index {
    const index = new Bm25Index({ k1: state.k1, b: state.b });
    checkBm25State(state);
    const slots = state.ids.length;
    index._growDocs(slots);
    index._scopeOf.set(state.scopeOf);
    index._length.set(state.length);
    index._alive.set(state.alive);
    for (const scope of state.scopes) index._scopes.code(scope);
    // Each document's terms stay in the state's flat array until a removal or an export reads them.
    index._savedTerms = { terms: state.docTerms, starts: state.docTermStarts, slots };
    index._docTerms.length = slots;
    index._slotMap = null;
    for (let s = 0; s < slots; s++) {
      index._ids.push(state.ids[s]!);
      if (state.alive[s] === 1) {
        index._live += 1;
        index._totalLength += state.length[s]!;
      }
    }
    const termCount = state.terms.length;
    index._df = new Int32Array(Math.max(64, termCount * 2 + 1));
    index._df.set(state.df);
    for (let t = 0; t < termCount; t++) {
      index._termIds.set(state.terms[t]!, t);
      const from = state.postingStarts[t]!;
      const to = state.postingStarts[t + 1]!;
      // Views of the state's arrays (the state is the index's from now on).
      index._postings.push(to > from ? new Postings(state.postingSlots.subarray(from, to), state.postingTfs.subarray(from, to), to - from) : new Postings());
    }
    // (Checked here rather than in checkBm25State: the map is built anyway.)
    if (index._termIds.size !== termCount) throw new RangeError('damaged BM25 state: duplicate terms');
    return index;
  }

  /** Adds (or replaces) a document. */
  add(id: string, scope: string, terms: readonly string[]): void {
    this.remove(id);
    const slot = this._ids.length;
    this._growDocs(slot + 1);
    // Distinct terms with their counts.
    const counts = new Map<number, number>();
    for (const t of terms) {
      const tid = this._termId(t);
      counts.set(tid, (counts.get(tid) ?? 0) + 1);
    }
    const ids = Int32Array.from(counts.keys());
    const tfs = Int32Array.from(ids, (tid) => counts.get(tid)!);
    this._ids.push(id);
    this._docTerms.push(ids);
    this._scopeOf[slot] = this._scopes.code(scope);
    this._length[slot] = terms.length;
    this._alive[slot] = 1;
    this._slots.set(id, slot);
    for (let i = 0; i < ids.length; i++) {
      const tid = ids[i]!;
      this._postings[tid]!.push(slot, tfs[i]!);
      this._df[tid] = this._df[tid]! + 1;
    }
    this._live += 1;
    this._changes += 1;
    this._totalLength += terms.length;
  }

  /** Live id → slot (built from the slots on first use after a restore). */
  private get _slots(): Map<string, number> {
    if (this._slotMap === null) {
      const map = new Map<string, number>();
      for (let s = 0; s < this._ids.length; s++) if (this._alive[s] === 1) map.set(this._ids[s]!, s);
      this._slotMap = map;
    }
    return this._slotMap;
  }

  /** A document's distinct term ids. */
  private _termsOf(slot: number): Int32Array {
    const saved = this._savedTerms;
    return (this._docTerms[slot] ??= saved !== null && slot < saved.slots ? saved.terms.subarray(saved.starts[slot]!, saved.starts[slot + 1]!) : new Int32Array(0));
  }

  remove(id: string): void {
    const slot = this._slots.get(id);
    if (slot === undefined) return;
    this._alive[slot] = 0;
    this._slots.delete(id);
    for (const tid of this._termsOf(slot)) {
      const df = this._df[tid]! - 1;
      this._df[tid] = df;
      // Every document holding the term is gone: so are its postings (all dead).
      if (df <= 0) this._postings[tid]!.clear();
    }
    this._live -= 1;
    this._changes += 1;
    this._totalLength -= this._length[slot]!;
  }

  /** The term's id (interned when a document holding it was added), or undefined. */
  termIdOf(term: string): number | undefined {
    return this._termIds.get(term);
  }

  /** Documents holding the term. */
  df(term: string): number {
    const tid = this._termIds.get(term);
    return tid === undefined ? 0 : this._df[tid]!;
  }

  /**
   * The live slots whose document holds `term`, newest first (the last added), at most `max`: a look-up of who
   * says a rare word, without scoring anything.
   */
  slotsWith(term: string, max: number): number[] {
    const tid = this._termIds.get(term);
    if (tid === undefined) return [];
    const list = this._postings[tid]!;
    const out: number[] = [];
    for (let i = list.length - 1; i >= 0 && out.length < max; i--) {
      const slot = list.slots[i]!;
      if (this._alive[slot] === 1) out.push(slot);
    }
    return out;
  }

  /** Robertson–Spärck Jones IDF, floored at a small positive value so that very common terms still count a little. */
  idf(term: string): number {
    return this._idfOf(this.df(term));
  }

  /** Resolves a query's terms to term ids (terms the index lacks, or weighted 0, are left out). */
  prepare(query: ReadonlyMap<string, number>): PreparedQuery {
    const ids: number[] = [];
    const weights: number[] = [];
    for (const [term, weight] of query) {
      const tid = this._termIds.get(term);
      if (tid === undefined || weight <= 0 || this._df[tid]! <= 0) continue;
      ids.push(tid);
      weights.push(weight);
    }
    return { ids: Int32Array.from(ids), weights: Float64Array.from(weights) };
  }

  /**
   * A query prepared for `coverage`: its terms' ids (-1 for a term no document holds) and weights × smoothed IDF,
   * and their total. The IDF counts `prior` more documents that hold none of the terms, so a tiny index (one doc,
   * a few turns) still tells a rare term from a missing one, where plain BM25 IDF calls every shared term common.
   * `unheldShare` scales a term no document holds in the total (1: counted whole).
   */
  prepareCoverage(query: ReadonlyMap<string, number>, prior: number, unheldShare: (term: string) => number = () => 1): CoverageQuery {
    const ids: number[] = [];
    const weights: number[] = [];
    let total = 0;
    const n = this._live + prior;
    for (const [term, weight] of query) {
      if (weight <= 0) continue;
      const tid = this._termIds.get(term);
      const df = tid === undefined ? 0 : this._df[tid]!;
      const w = weight * Math.log(1 + (n - df + 0.5) / (df + 0.5));
      total += df > 0 ? w : w * unheldShare(term);
      if (df > 0) {
        ids.push(tid!);
        weights.push(w);
      }
    }
    const filter = new Uint32Array(COVERAGE_FILTER_BITS / 32);
    for (const tid of ids) filter[(tid & (COVERAGE_FILTER_BITS - 1)) >>> 5]! |= 1 << (tid & 31);
    return { ids: Int32Array.from(ids), weights: Float64Array.from(weights), total, filter, held: new Uint8Array(ids.length) };
  }

  /**
   * The share of a prepared query's weight that the document in `slot` holds, in [0, 1] (its distinct terms only).
   * Each document term is tested against the query's filter first, and only a hit is looked for among the query's
   * terms; the weights held are then summed in the query's order, so the result is the same to the last bit.
   */
  coverage(slot: number, query: CoverageQuery): number {
    const { ids, filter, held } = query;
    if (query.total <= 0 || slot < 0 || ids.length === 0) return 0;
    const terms = this._termsOf(slot);
    let any = false;
    for (let i = 0; i < terms.length; i++) {
      const tid = terms[i]!;
      if ((filter[(tid & (COVERAGE_FILTER_BITS - 1)) >>> 5]! & (1 << (tid & 31))) === 0) continue;
      for (let q = 0; q < ids.length; q++) {
        if (ids[q] === tid) {
          held[q] = 1;
          any = true;
          break;
        }
      }
    }
    if (!any) return 0;
    let sum = 0;
    for (let q = 0; q < ids.length; q++) {
      if (held[q] === 1) {
        sum += query.weights[q]!;
        held[q] = 0;
      }
    }
    return sum / query.total;
  }

  /** Scores of every document sharing a term with the query (among allowed scopes): postings only. */
  scoreAll(query: ReadonlyMap<string, number>, allow?: (scope: string) => boolean): Bm25Scores {
    return this._scores(this.prepare(query), allow);
  }

  /**
   * `base` (a `scoreAll` of this index, unchanged since) with more query terms added after its own: the same
   * scores, bit for bit, and the same order of slots, as `scoreAll` of the whole query — a search adds term after
   * term in the query's order, so this only walks the postings of the terms it adds (pseudo-relevance feedback).
   */
  scoreMore(base: Bm25Scores, added: ReadonlyMap<string, number>, allow?: (scope: string) => boolean): Bm25Scores {
    return this._scores(this.prepare(added), allow, base);
  }

  /**
   * The k best documents for weighted query terms (term → weight, e.g. 1 for the message, less for expansions),
   * among the scopes `allow` accepts. Ties keep the order in which documents were first reached.
   */
  search(query: ReadonlyMap<string, number>, k: number, allow?: (scope: string) => boolean): Bm25Hit[] {
    return this.topSlots(query, k, allow).map(({ slot, score }) => ({ id: this._ids[slot]!, scope: this._scopes.name(this._scopeOf[slot]!), score }));
  }

  /** `search` by slot, best first. */
  topSlots(query: ReadonlyMap<string, number>, k: number, allow?: (scope: string) => boolean): Array<{ slot: number; score: number }> {
    if (this._live === 0 || k <= 0) return [];
    return Bm25Index.best(this._scores(this.prepare(query), allow), k);
  }

  /** The k best slots of a search's scores, best first; ties to the slot reached first (NaN never). */
  static best(scores: Bm25Scores, k: number): Array<{ slot: number; score: number }> {
    const { bySlot, slots } = scores;
    if (k >= SELECT_FROM) return bestBySelection(bySlot, slots, k);
    const top = new TopK<number>(k);
    for (const slot of slots) top.push(bySlot[slot]!, slot);
    return top.result().map(({ score, item }) => ({ slot: item, score }));
  }

  /** IDF by term id; memoised while the index is unchanged (choosing sentences sums it over many terms). */
  idfOfId(tid: number): number {
    if (this._idfAt !== this._changes) {
      this._idfAt = this._changes;
      if (this._idfMemo.length < this._postings.length) this._idfMemo = new Float64Array(this._postings.length * 2);
      else this._idfMemo.fill(0);
    }
    let idf = this._idfMemo[tid]!;
    if (idf === 0) this._idfMemo[tid] = idf = this._idfOf(this._df[tid]!);
    return idf;
  }

  private _idfOf(df: number): number {
    return Math.max(0.05, Math.log(1 + (this._live - df + 0.5) / (df + 0.5)));
  }

  private _scores(query: PreparedQuery, allow?: (scope: string) => boolean, base?: Bm25Scores): Bm25Scores {
    const n = this._ids.length;
    const acc = new Float64Array(n);
    if (this._live === 0) return new Bm25Scores(this, acc, new Int32Array(0));
    // Slots reached: at most one per posting walked (and per slot), so this never grows.
    let reach = base?.slots.length ?? 0;
    for (let q = 0; q < query.ids.length; q++) reach += this._postings[query.ids[q]!]!.length;
    const touched = new Int32Array(Math.min(n, reach));
    let count = 0;
    // Continuing a search: its scores so far (0 outside the scopes it allowed, which this call's filter drops
    // again) and its slots, which come first in the order reached.
    if (base !== undefined) {
      acc.set(base.bySlot);
      touched.set(base.slots);
      count = base.slots.length;
    }
    const avg = this._totalLength / this._live || 1;
    const lengthNorm = this._k1 * (1 - this._b);
    const lengthScale = (this._k1 * this._b) / avg;
    const alive = this._alive;
    const lengths = this._length;
    // With no removed document (the usual case: rewrites are rare), no posting can be dead: the loop skips the check.
    const anyDead = this._live !== this._ids.length;
    for (let q = 0; q < query.ids.length; q++) {
      const tid = query.ids[q]!;
      const idf = this._idfOf(this._df[tid]!) * query.weights[q]! * (this._k1 + 1);
      const list = this._postings[tid]!;
      const slots = list.slots;
      const tfs = list.tfs;
      const length = list.length;
      if (anyDead) {
        for (let i = 0; i < length; i++) {
          const slot = slots[i]!;
          if (alive[slot] !== 1) continue;
          const tf = tfs[i]!;
          if (acc[slot] === 0) touched[count++] = slot;
          acc[slot] += (idf * tf) / (tf + lengthNorm + lengthScale * lengths[slot]!);
        }
      } else {
        for (let i = 0; i < length; i++) {
          const slot = slots[i]!;
          const tf = tfs[i]!;
          if (acc[slot] === 0) touched[count++] = slot;
          acc[slot] += (idf * tf) / (tf + lengthNorm + lengthScale * lengths[slot]!);
        }
      }
    }
    if (allow === undefined) return new Bm25Scores(this, acc, touched.slice(0, count));
    // Scope filtering once per scope, not once per posting or per document.
    const verdict = new Int8Array(this._scopes.size);
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const slot = touched[i]!;
      const code = this._scopeOf[slot]!;
      if (verdict[code] === 0) verdict[code] = allow(this._scopes.name(code)) ? 1 : -1;
      if (verdict[code] === 1) touched[kept++] = slot;
      else acc[slot] = 0;
    }
    return new Bm25Scores(this, acc, touched.slice(0, kept));
  }

  private _termId(term: string): number {
    let tid = this._termIds.get(term);
    if (tid === undefined) {
      tid = this._postings.length;
      this._termIds.set(term, tid);
      this._postings.push(new Postings());
      if (tid >= this._df.length) this._df = growInt32(this._df, tid * 2 + 1);
    }
    return tid;
  }

  private _growDocs(slots: number): void {
    if (slots <= this._length.length) return;
    const capacity = Math.max(slots, this._length.length * 2);
    this._scopeOf = growInt32(this._scopeOf, capacity);
    const length = new Float64Array(capacity);
    length.set(this._length);
    this._length = length;
    const alive = new Uint8Array(capacity);
    alive.set(this._alive);
    this._alive = alive;
  }
}

/** From this k on, `best` selects instead of keeping a heap (the sentence search keeps 500 or so of thousands). */
const SELECT_FROM = 64;

/**
 * `best` for a deep k: the k-th largest score by selection, then the slots above it and the first ones reached
 * at it, sorted — what the heap gives, without an O(log k) step for each of the thousands that enter it.
 */
function bestBySelection(bySlot: Float64Array, slots: Int32Array, k: number): Array<{ slot: number; score: number }> {
  const n = slots.length;
  const values = new Float64Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = bySlot[slots[i]!]!;
    if (v === v) values[m++] = v;
  }
  const floor = m <= k ? -Infinity : kthLargest(values, m, k);
  // Places in reach order: those above the floor, then as many at it as are left to fill k.
  const above: number[] = [];
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = bySlot[slots[i]!]!;
    if (v > floor) above.push(i);
    else if (v === floor && at.length < k) at.push(i);
  }
  const score = (i: number): number => bySlot[slots[i]!]!;
  above.sort((a, b) => score(b) - score(a) || a - b);
  const count = Math.min(k, above.length + at.length);
  const out = new Array<{ slot: number; score: number }>(count);
  for (let j = 0; j < count; j++) {
    const i = j < above.length ? above[j]! : at[j - above.length]!;
    out[j] = { slot: slots[i]!, score: score(i) };
  }
  return out;
}

function growInt32(old: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(capacity);
  next.set(old);
  return next;
}

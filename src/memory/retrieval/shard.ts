/**
 * A shard: the indexes of one namespace of one user (or of the docs) — BM25 over whole chunks and over their
 * sentences, vectors from the built-in embedder in a flat index, the embedder's corpus statistics, and heat.
 * `exportState` / `fromState` give the same shard back without analysing a text again (index-snapshot.ts).
 * Pure, no DOM.
 */
import { embedderKey, type CorpusSnapshot, type Embedder } from '../embedders/index.ts';
import { FlatIndex, type QuantizedRows } from '../vector-index/index.ts';
import { Bm25Index, type Bm25State } from './bm25.ts';
import { inRange } from './bm25-state.ts';
import type { LineTable } from './line-text.ts';
import { splitPieces, type Piece } from './pieces.ts';
import { RestoredChunk, type ChunkTables } from './restored-chunk.ts';
import { LastMemo, type SharedSearch } from './search-memo.ts';
import { NO_HEAT, type HeatEntry } from './records.ts';
import { searchTerms } from './text-terms.ts';

/**
 * Everything a shard holds but its heat (kept with the records) and its caches, flat. Chunks are listed in the
 * order they were added; a chunk's pieces are offsets into its text, its term lists ids of the two indexes.
 */
export interface ShardState {
  turns: Bm25State;
  /** Its `ids` are left empty: a piece's id is its chunk's and its index (`<chunk id>#<i>`), from `pieceTurn` and `pieceIndex`. */
  pieces: Bm25State;
  chunkIds: string[];
  chunkScopes: string[];
  chunkTexts: string[];
  /** Per chunk, where its pieces start in `pieceBounds` (pairs of start, end) and `pieceTermStarts`. */
  chunkPieceStarts: Int32Array;
  pieceBounds: Int32Array;
  chunkTermStarts: Int32Array;
  chunkTermIds: Int32Array;
  pieceTermStarts: Int32Array;
  pieceTermIds: Int32Array;
  /** By slot of the sentence index, and by slot of the chunk index (see the fields of the same names). */
  pieceTurn: Int32Array;
  pieceIndex: Int32Array;
  firstPiece: Int32Array;
  pieceCount: Int32Array;
  /**
   * The vectors, with the embedder (`embedderKey`) that made them, as their int8 rows: the float rows are worked out
   * again from the chunk's text when a search first re-scores them (the same bits: the embedder is a function of
   * the text), except those given with the chunk (a docs index's), which are kept. Null without an embedder.
   */
  vectors: ({ embedder: string; dimensions: number } & QuantizedRows) | null;
  stats: CorpusSnapshot | null;
}

/** A chunk's vector as kept with it, and the embedder (`embedderKey`) that made it. */
export interface StoredVector {
  readonly embedder: string;
  readonly vector: Float32Array;
}

/** The searchable form of one chunk: a turn, or a doc chunk. */
export interface IndexedChunk {
  readonly id: string;
  /** Session id (conversation) or doc id (docs). */
  readonly scope: string;
  readonly text: string;
  readonly pieces: readonly Piece[];
  /** The text's distinct terms in first-occurrence order (cached: feedback reads them on every search). */
  readonly textTerms: readonly string[];
  /** The same terms as term ids of the turn index, in the same order. */
  readonly textTermIds: Int32Array;
  /**
   * Each piece's distinct terms (its text's, in first-occurrence order) as term ids of the sentence index: a
   * candidate's most informative sentence is chosen by their IDF.
   */
  readonly pieceTermIds: readonly Int32Array[];
}

/** A shard: the indexes of one namespace of one user (or of the docs). */
export class Shard {
  readonly turns = new Bm25Index();
  readonly pieces = new Bm25Index();
  readonly chunks = new Map<string, IndexedChunk>();
  /** Read it here; write it through `setHeat`. */
  readonly heat: ReadonlyMap<string, HeatEntry> = new Map<string, HeatEntry>();
  /** By slot of `turns`: each chunk's misses in a row (from its heat), read for every candidate of every search. */
  private readonly _missStreak: number[] = [];
  private _heatRevision = 0;
  /** By slot of the sentence index: the chunk a piece belongs to (its slot in `turns`), and which of its pieces it is. */
  readonly pieceTurn: number[] = [];
  readonly pieceIndex: number[] = [];
  /**
   * By slot of `turns`: the slot of the chunk's first piece in the sentence index, and how many it has (a chunk's
   * pieces are added together, so their slots run on): a search reads them without touching the chunk object.
   */
  readonly firstPiece: number[] = [];
  readonly pieceCount: number[] = [];
  /** line-text.ts's cache of each chunk's lines, by slot of `turns` (a rewritten chunk's old slot lets go of it). */
  readonly lineCaches: LineTable = [];
  /** The last search that did not depend on its exclusions (see search-memo.ts). */
  readonly searchMemo = new LastMemo<SharedSearch>();
  private readonly _embedder: Embedder | null;
  private readonly _vectors: FlatIndex | null;
  /** Chunks whose vector was given (`stored`), not worked out from the text: a snapshot keeps their floats. */
  private readonly _given = new Set<string>();
  /** Texts added so far: the embedder's statistics (and so a query's vector) change with each. */
  private _version = 0;
  private _queryVector: { text: string; version: number; vector: Float32Array | undefined } | null = null;

  constructor(embedder: Embedder | null) {
    this._embedder = embedder?.embedSync === undefined ? null : embedder;
    this._vectors = this._embedder === null ? null : new FlatIndex(this._embedder.dimensions);
  }

  /** The shard as flat data (copies). */
  exportState(): ShardState {
    const chunks = [...this.chunks.values()];
    const chunkPieceStarts = new Int32Array(chunks.length + 1);
    const chunkTermStarts = new Int32Array(chunks.length + 1);
    chunks.forEach((c, i) => {
      chunkPieceStarts[i + 1] = chunkPieceStarts[i]! + c.pieces.length;
      chunkTermStarts[i + 1] = chunkTermStarts[i]! + c.textTermIds.length;
    });
    const pieces = chunkPieceStarts[chunks.length]!;
    const pieceBounds = new Int32Array(pieces * 2);
    const chunkTermIds = new Int32Array(chunkTermStarts[chunks.length]!);
    const pieceTermStarts = new Int32Array(pieces + 1);
    let p = 0;
    chunks.forEach((c, i) => {
      chunkTermIds.set(c.textTermIds, chunkTermStarts[i]!);
      c.pieces.forEach((piece, j) => {
        pieceBounds[2 * p] = piece.start;
        pieceBounds[2 * p + 1] = piece.end;
        pieceTermStarts[p + 1] = pieceTermStarts[p]! + c.pieceTermIds[j]!.length;
        p++;
      });
    });
    const pieceTermIds = new Int32Array(pieceTermStarts[pieces]!);
    p = 0;
    for (const c of chunks) for (const ids of c.pieceTermIds) pieceTermIds.set(ids, pieceTermStarts[p++]!);
    const rows = this._vectors?.exportQuantized((id) => this._given.has(id));
    return {
      turns: this.turns.exportState(),
      pieces: { ...this.pieces.exportState(), ids: [] },
      chunkIds: chunks.map((c) => c.id),
      chunkScopes: chunks.map((c) => c.scope),
      chunkTexts: chunks.map((c) => c.text),
      chunkPieceStarts,
      pieceBounds,
      chunkTermStarts,
      chunkTermIds,
      pieceTermStarts,
      pieceTermIds,
      pieceTurn: Int32Array.from(this.pieceTurn),
      pieceIndex: Int32Array.from(this.pieceIndex),
      firstPiece: Int32Array.from(this.firstPiece),
      pieceCount: Int32Array.from(this.pieceCount),
      vectors:
        rows === undefined || this._embedder === null
          ? null
          : { embedder: embedderKey(this._embedder), dimensions: this._embedder.dimensions, ...rows },
      stats: this._embedder?.stats?.snapshot() ?? null,
    };
  }

  /**
   * The shard a state describes, for `embedder` (which must be the one that made its vectors). Throws a
   * RangeError for a state that does not hold together or was made with another embedder.
   */
  static fromState(state: ShardState, embedder: Embedder | null): Shard {
    const shard = new Shard(embedder);
    const bad = (what: string): never => {
      throw new RangeError(`damaged shard state: ${what}`);
    };
    const key = shard._embedder === null ? null : embedderKey(shard._embedder);
    if ((state.vectors?.embedder ?? null) !== key) bad('another embedder');
    const n = state.chunkIds.length;
    if (state.chunkScopes.length !== n || state.chunkTexts.length !== n) bad('chunk lists');
    if (state.chunkPieceStarts.length !== n + 1 || state.chunkTermStarts.length !== n + 1) bad('chunk offsets');
    const pieces = state.chunkPieceStarts[n]!;
    if (state.pieceBounds.length !== 2 * pieces || state.pieceTermStarts.length !== pieces + 1) bad('piece offsets');
    if (state.chunkTermStarts[n] !== state.chunkTermIds.length || state.pieceTermStarts[pieces] !== state.pieceTermIds.length) bad('term offsets');
    (shard as { turns: Bm25Index }).turns = Bm25Index.fromState(state.turns);
    const slots = state.turns.ids.length;
    const pieceSlots = state.pieceTurn.length;
    if (state.pieces.ids.length !== 0 || state.pieceIndex.length !== pieceSlots) bad('piece slot arrays');
    if (!inRange(state.pieceTurn, slots)) bad('piece chunk slot');
    // Each piece's id, as `add` named it: its chunk's id (by slot, a replaced version's too) and its index.
    const pieceIds = Array.from(state.pieceTurn, (turnSlot, s) => `${state.turns.ids[turnSlot]!}#${state.pieceIndex[s]!}`);
    (shard as { pieces: Bm25Index }).pieces = Bm25Index.fromState({ ...state.pieces, ids: pieceIds });
    // Every offset and id is checked here, over the flat arrays; each chunk's lists are made when first read.
    if (state.chunkPieceStarts[0] !== 0 || state.chunkTermStarts[0] !== 0 || state.pieceTermStarts[0] !== 0) bad('offsets');
    const turnTermCount = state.turns.terms.length;
    const pieceTermCount = state.pieces.terms.length;
    for (let q = 0; q < pieces; q++) if (state.pieceTermStarts[q]! > state.pieceTermStarts[q + 1]!) bad('piece term offsets');
    if (!inRange(state.pieceTermIds, pieceTermCount)) bad('piece term id');
    if (!inRange(state.chunkTermIds, turnTermCount)) bad('term id');
    const tables: ChunkTables = { ...state, turnTerms: state.turns.terms };
    for (let i = 0; i < n; i++) {
      const id = state.chunkIds[i]!;
      const text = state.chunkTexts[i]!;
      if (!shard.turns.has(id)) bad(`chunk ${id} is not indexed`);
      const from = state.chunkPieceStarts[i]!;
      if (from > state.chunkPieceStarts[i + 1]! || state.chunkTermStarts[i]! > state.chunkTermStarts[i + 1]!) bad('chunk offsets');
      for (let p = from; p < state.chunkPieceStarts[i + 1]!; p++) {
        const start = state.pieceBounds[2 * p]!;
        const end = state.pieceBounds[2 * p + 1]!;
        if (!(start >= 0 && start <= end && end <= text.length)) bad('piece bounds');
      }
      shard.chunks.set(id, new RestoredChunk(id, state.chunkScopes[i]!, text, i, tables));
    }
    if (state.firstPiece.length !== slots || state.pieceCount.length !== slots) bad('chunk slot arrays');
    // Plain arrays, as `add` grows them (Array.from: a spread of 40,000 arguments can overflow the stack).
    const own = shard as { pieceTurn: number[]; pieceIndex: number[]; firstPiece: number[]; pieceCount: number[] };
    own.pieceTurn = Array.from(state.pieceTurn);
    own.pieceIndex = Array.from(state.pieceIndex);
    own.firstPiece = Array.from(state.firstPiece);
    own.pieceCount = Array.from(state.pieceCount);
    if (state.vectors !== null && shard._vectors !== null && shard._embedder !== null) {
      const { dimensions, ...rows } = state.vectors;
      if (dimensions !== shard._vectors.dimensions) bad('vector dimensions');
      const embedder = shard._embedder;
      try {
        shard._vectors.importQuantized(rows, (id) => {
          const chunk = shard.chunks.get(id);
          return chunk === undefined ? undefined : embedder.embedSync!([chunk.text], { purpose: 'document' })[0];
        });
      } catch (error) {
        bad(`vectors (${error instanceof Error ? error.message : String(error)})`);
      }
      for (const row of rows.keep.rows) shard._given.add(rows.ids[row]!);
      for (const id of rows.ids) if (!shard.chunks.has(id)) bad(`vector of an unknown chunk ${id}`);
    }
    if (state.stats !== null && shard._embedder?.stats !== undefined && !shard._embedder.stats.restore(state.stats)) bad('statistics');
    shard._version = n;
    return shard;
  }

  /**
   * Indexes a chunk. `stored`: its vector as kept with it (a docs index ships each chunk's), used as it is when it
   * comes from this shard's embedder at its width, so the text is not embedded again.
   */
  add(id: string, scope: string, text: string, extraTerms: readonly string[], stored?: StoredVector): IndexedChunk {
    // A rewritten chunk: its old sentences go (the new text may have fewer), and its old text leaves the statistics.
    const old = this.chunks.get(id);
    if (old !== undefined) {
      old.pieces.forEach((_, i) => this.pieces.remove(`${id}#${i}`));
      this.lineCaches[this.turns.slotOf(id)!] = undefined;
      this._embedder?.stats?.remove([old.text]);
    }
    const pieces = splitPieces(text);
    const textTerms = searchTerms(text);
    const pieceTerms = pieces.map((p) => searchTerms(p.text));
    this.turns.add(id, scope, [...extraTerms, ...textTerms]);
    const turnSlot = this.turns.slotOf(id)!;
    this._missStreak[turnSlot] = this.heatOf(id).missStreak;
    const pieceExtra = extraTerms.filter((t) => !t.startsWith('@'));
    const pieceSlots = pieces.map((_, i) => {
      this.pieces.add(`${id}#${i}`, scope, [...pieceExtra, ...pieceTerms[i]!]);
      const slot = this.pieces.slotOf(`${id}#${i}`)!;
      this.pieceTurn[slot] = turnSlot;
      this.pieceIndex[slot] = i;
      return slot;
    });
    this.firstPiece[turnSlot] = pieceSlots[0] ?? 0;
    this.pieceCount[turnSlot] = pieceSlots.length;
    const pieceTermIds = pieceTerms.map((list) => Int32Array.from(new Set(list), (t) => this.pieces.termIdOf(t)!));
    const distinct = [...new Set(textTerms)];
    const textTermIds = Int32Array.from(distinct, (t) => this.turns.termIdOf(t)!);
    const chunk: IndexedChunk = { id, scope, text, pieces, textTerms: distinct, textTermIds, pieceTermIds };
    this.chunks.set(id, chunk);
    this._version += 1;
    if (this._embedder !== null && this._vectors !== null) {
      this._embedder.stats?.add([text]);
      const usable = stored !== undefined && stored.embedder === embedderKey(this._embedder) && stored.vector.length === this._embedder.dimensions;
      if (usable) this._given.add(id);
      else this._given.delete(id);
      const [vector] = usable ? [stored.vector] : this._embedder.embedSync!([text], { purpose: 'document' });
      if (vector !== undefined) this._vectors.add([{ id, scope, vector }]);
    }
    return chunk;
  }

  /**
   * Takes a chunk out of every index (its postings, sentences, vector, statistics and heat), as if it had never
   * been added: what a rebuild without it would hold, but for slot numbers. Returns false for an unknown id.
   */
  remove(id: string): boolean {
    const chunk = this.chunks.get(id);
    if (chunk === undefined) return false;
    const slot = this.turns.slotOf(id)!;
    chunk.pieces.forEach((_, i) => this.pieces.remove(`${id}#${i}`));
    this.turns.remove(id);
    this.lineCaches[slot] = undefined;
    this._missStreak[slot] = 0;
    this.firstPiece[slot] = 0;
    this.pieceCount[slot] = 0;
    this.chunks.delete(id);
    (this.heat as Map<string, HeatEntry>).delete(id);
    this._heatRevision += 1;
    this._version += 1;
    if (this._embedder !== null && this._vectors !== null) {
      this._embedder.stats?.remove([chunk.text]);
      this._vectors.remove([id]);
      this._given.delete(id);
    }
    return true;
  }

  /**
   * Chunks without a vector (their embedder answers from a cache that did not hold them when they were added) that
   * it can give one now. Returns how many were added.
   */
  fillVectors(ids: Iterable<string> = this.chunks.keys()): number {
    if (this._embedder === null || this._vectors === null) return 0;
    let added = 0;
    for (const id of ids) {
      const chunk = this.chunks.get(id);
      if (chunk === undefined || this._vectors.has(id)) continue;
      const [vector] = this._embedder.embedSync!([chunk.text], { purpose: 'document' });
      if (vector === undefined) continue;
      this._vectors.add([{ id, scope: chunk.scope, vector }]);
      added++;
    }
    if (added > 0) this._version += 1;
    return added;
  }

  /** Chunks that have a vector. */
  get vectorCount(): number {
    return this._vectors?.size ?? 0;
  }

  /** Changes so far: anything derived from the indexes is valid while this stays the same. */
  get version(): number {
    return this._version;
  }

  /** Vector search (empty when no synchronous embedder is configured); scores on the embedder's calibrated scale. */
  vectorSearch(text: string, k: number, allow: ((scope: string) => boolean) | undefined, scopes: readonly string[] | undefined): Map<string, number> {
    const out = new Map<string, number>();
    if (this._embedder === null || this._vectors === null || this._vectors.size === 0) return out;
    const query = this._embed(text);
    if (query === undefined) return out;
    const options = scopes === undefined ? {} : { scopes };
    const calibrate = this._embedder.calibrate?.bind(this._embedder);
    for (const hit of this._vectors.search(query, k, options)) if (allow === undefined || allow(hit.scope)) out.set(hit.id, calibrate === undefined ? hit.score : calibrate(hit.score));
    return out;
  }

  /**
   * Cosines of chunks against a query vector, floored at 0, written into `out` (for candidates the vector search
   * did not return: the reranker reads no cosine below 0, and the index answers those from its last scan's bounds
   * where it can). Ids without a vector get none.
   */
  positiveCosines(ids: readonly string[], text: string, out: Map<string, number>): void {
    if (this._embedder === null || this._vectors === null) return;
    const query = this._embed(text);
    if (query === undefined) return;
    // In place: the same bits as max(0, dot(query, vector(id))), without copying each vector.
    const scores = this._vectors.positiveDotsWith(ids, query);
    const calibrate = this._embedder.calibrate?.bind(this._embedder);
    ids.forEach((id, i) => {
      const score = scores[i];
      if (score !== undefined) out.set(id, calibrate === undefined ? score : calibrate(score));
    });
  }

  /** The query's vector, embedded once per text while the shard is unchanged (a search asks for it twice or more). */
  private _embed(text: string): Float32Array | undefined {
    const cached = this._queryVector;
    if (cached !== null && cached.text === text && cached.version === this._version) return cached.vector;
    const [vector] = this._embedder!.embedSync!([text], { purpose: 'query' });
    this._queryVector = { text, version: this._version, vector };
    return vector;
  }

  /** Heat of a chunk (zeros until it has been a candidate). */
  heatOf(id: string): HeatEntry {
    return this.heat.get(id) ?? NO_HEAT;
  }

  /** `heatOf(id).missStreak` by the chunk's slot in `turns`. */
  missStreakAt(slot: number): number {
    return this._missStreak[slot] ?? 0;
  }

  setHeat(id: string, heat: HeatEntry): void {
    (this.heat as Map<string, HeatEntry>).set(id, heat);
    const slot = this.turns.slotOf(id);
    if (slot !== undefined) this._missStreak[slot] = heat.missStreak;
    this._heatRevision += 1;
  }

  /** Changes with every heat update (a ranking remembered for a query is stale after one). */
  get heatRevision(): number {
    return this._heatRevision;
  }
}


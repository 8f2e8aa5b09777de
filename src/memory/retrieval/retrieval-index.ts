/**
 * The in-memory side of retrieval, one partition per user plus one for docs: the turns in session order, BM25
 * over whole turns and over their sentences, vectors from the built-in embedder in a flat index, and heat.
 * Built from the durable records (`ChunkStore`) at start-up and kept current by the pipeline (write-through),
 * the way the vector index is rebuilt from IndexedDB. Pure, no DOM: the same code serves Node and the browser.
 */
import { embedderKey, type Embedder } from '../embedders/embedder.ts';
import { HashedNgramEmbedder } from '../embedders/hashed-ngram.ts';
import { FlatIndex } from '../vector-index/flat-index.ts';
import { Bm25Index } from './bm25.ts';
import { intentTags, type IntentTag } from './intent.ts';
import type { LineTable } from './line-text.ts';
import { splitPieces, type Piece } from './pieces.ts';
import { SlotLinks } from './links.ts';
import { isSelfStatement } from './persona.ts';
import { LastMemo, type SharedSearch } from './search-memo.ts';
import { NO_HEAT, type DocEntry, type HeatEntry, type TurnEntry } from './records.ts';
import { terms } from './text-terms.ts';

/** Date keys as lexical terms: "what did we do on 2024-03-05" meets a turn that said "tomorrow" the day before. */
export const dateTerm = (iso: string): string => `@${iso}`;

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
  /** Texts added so far: the embedder's statistics (and so a query's vector) change with each. */
  private _version = 0;
  private _queryVector: { text: string; version: number; vector: Float32Array | undefined } | null = null;

  constructor(embedder: Embedder | null) {
    this._embedder = embedder?.embedSync === undefined ? null : embedder;
    this._vectors = this._embedder === null ? null : new FlatIndex(this._embedder.dimensions);
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
    const textTerms = terms(text);
    const pieceTerms = pieces.map((p) => terms(p.text));
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
    }
    return true;
  }

  /** Changes so far: anything derived from the indexes is valid while this stays the same. */
  get version(): number {
    return this._version;
  }

  /** Vector search (empty when no synchronous embedder is configured). */
  vectorSearch(text: string, k: number, allow: ((scope: string) => boolean) | undefined, scopes: readonly string[] | undefined): Map<string, number> {
    const out = new Map<string, number>();
    if (this._embedder === null || this._vectors === null || this._vectors.size === 0) return out;
    const query = this._embed(text);
    if (query === undefined) return out;
    const options = scopes === undefined ? {} : { scopes };
    for (const hit of this._vectors.search(query, k, options)) if (allow === undefined || allow(hit.scope)) out.set(hit.id, hit.score);
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
    ids.forEach((id, i) => {
      if (scores[i] !== undefined) out.set(id, scores[i]);
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

export interface RetrievalIndexOptions {
  /** A synchronous embedder per shard (its IDF statistics are per shard, so users never share them). */
  createEmbedder?: () => Embedder | null;
}

/** One user's conversation memory: the shard and the turns in session order. */
export class UserMemory {
  readonly shard: Shard;
  readonly turns = new Map<string, TurnEntry>();
  /** Lexical terms per session (for the warm start's overlap of distinctive topics). */
  readonly sessionTerms = new Map<string, Set<string>>();
  /** Turns in which the speaker says something about themselves (persona.ts), for conjectures about a person. */
  readonly selfStatements = new Set<string>();
  /** Turns of void topics: never retrieved. */
  readonly deprecated = new Set<string>();
  /** Turn ids per session, in seq order, and each turn's place in that list. */
  readonly sessions = new Map<string, string[]>();
  /** Each turn's neighbours in its session, by slot of the shard's turn index. */
  readonly links = new SlotLinks();
  private readonly _position = new Map<string, number>();
  /** Each turn by slot of the shard's turn index (a search names its candidates by slot). */
  private readonly _turnAt: Array<TurnEntry | undefined> = [];
  /** Per session: how many writes did more than append a new turn at the end of its order. */
  private readonly _edits = new Map<string, number>();

  constructor(embedder: Embedder | null) {
    this.shard = new Shard(embedder);
  }

  add(turn: TurnEntry): void {
    const known = this.turns.get(turn.id);
    this.turns.set(turn.id, turn);
    if (turn.deprecatedAt !== undefined) this.deprecated.add(turn.id);
    else this.deprecated.delete(turn.id);
    if (known !== undefined) this._edited(turn.sessionId);
    if (known !== undefined && known.text === turn.text) {
      // A flag changed (deprecation): nothing to re-index, only the record in its slot to replace.
      this._turnAt[this.shard.turns.slotOf(turn.id)!] = turn;
      return;
    }
    let order = this.sessions.get(turn.sessionId);
    if (order === undefined) this.sessions.set(turn.sessionId, (order = []));
    if (known === undefined) {
      let at = order.length;
      while (at > 0 && this.turns.get(order[at - 1]!)!.seq > turn.seq) at--;
      if (at < order.length) this._edited(turn.sessionId);
      order.splice(at, 0, turn.id);
      for (let i = at; i < order.length; i++) this._position.set(order[i]!, i);
    }
    const extra = [...(turn.speaker === undefined ? [] : terms(turn.speaker)), ...turn.dates.map(dateTerm)];
    this.shard.add(turn.id, turn.sessionId, turn.text, extra);
    this._turnAt[this.shard.turns.slotOf(turn.id)!] = turn;
    if (isSelfStatement(turn.text)) this.selfStatements.add(turn.id);
    else this.selfStatements.delete(turn.id);
    // The turn's slot is new (first write, or its text was rewritten): link it and its neighbours again.
    const at = this._position.get(turn.id)!;
    const slotAt = (i: number): number => (i < 0 || i >= order.length ? -1 : this.shard.turns.slotOf(order[i]!)!);
    this.links.link(slotAt(at - 1), slotAt(at));
    this.links.link(slotAt(at), slotAt(at + 1));
    let vocabulary = this.sessionTerms.get(turn.sessionId);
    if (vocabulary === undefined) this.sessionTerms.set(turn.sessionId, (vocabulary = new Set()));
    for (const t of this.shard.chunks.get(turn.id)!.textTerms) vocabulary.add(t);
  }

  /**
   * Takes a turn out (a reply replaced by a regenerate, an edited message's later turns, a deleted conversation):
   * out of the indexes, its session's order and links, and the session's vocabulary. Unknown ids are ignored.
   */
  remove(id: string): void {
    const turn = this.turns.get(id);
    if (turn === undefined) return;
    const order = this.sessions.get(turn.sessionId)!;
    const at = this._position.get(id)!;
    const slot = this.shard.turns.slotOf(id)!;
    const slotAt = (i: number): number => (i < 0 || i >= order.length ? -1 : this.shard.turns.slotOf(order[i]!)!);
    // Its neighbours are linked to each other, and its own slot to nothing.
    const before = slotAt(at - 1);
    const after = slotAt(at + 1);
    this.links.link(before, after);
    this.links.link(-1, slot);
    this.links.link(slot, -1);
    order.splice(at, 1);
    this._position.delete(id);
    for (let i = at; i < order.length; i++) this._position.set(order[i]!, i);
    this.turns.delete(id);
    this.deprecated.delete(id);
    this.selfStatements.delete(id);
    this._turnAt[slot] = undefined;
    this.shard.remove(id);
    this._edited(turn.sessionId);
    if (order.length === 0) {
      this.sessions.delete(turn.sessionId);
      this.sessionTerms.delete(turn.sessionId);
      return;
    }
    // The session's vocabulary, from the turns it still has.
    const vocabulary = new Set<string>();
    for (const other of order) for (const t of this.shard.chunks.get(other)!.textTerms) vocabulary.add(t);
    this.sessionTerms.set(turn.sessionId, vocabulary);
  }

  /**
   * Terms rare in this user's memory (in at most `share` of the turns, and at least a few): the distinctive
   * topics of a conversation ("shelter", "pottery", "证书"), as opposed to words every session uses.
   */
  isDistinctive(term: string, share = 0.02): boolean {
    const df = this.shard.turns.df(term);
    if (df === 0) return false;
    if (!term.startsWith('~') && term.length < 4) return false;
    return df <= Math.max(3, share * this.shard.turns.size);
  }

  /**
   * Counts a session's writes that did more than append a new turn at the end of its order (a rewrite, a flag,
   * an insert before the end): while it stays the same, what was read of the session is still its start.
   */
  sessionEdits(sessionId: string): number {
    return this._edits.get(sessionId) ?? 0;
  }

  private _edited(sessionId: string): void {
    this._edits.set(sessionId, this.sessionEdits(sessionId) + 1);
  }

  /** The turn in a slot of the shard's turn index (the record written last for it), or undefined. */
  turnAt(slot: number): TurnEntry | undefined {
    return this._turnAt[slot];
  }

  /** The turn `offset` places from `id` in its session (-1: the one before), or undefined. */
  neighbour(id: string, offset: number): TurnEntry | undefined {
    const turn = this.turns.get(id);
    if (turn === undefined) return undefined;
    const order = this.sessions.get(turn.sessionId)!;
    const other = order[this._position.get(id)! + offset];
    return other === undefined ? undefined : this.turns.get(other);
  }
}

export class RetrievalIndex {
  readonly docs: Shard;
  readonly docEntries = new Map<string, DocEntry>();
  /** Each doc chunk, and its intent tags (worked out once, when added), by slot of the docs shard's turn index. */
  private readonly _docAt: DocEntry[] = [];
  private readonly _docTagsAt: Array<readonly IntentTag[]> = [];
  private readonly _users = new Map<string, UserMemory>();
  private readonly _createEmbedder: () => Embedder | null;

  constructor(options: RetrievalIndexOptions = {}) {
    this._createEmbedder = options.createEmbedder ?? (() => new HashedNgramEmbedder());
    this.docs = new Shard(this._createEmbedder());
  }

  user(userId: string): UserMemory {
    let memory = this._users.get(userId);
    if (memory === undefined) this._users.set(userId, (memory = new UserMemory(this._createEmbedder())));
    return memory;
  }

  addTurn(turn: TurnEntry): void {
    this.user(turn.userId).add(turn);
  }

  /** Takes turns out of a user's memory (see `UserMemory.remove`). */
  removeTurns(userId: string, ids: Iterable<string>): void {
    const memory = this._users.get(userId);
    if (memory === undefined) return;
    for (const id of ids) memory.remove(id);
  }

  /** Indexes a doc chunk; `stored`: its vector as shipped with it (see `Shard.add`). */
  addDoc(doc: DocEntry, stored?: StoredVector): void {
    this.docEntries.set(doc.id, doc);
    this.docs.add(doc.id, doc.docId, doc.text, terms(doc.source), stored);
    const slot = this.docs.turns.slotOf(doc.id)!;
    this._docAt[slot] = doc;
    this._docTagsAt[slot] = intentTags(doc.text);
  }

  /** The doc chunk in a slot of the docs shard's turn index, or undefined. */
  docAt(slot: number): DocEntry | undefined {
    return this._docAt[slot];
  }

  /** The intent tags of the doc chunk in a slot (none for an empty slot). */
  docTagsAt(slot: number): readonly IntentTag[] {
    return this._docTagsAt[slot] ?? [];
  }

  /** Rebuilds a user's memory from stored records (app start-up). */
  load(turns: readonly TurnEntry[], heat: ReadonlyMap<string, HeatEntry>): void {
    const sorted = [...turns].sort((a, b) => a.time - b.time || a.seq - b.seq);
    for (const turn of sorted) {
      this.addTurn(turn);
      const h = heat.get(turn.id);
      if (h !== undefined) this.user(turn.userId).shard.setHeat(turn.id, h);
    }
  }
}

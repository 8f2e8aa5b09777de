/**
 * The in-memory side of retrieval, one partition per user plus one for docs: the turns in session order, BM25
 * over whole turns and over their sentences, vectors from the built-in embedder in a flat index, and heat.
 * Built from the durable records (`ChunkStore`) at start-up, or restored from its saved state (`exportState` /
 * `fromState`), and kept current by the pipeline (write-through). Pure, no DOM: the same code serves Node and the
 * browser.
 */
import { HashedNgramEmbedder, type Embedder } from '../embedders/index.ts';
import { docColumns, docsFromColumns, turnColumns, turnsFromColumns, type DocColumns, type TurnColumns } from './entry-columns.ts';
import { intentTags, type IntentTag } from './intent.ts';
import { SlotLinks } from './links.ts';
import { isSelfStatement } from './persona.ts';
import type { DocEntry, HeatEntry, TurnEntry } from './records.ts';
import { Shard, type ShardState, type StoredVector } from './shard.ts';
import { terms } from './text-terms.ts';

export { Shard, type IndexedChunk, type ShardState, type StoredVector } from './shard.ts';

/** A user's memory as flat data (`UserMemory.exportState`): turns without their text, which the shard keeps. */
export interface UserMemoryState {
  shard: ShardState;
  /** In the order they were added, as columns (entry-columns.ts). */
  turns: TurnColumns;
  sessions: Array<[string, string[]]>;
  sessionTerms: Array<[string, string[]]>;
  selfStatements: string[];
  links: { prev: Int32Array; next: Int32Array };
  edits: Array<[string, number]>;
}

/** The whole index as flat data; `docs` may be left out (a snapshot of the conversations only). */
export interface RetrievalIndexState {
  users: Array<[string, UserMemoryState]>;
  docs: { shard: ShardState; entries: DocColumns } | null;
}

/**
 * The version of what the index works out from a text (its terms, sentences, vectors and tags): a saved index
 * state (ui/controllers/index-snapshot.ts) of another version is not used. Bump it whenever text-terms.ts,
 * pieces.ts, intent.ts, persona.ts or the built-in embedder's features change what they return;
 * test/unit/retrieval/index-state.test.ts pins the analysis of a set of examples to it.
 */
// 2: a concept's English term beside its Chinese words and other spellings (term-aliases.ts).
// 3: thirty more such concepts (上限/limit, 镜像/image, 阈值/threshold…).
// 4: a code fence stays with its block's sentences (pieces.ts), never with the prose after it.
// 5: a weight said in its unit (kg, lbs, 公斤) is the concept weight (term-aliases.ts).
// 6: an irregular past form is its verb: "bought" is "buy" (irregular-verbs.ts).
// 7: a markdown table's rows never join the prose after the table (pieces.ts).
// 8: a rate's period is its unit's concept: "hourly" is "hour", 每周 is "week" (term-aliases.ts).
// 9: a version number (2.10.4, v1.30) is the concept version (text-terms.ts).
export const INDEX_ANALYSIS_VERSION = 9;

const DAY_MS = 86_400_000;

/** Date keys as lexical terms: "what did we do on 2024-03-05" meets a turn that said "tomorrow" the day before. */
export const dateTerm = (iso: string): string => `@${iso}`;

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

  /** The memory as flat data (copies). */
  exportState(): UserMemoryState {
    return {
      shard: this.shard.exportState(),
      turns: turnColumns([...this.turns.values()].map(({ text: _text, ...rest }) => rest)),
      sessions: [...this.sessions].map(([id, order]) => [id, [...order]]),
      sessionTerms: [...this.sessionTerms].map(([id, set]) => [id, [...set]]),
      selfStatements: [...this.selfStatements],
      links: this.links.exportState(),
      edits: [...this._edits],
    };
  }

  /** The memory a state describes (see `Shard.fromState`); throws a RangeError for one that does not hold together. */
  static fromState(state: UserMemoryState, embedder: Embedder | null): UserMemory {
    const memory = new UserMemory(null);
    const shard = Shard.fromState(state.shard, embedder);
    (memory as { shard: Shard }).shard = shard;
    for (const turn of turnsFromColumns(state.turns, (id) => shard.chunks.get(id)?.text)) {
      memory.turns.set(turn.id, turn);
      if (turn.deprecatedAt !== undefined) memory.deprecated.add(turn.id);
      memory._turnAt[shard.turns.slotOf(turn.id)!] = turn;
    }
    for (const [sessionId, order] of state.sessions) {
      memory.sessions.set(sessionId, [...order]);
      order.forEach((id, i) => {
        if (!memory.turns.has(id)) throw new RangeError(`damaged memory state: session ${sessionId} lists ${id}`);
        memory._position.set(id, i);
      });
    }
    if (memory._position.size !== memory.turns.size) throw new RangeError('damaged memory state: turns outside the sessions');
    for (const [sessionId, list] of state.sessionTerms) memory.sessionTerms.set(sessionId, new Set(list));
    for (const id of state.selfStatements) memory.selfStatements.add(id);
    (memory as { links: SlotLinks }).links = SlotLinks.fromState(state.links);
    for (const [sessionId, count] of state.edits) memory._edits.set(sessionId, count);
    return memory;
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

  /** The slots of the turns written on `days` (ISO, in the user's offset), of one session or of all. */
  slotsWrittenOn(days: readonly string[], offsetMinutes: number, sessionId?: string): number[] {
    const spans = days.flatMap((day) => {
      const start = Date.parse(`${day.slice(0, 10)}T00:00:00Z`) - offsetMinutes * 60_000;
      return Number.isNaN(start) ? [] : [[start, start + DAY_MS] as const];
    });
    const slots: number[] = [];
    if (spans.length === 0) return slots;
    for (const turn of this.turns.values()) {
      if (sessionId !== undefined && turn.sessionId !== sessionId) continue;
      if (spans.some(([from, to]) => turn.time >= from && turn.time < to)) slots.push(this.shard.turns.slotOf(turn.id)!);
    }
    return slots;
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

/** Docs restored from a state, not yet in an index (`RetrievalIndex.docsFromState`). */
export interface RestoredDocs {
  readonly shard: Shard;
  readonly entries: ReadonlyArray<{ doc: DocEntry; tags: readonly IntentTag[]; slot: number }>;
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

  /** The index as flat data (copies); `docs: false` leaves the docs out, `users: false` the users' memories. */
  exportState(options: { docs?: boolean; users?: boolean } = {}): RetrievalIndexState {
    return {
      users: options.users === false ? [] : [...this._users].map(([id, memory]) => [id, memory.exportState()]),
      docs:
        options.docs === false
          ? null
          : {
              shard: this.docs.exportState(),
              entries: docColumns([...this.docEntries.values()].map(({ text: _text, ...rest }) => ({ ...rest, tags: [...this.docTagsAt(this.docs.turns.slotOf(rest.id)!)] }))),
            },
    };
  }

  /**
   * The index a state describes, with `options`' embedders (the ones its vectors came from); without docs in the
   * state, the docs shard starts empty. Throws a RangeError for a state that does not hold together.
   */
  static fromState(state: RetrievalIndexState, options: RetrievalIndexOptions = {}): RetrievalIndex {
    const index = new RetrievalIndex(options);
    for (const [userId, memoryState] of state.users) index._users.set(userId, UserMemory.fromState(memoryState, index._createEmbedder()));
    if (state.docs !== null) index.adoptDocs(RetrievalIndex.docsFromState(state.docs, options));
    return index;
  }

  /**
   * The docs a state describes, restored apart from any index (a saved index whose docs are kept apart from the
   * conversations: they can be restored while the conversations are still being read) for `adoptDocs`. Throws a
   * RangeError for a state that does not hold together.
   */
  static docsFromState(state: NonNullable<RetrievalIndexState['docs']>, options: RetrievalIndexOptions = {}): RestoredDocs {
    const shard = Shard.fromState(state.shard, (options.createEmbedder ?? (() => new HashedNgramEmbedder()))());
    const entries: Array<RestoredDocs['entries'][number]> = [];
    for (const { doc, tags } of docsFromColumns(state.entries, (id) => shard.chunks.get(id)?.text)) {
      const slot = shard.turns.slotOf(doc.id);
      if (slot === undefined) throw new RangeError(`damaged docs state: ${doc.id} is not indexed`);
      entries.push({ doc, tags, slot });
    }
    return { shard, entries };
  }

  /** Puts restored docs (`docsFromState`, under the same embedder options) in place of this index's empty docs shard. */
  adoptDocs(restored: RestoredDocs): void {
    if (this.docEntries.size > 0 || this.docs.chunks.size > 0) throw new Error('docs are adopted into an empty docs shard only');
    (this as { docs: Shard }).docs = restored.shard;
    for (const { doc, tags, slot } of restored.entries) {
      this.docEntries.set(doc.id, doc);
      this._docAt[slot] = doc;
      this._docTagsAt[slot] = tags;
    }
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

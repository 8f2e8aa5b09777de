/**
 * Restores the layered memory from the saved index (index-snapshot.ts) at a page load, and saves it again in the
 * background after it changes. What each conversation in the memory reflects is tracked: the stamp of the stored
 * conversation it was read at, or CHANGED_HERE once this page changed it (a message, a reply, a regenerate). Before
 * a save, each conversation changed here is compared with its records: equal, it is saved with its stamp; not
 * equal, it is saved as changed, and the next load reads it again. So a saved index never claims more than holds.
 */
import type { LayeredMemory } from '../../memory/layered/index.ts';
import { RetrievalIndex, type RestoredDocs, type RetrievalIndexOptions, type TurnEntry, type UserMemory } from '../../memory/retrieval/index.ts';
import { CHANGED_HERE, coverOf, readSnapshot, sessionMarks, SNAPSHOT_FORMAT, snapshotKey, writeSnapshots, type MemoryStore, type SessionMark, type SnapshotId, type SnapshotRecord } from '../../memory/store/index.ts';
import { LOCAL_USER } from '../data/visible-turns.ts';
import { DERIVATION_VERSION } from './derived-turns.ts';
import type { ConversationChunkStore } from './layered-store.ts';

/** The key of the app's saved index under these settings (and the per-message derivations' version). */
export const appSnapshotKey = (settings: string): string => snapshotKey(`app|${DERIVATION_VERSION}|${settings}`);

/**
 * Quiet time after a change before the index is saved: a save runs on the page's thread (exporting 10,000 turns'
 * index took 0.1 s in Node, and IndexedDB then clones the record, 45 MB with 10,000 doc chunks).
 */
export const SAVE_DELAY_MS = 3_000;

export interface RestoreInput {
  store: MemoryStore;
  chunkStore: ConversationChunkStore;
  key: string;
  /** The stored conversations' marks, read before anything else. */
  marks: ReadonlyMap<string, SessionMark>;
  docs: string;
  indexOptions: RetrievalIndexOptions;
  make: (index: RetrievalIndex) => LayeredMemory;
  /** Turns to leave out (a message asked again). */
  exclude: ReadonlySet<string>;
}

export interface Restored {
  memory: LayeredMemory;
  /** Whether its conversations differ from the saved index (conversations read again, marks applied). */
  updated: boolean;
  /** Whether the docs came from their saved record (false: indexed again from the stored docs, to be saved). */
  docsKept: boolean;
  /** Conversations read again from their records, whole. */
  readAgain: string[];
  /** Conversations of which only the turns appended since were read. */
  appended: string[];
  /** What the memory now covers of each conversation (for the next save). */
  covered: Map<string, Covered>;
  /**
   * Milliseconds per step: reading the conversations' record, restoring them, the docs (restored when their record
   * was read: what is left to wait for), heat and gates, conversations read again, the rest.
   */
  steps: Record<'read' | 'restore' | 'docs' | 'side' | 'readAgain' | 'rest', number>;
}

/** The memory from the saved index, brought up to the store's records; null when there is none to use. */
export async function restoreMemory(input: RestoreInput): Promise<Restored | null> {
  let mark = performance.now();
  const lap = (): number => {
    const now = performance.now();
    const ms = Math.round(now - mark);
    mark = now;
    return ms;
  };
  // The docs' record is read beside the conversations' and restored as soon as it arrives, while the other may still
  // be on its way; the side records (heat, gates, void marks) are read meanwhile too: the restore needs them all.
  const savedDocs = readSnapshot(input.store, 'index-docs', input.key).then(
    (record) => restoredDocs(record, input.docs, input.indexOptions),
    () => null,
  );
  const [record] = await Promise.all([readSnapshot(input.store, 'index', input.key), input.chunkStore.readSideAhead()]);
  if (record === null) return null;
  const read = lap();
  let index: RetrievalIndex;
  try {
    index = RetrievalIndex.fromState({ users: record.state.users, docs: null }, input.indexOptions);
  } catch (error) {
    console.warn('[memory] the saved index does not hold together; building it from the records', error);
    return null;
  }
  const restore = lap();
  const docsRestored = await savedDocs;
  if (docsRestored !== null) index.adoptDocs(docsRestored);
  const docsKept = docsRestored !== null;
  const docs = lap();
  const memory = input.make(index);
  await memory.restoreUser(LOCAL_USER);
  const side = lap();
  const user = index.user(LOCAL_USER);
  let updated = false;
  for (const sessionId of [...user.sessions.keys()]) {
    if (input.marks.has(sessionId)) continue;
    memory.forgetSession(LOCAL_USER, sessionId);
    updated = true;
  }
  const covered = new Map<string, Covered>();
  const readAgain: string[] = [];
  const appended: string[] = [];
  for (const [id, mark] of input.marks) {
    const known = record.knownSeqs[id];
    const cover = coverOf(record.sessions[id], mark.stamp);
    if (cover === 'same') covered.set(id, { stamp: mark.stamp, knownSeq: known ?? 0 });
    else if (cover === 'appended' && known !== undefined) appended.push(id);
    else readAgain.push(id);
  }
  // Only appended since (a new message, a reply finished): those turns, by their seq, added at the end.
  for (const id of appended) {
    updated = true;
    const order = user.sessions.get(id) ?? [];
    const { turns, heat } = await input.chunkStore.appendedTurns(id, record.knownSeqs[id]!, order.length + 1);
    for (const turn of turns) {
      if (user.turns.has(turn.id)) continue;
      index.addTurn(turn);
      const h = heat.get(turn.id);
      if (h !== undefined) user.shard.setHeat(turn.id, h);
    }
    covered.set(id, coveredBy(input.marks.get(id)!, input.chunkStore.streamingFrom.get(id)));
  }
  if (readAgain.length > 0) {
    updated = true;
    for (const [sessionId, { turns, heat, gate }] of await input.chunkStore.sessionRecords(readAgain, { sideRead: true })) {
      memory.replaceSession(LOCAL_USER, sessionId, turns, heat, gate);
      covered.set(sessionId, coveredBy(input.marks.get(sessionId)!, input.chunkStore.streamingFrom.get(sessionId)));
    }
  }
  const again = lap();
  // Void marks set since, in conversations that did not change otherwise (a message voids turns of any).
  const deprecated = await input.chunkStore.deprecations();
  for (const turn of [...user.turns.values()]) {
    const at = deprecated.get(turn.id);
    if (at === turn.deprecatedAt) continue;
    const { deprecatedAt: _, ...rest } = turn;
    index.addTurn(at === undefined ? rest : { ...rest, deprecatedAt: at });
    updated = true;
  }
  for (const id of input.exclude) {
    const turn = user.turns.get(id);
    if (turn !== undefined) memory.forgetTurns(LOCAL_USER, turn.sessionId, [id]);
  }
  if (!docsKept) for (const doc of await input.chunkStore.listDocs()) index.addDoc(doc);
  return { memory, updated, docsKept, readAgain, appended, covered, steps: { read, restore, docs, side, readAgain: again, rest: lap() } };
}

/** The saved docs, restored, when they are the stored docs (`stamp`) and hold together; null: index them again. */
function restoredDocs(record: SnapshotRecord | null, stamp: string, options: RetrievalIndexOptions): RestoredDocs | null {
  if (record === null || record.docs !== stamp || record.state.docs === null) return null;
  try {
    return RetrievalIndex.docsFromState(record.state.docs, options);
  } catch (error) {
    console.warn('[memory] the saved docs index does not hold together; indexing the docs again', error);
    return null;
  }
}

/** What the memory covers of a conversation: the stamp it was read at, and the seq up to which it holds every finished turn. */
export interface Covered {
  stamp: string;
  knownSeq: number;
}

/** Read at `mark` (its record read first), with a reply from `streamingFrom` on not finished then (in no index). */
export const coveredBy = (mark: SessionMark, streamingFrom: number | undefined): Covered => ({
  stamp: mark.stamp,
  knownSeq: streamingFrom === undefined ? mark.lastSeq : Math.min(mark.lastSeq, streamingFrom - 1),
});

/** What a full read of the stored conversations covers (`listTurns` of every one, after `marks` were read). */
export function coveredAll(marks: ReadonlyMap<string, SessionMark>, streamingFrom: ReadonlyMap<string, number>): Map<string, Covered> {
  return new Map([...marks].map(([id, mark]) => [id, coveredBy(mark, streamingFrom.get(id))]));
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether the memory holds a conversation exactly as its records give it (order, text and what was worked out). */
function sameTurns(user: UserMemory, sessionId: string, turns: readonly TurnEntry[]): boolean {
  const ids = user.sessions.get(sessionId) ?? [];
  if (ids.length !== turns.length) return false;
  return turns.every((t, i) => {
    const m = user.turns.get(ids[i]!);
    const ok = (
      m !== undefined &&
      m.id === t.id &&
      m.text === t.text &&
      m.role === t.role &&
      m.time === t.time &&
      m.seq === t.seq &&
      m.deprecatedAt === t.deprecatedAt &&
      sameList(m.entities, t.entities) &&
      sameList(m.dates, t.dates) &&
      sameList(m.tags, t.tags)
    );
    return ok;
  });
}

/** What the keeper saves: the memory the planner uses now, with the store and key it was built with. */
export interface SaveTarget {
  memory: LayeredMemory;
  store: MemoryStore;
  chunkStore: ConversationChunkStore;
  key: string;
}

export class SnapshotKeeper {
  private _reflected = new Map<string, Covered | typeof CHANGED_HERE>();
  private _docs = '';
  /** The docs stamp of the docs' saved record when it holds this memory's docs, or null (write it at the next save). */
  private _docsSaved: string | null = null;
  private _changes = 0;
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _saving: Promise<void> = Promise.resolve();
  private _stopped = false;
  /** Saves done (for tests and benchmarks). */
  saves = 0;

  constructor(
    private readonly _target: () => SaveTarget | null,
    private readonly _delayMs = SAVE_DELAY_MS,
  ) {}

  /**
   * A memory was built or restored covering `covered` and the stored docs `docs`; `save`: its conversations differ
   * from the saved index; `docsKept`: its docs came from their saved record.
   */
  reset(covered: ReadonlyMap<string, Covered>, docs: string, save: boolean, docsKept: boolean): void {
    this.cancel();
    this._stopped = false;
    this._reflected = new Map(covered);
    this._docs = docs;
    this._docsSaved = docsKept ? docs : null;
    this._changes += 1;
    if (save || !docsKept) this.schedule();
  }

  /** This page changed a conversation in the memory. */
  changed(sessionId: string): void {
    this._reflected.set(sessionId, CHANGED_HERE);
    this._changes += 1;
    this.schedule();
  }

  /** A conversation left the memory. */
  gone(sessionId: string): void {
    this._reflected.delete(sessionId);
    this._changes += 1;
    this.schedule();
  }

  /** Conversations read again from their records (after `marks` were read), with their replies still streaming. */
  readAgain(marks: ReadonlyMap<string, SessionMark>, sessionIds: readonly string[], streamingFrom: ReadonlyMap<string, number>): void {
    for (const id of sessionIds) {
      const mark = marks.get(id);
      if (mark === undefined) this._reflected.delete(id);
      else this._reflected.set(id, coveredBy(mark, streamingFrom.get(id)));
    }
    this._changes += 1;
    this.schedule();
  }

  schedule(): void {
    if (this._timer !== null) clearTimeout(this._timer);
    this._timer = setTimeout(() => {
      this._timer = null;
      void this.saveNow();
    }, this._delayMs);
  }

  /** The store closes: no save is started on it, and one under way fails quietly. */
  stop(): void {
    this.cancel();
    this._stopped = true;
  }

  /** Drops a pending save (the memory is stale, or gone). */
  cancel(): void {
    if (this._timer !== null) clearTimeout(this._timer);
    this._timer = null;
  }

  /** Saves now (after any save under way). A failed save costs nothing but the next load's time. */
  saveNow(): Promise<void> {
    this.cancel();
    this._saving = this._saving.then(() =>
      this._save().catch((error: unknown) => {
        if (!this._stopped) console.warn('[memory] saving the retrieval index failed', error);
      }),
    );
    return this._saving;
  }

  private async _save(): Promise<void> {
    const target = this._target();
    if (target === null || this._stopped) return;
    const { memory, store, chunkStore, key } = target;
    const changes = this._changes;
    const here = [...this._reflected].filter(([, stamp]) => stamp === CHANGED_HERE).map(([id]) => id);
    if (here.length > 0) {
      const marks = sessionMarks(await store.listSessions());
      const records = await chunkStore.sessionRecords(here);
      // Changed again meanwhile: checked at the next save.
      if (this._target()?.memory !== memory || this._changes !== changes) return this.schedule();
      const user = memory.index.user(LOCAL_USER);
      for (const id of here) {
        const mark = marks.get(id);
        if (mark !== undefined && sameTurns(user, id, records.get(id)?.turns ?? [])) this._reflected.set(id, coveredBy(mark, chunkStore.streamingFrom.get(id)));
      }
    }
    const state = memory.index.exportState({ docs: false });
    const sessions: Record<string, string> = {};
    const knownSeqs: Record<string, number> = {};
    for (const [id, covered] of this._reflected) {
      if (covered === CHANGED_HERE) sessions[id] = CHANGED_HERE;
      else {
        sessions[id] = covered.stamp;
        knownSeqs[id] = covered.knownSeq;
      }
    }
    const savedAt = Date.now();
    const docs = this._docs;
    const records: Array<[SnapshotId, SnapshotRecord]> = [['index', { format: SNAPSHOT_FORMAT, key, sessions, knownSeqs, docs, state, savedAt }]];
    // The docs' record only when it does not hold these docs already: a message changes the conversations only.
    if (this._docsSaved !== docs) records.push(['index-docs', { format: SNAPSHOT_FORMAT, key, sessions: {}, knownSeqs: {}, docs, state: memory.index.exportState({ users: false }), savedAt }]);
    await writeSnapshots(store, records);
    if (this._target()?.memory === memory) this._docsSaved = docs;
    this.saves += 1;
  }
}

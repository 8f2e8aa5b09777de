/**
 * Restores the layered memory from the saved index (index-snapshot.ts) at a page load, and saves it again in the
 * background after it changes. What each conversation in the memory reflects is tracked: the stamp of the stored
 * conversation it was read at, or CHANGED_HERE once this page changed it (a message, a reply, a regenerate). Before
 * a save, each conversation changed here is compared with its records: equal, it is saved with its stamp; not
 * equal, it is saved as changed, and the next load reads it again. So a saved index never claims more than holds.
 */
import type { LayeredMemory } from '../../memory/layered/pipeline.ts';
import type { TurnEntry } from '../../memory/retrieval/records.ts';
import { RetrievalIndex, type RetrievalIndexOptions, type UserMemory } from '../../memory/retrieval/retrieval-index.ts';
import type { MemoryStore } from '../../memory/store/store.ts';
import { LOCAL_USER } from '../data/visible-turns.ts';
import { CHANGED_HERE, SNAPSHOT_FORMAT, readSnapshot, sessionStamps, snapshotKey, writeSnapshot } from '../../memory/store/index-snapshot.ts';
import { DERIVATION_VERSION } from './derived-turns.ts';

/** The key of the app's saved index under these settings (and the per-message derivations' version). */
export const appSnapshotKey = (settings: string): string => snapshotKey(`app|${DERIVATION_VERSION}|${settings}`);
import type { ConversationChunkStore } from './layered-store.ts';

/** Quiet time after a change before the index is saved (a save costs the page ~0.1–0.3 s at 10,000 messages). */
export const SAVE_DELAY_MS = 3_000;

export interface RestoreInput {
  store: MemoryStore;
  chunkStore: ConversationChunkStore;
  key: string;
  /** The stored conversations' stamps, read before anything else. */
  stamps: ReadonlyMap<string, string>;
  docs: string;
  indexOptions: RetrievalIndexOptions;
  make: (index: RetrievalIndex) => LayeredMemory;
  /** Turns to leave out (a message asked again). */
  exclude: ReadonlySet<string>;
}

export interface Restored {
  memory: LayeredMemory;
  /** Whether it differs from the saved index (conversations read again, docs indexed again, marks applied). */
  updated: boolean;
  /** Conversations read again from their records. */
  readAgain: string[];
  /** Milliseconds per step: reading the record, restoring the index, heat and gates, conversations read again, the rest. */
  steps: Record<'read' | 'restore' | 'side' | 'readAgain' | 'rest', number>;
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
  const record = await readSnapshot(input.store, 'index', input.key);
  if (record === null) return null;
  const read = lap();
  const docsKept = record.docs === input.docs && record.state.docs !== null;
  let index: RetrievalIndex;
  try {
    index = RetrievalIndex.fromState(docsKept ? record.state : { ...record.state, docs: null }, input.indexOptions);
  } catch (error) {
    console.warn('[memory] the saved index does not hold together; building it from the records', error);
    return null;
  }
  const restore = lap();
  const memory = input.make(index);
  await memory.restoreUser(LOCAL_USER);
  const side = lap();
  const user = index.user(LOCAL_USER);
  let updated = !docsKept;
  for (const sessionId of [...user.sessions.keys()]) {
    if (input.stamps.has(sessionId)) continue;
    memory.forgetSession(LOCAL_USER, sessionId);
    updated = true;
  }
  const readAgain = [...input.stamps].filter(([id, stamp]) => record.sessions[id] !== stamp).map(([id]) => id);
  if (readAgain.length > 0) {
    updated = true;
    for (const [sessionId, { turns, heat, gate }] of await input.chunkStore.sessionRecords(readAgain, { sideRead: true })) memory.replaceSession(LOCAL_USER, sessionId, turns, heat, gate);
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
  return { memory, updated, readAgain, steps: { read, restore, side, readAgain: again, rest: lap() } };
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
  private _reflected = new Map<string, string>();
  private _docs = '';
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

  /** A memory was built or restored reflecting `stamps`; `save`: it differs from the saved index. */
  reset(stamps: ReadonlyMap<string, string>, docs: string, save: boolean): void {
    this.cancel();
    this._stopped = false;
    this._reflected = new Map(stamps);
    this._docs = docs;
    this._changes += 1;
    if (save) this.schedule();
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

  /** Conversations read again from their records, whose stamps were read before. */
  readAgain(stamps: ReadonlyMap<string, string>, sessionIds: readonly string[]): void {
    for (const id of sessionIds) {
      const stamp = stamps.get(id);
      if (stamp === undefined) this._reflected.delete(id);
      else this._reflected.set(id, stamp);
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
      const stamps = sessionStamps(await store.listSessions());
      const records = await chunkStore.sessionRecords(here);
      // Changed again meanwhile: checked at the next save.
      if (this._target()?.memory !== memory || this._changes !== changes) return this.schedule();
      const user = memory.index.user(LOCAL_USER);
      for (const id of here) {
        const stamp = stamps.get(id);
        if (stamp !== undefined && sameTurns(user, id, records.get(id)?.turns ?? [])) this._reflected.set(id, stamp);
      }
    }
    const state = memory.index.exportState();
    await writeSnapshot(store, 'index', { format: SNAPSHOT_FORMAT, key, sessions: Object.fromEntries(this._reflected), docs: this._docs, state, savedAt: Date.now() });
    this.saves += 1;
  }
}

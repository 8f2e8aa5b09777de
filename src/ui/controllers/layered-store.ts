/**
 * The layered memory's durable records (`ChunkStore`) on top of the conversation store, so there is one copy of
 * every message: turns are the MemoryStore's (the chat writes them before the pipeline runs, so `putTurn` only
 * keeps the flags the pipeline adds), and the small rest — each session's gate state, deprecations and heat — is
 * kept in the same IndexedDB database (`MemoryStore.putLayeredSide`), so it survives a reload, is shared by the
 * tabs and goes with its conversation. Older versions kept it in localStorage: it is moved over once. Hidden turns
 * (replaced by a regenerate or an edit) are left out. Docs are the store's docs namespace (imported Markdown
 * folders), each chunk named by its file path and heading.
 */
import type { DocChunkRecord, LayeredSideEntry, MemoryStore, TurnRecord } from '../../memory/store/index.ts';
import { InMemoryChunkStore, type ChunkStore, type DocEntry, type HeatEntry, type SessionEntry, type TurnEntry } from '../../memory/retrieval/index.ts';
import type { WorkingMemoryPort } from '../../memory/layered/index.ts';
import { deriveTurn, isDerivedTurn, stampOf, type DerivedTurn } from './derived-turns.ts';
import { LOCAL_USER, isForgotten, isVisibleTurn } from '../data/visible-turns.ts';
import { groupExchanges } from '../data/exchanges.ts';
import { isKeptState, type KeptContextState } from '../../context/kept-state.ts';

/** Where versions before the store kept this state; read once, moved into the store, then removed. */
export const LAYERED_STORAGE_KEY = 'qwen.layered.v1';

interface SideData {
  sessions: Map<string, SessionEntry>;
  deprecated: Map<string, number>;
  heat: Map<string, HeatEntry>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isSession = (v: unknown): v is SessionEntry =>
  isObject(v) && typeof v['sessionId'] === 'string' && typeof v['userId'] === 'string' && typeof v['lastAt'] === 'number' && Array.isArray(v['entities']);
const isHeat = (v: unknown): v is HeatEntry => isObject(v) && typeof v['chances'] === 'number' && typeof v['recalls'] === 'number' && typeof v['missStreak'] === 'number';
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** A conversation's kept derivations by turn id (each entry checked where it is used); anything else is none. */
const derivedRecordOf = (v: unknown): Record<string, unknown> => (isObject(v) && !Array.isArray(v) ? v : {});

/** A stored turn the memory holds: shown, finished, not empty, not forgotten by the user, and not left out. */
const isIndexed = (t: TurnRecord, exclude: ReadonlySet<string>): boolean =>
  isVisibleTurn(t) && !isForgotten(t) && t.status !== 'streaming' && t.content !== '' && !exclude.has(t.id);

/** The stored heat of these turns (those that have some). */
function heatOf(turns: readonly TurnEntry[], side: SideData): Map<string, HeatEntry> {
  const heat = new Map<string, HeatEntry>();
  for (const t of turns) {
    const h = side.heat.get(t.id);
    if (h !== undefined) heat.set(t.id, h);
  }
  return heat;
}

/** Only records of the right shape: anything else (a hand-edited or damaged record) is as if never written. */
function checked<T>(entries: Map<string, unknown>, valid: (v: unknown) => v is T): Map<string, T> {
  const out = new Map<string, T>();
  for (const [id, value] of entries) if (valid(value)) out.set(id, value);
  return out;
}

function parseOld(raw: string): { sessions?: unknown; deprecated?: unknown; heat?: unknown } | null {
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) ? value : null;
  } catch {
    return null; // unreadable: nothing to move
  }
}

/** The state an older version left in localStorage, moved into the store (and removed there once stored). */
async function moveFromLocalStorage(store: MemoryStore): Promise<void> {
  let raw: string | null = null;
  try {
    raw = globalThis.localStorage?.getItem(LAYERED_STORAGE_KEY) ?? null;
  } catch {
    return;
  }
  if (raw === null) return;
  const parsed = parseOld(raw);
  const entries: LayeredSideEntry[] = [];
  const add = (kind: LayeredSideEntry['kind'], record: unknown, valid: (v: unknown) => boolean): void => {
    if (!isObject(record)) return;
    for (const [id, data] of Object.entries(record)) if (valid(data)) entries.push({ kind, id, data });
  };
  add('session', parsed?.sessions, isSession);
  add('deprecated', parsed?.deprecated, isTime);
  add('heat', parsed?.heat, isHeat);
  await store.putLayeredSide(entries);
  try {
    globalThis.localStorage?.removeItem(LAYERED_STORAGE_KEY);
  } catch {
    // Stays; the next move writes the same records again.
  }
}

/**
 * Writes still on their way, per store, in order. A prompt never waits for them (the state is the pipeline's own
 * bookkeeping, and the page holds it meanwhile); a memory built again reads the store only after them.
 */
const pendingWrites = new WeakMap<MemoryStore, Promise<void>>();

function enqueueWrite(store: MemoryStore, entries: LayeredSideEntry[]): void {
  if (entries.length === 0) return;
  const next = (pendingWrites.get(store) ?? Promise.resolve())
    .then(() => store.putLayeredSide(entries))
    // A failed write (a full disk, a closed store) costs the prompt nothing: the page keeps the state.
    .catch((error: unknown) => console.warn('[memory] saving the layered memory state failed', error));
  pendingWrites.set(store, next);
}

/** Resolves once the writes queued so far for `store` are done (or failed). */
export function layeredWritesDone(store: MemoryStore): Promise<void> {
  return pendingWrites.get(store) ?? Promise.resolve();
}

/** Reads the side state from the store (after its pending writes, and after moving an older version's). */
async function readSide(store: MemoryStore): Promise<SideData> {
  await pendingWrites.get(store);
  await moveFromLocalStorage(store);
  const [sessions, deprecated, heat] = await Promise.all([store.listLayeredSide('session'), store.listLayeredSide('deprecated'), store.listLayeredSide('heat')]);
  return { sessions: checked(sessions, isSession), deprecated: checked(deprecated, isTime), heat: checked(heat, isHeat) };
}

/** One conversation's records as the memory takes them in (`LayeredMemory.replaceSession`). */
export interface SessionRecords {
  turns: TurnEntry[];
  heat: Map<string, HeatEntry>;
  gate: SessionEntry | undefined;
}

export class ConversationChunkStore implements ChunkStore {
  /** Read once, when the memory is built (`listTurns` comes first); written through on every change. */
  private _side: Promise<SideData> | null = null;
  /** Docs added during the session (`LayeredMemory.addDoc`) stay in memory; the stored ones are the store's. */
  private readonly _docs = new InMemoryChunkStore();

  constructor(
    private readonly _store: MemoryStore,
    private readonly _wm: WorkingMemoryPort,
    /** Turns to leave out of the next rebuild (the message being asked again). */
    private readonly _exclude: ReadonlySet<string> = new Set(),
    /** What of a stored text the memory keeps: the part a prompt can hold (the planner's `promptHead`). */
    private readonly _head: (text: string) => string = (text) => text,
    /** What else the derivation depends on (the window `_head` keeps to, the time zone dates resolve in). */
    private readonly _setting = '',
  ) {}

  /** Turns whose derivation the last `listTurns` read from the store, and those it worked out (for tests and benches). */
  private readonly _derivations = { read: 0, worked: 0 };
  get derivations(): { readonly read: number; readonly worked: number } {
    return this._derivations;
  }

  private _sideData(): Promise<SideData> {
    this._side ??= readSide(this._store);
    return this._side;
  }

  /** Reads the side records (gates, heat, void marks) now, so that a restore can read them while it reads its record. */
  async readSideAhead(): Promise<void> {
    await this._sideData();
  }

  async putTurn(turn: TurnEntry): Promise<void> {
    if (turn.deprecatedAt === undefined) return;
    (await this._sideData()).deprecated.set(turn.id, turn.deprecatedAt);
    this._write([{ kind: 'deprecated', id: turn.id, data: turn.deprecatedAt }]);
  }

  /**
   * Every visible turn as the pipeline's record. What is worked out from each text comes from the store where a
   * record of it matches (`derived-turns.ts`; one record per conversation, by turn id: a load reads 50 records, not
   * 10,000); the others are worked out, and the records written in the background, so the next load finds them.
   */
  async listTurns(userId: string): Promise<TurnEntry[]> {
    if (userId !== LOCAL_USER) return [];
    const [side, known] = await Promise.all([this._sideData(), this._store.listLayeredSide('derived')]);
    this._derivations.read = 0;
    this._derivations.worked = 0;
    const out: TurnEntry[] = [];
    for (const session of await this._store.listSessions()) out.push(...(await this._sessionTurns(session.id, side, known, this._exclude)));
    return out;
  }

  /** Every void mark as stored (turn id → when), for a memory restored from a saved index. */
  async deprecations(): Promise<ReadonlyMap<string, number>> {
    return (await this._sideData()).deprecated;
  }

  /**
   * Conversations as stored now, for a memory that takes them in place (another tab wrote to them): each one's
   * turns as `listTurns` gives them, their heat and its gate state, read again from the store (the other tab may
   * have written those too; `sideRead`: the caller read it just now). Only these conversations' records are read.
   * A conversation no longer stored comes back with no turns.
   */
  async sessionRecords(sessionIds: readonly string[], options: { sideRead?: boolean } = {}): Promise<Map<string, SessionRecords>> {
    // The side state as stored now (another tab may have written it), unless it was just read (`sideRead`).
    if (options.sideRead !== true) this._side = null;
    const [side, derived] = await Promise.all([
      this._sideData(),
      Promise.all(sessionIds.map(async (id) => [id, await this._store.getLayeredSide('derived', id)] as const)),
    ]);
    const known = new Map<string, unknown>(derived);
    this._derivations.read = 0;
    this._derivations.worked = 0;
    const out = new Map<string, SessionRecords>();
    for (const sessionId of sessionIds) {
      const turns = await this._sessionTurns(sessionId, side, known, new Set());
      out.set(sessionId, { turns, heat: heatOf(turns, side), gate: side.sessions.get(sessionId) });
    }
    return out;
  }

  /**
   * A conversation's visible turns in the prompt's order, each derivation read from the conversation's record in
   * `known` or worked out. The record is written again (in the background) when something was worked out or it
   * holds turns no longer shown, so it always covers exactly the conversation's visible turns.
   */
  private async _sessionTurns(sessionId: string, side: SideData, known: Map<string, unknown>, exclude: ReadonlySet<string>): Promise<TurnEntry[]> {
    const all = await this._store.listTurns(sessionId);
    this._noteStreaming(sessionId, all);
    const turns = all.filter((t) => isIndexed(t, exclude));
    const stored = derivedRecordOf(known.get(sessionId));
    const record: Record<string, DerivedTurn> = {};
    let worked = 0;
    // The prompt's history follows this order: each reply after its question, even in interleaved old data.
    const out = groupExchanges(turns).map((t, i) => {
      const { derived, fresh } = this._derivation(t, stored);
      if (fresh) worked++;
      record[t.id] = derived;
      return this._entry(t, i + 1, derived, side);
    });
    this._derivations.read += out.length - worked;
    this._derivations.worked += worked;
    if (worked > 0 || Object.keys(stored).length !== out.length) this._write([{ kind: 'derived', id: sessionId, data: record }]);
    return out;
  }

  /**
   * Per conversation read last: the seq of its first reply still streaming (in no index yet), absent when none. A
   * saved index covers a conversation only up to before it (snapshot-keeper.ts).
   */
  readonly streamingFrom = new Map<string, number>();

  private _noteStreaming(sessionId: string, turns: readonly TurnRecord[]): void {
    const first = turns.find((t) => t.status === 'streaming');
    if (first === undefined) this.streamingFrom.delete(sessionId);
    else this.streamingFrom.set(sessionId, first.seq);
  }

  /**
   * The turns of a conversation stored after `afterSeq` (appended since a saved index covered it), as `listTurns`
   * gives them, numbered on from `nextSeq`, with their heat; the conversation's kept derivations gain theirs.
   */
  async appendedTurns(sessionId: string, afterSeq: number, nextSeq: number): Promise<{ turns: TurnEntry[]; heat: Map<string, HeatEntry> }> {
    const [side, stored] = await Promise.all([this._sideData(), this._store.getLayeredSide('derived', sessionId)]);
    const all = await this._store.listTurns(sessionId, { afterSeq });
    this._noteStreaming(sessionId, all);
    const kept = derivedRecordOf(stored);
    const added: Record<string, DerivedTurn> = {};
    const turns = groupExchanges(all.filter((t) => isIndexed(t, this._exclude))).map((t, i) => {
      const { derived, fresh } = this._derivation(t, kept);
      if (fresh) added[t.id] = derived;
      return this._entry(t, nextSeq + i, derived, side);
    });
    if (Object.keys(added).length > 0) this._write([{ kind: 'derived', id: sessionId, data: { ...kept, ...added } }]);
    return { turns, heat: heatOf(turns, side) };
  }

  /** A turn's derivation: the kept one while it matches the text as stored now, else worked out (`fresh`). */
  private _derivation(t: TurnRecord, kept: Record<string, unknown>): { derived: DerivedTurn; fresh: boolean } {
    const stamp = stampOf(t.content, this._setting);
    const entry = kept[t.id];
    if (isDerivedTurn(entry) && entry.stamp === stamp && entry.head <= t.content.length) return { derived: entry, fresh: false };
    return { derived: deriveTurn(this._head(t.content), t.createdAt, stamp, this._wm), fresh: true };
  }

  async putSession(session: SessionEntry): Promise<void> {
    (await this._sideData()).sessions.set(session.sessionId, session);
    this._write([{ kind: 'session', id: session.sessionId, data: session }]);
  }

  async listSessions(userId: string): Promise<SessionEntry[]> {
    if (userId !== LOCAL_USER) return [];
    const live = new Set((await this._store.listSessions()).map((s) => s.id));
    return [...(await this._sideData()).sessions.values()].filter((s) => live.has(s.sessionId));
  }

  putDoc(doc: DocEntry): Promise<void> {
    return this._docs.putDoc(doc);
  }

  /** The store's docs, then those added during the session. */
  async listDocs(): Promise<DocEntry[]> {
    const summaries = await this._store.listDocs();
    const stored = await Promise.all(summaries.map((d) => this._store.listDocChunks(d.docId)));
    return [...stored.flat().map(docEntry), ...(await this._docs.listDocs())];
  }

  async putHeat(entries: ReadonlyMap<string, HeatEntry>): Promise<void> {
    const side = await this._sideData();
    for (const [id, heat] of entries) side.heat.set(id, heat);
    this._write([...entries].map(([id, data]) => ({ kind: 'heat' as const, id, data })));
  }

  async listHeat(ids: readonly string[]): Promise<Map<string, HeatEntry>> {
    const side = await this._sideData();
    const out = new Map<string, HeatEntry>();
    for (const id of ids) {
      const heat = side.heat.get(id);
      if (heat !== undefined) out.set(id, heat);
    }
    return out;
  }

  putContext(userId: string, sessionId: string, state: KeptContextState | null): Promise<void> {
    if (userId === LOCAL_USER) this._write([{ kind: 'context', id: sessionId, data: state }]);
    return Promise.resolve();
  }

  /** A conversation's kept context state, after the writes queued before (null: none, or malformed, or older). */
  async getContext(userId: string, sessionId: string): Promise<KeptContextState | null> {
    if (userId !== LOCAL_USER) return null;
    await layeredWritesDone(this._store);
    const data = await this._store.getLayeredSide('context', sessionId);
    return isKeptState(data) ? data : null;
  }

  /** The pipeline's record of a stored turn. */
  private _entry(t: TurnRecord, seq: number, derived: DerivedTurn, side: SideData): TurnEntry {
    const deprecatedAt = side.deprecated.get(t.id);
    return {
      id: t.id,
      userId: LOCAL_USER,
      sessionId: t.sessionId,
      seq,
      role: t.role === 'assistant' ? 'assistant' : 'user',
      time: t.createdAt,
      text: t.content.slice(0, derived.head),
      entities: derived.entities,
      dates: derived.dates,
      tags: derived.tags,
      ...(deprecatedAt === undefined ? {} : { deprecatedAt }),
    };
  }

  private _write(entries: LayeredSideEntry[]): void {
    enqueueWrite(this._store, entries);
  }
}

/** How a stored doc chunk names its origin in the prompt: its file path (or URL) and heading. */
export function docEntry(chunk: DocChunkRecord): DocEntry {
  const meta = chunk.meta;
  const source = meta === undefined ? chunk.source : meta.heading === '' ? meta.url : `${meta.url} › ${meta.heading}`;
  return { id: chunk.id, docId: chunk.docId, source, part: chunk.part, text: chunk.text };
}

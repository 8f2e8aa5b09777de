/**
 * Working memory that survives a reload and is shared by the tabs: the layered pipeline's `SessionWorkingMemory`,
 * with each session's state read from the store before its first prompt and written back, whole and in one
 * transaction, after each message that changed it. The rules (overwrite, 24 h expiry, pinning) stay where they are;
 * expiry is decided from the stored `expiresAt` against the message's own time, so it holds across reloads.
 * Sessions are named as the pipeline names them (`sessionKey(user, session)`); records carry the store's session
 * id, so deleting a conversation deletes its items.
 */
import type { WorkingItemRecord } from '../store/index.ts';
import type { Extraction } from '../working-memory/index.ts';
import type { Lang } from './labels.ts';
import { sessionIdOf } from './session-key.ts';
import { SessionWorkingMemory, type Observation, type SessionSnapshot, type WmItem, type WmLine, type WorkingMemoryOptions, type WorkingMemoryPort } from './working-memory.ts';

/** One stored item, as the record store keeps it. */
export type StoredWorkingItem = WorkingItemRecord;

/** What this needs of the record store (MemoryStore has it). */
export interface WorkingItemStore {
  listWorkingItems(sessionId: string | null, options?: { includeExpired?: boolean }): Promise<StoredWorkingItem[]>;
  replaceSessionWorkingItems(sessionId: string, items: readonly StoredWorkingItem[]): Promise<void>;
}

const ENTITY = 'entity';
const FACT = 'fact';
const TOPIC = 'topic';
const VOID_TOPIC = 'dropped-topic';

/** The records for a session's state: one per item, one per void topic (in order). */
export function recordsOf(sessionId: string, snapshot: SessionSnapshot): StoredWorkingItem[] {
  const items = snapshot.items.map(([id, item]) => ({
    id: `${sessionId}|${id}`,
    sessionId,
    kind: item.kind === 'entity' ? ENTITY : item.kind === 'topic' ? TOPIC : FACT,
    key: item.kind === 'entity' ? (item.key ?? id) : item.name,
    name: item.name,
    value: item.value,
    sourceTurnId: item.sourceTurnId,
    createdAt: item.firstAt,
    updatedAt: item.lastAt,
    expiresAt: item.expiresAt,
    pinned: item.expiresAt === null,
  }));
  const topics = snapshot.deprecated.map((topic, i) => ({
    id: `${sessionId}|void:${String(i).padStart(6, '0')}`,
    sessionId,
    kind: VOID_TOPIC,
    key: String(i).padStart(6, '0'),
    value: topic,
    sourceTurnId: null,
    createdAt: i,
    updatedAt: i,
    expiresAt: null,
    pinned: true,
  }));
  return [...items, ...topics];
}

/** A session's state from its records; records of other kinds (or other sessions) are left alone. */
export function snapshotOf(sessionId: string, records: readonly StoredWorkingItem[]): SessionSnapshot {
  const prefix = `${sessionId}|`;
  const mine = records.filter((r) => r.sessionId === sessionId && r.id.startsWith(prefix));
  const items: Array<readonly [string, WmItem]> = [];
  for (const r of mine) {
    if (r.kind !== ENTITY && r.kind !== FACT && r.kind !== TOPIC) continue;
    const item: WmItem = {
      kind: r.kind === ENTITY ? 'entity' : r.kind === TOPIC ? 'topic' : 'fact',
      name: r.name ?? r.key,
      value: r.value,
      ...(r.kind === ENTITY ? { key: r.key } : {}),
      firstAt: r.createdAt,
      lastAt: r.updatedAt,
      expiresAt: r.pinned ? null : r.expiresAt,
      sourceTurnId: r.sourceTurnId,
    };
    items.push([r.id.slice(prefix.length), item]);
  }
  const deprecated = mine
    .filter((r) => r.kind === VOID_TOPIC)
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((r) => r.value);
  return { items, deprecated };
}

export class DurableWorkingMemory implements WorkingMemoryPort {
  private readonly _inner: SessionWorkingMemory;
  /** Sessions read from the store, and the state last written (to skip writes that change nothing). */
  private readonly _loaded = new Map<string, string>();

  constructor(
    private readonly _store: WorkingItemStore,
    options: WorkingMemoryOptions = {},
  ) {
    this._inner = new SessionWorkingMemory(options);
  }

  /** Reads the session's stored state, once (until `forget`): call before its prompt is planned. */
  async load(key: string): Promise<void> {
    if (this._loaded.has(key)) return;
    const sessionId = sessionIdOf(key);
    const records = await this._store.listWorkingItems(sessionId, { includeExpired: true });
    const snapshot = snapshotOf(sessionId, records);
    this._inner.importSession(key, snapshot);
    this._loaded.set(key, JSON.stringify(recordsOf(sessionId, snapshot)));
  }

  /** Writes the session's state when a message changed it. */
  async save(key: string): Promise<void> {
    // Forgotten since it was loaded (the user corrected the store, or another tab wrote): what this page holds is
    // no longer the whole state, and writing it would delete the rest. The store's version stands.
    if (!this._loaded.has(key)) return;
    const sessionId = sessionIdOf(key);
    const records = recordsOf(sessionId, this._inner.exportSession(key));
    const json = JSON.stringify(records);
    if (this._loaded.get(key) === json) return;
    await this._store.replaceSessionWorkingItems(sessionId, records);
    this._loaded.set(key, json);
  }

  /** Forgets what this page holds for a store session (or all): the next `load` reads the store again. */
  forget(sessionId?: string): void {
    for (const key of [...this._loaded.keys()]) {
      if (sessionId !== undefined && sessionIdOf(key) !== sessionId) continue;
      this._inner.forget(key);
      this._loaded.delete(key);
    }
  }

  extract(text: string, now: number): Extraction {
    return this._inner.extract(text, now);
  }

  observe(sessionId: string, extraction: Observation, now: number, turnId: string | null): void {
    this._inner.observe(sessionId, extraction, now, turnId);
  }

  items(sessionId: string, now: number): WmItem[] {
    return this._inner.items(sessionId, now);
  }

  deprecated(sessionId: string): readonly string[] {
    return this._inner.deprecated(sessionId);
  }

  render(sessionId: string, lang: Lang, now: number): string {
    return this._inner.render(sessionId, lang, now);
  }

  lines(sessionId: string, lang: Lang, now: number): WmLine[] {
    return this._inner.lines(sessionId, lang, now);
  }
}

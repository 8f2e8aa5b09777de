/**
 * The layered memory's durable records (`ChunkStore`) on top of the conversation store, so there is one copy of
 * every message: turns are the MemoryStore's (the chat writes them before the pipeline runs, so `putTurn` only
 * keeps the flags the pipeline adds), and the small rest — each session's gate state, deprecations and heat — is
 * kept in localStorage. Hidden turns (replaced by a regenerate or an edit) are left out. Docs are the store's docs
 * namespace (imported Markdown folders), each chunk named by its file path and heading.
 */
import type { MemoryStore } from '../../memory/store.ts';
import type { DocChunkRecord, TurnRecord } from '../../memory/records.ts';
import { intentTags } from '../../memory/retrieval/intent.ts';
import { keyTerms } from '../../memory/retrieval/key-terms.ts';
import { InMemoryChunkStore, type ChunkStore, type DocEntry, type HeatEntry, type SessionEntry, type TurnEntry } from '../../memory/retrieval/records.ts';
import type { WorkingMemoryPort } from '../../memory/layered/working-memory.ts';
import { LOCAL_USER, isVisibleTurn } from '../data/visible-turns.ts';
import { groupExchanges } from '../data/exchanges.ts';

export const LAYERED_STORAGE_KEY = 'qwen.layered.v1';

interface SideData {
  sessions: Record<string, SessionEntry>;
  deprecated: Record<string, number>;
  heat: Record<string, HeatEntry>;
}

function readSide(): SideData {
  try {
    const parsed = JSON.parse(globalThis.localStorage?.getItem(LAYERED_STORAGE_KEY) ?? 'null') as Partial<SideData> | null;
    return { sessions: parsed?.sessions ?? {}, deprecated: parsed?.deprecated ?? {}, heat: parsed?.heat ?? {} };
  } catch {
    return { sessions: {}, deprecated: {}, heat: {} };
  }
}

export class ConversationChunkStore implements ChunkStore {
  private readonly _side = readSide();
  /** Docs added during the session (`LayeredMemory.addDoc`) stay in memory; the stored ones are the store's. */
  private readonly _docs = new InMemoryChunkStore();

  constructor(
    private readonly _store: MemoryStore,
    private readonly _wm: WorkingMemoryPort,
    /** Turns to leave out of the next rebuild (the message being asked again). */
    private readonly _exclude: ReadonlySet<string> = new Set(),
    /** What of a stored text the memory keeps: the part a prompt can hold (the planner's `promptHead`). */
    private readonly _head: (text: string) => string = (text) => text,
  ) {}

  putTurn(turn: TurnEntry): Promise<void> {
    if (turn.deprecatedAt !== undefined) {
      this._side.deprecated[turn.id] = turn.deprecatedAt;
      this._save();
    }
    return Promise.resolve();
  }

  async listTurns(userId: string): Promise<TurnEntry[]> {
    if (userId !== LOCAL_USER) return [];
    const out: TurnEntry[] = [];
    for (const session of await this._store.listSessions()) {
      const turns = (await this._store.listTurns(session.id)).filter(
        (t) => isVisibleTurn(t) && t.status !== 'streaming' && t.content !== '' && !this._exclude.has(t.id),
      );
      // The prompt's history follows this order: each reply after its question, even in interleaved old data.
      groupExchanges(turns).forEach((t, i) => out.push(this._entry(t, i + 1)));
    }
    return out;
  }

  putSession(session: SessionEntry): Promise<void> {
    this._side.sessions[session.sessionId] = session;
    this._save();
    return Promise.resolve();
  }

  async listSessions(userId: string): Promise<SessionEntry[]> {
    if (userId !== LOCAL_USER) return [];
    const live = new Set((await this._store.listSessions()).map((s) => s.id));
    return Object.values(this._side.sessions).filter((s) => live.has(s.sessionId));
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

  putHeat(entries: ReadonlyMap<string, HeatEntry>): Promise<void> {
    for (const [id, heat] of entries) this._side.heat[id] = heat;
    this._save();
    return Promise.resolve();
  }

  listHeat(ids: readonly string[]): Promise<Map<string, HeatEntry>> {
    const out = new Map<string, HeatEntry>();
    for (const id of ids) {
      const heat = this._side.heat[id];
      if (heat !== undefined) out.set(id, heat);
    }
    return Promise.resolve(out);
  }

  /** The pipeline's record of a stored turn (the same derivation it applies to a new message). */
  private _entry(t: TurnRecord, seq: number): TurnEntry {
    const text = this._head(t.content);
    const extraction = this._wm.extract(text, t.createdAt);
    const typed = extraction.entities.map((e) => `${e.type}:${e.value.toLowerCase()}`);
    const deprecatedAt = this._side.deprecated[t.id];
    return {
      id: t.id,
      userId: LOCAL_USER,
      sessionId: t.sessionId,
      seq,
      role: t.role === 'assistant' ? 'assistant' : 'user',
      time: t.createdAt,
      text,
      entities: [...new Set([...typed, ...keyTerms(text)])],
      dates: [...new Set(extraction.entities.filter((e) => e.type === 'date').map((e) => e.value))],
      tags: intentTags(text),
      ...(deprecatedAt === undefined ? {} : { deprecatedAt }),
    };
  }

  private _save(): void {
    try {
      globalThis.localStorage?.setItem(LAYERED_STORAGE_KEY, JSON.stringify(this._side));
    } catch {
      // Over quota or private mode: the gate state and heat are rebuilt over time; nothing the user wrote is lost.
    }
  }
}

/** How a stored doc chunk names its origin in the prompt: its file path (or URL) and heading. */
export function docEntry(chunk: DocChunkRecord): DocEntry {
  const meta = chunk.meta;
  const source = meta === undefined ? chunk.source : meta.heading === '' ? meta.url : `${meta.url} › ${meta.heading}`;
  return { id: chunk.id, docId: chunk.docId, source, part: chunk.part, text: chunk.text };
}

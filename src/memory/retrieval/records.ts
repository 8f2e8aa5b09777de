/**
 * The plain records retrieval works on (structured-clone and JSON safe), and the small store interface that
 * keeps them durable. The in-memory class here serves Node (eval, tests); the app backs the same interface
 * with IndexedDB. Everything a search needs at speed lives in the in-memory `RetrievalIndex`, rebuilt from
 * these records at start-up, so the store only has to put and list.
 */
import type { IntentTag } from './intent.ts';
import type { KeptContextState } from '../../context/kept-state.ts';

export type TurnRole = 'user' | 'assistant';

export interface TurnEntry {
  readonly id: string;
  /** Whose memory this is: retrieval never crosses users. */
  readonly userId: string;
  readonly sessionId: string;
  /** 1, 2, 3… within the session. */
  readonly seq: number;
  readonly role: TurnRole;
  /** A display name when one is known (a transcript's speakers); the app leaves it out. */
  readonly speaker?: string;
  /** Epoch ms when the turn was written. */
  readonly time: number;
  readonly text: string;
  /** Entity keys (working-memory entities and key terms), for overlap. */
  readonly entities: readonly string[];
  /** ISO dates the turn mentions, resolved against its own time. */
  readonly dates: readonly string[];
  readonly tags: readonly IntentTag[];
  /** Set when a later message declared the topic void: never retrieved again. */
  readonly deprecatedAt?: number;
}

/** A chunk of a document: its own namespace, labelled as documentation, never as conversation. */
export interface DocEntry {
  readonly id: string;
  readonly docId: string;
  /** Where it came from (title or URL), shown with the chunk. */
  readonly source: string;
  readonly part: number;
  readonly text: string;
}

export interface SessionEntry {
  readonly userId: string;
  readonly sessionId: string;
  readonly startedAt: number;
  readonly lastAt: number;
  /** User messages so far (the warm start counts them). */
  readonly userTurns: number;
  /** Entity keys seen in the session's user messages. */
  readonly entities: readonly string[];
  /**
   * Once other sessions' history is open for this session it stays open; with the session that opened it (its own id,
   * and the words, when a message that asked about an earlier conversation opened it).
   */
  readonly historyOpen: boolean;
  readonly openedBy?: { readonly sessionId: string; readonly shared: readonly string[] };
}

/** Retrieval statistics of one chunk (turn or doc chunk), for heat. */
export interface HeatEntry {
  /** Searches where it was a candidate. */
  readonly chances: number;
  /** Of those, how many injected it. */
  readonly recalls: number;
  /** Candidate this many times in a row without being injected. */
  readonly missStreak: number;
  readonly lastRecalledAt: number | null;
}

export const NO_HEAT: HeatEntry = Object.freeze({ chances: 0, recalls: 0, missStreak: 0, lastRecalledAt: null });

/** What the layered memory keeps durable. Small on purpose: puts, and lists to rebuild from. */
export interface ChunkStore {
  /** Inserts or replaces (by id). */
  putTurn(turn: TurnEntry): Promise<void>;
  /** Every turn of a user, in no particular order. */
  listTurns(userId: string): Promise<TurnEntry[]>;
  putSession(session: SessionEntry): Promise<void>;
  listSessions(userId: string): Promise<SessionEntry[]>;
  putDoc(doc: DocEntry): Promise<void>;
  listDocs(): Promise<DocEntry[]>;
  putHeat(entries: ReadonlyMap<string, HeatEntry>): Promise<void>;
  listHeat(ids: readonly string[]): Promise<Map<string, HeatEntry>>;
  /**
   * The context state of a session's last prompt (null: none), so the prompt after a page load continues it. A
   * store without these starts every session's prompt afresh after a load.
   */
  putContext?(userId: string, sessionId: string, state: KeptContextState | null): Promise<void>;
  getContext?(userId: string, sessionId: string): Promise<KeptContextState | null>;
}

/** The store in memory: for Node (the eval), tests, and a tab without IndexedDB. */
export class InMemoryChunkStore implements ChunkStore {
  private readonly _turns = new Map<string, Map<string, TurnEntry>>();
  private readonly _sessions = new Map<string, Map<string, SessionEntry>>();
  private readonly _docs = new Map<string, DocEntry>();
  private readonly _heat = new Map<string, HeatEntry>();
  private readonly _contexts = new Map<string, Map<string, KeptContextState>>();

  putTurn(turn: TurnEntry): Promise<void> {
    let turns = this._turns.get(turn.userId);
    if (turns === undefined) this._turns.set(turn.userId, (turns = new Map()));
    turns.set(turn.id, turn);
    return Promise.resolve();
  }

  listTurns(userId: string): Promise<TurnEntry[]> {
    return Promise.resolve([...(this._turns.get(userId)?.values() ?? [])]);
  }

  putSession(session: SessionEntry): Promise<void> {
    let sessions = this._sessions.get(session.userId);
    if (sessions === undefined) this._sessions.set(session.userId, (sessions = new Map()));
    sessions.set(session.sessionId, session);
    return Promise.resolve();
  }

  listSessions(userId: string): Promise<SessionEntry[]> {
    return Promise.resolve([...(this._sessions.get(userId)?.values() ?? [])]);
  }

  putDoc(doc: DocEntry): Promise<void> {
    this._docs.set(doc.id, doc);
    return Promise.resolve();
  }

  listDocs(): Promise<DocEntry[]> {
    return Promise.resolve([...this._docs.values()]);
  }

  putHeat(entries: ReadonlyMap<string, HeatEntry>): Promise<void> {
    for (const [id, heat] of entries) this._heat.set(id, heat);
    return Promise.resolve();
  }

  listHeat(ids: readonly string[]): Promise<Map<string, HeatEntry>> {
    const out = new Map<string, HeatEntry>();
    for (const id of ids) {
      const heat = this._heat.get(id);
      if (heat !== undefined) out.set(id, heat);
    }
    return Promise.resolve(out);
  }

  putContext(userId: string, sessionId: string, state: KeptContextState | null): Promise<void> {
    let contexts = this._contexts.get(userId);
    if (contexts === undefined) this._contexts.set(userId, (contexts = new Map()));
    if (state === null) contexts.delete(sessionId);
    else contexts.set(sessionId, state);
    return Promise.resolve();
  }

  getContext(userId: string, sessionId: string): Promise<KeptContextState | null> {
    return Promise.resolve(this._contexts.get(userId)?.get(sessionId) ?? null);
  }
}

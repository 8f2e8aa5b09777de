/**
 * A session's turns as chat messages: the history the context engine selects from, for every message. Kept per
 * session and extended as turns are appended (each exchange adds two), and read again whole only when a write
 * did more than append (`UserMemory.sessionEdits`): a 1,000-turn session is not walked turn by turn each time.
 * Pure, no DOM.
 */
import type { ChatMessage } from '../../engine/protocol.ts';
import type { UserMemory } from '../retrieval/index.ts';

export interface SessionHistory {
  readonly messages: ChatMessage[];
  /** The turn id of each message. */
  readonly ids: string[];
}

interface Kept {
  readonly memory: UserMemory;
  readonly edits: number;
  readonly messages: ChatMessage[];
  readonly ids: string[];
}

/** Sessions kept at most (the most recently read): a page serves one or a few at a time. */
const MAX_SESSIONS = 16;

export class SessionHistories {
  private readonly _kept = new Map<string, Kept>();

  /** The session's turns before `seq`, in order (fresh arrays: the caller may keep them). */
  before(memory: UserMemory, key: string, sessionId: string, seq: number): SessionHistory {
    const order = memory.sessions.get(sessionId) ?? [];
    const edits = memory.sessionEdits(sessionId);
    let kept = this._kept.get(key);
    this._kept.delete(key); // re-inserted below: the map's order is the order of last reads
    if (kept === undefined || kept.memory !== memory || kept.edits !== edits || kept.ids.length > order.length) {
      kept = { memory, edits, messages: [], ids: [] };
    }
    this._kept.set(key, kept);
    if (this._kept.size > MAX_SESSIONS) this._kept.delete(this._kept.keys().next().value!);
    for (let i = kept.ids.length; i < order.length; i++) {
      const turn = memory.turns.get(order[i]!)!;
      kept.messages.push({ role: turn.role, content: turn.text });
      kept.ids.push(turn.id);
    }
    // The order is by seq: the turns before `seq` are a prefix (the message itself, when written, ends it).
    let count = order.length;
    while (count > 0 && memory.turns.get(order[count - 1]!)!.seq >= seq) count--;
    return { messages: kept.messages.slice(0, count), ids: kept.ids.slice(0, count) };
  }
}

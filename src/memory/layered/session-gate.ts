/**
 * Session isolation and the warm start (seed 001 §4.2–4.3). Memory never crosses users: a search reads only
 * its user's shard. Within a user, a new session starts on documentation only: for its first two messages no
 * other session's history is searched, so an old conversation cannot hijack a new one; from then on, once the
 * session shares at least three entities with an older session, the history of the user's other sessions opens
 * for it, and stays open. Entities are working memory's (an IP, an order number, a date…), names and
 * identifiers, and the distinctive topic words of the two sessions (words rare in the user's memory: "shelter",
 * "证书") — a chat about one's life names few IPs, but it does come back to the same things. A message that asks
 * about an earlier conversation ("do you remember…", 我曾经和你说过…, a day before this session: recall-request.ts)
 * opens them at once, warm start or not: the user asked for them. The session's own earlier turns are always
 * searchable (they are this conversation).
 */
import type { SessionEntry } from '../retrieval/index.ts';

export interface GateOptions {
  /** Messages of a new session that read docs only. */
  readonly warmTurns: number;
  /** Entities a session must share with an older one before other sessions' history opens. */
  readonly minSharedEntities: number;
}

export const DEFAULT_GATE_OPTIONS: GateOptions = Object.freeze({ warmTurns: 2, minSharedEntities: 3 });

export interface GateDecision {
  readonly otherSessions: boolean;
  readonly docs: boolean;
  /** Why, for the report. */
  readonly reason: string;
  /** The session as it should be stored (opened now, or unchanged). */
  readonly session: SessionEntry;
}

/**
 * `sharedTopics(other)`: distinctive topic keys the session shares with `other` (beyond `entities`); asked only
 * when the decision depends on it.
 */
export function gate(
  session: SessionEntry,
  others: readonly SessionEntry[],
  options: GateOptions = DEFAULT_GATE_OPTIONS,
  sharedTopics: (other: SessionEntry) => readonly string[] = () => [],
  /** What in the message asks about an earlier conversation (`recallCue`), or null. */
  recall: string | null = null,
): GateDecision {
  if (session.historyOpen) {
    const by = session.openedBy;
    // Opened by a recall request: the session names itself, and the cue is what it shares.
    const reason =
      by === undefined
        ? 'other sessions open'
        : by.sessionId === session.sessionId
          ? `other sessions open (asked about an earlier conversation: ${by.shared.join(', ')})`
          : `other sessions open (shares ${by.shared.join(', ')} with ${by.sessionId})`;
    return { otherSessions: true, docs: true, reason, session };
  }
  if (recall !== null && others.some((o) => o.sessionId !== session.sessionId && o.userId === session.userId && o.startedAt <= session.startedAt)) {
    const opened: SessionEntry = { ...session, historyOpen: true, openedBy: { sessionId: session.sessionId, shared: [`"${recall}"`] } };
    return { otherSessions: true, docs: true, reason: `opened now: the message asks about an earlier conversation ("${recall}")`, session: opened };
  }
  if (session.userTurns <= options.warmTurns) {
    return { otherSessions: false, docs: true, reason: `warm start: message ${session.userTurns} of ${options.warmTurns} reads docs only`, session };
  }
  const mine = new Set(session.entities);
  let best: { sessionId: string; shared: string[] } | null = null;
  for (const other of others) {
    if (other.sessionId === session.sessionId || other.userId !== session.userId || other.startedAt > session.startedAt) continue;
    const shared = [...other.entities.filter((e) => mine.has(e)), ...sharedTopics(other)];
    if (shared.length >= options.minSharedEntities && (best === null || shared.length > best.shared.length)) {
      best = { sessionId: other.sessionId, shared };
    }
  }
  if (best === null) {
    return { otherSessions: false, docs: true, reason: `closed: no older session shares ${options.minSharedEntities} entities yet`, session };
  }
  const opened: SessionEntry = { ...session, historyOpen: true, openedBy: { sessionId: best.sessionId, shared: best.shared.slice(0, 8) } };
  return { otherSessions: true, docs: true, reason: `opened now: shares ${best.shared.slice(0, 5).join(', ')} with ${best.sessionId}`, session: opened };
}

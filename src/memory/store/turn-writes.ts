/**
 * What happens inside the transaction that stores a turn: the turn itself, its session's sequence counter, its
 * exchange chunk and its parts, and — with an embedder that has `embedSync` — their vectors, all or nothing.
 * Reading and writing in one transaction is what makes two tabs appending to one session safe: IndexedDB runs
 * overlapping read-write transactions one after the other, across connections.
 */
import { AssistantError } from '../../shared/errors.ts';
import { countSliced, exchangeText, splitIntoParts, splitIntoPartsSliced, type TextPart, type TokenCount } from './chunking.ts';
import { writeTx, type WriteTx } from './db.ts';
import type { Embedder } from '../embedders/index.ts';
import type { ChunkRecord, SentPart, SessionRecord, TurnRecord } from './records.ts';
import { yieldToPage } from '../../shared/yield.ts';
import type { MemoryDatabase } from './schema.ts';
import { isChunkRecord, isSessionRecord, isTurnRecord } from './validate.ts';

export type TurnStores = ['sessions', 'turns', 'chunks'];
export const TURN_STORES: TurnStores = ['sessions', 'turns', 'chunks'];
type Tx = WriteTx<TurnStores>;

export interface WriteContext {
  db: MemoryDatabase;
  counter: TokenCount;
  embedder: Embedder;
  /** `embedderKey(embedder)`. */
  embedderKey: string;
  now: number;
}

/** What a committed write changed, for the index, the corpus statistics and the other tabs. */
export interface ChunkChanges {
  /** Chunks written with new text, with their vector (`embedding`) when the embedder could make it at once. */
  written: ChunkRecord[];
  /** Old texts of chunks rewritten or deleted (for the IDF statistics). */
  oldTexts: string[];
  /** Chunks rewritten or deleted: whatever the index held for them is stale. */
  staleIds: string[];
}

/** Exchange chunks are keyed by their user turn, parts by their turn and index: found by key, no index needed. */
export const exchangeId = (turnId: string): string => `x:${turnId}`;
export const partId = (turnId: string, part: number): string => `p:${turnId}:${part}`;
const partsRange = (turnId: string): IDBKeyRange => IDBKeyRange.bound(`p:${turnId}:`, `p:${turnId}:\uffff`);

export const emptyChanges = (): ChunkChanges => ({ written: [], oldTexts: [], staleIds: [] });

export const NO_HEAT = { hits: 0, lastHitAt: null, lastHitRetrieval: 0 } as const;

/** The session's latest user turn, for a reply that did not say what it answers. */
export async function lastUserTurnId(tx: Tx, sessionId: string): Promise<string | null> {
  const range = IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]);
  let cursor = await tx.objectStore('turns').index('by-session-seq').openCursor(range, 'prev');
  while (cursor !== null) {
    const turn: unknown = cursor.value;
    if (isTurnRecord(turn) && turn.role === 'user') return turn.id;
    cursor = await cursor.continue();
  }
  return null;
}

/** A session's record with its next sequence number taken (and touched); `invalid_input` for an unknown session. */
function withSeqTaken(session: unknown, sessionId: string, now: number): SessionRecord {
  if (!isSessionRecord(session)) throw new AssistantError('invalid_input', `There is no session ${sessionId}.`);
  return { ...session, lastSeq: session.lastSeq + 1, updatedAt: now, rev: (session.rev ?? 0) + 1 };
}

/** Takes the next sequence number of a session (and touches it); throws `invalid_input` for an unknown session. */
export async function takeSeq(tx: Tx, sessionId: string, now: number): Promise<number> {
  const session = withSeqTaken(await tx.objectStore('sessions').get(sessionId), sessionId, now);
  await tx.objectStore('sessions').put(session);
  return session.lastSeq;
}

type ChunkDraft = Omit<ChunkRecord, 'rev' | 'createdAt' | 'updatedAt' | 'heat' | 'tokenCount' | 'embedding'> & { tokens?: number };

/** The record to write for `draft`, or null when the stored chunk already has this text (its vector and heat stay). */
function nextChunk(ctx: WriteContext, previous: ChunkRecord | null, draft: ChunkDraft): ChunkRecord | null {
  if (previous !== null && previous.text === draft.text && previous.turnIds.join() === draft.turnIds.join()) return null;
  const { tokens, ...record } = draft;
  return {
    ...record,
    tokenCount: tokens ?? ctx.counter.count(draft.text),
    rev: (previous?.rev ?? 0) + 1,
    createdAt: previous?.createdAt ?? ctx.now,
    updatedAt: ctx.now,
    heat: previous?.heat ?? { ...NO_HEAT },
    embedding: null,
  };
}

/** Text embedded inside a write at most; a long paste's chunks go to the background embedding instead. */
const INLINE_EMBED_MAX_CHARS = 16_000;

/**
 * Fills in the vectors of new chunk records when the embedder can make them synchronously and they are short
 * enough not to hold up the page; the others are embedded in the background (`scheduleEmbedding`).
 */
export function embedInline(
  ctx: WriteContext,
  chunks: ReadonlyArray<{ text: string; embedding: ChunkRecord['embedding'] }>,
  maxChars = Number.POSITIVE_INFINITY,
): void {
  if (ctx.embedder.embedSync === undefined || chunks.length === 0) return;
  if (chunks.reduce((n, c) => n + c.text.length, 0) > maxChars) return;
  const vectors = ctx.embedder.embedSync(chunks.map((c) => c.text));
  chunks.forEach((chunk, i) => (chunk.embedding = { embedder: ctx.embedderKey, vector: vectors[i]! }));
}

/** Content at least this long is split and counted before its transaction, in slices (`LongContent`). */
const AHEAD_CHARS = 8_000;

/**
 * The parts and the token count of a long text, worked out before the transaction that stores it: a transaction
 * commits once the page gets a turn, so inside it a 100,000-character paste would be tokenized in one long task.
 */
export interface LongContent {
  content: string;
  parts: TextPart[];
  tokens: number;
}

/** `LongContent` for a long text, in slices that leave the page responsive; null for a short one. */
export async function longContent(counter: TokenCount, content: string): Promise<LongContent | null> {
  if (content.length < AHEAD_CHARS) return null;
  const parts = await splitIntoPartsSliced(content, counter, yieldToPage);
  return { content, parts, tokens: await countSliced(content, counter, yieldToPage) };
}

/**
 * Brings the chunks of a finished turn (not streaming) up to date: its exchange chunk and its parts. Unchanged
 * chunks are left alone, so their vectors and heat stay. `ahead`: the turn's content split beforehand.
 */
export async function writeTurnChunks(tx: Tx, ctx: WriteContext, turn: TurnRecord, ahead: LongContent | null = null): Promise<ChunkChanges> {
  const changes = emptyChanges();
  if (turn.role === 'system' || turn.status === 'streaming') return changes;
  const chunks = tx.objectStore('chunks');
  const stored = async (id: string): Promise<ChunkRecord | null> => {
    const record: unknown = await chunks.get(id);
    return isChunkRecord(record) ? record : null;
  };
  const turnOf = async (id: string | undefined): Promise<TurnRecord | null> => {
    const record: unknown = id === undefined ? undefined : await tx.objectStore('turns').get(id);
    return isTurnRecord(record) ? record : null;
  };

  // The exchange: keyed by the user turn; a reply updates its question's chunk. The reads are asked for together
  // (the exchange under the id it most likely has): each answer is a round trip to the browser's storage, and one
  // after another they were most of an append's time.
  const guessedExchange = exchangeId(turn.role === 'user' ? turn.id : (turn.replyTo ?? turn.id));
  const [asked, guessed, partRecords] = await Promise.all([
    turn.role === 'user' ? turn : turnOf(turn.replyTo ?? undefined),
    stored(guessedExchange),
    chunks.getAll(partsRange(turn.id)),
  ]);
  const user = turn.role === 'user' ? turn : asked;
  const anchor = user ?? turn;
  const previousExchange = exchangeId(anchor.id) === guessedExchange ? guessed : await stored(exchangeId(anchor.id));
  const reply = turn.role === 'assistant' ? turn : await turnOf(previousExchange?.turnIds[1]);
  const text = exchangeText(user?.content ?? null, reply?.content ?? null);
  const drafts: Array<{ previous: ChunkRecord | null; draft: ChunkDraft }> = [
    {
      previous: previousExchange,
      draft: {
        id: exchangeId(anchor.id),
        sessionId: turn.sessionId,
        kind: 'exchange',
        turnIds: reply !== null && user !== null ? [user.id, reply.id] : [anchor.id],
        part: 0,
        start: 0,
        end: text.length,
        text,
      },
    },
  ];

  // Parts of a long turn; parts of an earlier, longer version of it are deleted.
  const oldParts = new Map<string, ChunkRecord>();
  for (const record of partRecords) if (isChunkRecord(record)) oldParts.set(record.id, record);
  const parts = ahead !== null && ahead.content === turn.content ? ahead.parts : splitIntoParts(turn.content, ctx.counter);
  parts.forEach((part, i) => {
    const id = partId(turn.id, i);
    drafts.push({
      previous: oldParts.get(id) ?? null,
      draft: { id, sessionId: turn.sessionId, kind: 'part', turnIds: [turn.id], part: i, start: part.start, end: part.end, text: part.text, tokens: part.tokens },
    });
    oldParts.delete(id);
  });
  // Writes are not awaited one by one: IndexedDB runs a transaction's requests in the order they were made.
  const writes: Array<Promise<unknown>> = [];
  for (const old of oldParts.values()) {
    changes.oldTexts.push(old.text);
    changes.staleIds.push(old.id);
    writes.push(chunks.delete(old.id));
  }

  for (const { previous, draft } of drafts) {
    const next = nextChunk(ctx, previous, draft);
    if (next === null) continue;
    if (previous !== null) {
      changes.oldTexts.push(previous.text);
      changes.staleIds.push(previous.id);
    }
    changes.written.push(next);
  }
  embedInline(ctx, changes.written, INLINE_EMBED_MAX_CHARS);
  for (const chunk of changes.written) writes.push(chunks.put(chunk));
  await Promise.all(writes);
  return changes;
}

export interface TurnDraft {
  id: string;
  sessionId: string;
  role: TurnRecord['role'];
  content: string;
  status: TurnRecord['status'];
  tags: string[];
  replyTo: string | null | undefined;
  tokenCount: number | undefined;
  createdAt: number | undefined;
}

/** Appends a turn; an id already stored returns the stored turn unchanged (a retried append is not a duplicate). */
export async function appendTurnTx(ctx: WriteContext, draft: TurnDraft): Promise<{ turn: TurnRecord; created: boolean; changes: ChunkChanges }> {
  // A streaming reply's text is not final (it is split once finished); a system turn has no chunks.
  const ahead = draft.status === 'streaming' || draft.role === 'system' ? null : await longContent(ctx.counter, draft.content);
  return writeTx(ctx.db, TURN_STORES, async (tx) => {
    // Asked for together (a round trip each); the session is checked only for a turn not already stored.
    const [existing, session] = await Promise.all([tx.objectStore('turns').get(draft.id) as Promise<unknown>, tx.objectStore('sessions').get(draft.sessionId) as Promise<unknown>]);
    if (existing !== undefined) {
      if (!isTurnRecord(existing)) throw new AssistantError('invalid_input', `Turn ${draft.id} exists but is malformed.`);
      return { turn: existing, created: false, changes: emptyChanges() };
    }
    const touched = withSeqTaken(session, draft.sessionId, ctx.now);
    const seq = touched.lastSeq;
    const replyTo =
      draft.role !== 'assistant' ? null : draft.replyTo !== undefined ? draft.replyTo : await lastUserTurnId(tx, draft.sessionId);
    const turn: TurnRecord = {
      id: draft.id,
      sessionId: draft.sessionId,
      seq,
      role: draft.role,
      content: draft.content,
      createdAt: draft.createdAt ?? ctx.now,
      updatedAt: ctx.now,
      tokenCount: draft.tokenCount ?? ahead?.tokens ?? ctx.counter.count(draft.content),
      status: draft.status,
      tags: draft.tags,
      replyTo,
      ...(draft.status === 'streaming' ? { streamingSince: ctx.now } : {}),
    };
    // Not awaited before the chunks are read (requests run in order); a failure aborts the transaction, and is
    // thrown below. The catch only keeps a failure from being reported as unhandled meanwhile.
    const written = Promise.all([
      tx.objectStore('sessions').put(touched),
      tx.objectStore('turns').put(turn),
    ]);
    written.catch(() => undefined);
    const changes = await writeTurnChunks(tx, ctx, turn, ahead);
    await written;
    return { turn, created: true, changes };
  });
}

export interface TurnPatch {
  content?: string;
  status?: TurnRecord['status'];
  tags?: string[];
  tokenCount?: number;
  /** How much of a user turn the model got; null: all of it. */
  sent?: SentPart | null;
}

/**
 * Updates a turn. While it streams only the turn is written (cheap, often); once it is finished its chunks
 * follow in the same transaction. Returns null when the turn is gone (deleted meanwhile): nothing is resurrected.
 */
export async function updateTurnTx(
  ctx: WriteContext,
  id: string,
  patch: TurnPatch,
  options: { onlyIfStreaming?: boolean; touchSession?: boolean } = {},
): Promise<{ turn: TurnRecord; changes: ChunkChanges } | null> {
  // Partial text of a streaming reply is rewritten many times a second; a full commit is kept for the rest.
  const streaming = patch.status === 'streaming';
  const ahead = streaming || patch.content === undefined ? null : await longContent(ctx.counter, patch.content);
  return writeTx(
    ctx.db,
    TURN_STORES,
    async (tx) => {
      const existing: unknown = await tx.objectStore('turns').get(id);
      if (existing === undefined) return null;
      if (!isTurnRecord(existing)) throw new AssistantError('invalid_input', `Turn ${id} is malformed.`);
      if (options.onlyIfStreaming === true && existing.status !== 'streaming') return null;
      const content = patch.content ?? existing.content;
      const { streamingSince, sent, ...rest } = existing;
      // New content was not sent yet: what was said about the old one no longer holds.
      const nextSent = patch.sent !== undefined ? patch.sent : patch.content === undefined ? sent : null;
      const status = patch.status ?? existing.status;
      const turn: TurnRecord = {
        ...rest,
        content,
        status,
        tags: patch.tags ?? existing.tags,
        tokenCount: patch.tokenCount ?? (patch.content === undefined ? existing.tokenCount : (ahead?.tokens ?? ctx.counter.count(content))),
        updatedAt: ctx.now,
        ...(status === 'streaming' ? { streamingSince: streamingSince ?? ctx.now } : {}),
        ...(nextSent === undefined || nextSent === null ? {} : { sent: nextSent }),
      };
      // As in an append: requests run in the order made, so the turn's write is awaited once, at the end, and the
      // session is read beside the chunks (a round trip each, one after another before).
      const written = tx.objectStore('turns').put(turn);
      written.catch(() => undefined);
      // Chunks follow the text and the status only: a patch of neither (the sent part, tags) leaves them as they
      // are, and a long turn is not split again inside the transaction.
      const same = patch.content === undefined && status === existing.status;
      // A reply still streaming is in no index; any other write is counted (`SessionRecord.rev`).
      const counted = turn.status !== 'streaming' || existing.status !== 'streaming';
      const [changes, session] = await Promise.all([
        turn.status === 'streaming' || same ? emptyChanges() : writeTurnChunks(tx, ctx, turn, ahead),
        counted ? (tx.objectStore('sessions').get(turn.sessionId) as Promise<unknown>) : undefined,
      ]);
      if (counted && isSessionRecord(session)) {
        const touched = turn.status !== 'streaming' && options.touchSession !== false;
        const edited = existing.status !== 'streaming';
        await tx.objectStore('sessions').put({ ...session, ...(touched ? { updatedAt: ctx.now } : {}), rev: (session.rev ?? 0) + 1, edits: (session.edits ?? 0) + (edited ? 1 : 0) });
      }
      await written;
      return { turn, changes };
    },
    streaming ? 'relaxed' : 'default',
  );
}

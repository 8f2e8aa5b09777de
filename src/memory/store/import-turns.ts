/**
 * Bulk import (a conversation export, a migration): many turns per transaction instead of one, with their
 * exchange chunks, parts and — with an `embedSync` embedder — vectors built in memory and written together.
 * A batch is all or nothing; batches end before a user turn, so an exchange never straddles two.
 *
 * Import time is bound by IndexedDB writes (one per turn and one per chunk: the vectors live in the chunks) and
 * by embedding. The two overlap: the next batch is prepared (chunked, embedded) while the browser commits the
 * current one.
 */
import { AssistantError } from '../../shared/errors.ts';
import { exchangeText, splitIntoParts } from './chunking.ts';
import { newId, writeTx } from './db.ts';
import type { ChunkRecord, SentPart, TurnRecord } from './records.ts';
import {
  embedInline,
  emptyChanges,
  exchangeId,
  lastUserTurnId,
  NO_HEAT,
  partId,
  takeSeq,
  TURN_STORES,
  writeTurnChunks,
  type ChunkChanges,
  type WriteContext,
} from './turn-writes.ts';

export interface ImportTurnInput {
  role: TurnRecord['role'];
  content: string;
  /** Keeps ids stable across a re-import: turns already stored are skipped. */
  id?: string;
  createdAt?: number;
  status?: 'complete' | 'interrupted';
  tags?: string[];
  /** How much of a long user message the model got (kept from an export). */
  sent?: SentPart;
}

/** Splits turns into batches of about `size`, each ending just before a user turn. */
export function importBatches<T extends { role: string }>(turns: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  for (const turn of turns) {
    if (current.length >= size && turn.role === 'user') {
      batches.push(current);
      current = [];
    }
    current.push(turn);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export function validateImport(turns: readonly ImportTurnInput[]): void {
  for (const turn of turns) {
    if ((turn.role !== 'user' && turn.role !== 'assistant' && turn.role !== 'system') || typeof turn.content !== 'string') {
      throw new AssistantError('invalid_input', 'Every imported turn needs a role (user, assistant or system) and text content.');
    }
  }
}

/** A batch ready to write: records built and embedded; sequence numbers are filled in by the transaction. */
export interface PreparedBatch {
  turns: TurnRecord[];
  chunks: ChunkRecord[];
  /** Turns whose exchange is stored already (a reply to an earlier batch's turn): written the general way. */
  orphans: TurnRecord[];
  /** Ids the caller chose: the transaction checks they are still new. */
  chosenIds: string[];
}

/** Builds a batch's records (CPU only, no IndexedDB): chunking, token counts, embeddings. */
export function prepareBatch(ctx: WriteContext, sessionId: string, batch: readonly ImportTurnInput[]): PreparedBatch {
  const turns: TurnRecord[] = [];
  const orphans: TurnRecord[] = [];
  const chunks: ChunkRecord[] = [];
  const exchanges = new Map<string, ChunkRecord>();
  let lastUser: TurnRecord | null = null;
  const chunk = (draft: Omit<ChunkRecord, 'tokenCount' | 'rev' | 'createdAt' | 'updatedAt' | 'heat' | 'embedding'>): ChunkRecord => ({
    ...draft,
    tokenCount: -1, // counted once the chunk's text is final (an exchange grows by its reply)
    rev: 1,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    heat: { ...NO_HEAT },
    embedding: null,
  });
  for (const input of batch) {
    const turn: TurnRecord = {
      id: input.id ?? newId(),
      sessionId,
      seq: 0,
      role: input.role,
      content: input.content,
      createdAt: input.createdAt ?? ctx.now,
      updatedAt: ctx.now,
      tokenCount: ctx.counter.count(input.content),
      status: input.status ?? 'complete',
      tags: input.tags ?? [],
      replyTo: input.role === 'assistant' ? (lastUser?.id ?? null) : null,
      ...(input.sent === undefined ? {} : { sent: input.sent }),
    };
    turns.push(turn);
    if (turn.role === 'system') continue;
    if (turn.role === 'user') {
      lastUser = turn;
      const ex = chunk({ id: exchangeId(turn.id), sessionId, kind: 'exchange', turnIds: [turn.id], part: 0, start: 0, end: turn.content.length, text: turn.content });
      exchanges.set(turn.id, ex);
      chunks.push(ex);
    } else if (lastUser !== null && exchanges.get(lastUser.id)!.turnIds.length === 1) {
      const ex = exchanges.get(lastUser.id)!;
      const text = exchangeText(lastUser.content, turn.content);
      Object.assign(ex, { turnIds: [lastUser.id, turn.id], text, end: text.length });
    } else {
      // A reply to a turn stored earlier, or a second reply: the general path updates the right chunk.
      orphans.push(turn);
    }
    splitIntoParts(turn.content, ctx.counter).forEach((part, p) => {
      const record = chunk({ id: partId(turn.id, p), sessionId, kind: 'part', turnIds: [turn.id], part: p, start: part.start, end: part.end, text: part.text });
      record.tokenCount = part.tokens;
      chunks.push(record);
    });
  }
  for (const c of chunks) c.tokenCount = c.kind === 'part' ? c.tokenCount : ctx.counter.count(c.text);
  embedInline(ctx, chunks);
  const chosenIds = batch.filter((t) => t.id !== undefined).map((t) => t.id!);
  return { turns, chunks, orphans, chosenIds };
}

/** Thrown inside a batch's transaction when a chosen id appeared meanwhile (another tab imported it). */
export class ImportConflict extends Error {}

/**
 * Writes a prepared batch in one transaction. `issued` resolves once every write is queued — the caller can then
 * prepare the next batch while the browser commits this one.
 */
export function commitBatch(
  ctx: WriteContext,
  sessionId: string,
  prepared: PreparedBatch,
): { issued: Promise<void>; done: Promise<{ turns: TurnRecord[]; changes: ChunkChanges }> } {
  let markIssued!: () => void;
  const issued = new Promise<void>((resolve) => (markIssued = resolve));
  const done = writeTx(ctx.db, TURN_STORES, async (tx) => {
    try {
      const turnsStore = tx.objectStore('turns');
      const taken = await Promise.all(prepared.chosenIds.map((id) => turnsStore.getKey(id)));
      if (taken.some((key) => key !== undefined)) throw new ImportConflict();
      const changes: ChunkChanges = emptyChanges();
      if (prepared.turns.length === 0) return { turns: [], changes };
      const earlierUser = await lastUserTurnId(tx, sessionId);
      const first = await takeSeq(tx, sessionId, ctx.now);
      const session = (await tx.objectStore('sessions').get(sessionId))!;
      const writes: Array<Promise<unknown>> = [tx.objectStore('sessions').put({ ...session, lastSeq: first + prepared.turns.length - 1 })];
      prepared.turns.forEach((turn, i) => {
        turn.seq = first + i;
        if (turn.role === 'assistant' && turn.replyTo === null) turn.replyTo = earlierUser;
        writes.push(turnsStore.put(turn));
      });
      for (const c of prepared.chunks) writes.push(tx.objectStore('chunks').put(c));
      markIssued();
      await Promise.all(writes);
      changes.written.push(...prepared.chunks);
      for (const orphan of prepared.orphans) {
        const more = await writeTurnChunks(tx, ctx, orphan);
        changes.written.push(...more.written);
        changes.oldTexts.push(...more.oldTexts);
        changes.staleIds.push(...more.staleIds);
      }
      return { turns: prepared.turns, changes };
    } finally {
      markIssued();
    }
  });
  return { issued, done };
}

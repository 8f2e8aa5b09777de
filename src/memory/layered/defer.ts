/**
 * When a turn's new memory is not worth a compaction. A turn whose best record / doc the prompt already holds
 * sends the rest of its new memory only as far as it fits before the prompt limit; the rest is deferred (a
 * later turn that needs it sends it). A turn missing its best memory, or most of it (a new topic), or a record's
 * date note (a question about when), sends it all; so does a question about a value over time or a history
 * (先后用过哪些, "how has it changed", "which … so far": answer-type.ts `asksForEarlierValues`), whose answer is
 * the records after the best one as much as the best, and a question for a fact ("Sentry 的告警推到哪个群？",
 * "what does the backup run at now?"), whose answer may be any line found: the best one the prompt holds is often
 * only its subject. A request or a why / how question defers (`needsAllMemory`).
 * Measured on bench:prefill (prefill per new token): best only 1.39×; also scores ≥ 0.8 of the best 1.57×,
 * ≥ 0.6 1.99×; the new-topic share changes nothing from 0.35 up, and keeps a LoCoMo question that lacked ~70 %
 * of its memory from losing evidence to deferral.
 */
import type { TokenCounter } from '../../context/tokens.ts';
import type { ChatMessage } from '../../engine/protocol.ts';
import { asksForFact, valueQuestion, type RetrievalResult } from '../retrieval/index.ts';
import { blockDelta, fitToRoom, missesAny, type BlockParts } from './memory-block.ts';

/** Records / docs scoring at least this share of the turn's best one must be in the prompt. */
const STRONG_SHARE = 1;
/** More than this share of the retrieved memory missing from the prompt: a new topic, all of it is sent. */
const NEW_TOPIC_SHARE = 0.5;

/** Whether a message's memory is all sent, never deferred: a question for a fact, or about a value now or over time. */
export function needsAllMemory(message: string): boolean {
  return asksForFact(message) || valueQuestion(message) !== null;
}

/**
 * The block to send after `held` (the previous prompt) when `room` tokens are left before its limit (null: the
 * turn compacts anyway), and the records / docs left out.
 */
export function deferLowValue(
  parts: BlockParts,
  r: RetrievalResult,
  held: readonly ChatMessage[] | null,
  room: number | null,
  counter: TokenCounter,
  /** The message needs all its memory (`needsAllMemory`): nothing is deferred. */
  needsAll = false,
): { parts: BlockParts; deferred: string[] } {
  if (held === null || room === null || needsAll) return { parts, deferred: [] };
  // The injected candidates by rank, with their scores (the whole candidate report is not needed here).
  const injected = r.injectedScores.map((score, i) => ({ id: r.injected[i]!, score }));
  const top = injected[0]?.score ?? 0;
  const must = new Set(injected.filter((c) => c.score >= top * STRONG_SHARE).map((c) => c.id));
  // A question about when needs the dates of what it is shown: a record's date note is never deferred.
  for (const line of parts.records) if (line.note !== undefined) must.add(line.id);
  if (missesAny(parts, held, must)) return { parts, deferred: [] };
  if (blockDelta(parts, held, counter).retrievalTokens > r.tokens * NEW_TOPIC_SHARE) return { parts, deferred: [] };
  const fitted = fitToRoom(parts, held, room, counter);
  const kept = new Set([...fitted.records, ...fitted.docs].map((l) => l.id));
  return { parts: fitted, deferred: [...parts.records, ...parts.docs].map((l) => l.id).filter((id) => !kept.has(id)) };
}

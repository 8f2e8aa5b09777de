/** What the packing tests build their candidates from: turns, candidates with no features, the packing env. */
import type { TokenCount } from '../../../src/memory/retrieval/line-text.ts';
import type { PackCandidate } from '../../../src/memory/retrieval/pack.ts';
import { splitPieces } from '../../../src/memory/retrieval/pieces.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import type { RecordLabels } from '../../../src/memory/retrieval/render.ts';
import type { Candidate, Features } from '../../../src/memory/retrieval/rerank.ts';
import type { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { retrieve, type RetrievalResult } from '../../../src/memory/retrieval/retriever.ts';

export const NO_FEATURES: Features = { lexical: 0, context: 0, sentence: 0, vector: 0, entities: 0, speaker: 0, date: 0, thread: 0, recency: 0, cold: 0, intent: 0, persona: 0, coverage: 0, stated: 0 };

export function packEnv(counter: TokenCount, labels: RecordLabels) {
  return { counter, labels, offsetMinutes: 0, speakerOf: (t: TurnEntry) => (t.role === 'user' ? 'User' : 'Assistant') };
}

export function turnEntry(id: string, seq: number, text: string, role: 'user' | 'assistant', time: number): TurnEntry {
  return { id, userId: 'u', sessionId: 'S', seq, role, time, text, entities: [], dates: [], tags: [] };
}

/** A candidate for `t` with the given score, `match` (1) and best piece (0), and the turn after it when given. */
export function packItem(t: TurnEntry, score: number, options: { match?: number; best?: number; next?: TurnEntry } = {}): PackCandidate {
  const candidate: Candidate = { id: t.id, sources: ['lexical'], features: NO_FEATURES, score, match: options.match ?? 1, bestPiece: options.best ?? 0, slot: -1 };
  const next = options.next;
  return {
    candidate,
    turn: t,
    text: t.text,
    pieces: splitPieces(t.text),
    ...(next === undefined ? {} : { next: () => packItem(next, 0, { match: 0 }) }),
  };
}

/** Retrieval over `index` for `message` as user u in a session of its own (every other session and the docs open), 400 tokens. */
export function askIndex(index: RetrievalIndex, message: string, env: { counter: TokenCount; labels: RecordLabels; now: number }): RetrievalResult {
  return retrieve(index, {
    query: buildQuery({ message, entities: [], dates: [] }),
    scope: { userId: 'u', sessionId: 'asking', otherSessions: true, docs: true },
    exclude: new Set(),
    budget: 400,
    now: env.now,
    counter: env.counter,
    labels: env.labels,
    offsetMinutes: 0,
  });
}

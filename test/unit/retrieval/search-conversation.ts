/** A search of user `u`'s chat `S` (and its other sessions) with English labels: what the retrieval tests ask. */
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import type { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import type { RerankOptions } from '../../../src/memory/retrieval/rerank.ts';
import { retrieve } from '../../../src/memory/retrieval/retriever.ts';

export function searchConversation(
  index: RetrievalIndex,
  message: string,
  options: { now: number; counter: CachedTokenCounter; rerank?: Partial<RerankOptions> },
): ReturnType<typeof retrieve> {
  return retrieve(index, {
    ...(options.rerank === undefined ? {} : { rerank: options.rerank }),
    query: buildQuery({ message, entities: [], dates: [] }),
    scope: { userId: 'u', sessionId: 'S', otherSessions: true, docs: false },
    exclude: new Set(),
    budget: 300,
    now: options.now,
    counter: options.counter,
    labels: LABELS.en,
    offsetMinutes: 0,
  });
}

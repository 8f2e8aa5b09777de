import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { DEFAULT_WEIGHTS } from '../../../src/memory/retrieval/rerank.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { retrieve } from '../../../src/memory/retrieval/retriever.ts';
import { realCounter } from '../context/helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const T0 = Date.UTC(2025, 5, 2, 9);
const turn = (id: string, seq: number, text: string, role: 'user' | 'assistant' = 'user'): TurnEntry => ({ id, userId: 'u', sessionId: 'S', seq, role, time: T0 + seq * 60_000, text, entities: [], dates: [], tags: [] });

/** Short turns that hold only the question's common word, and one long turn that holds its rare one, among others. */
function index(): RetrievalIndex {
  const idx = new RetrievalIndex();
  const topics = ['the garden', 'the car', 'dinner plans', 'the dog', 'a new book', 'the weather', 'the kids', 'the budget', 'a film', 'the bike'];
  const short = ['Is that photo recent?', 'Recently? Not much.', 'A recent one, yes!', 'Nothing recent here.', 'Recently I slept a lot.', 'Was it recent?', 'Recently, yes.', 'The recent ones, sure.', 'Not recently, no.', 'Recent enough!'];
  for (let i = 0; i < 40; i++) {
    const text = i % 4 === 1 ? short[(i - 1) / 4]! : `We talked about ${topics[i % topics.length]} for a while and agreed to look at it again on day ${i + 1}.`;
    idx.addTurn(turn(i % 4 === 1 ? `c${(i - 1) / 4}` : `f${i}`, i + 1, text, i % 2 === 0 ? 'assistant' : 'user'));
  }
  idx.addTurn(
    turn(
      'long',
      50,
      'Things are moving slowly with the new job and the contract, my commute changed twice this month, ' +
        'and I spent last Friday at a pottery glazing workshop downtown, the best part of the week.',
    ),
  );
  return idx;
}

const rank = (message: string, coverage: number): string[] =>
  retrieve(index(), {
    query: buildQuery({ message, entities: [], dates: [] }),
    scope: { userId: 'u', sessionId: 'S', otherSessions: true, docs: false },
    exclude: new Set(),
    budget: 400,
    now: T0 + 86_400_000,
    counter,
    labels: LABELS.en,
    offsetMinutes: 0,
    rerank: { weights: { ...DEFAULT_WEIGHTS, coverage } },
  }).candidates.map((c) => c.id);

describe('coverage: the share of the question a turn holds, whatever its length', () => {
  it('puts the one long turn that holds the rare word before short ones that hold only the common word', () => {
    expect(rank('Which workshop did I go to recently?', DEFAULT_WEIGHTS.coverage)[0]).toBe('long');
  });

  it('is what does it: without the coverage weight, length-normalised BM25 ranks the short turns first', () => {
    expect(rank('Which workshop did I go to recently?', 0)[0]).not.toBe('long');
  });
});

describe('the thread feature', () => {
  it('stays on its scale when every turn that matches the words is already in the prompt', () => {
    const idx = new RetrievalIndex();
    idx.addTurn(turn('said', 1, 'I renewed the certificate for shop.example.net yesterday.'));
    for (let i = 0; i < 8; i++) idx.addTurn(turn(`p${i}`, i + 2, `Which fruit and which bread would you pick for a picnic in the park, round ${i + 1}?`));
    const r = retrieve(idx, {
      query: buildQuery({ message: 'What did I do about the certificate for shop.example.net?', entities: [], dates: [] }),
      scope: { userId: 'u', sessionId: 'S', otherSessions: true, docs: false },
      exclude: new Set(['said']),
      budget: 400,
      now: T0 + 86_400_000,
      counter,
      labels: LABELS.en,
      offsetMinutes: 0,
    });
    // The session's best match is the excluded turn: the others are read against it, not against nothing.
    expect(r.candidates.length).toBeGreaterThan(0);
    for (const c of r.candidates) expect(c.features.thread).toBeLessThanOrEqual(1.5);
  });
});


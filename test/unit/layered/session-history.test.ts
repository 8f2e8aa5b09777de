import { describe, expect, it } from 'vitest';
import { SessionHistories } from '../../../src/memory/layered/session-history.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex, type UserMemory } from '../../../src/memory/retrieval/retrieval-index.ts';
import { prng } from '../../../src/shared/prng.ts';

const turn = (sessionId: string, seq: number, text: string, extra: Partial<TurnEntry> = {}): TurnEntry => ({
  id: `${sessionId}:${seq}`, userId: 'u', sessionId, seq, role: seq % 2 === 1 ? 'user' : 'assistant', time: seq * 1000, text, entities: [], dates: [], tags: [], ...extra,
});

/** What the history must be: the session's turns before `seq`, read from the records one by one. */
function walk(memory: UserMemory, sessionId: string, seq: number): { messages: Array<{ role: string; content: string }>; ids: string[] } {
  const turns = (memory.sessions.get(sessionId) ?? []).map((id) => memory.turns.get(id)!).filter((t) => t.seq < seq);
  return { messages: turns.map((t) => ({ role: t.role, content: t.text })), ids: turns.map((t) => t.id) };
}

describe('session histories', () => {
  it('match the session read turn by turn, through appends, rewrites, flags, inserts before the end and a rebuilt index', () => {
    const rand = prng(21);
    let index = new RetrievalIndex({ createEmbedder: () => null });
    const histories = new SessionHistories();
    const next = new Map<string, number>();
    for (let step = 0; step < 600; step++) {
      const sessionId = `s${Math.floor(rand() * 3)}`;
      const last = next.get(sessionId) ?? 0;
      const roll = rand();
      if (roll < 0.7 || last === 0) {
        next.set(sessionId, last + 1);
        index.addTurn(turn(sessionId, last + 1, `turn ${step}`));
      } else if (roll < 0.8) {
        index.addTurn(turn(sessionId, 1 + Math.floor(rand() * last), `rewritten at ${step}`)); // a new text for a known turn
      } else if (roll < 0.88) {
        const seq = 1 + Math.floor(rand() * last);
        const known = index.user('u').turns.get(`${sessionId}:${seq}`)!;
        index.addTurn({ ...known, deprecatedAt: step }); // a flag: the same text
      } else if (roll < 0.95) {
        // A turn that arrives late, numbered between two it follows in time (an import, a retry).
        index.addTurn(turn(sessionId, last - 0.5, `late ${step}`, { id: `${sessionId}:late${step}` }));
      } else if (roll < 0.97) {
        // Start-up again: a new index from the same records.
        const all = [...index.user('u').turns.values()];
        index = new RetrievalIndex({ createEmbedder: () => null });
        index.load(all, new Map());
      }
      const memory = index.user('u');
      const seq = rand() < 0.5 ? (next.get(sessionId) ?? 0) + 1 : 1 + Math.floor(rand() * ((next.get(sessionId) ?? 0) + 1));
      const got = histories.before(memory, `u\u0000${sessionId}`, sessionId, seq);
      expect(got).toEqual(walk(memory, sessionId, seq));
    }
  });

  it('hands out arrays of its own: changing one changes nothing read later', () => {
    const index = new RetrievalIndex({ createEmbedder: () => null });
    for (let seq = 1; seq <= 4; seq++) index.addTurn(turn('s', seq, `turn ${seq}`));
    const histories = new SessionHistories();
    const first = histories.before(index.user('u'), 'k', 's', 9);
    first.messages.pop();
    first.ids.length = 0;
    expect(histories.before(index.user('u'), 'k', 's', 9)).toEqual(walk(index.user('u'), 's', 9));
  });
});

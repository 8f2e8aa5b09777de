import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { isHypothetical, isSelfStatement } from '../../../src/memory/retrieval/persona.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { DEFAULT_WEIGHTS } from '../../../src/memory/retrieval/rerank.ts';
import { realCounter } from '../context/helpers.ts';
import { searchConversation } from './search-conversation.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

describe('persona signals', () => {
  it('tells a conjecture about a person from a plain question', () => {
    expect(isHypothetical('Would Priya likely enjoy a long hike?')).toBe(true);
    expect(isHypothetical("What might Tomas's job be?")).toBe(true);
    expect(isHypothetical('Would Ines be considered a morning person?')).toBe(true);
    expect(isHypothetical('她会不会喜欢爬山？')).toBe(true);
    expect(isHypothetical('张伟可能学的是什么专业？')).toBe(true);
    expect(isHypothetical('When did Priya start her pottery class?')).toBe(false);
    expect(isHypothetical('他什么时候去的北京？')).toBe(false);
    // "likelihood" and "couldn't care less" are not the conjecture words.
    expect(isHypothetical('What is the likelihood table?')).toBe(false);
  });

  it('tells a statement about the speaker from other talk', () => {
    expect(isSelfStatement("I've always liked old maps, collecting them would be fun.")).toBe(true);
    expect(isSelfStatement("I'm allergic to peanuts and most tree nuts.")).toBe(true);
    expect(isSelfStatement('Finishing the marathon is my first goal, but my dream is to run an ultra.')).toBe(true);
    expect(isSelfStatement('我一直很喜欢爬山，周末常去。')).toBe(true);
    expect(isSelfStatement('我的梦想是当一名心理咨询师。')).toBe(true);
    expect(isSelfStatement('That bridge in your picture looks old! When was it built?')).toBe(false);
    expect(isSelfStatement('你去过那家店吗？')).toBe(false);
  });
});

describe('persona in retrieval', () => {
  const T0 = Date.UTC(2024, 2, 1, 9);
  const turn = (id: string, seq: number, speaker: string, text: string): TurnEntry => ({
    id, userId: 'u', sessionId: 'S', seq, role: 'user', time: T0 + seq * 60_000, text, speaker, entities: [], dates: [], tags: [],
  });
  const index = new RetrievalIndex();
  beforeAll(() => {
    // Two turns by Anna: one matches the question's words better, the other says what Anna herself likes.
    index.addTurn(turn('t1', 1, 'Anna', 'The lake was crowded this weekend, a weekend of lake crowds.'));
    index.addTurn(turn('t2', 2, 'Anna', 'I love the mountains, hiking there is my favorite plan.'));
    index.addTurn(turn('t3', 3, 'Ben', 'Cool. Hiking sounds fun.'));
  });
  const search = (message: string, persona = DEFAULT_WEIGHTS.persona, over = index) =>
    searchConversation(over, message, { now: T0 + 10 * 60_000, counter, rerank: { weights: { ...DEFAULT_WEIGHTS, persona } } });

  it('favours what the named person says about themselves when the question is a conjecture about them', () => {
    const r = search('Would Anna enjoy a weekend at the lake in the mountains?');
    const persona = new Map(r.candidates.map((c) => [c.id, c.features.persona]));
    expect(persona.get('t2')).toBe(1);
    expect(persona.get('t1')).toBe(0);
    expect(r.candidates[0]!.id).toBe('t2');
    // Without the feature, the better word match would come first.
    expect(search('Would Anna enjoy a weekend at the lake in the mountains?', 0).candidates[0]!.id).toBe('t1');
  });

  it('stays out of plain questions', () => {
    const r = search('When was Anna at the lake in the mountains?');
    expect(r.candidates.every((c) => c.features.persona === 0)).toBe(true);
  });

  it('in the app’s own chat (turns with roles, no names), a first-person conjecture is about the user', () => {
    const chat = new RetrievalIndex();
    const said = (id: string, seq: number, role: 'user' | 'assistant', text: string): TurnEntry => ({
      id, userId: 'u', sessionId: 'S', seq, role, time: T0 + seq * 60_000, text, entities: [], dates: [], tags: [],
    });
    chat.addTurn(said('c1', 1, 'user', 'The lake in the mountains was crowded this weekend, a weekend of lake crowds.'));
    chat.addTurn(said('c2', 2, 'user', 'I love the mountains, hiking there is my favorite plan.'));
    chat.addTurn(said('c3', 3, 'assistant', 'I like the mountains too; a lake weekend sounds fun.'));
    const ask = (message: string) => search(message, DEFAULT_WEIGHTS.persona, chat);
    const persona = (message: string) => new Map(ask(message).candidates.map((c) => [c.id, c.features.persona]));
    // The user's own self-statement, not the assistant's.
    expect(persona('Would I enjoy a weekend at the lake in the mountains?')).toEqual(new Map([['c1', 0], ['c2', 1], ['c3', 0]]));
    expect(ask('Would I enjoy a weekend at the lake in the mountains?').candidates[0]!.id).toBe('c2');
    // Not a conjecture, or not about the user: the feature stays off.
    expect([...persona('When was the lake in the mountains crowded?').values()].every((v) => v === 0)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { parseMemoryBank } from '../../../scripts/eval/memorybank-data.ts';

// Our own two-user example in MemoryBank's shape (not dataset text).
const bank = {
  ' Mira ': {
    name: 'Mira',
    history: {
      '2024-06-02': [
        { query: 'I baked rye bread today.', response: 'Rye needs a long proof.' },
        { query: 'My oven runs hot.', response: 'Try 10 degrees lower.' },
      ],
      '2024-06-01': [{ query: 'Hello!', response: 'Hi Mira.' }],
    },
  },
  Tomas: { name: 'Tomas', history: { '2024-06-01': [{ query: 'I play the oboe.', response: 'A lovely instrument.' }] } },
};
const probes = ['{"Mira": ["What did I bake?", "What did you tell me about my oven?", "What is my cat called?"]}', '{"Tomas": ["Which instrument do I play?"]}'].join('\n');
const labels = {
  'user 1': [
    { q: 0, evidence: ['2024-06-02#0u'], answerable: true },
    { q: 1, evidence: ['2024-06-02#1u', '2024-06-02#1a'], answerable: true },
    { q: 2, evidence: [], answerable: false },
  ],
};

describe('MemoryBank chats as eval conversations', () => {
  const [mira, tomas] = parseMemoryBank(bank, probes, labels, 'en');

  it('replays each day as a session in date order, the user and the assistant taking turns, with ids by day and exchange', () => {
    expect(mira!.sessions.map((s) => new Date(s.time).toISOString().slice(0, 10))).toEqual(['2024-06-01', '2024-06-02']);
    expect(mira!.sessions[1]!.turns.map((t) => `${t.diaId} ${t.speaker}`)).toEqual(['2024-06-02#0u user', '2024-06-02#0a assistant', '2024-06-02#1u user', '2024-06-02#1a assistant']);
    expect(mira!.sessions[1]!.turns[2]!.text).toBe('My oven runs hot.');
  });

  it('asks the labelled questions (probes matched to a name without its stray spaces, labels by place), skips the unanswerable and the unlabelled', () => {
    expect(mira!.questions.map((q) => [q.question, q.category, q.evidence])).toEqual([
      ['What did I bake?', 4, ['2024-06-02#0u']],
      ['What did you tell me about my oven?', 1, ['2024-06-02#1u', '2024-06-02#1a']],
    ]);
    expect(mira!.skipped).toBe(1);
    expect(tomas!.questions).toEqual([]);
    expect(tomas!.skipped).toBe(1);
  });
});

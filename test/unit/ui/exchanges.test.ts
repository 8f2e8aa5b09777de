import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TurnRecord } from '../../../src/memory/store/records.ts';
import { groupExchanges, withUnstored, type ExchangeTurn } from '../../../src/ui/data/exchanges.ts';
import { exportMessages } from '../../../src/ui/data/export-format.ts';
import { HIDDEN_TAG } from '../../../src/ui/data/visible-turns.ts';

const q = (id: string): ExchangeTurn => ({ id, role: 'user', replyTo: null });
const r = (id: string, replyTo: string | null | undefined): ExchangeTurn => ({ id, role: 'assistant', replyTo });
const ids = (turns: readonly ExchangeTurn[]): string[] => turns.map((t) => t.id);

describe('groupExchanges', () => {
  it('puts each reply of old interleaved data after its question, in question order', () => {
    // Two tabs before the exchange lock: tab B's question was stored first, then A's, then both replies.
    const stored = [q('qB'), q('qA'), r('rA', 'qA'), r('rB', 'qB')];
    expect(ids(groupExchanges(stored))).toEqual(['qB', 'rB', 'qA', 'rA']);
  });

  it('keeps already grouped conversations exactly as they are', () => {
    const stored = [q('q1'), r('r1', 'q1'), q('q2'), r('r2', 'q2'), q('q3')];
    expect(ids(groupExchanges(stored))).toEqual(['q1', 'r1', 'q2', 'r2', 'q3']);
  });

  it('leaves a reply whose question is missing or unknown where it is', () => {
    const stored = [q('q1'), r('orphan', null), q('q2'), r('lost', 'gone'), r('r1', 'q1'), r('legacy', undefined)];
    expect(ids(groupExchanges(stored))).toEqual(['q1', 'r1', 'orphan', 'q2', 'lost', 'legacy']);
  });

  it('keeps several replies to one question in stored order', () => {
    const stored = [q('q1'), q('q2'), r('a', 'q1'), r('b', 'q2'), r('c', 'q1')];
    expect(ids(groupExchanges(stored))).toEqual(['q1', 'a', 'c', 'q2', 'b']);
  });

  it('is a permutation that binds every answered reply to its question', () => {
    const turns = fc
      .array(fc.boolean(), { maxLength: 30 })
      .chain((roles) =>
        fc.tuple(
          fc.constant(roles),
          fc.array(fc.integer({ min: -1, max: 30 }), { minLength: roles.length, maxLength: roles.length }),
        ),
      )
      .map(([roles, targets]) =>
        roles.map((isUser, i): ExchangeTurn => (isUser ? q(`t${i}`) : r(`t${i}`, targets[i]! < 0 ? null : `t${targets[i]}`))),
      );
    fc.assert(
      fc.property(turns, (stored) => {
        const out = groupExchanges(stored);
        expect([...ids(out)].sort()).toEqual([...ids(stored)].sort());
        const questions = new Set(stored.filter((t) => t.role === 'user').map((t) => t.id));
        const users = (list: readonly ExchangeTurn[]) => ids(list.filter((t) => t.role === 'user'));
        expect(users(out)).toEqual(users(stored));
        out.forEach((t, i) => {
          if (t.role !== 'assistant' || !questions.has(t.replyTo ?? '')) return;
          // Between the question and its reply there are only replies to the same question.
          const at = out.findIndex((s) => s.id === t.replyTo);
          expect(at).toBeLessThan(i);
          for (const between of out.slice(at + 1, i)) expect(between.replyTo).toBe(t.replyTo);
        });
        expect(ids(groupExchanges(out))).toEqual(ids(out));
      }),
    );
  });
});

describe('withUnstored', () => {
  it('puts a reply not stored yet after its question and a waiting question at the end', () => {
    const stored = [q('q1'), r('r1', 'q1'), q('q2'), q('q3'), r('r3', 'q3')];
    const out = withUnstored(stored, [r('pending:1', 'q2'), q('queued:1')]);
    expect(ids(out)).toEqual(['q1', 'r1', 'q2', 'pending:1', 'q3', 'r3', 'queued:1']);
  });

  it('appends a reply whose question is not in the list', () => {
    expect(ids(withUnstored([q('q1')], [r('pending:2', 'elsewhere')]))).toEqual(['q1', 'pending:2']);
  });
});

describe('exportMessages', () => {
  const turn = (seq: number, role: 'user' | 'assistant', content: string, replyTo: string | null = null, tags: string[] = []): TurnRecord => ({
    id: `t${seq}`,
    sessionId: 's',
    seq,
    role,
    content,
    createdAt: 1_000 + seq,
    updatedAt: 1_000 + seq,
    tokenCount: 3,
    status: 'complete',
    tags,
    replyTo,
  });

  it('writes old interleaved exchanges whole, without hidden or empty replies', () => {
    const stored = [
      turn(1, 'user', 'Which bus goes to the harbour?'),
      turn(2, 'user', 'How long do I steep green tea?'),
      turn(3, 'assistant', 'About two minutes, below boiling.', 't2'),
      turn(4, 'assistant', 'An older answer, replaced by Regenerate.', 't1', [HIDDEN_TAG]),
      turn(5, 'assistant', '', 't1'),
      turn(6, 'assistant', 'Line 12, from the main square.', 't1'),
    ];
    expect(exportMessages(stored).map((m) => `${m.role}: ${m.content}`)).toEqual([
      'user: Which bus goes to the harbour?',
      'assistant: Line 12, from the main square.',
      'user: How long do I steep green tea?',
      'assistant: About two minutes, below boiling.',
    ]);
  });
});

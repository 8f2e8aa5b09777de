/** Issue 15: an export keeps how much of a long message the model got, and an import brings it back. */
import { describe, expect, it } from 'vitest';
import type { TurnRecord } from '../../../src/memory/store/records.ts';
import { ImportError, buildExport, exportMessages, parseExport } from '../../../src/ui/data/export-format.ts';

const turn = (id: string, role: TurnRecord['role'], content: string, extra: Partial<TurnRecord> = {}): TurnRecord => ({
  id,
  sessionId: 's1',
  seq: 0,
  role,
  content,
  createdAt: 1_000,
  updatedAt: 1_000,
  tokenCount: 1,
  status: 'complete',
  tags: [],
  replyTo: role === 'assistant' ? 'q1' : null,
  ...extra,
});

const LONG = 'A sentence of a long paste. '.repeat(4_000);
const fileOf = (messages: unknown[]) =>
  JSON.stringify({ ...buildExport([{ id: 'c1', title: 'Long', createdAt: 1, updatedAt: 2, messages: [] }], 0), conversations: [{ id: 'c1', title: 'Long', createdAt: 1, updatedAt: 2, messages }] });

describe('the sent part of a long message in an export', () => {
  it('is written with the user message and read back unchanged', () => {
    const messages = exportMessages([turn('q1', 'user', LONG, { sent: { chars: 9_000, tokens: 1_800 } }), turn('r1', 'assistant', 'An answer.')]);
    expect(messages[0]!.sent).toEqual({ chars: 9_000, tokens: 1_800 });
    expect(messages[1]).not.toHaveProperty('sent');
    const parsed = parseExport(fileOf(messages));
    expect(parsed.conversations[0]!.messages[0]!.sent).toEqual({ chars: 9_000, tokens: 1_800 });
    expect(parsed.conversations[0]!.messages[1]).not.toHaveProperty('sent');
  });

  it('is absent from messages sent whole, and older files without it still import', () => {
    const parsed = parseExport(fileOf([{ role: 'user', content: 'Short.', createdAt: 1, status: 'complete' }]));
    expect(parsed.conversations[0]!.messages[0]).toEqual({ role: 'user', content: 'Short.', createdAt: 1, status: 'complete' });
  });

  it.each([
    ['not a count', { chars: 'many', tokens: 3 }, 'user', LONG],
    ['more than the message', { chars: LONG.length + 1, tokens: 3 }, 'user', LONG],
    ['on a reply', { chars: 3, tokens: 1 }, 'assistant', LONG],
  ])('is refused, naming the field, when it is %s', (_, sent, role, content) => {
    const error = (() => {
      try {
        parseExport(fileOf([{ role, content, createdAt: 1, status: 'complete', sent }]));
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).code).toBe('invalid_input');
    expect((error as ImportError).params).toEqual({ where: 'conversations[0].messages[0].sent' });
  });
});

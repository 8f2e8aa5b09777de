/**
 * Export format version 2: each conversation's working memory, its items' sources as message indices; version 1
 * files still read (a `memory` there is not read); a damaged item is refused by name.
 */
import { describe, expect, it } from 'vitest';
import type { TurnRecord, WorkingItemRecord } from '../../../src/memory/store/index.ts';
import { EXPORT_FORMAT, ImportError, exportMemory, exportMessages, parseExport } from '../../../src/ui/data/export-format.ts';

const turn = (id: string, role: 'user' | 'assistant', content: string, seq: number, replyTo: string | null = null): TurnRecord => ({
  id, sessionId: 's', seq, role, content, createdAt: seq, updatedAt: seq, tokenCount: 1, status: 'complete', tags: [], replyTo,
});
const item = (id: string, value: string, sourceTurnId: string | null, extra: Partial<WorkingItemRecord> = {}): WorkingItemRecord => ({
  id, sessionId: 's', kind: 'entity', key: 'ipv4', name: 'ipv4', value, sourceTurnId, createdAt: 1, updatedAt: 2, expiresAt: 99, pinned: false, ...extra,
});

describe('export format version 2 (working memory)', () => {
  it('writes a conversation’s own items with the index of their source message, and leaves out others', () => {
    const turns = [turn('u1', 'user', 'server 10.0.0.7', 1), turn('a1', 'assistant', 'ok', 2, 'u1'), turn('u2', 'user', 'and 10.0.0.8', 3)];
    const memory = exportMemory('s', turns, [
      item('s|ip1', '10.0.0.7', 'u1', { pinned: true, expiresAt: null }),
      item('s|ip2', '10.0.0.8', 'u2'),
      item('s|gone', '10.0.0.1', 'deleted-turn'),
      item('other|x', 'not this conversation', 'u1', { sessionId: 'other' }),
      item('g', 'global', null, { sessionId: null }),
      item('s|odd', 'x', null, { kind: 'preference' }),
    ]);
    expect(memory.map((m) => [m.id, m.value, m.source, m.pinned, m.expiresAt])).toEqual([
      ['ip1', '10.0.0.7', 0, true, null],
      ['ip2', '10.0.0.8', 2, false, 99],
      ['gone', '10.0.0.1', null, false, 99],
    ]);
  });

  const file = (version: number, memory: unknown): string =>
    JSON.stringify({
      format: EXPORT_FORMAT,
      version,
      conversations: [{ id: 'c', title: 't', createdAt: 1, updatedAt: 1, messages: [{ role: 'user', content: 'hi', createdAt: 1 }], memory }],
    });
  const good = { id: 'ip1', kind: 'entity', key: 'ipv4', value: '10.0.0.7', source: 0, createdAt: 1, updatedAt: 2, expiresAt: null, pinned: true };

  it('reads the memory of a version 2 file, and ignores a memory field in a version 1 file', () => {
    expect(parseExport(file(2, [good])).conversations[0]!.memory).toEqual([good]);
    const v1 = parseExport(file(1, [good]));
    expect(v1.version).toBe(1);
    expect(v1.conversations[0]!.memory).toBeUndefined();
  });

  it('marks a forgotten message, reads the mark back from a version 2 file, and refuses it in a version 1 file', () => {
    const turns = [{ ...turn('u1', 'user', 'server 10.0.0.7', 1), tags: ['forgotten'] }, turn('a1', 'assistant', 'ok', 2, 'u1')];
    expect(exportMessages(turns).map((m) => m.forgotten)).toEqual([true, undefined]);
    const withMark = (version: number): string =>
      JSON.stringify({ format: EXPORT_FORMAT, version, conversations: [{ id: 'c', title: 't', createdAt: 1, updatedAt: 1, messages: [{ role: 'user', content: 'hi', createdAt: 1, forgotten: true }] }] });
    expect(parseExport(withMark(2)).conversations[0]!.messages[0]!.forgotten).toBe(true);
    expect(() => parseExport(withMark(1))).toThrow(ImportError);
  });

  it('stores a source spelled -0 as 0 (found by fuzzing), so that the file re-exports as itself', () => {
    const parsed = parseExport(file(2, [{ ...good, source: 0 }]).replace('"source":0', '"source":-0'));
    expect(Object.is(parsed.conversations[0]!.memory![0]!.source, 0)).toBe(true);
  });

  it('refuses a damaged item by its field', () => {
    const refused = (memory: unknown): string => {
      try {
        parseExport(file(2, memory));
      } catch (error) {
        expect(error).toBeInstanceOf(ImportError);
        return String((error as ImportError).params.where);
      }
      throw new Error('accepted');
    };
    expect(refused({})).toBe('conversations[0].memory');
    expect(refused([{ ...good, source: 1 }])).toBe('conversations[0].memory[0].source');
    expect(refused([{ ...good, kind: 'secret' }])).toBe('conversations[0].memory[0].kind');
    expect(refused([good, { ...good }])).toBe('conversations[0].memory[1].id');
    expect(refused([{ ...good, pinned: 'yes' }])).toBe('conversations[0].memory[0].pinned');
    expect(refused([{ ...good, expiresAt: -5 }])).toBe('conversations[0].memory[0].expiresAt');
  });
});

/**
 * Fuzzing the conversation import's parser: an export written by `buildExport`, mutated structurally, is either
 * accepted as a well-formed export or refused with an `ImportError` (an `invalid_input` AssistantError) whose
 * message key names the problem — never another exception, never a hang.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AssistantError } from '../../../src/shared/errors.ts';
import { ImportError, buildExport, parseExport, type ExportConversation } from '../../../src/ui/data/export-format.ts';
import { mutatedText } from '../../fixtures/fuzz/json-mutations.ts';
import { outcome, fuzzRuns } from '../../fixtures/fuzz/time-bound.ts';

const conversations: ExportConversation[] = [
  {
    id: 'c-1',
    title: 'Backups',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_100_000,
    messages: [
      { role: 'user', content: 'When do backups run?', createdAt: 1_700_000_000_000, status: 'complete' },
      { role: 'assistant', content: 'Nightly at two.', createdAt: 1_700_000_001_000, status: 'complete' },
      { role: 'user', content: '中文 and `code`', createdAt: 1_700_000_002_000, status: 'complete' },
      { role: 'assistant', content: 'Cut', createdAt: 1_700_000_003_000, status: 'interrupted' },
    ],
    memory: [
      { id: 'ent:time', kind: 'entity', key: 'time', name: 'time', value: '02:00', source: 1, createdAt: 1_700_000_001_000, updatedAt: 1_700_000_001_000, expiresAt: null, pinned: true },
      { id: 'topic', kind: 'topic', key: 'topic', value: 'backups', source: null, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_002_000, expiresAt: 1_700_086_400_000, pinned: false },
    ],
  },
  { id: 'c-2', title: '', createdAt: 0, updatedAt: 0, messages: [{ role: 'system', content: '', createdAt: 5, status: 'complete' }] },
];
const valid = JSON.parse(JSON.stringify(buildExport(conversations, 1_700_000_200_000))) as Parameters<typeof mutatedText>[0];

describe('parseExport under mutation', () => {
  it('accepts a well-formed export or refuses it with a coded ImportError, within 1 s', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedText(valid), async (text) => {
        const result = await outcome(1_000, 'parseExport', () => parseExport(text));
        if (!result.ok) {
          expect(result.error).toBeInstanceOf(ImportError);
          expect(result.error).toBeInstanceOf(AssistantError);
          expect((result.error as ImportError).code).toBe('invalid_input');
          expect((result.error as ImportError).key).toMatch(/^data\.import\./);
          return;
        }
        // What was accepted is well-formed: parsing it again gives the same file.
        expect(parseExport(JSON.stringify(result.value))).toEqual(result.value);
        for (const c of result.value.conversations) {
          expect(typeof c.id).toBe('string');
          for (const m of c.messages) expect(Number.isFinite(m.createdAt)).toBe(true);
        }
      }),
      fuzzRuns(200, 30_000),
    );
  }, 30_000);
});

describe('parseExport regressions found by fuzzing', () => {
  const withVersion = (version: string): string => `{"format":"qwen-local-assistant/conversations","version":${version},"conversations":[]}`;

  it('names a version that is an object owning toString (String() threw an uncoded TypeError)', () => {
    for (const [version, shown] of [['{"toString":1,"valueOf":1}', '{…}'], ['[{"toString":null}]', '[…]'], ['1e400', 'Infinity'], ['"9"', '9']]) {
      let error: unknown;
      try {
        parseExport(withVersion(version!));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ImportError);
      expect(error).toMatchObject({ code: 'invalid_input', key: 'data.import.version', params: { version: shown, supported: '1, 2' } });
    }
  });

  it('stores a time or a sent part spelled -0 as 0, so what was accepted re-exports as itself', () => {
    const file = `{"format":"qwen-local-assistant/conversations","version":1,"conversations":[{"id":"c","title":"t","createdAt":-0,"updatedAt":-0,"messages":[{"role":"user","content":"hi","createdAt":-0,"sent":{"chars":-0,"tokens":-0}}]}]}`;
    const parsed = parseExport(file);
    const [c] = parsed.conversations;
    expect(Object.is(c!.createdAt, 0) && Object.is(c!.updatedAt, 0) && Object.is(c!.messages[0]!.createdAt, 0)).toBe(true);
    expect(Object.is(c!.messages[0]!.sent!.chars, 0) && Object.is(c!.messages[0]!.sent!.tokens, 0)).toBe(true);
    expect(parseExport(JSON.stringify(parsed))).toEqual(parsed);
  });
});

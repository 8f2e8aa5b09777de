import { describe, expect, it } from 'vitest';
import { docColumns, docsFromColumns, turnColumns, turnsFromColumns, type DocFields, type TurnFields } from '../../../src/memory/retrieval/entry-columns.ts';

const turns: TurnFields[] = [
  { id: 'a1', userId: 'me', sessionId: 'trip', seq: 1, role: 'user', time: 1_700_000_000_000, entities: ['lisbon', '2024-05-02'], dates: ['2024-05-02'], tags: ['procedure'] },
  { id: 'a2', userId: 'me', sessionId: 'trip', seq: 2, role: 'assistant', time: 1_700_000_060_000, entities: [], dates: [], tags: [] },
  { id: 'b1', userId: 'me', sessionId: 'ops', seq: 1, role: 'user', speaker: 'Ana', time: 1_700_000_120_000, entities: ['nginx'], dates: [], tags: ['troubleshooting', 'resolved'], deprecatedAt: 1_700_000_500_000 },
];

describe('entry columns (the saved index keeps turn and doc entries as columns)', () => {
  it('give back the same turn entries, optional fields present only where they were', () => {
    const back = turnsFromColumns(structuredClone(turnColumns(turns)), (id) => `text of ${id}`);
    expect(back).toEqual(turns.map((t) => ({ ...t, text: `text of ${t.id}` })));
    expect('speaker' in back[0]!).toBe(false);
    expect('deprecatedAt' in back[1]!).toBe(false);
    expect(back[2]).toMatchObject({ speaker: 'Ana', deprecatedAt: 1_700_000_500_000 });
  });

  it('give back the same doc entries', () => {
    const docs: DocFields[] = [
      { id: 'd1', docId: 'guide/install.md', source: 'Install', part: 0, tags: [] },
      { id: 'd2', docId: 'guide/install.md', source: 'Install', part: 1, tags: ['concept'] },
    ];
    const back = docsFromColumns(structuredClone(docColumns(docs)), (id) => `text of ${id}`);
    expect(back).toEqual(docs.map(({ tags, ...doc }) => ({ doc: { ...doc, text: `text of ${doc.id}` }, tags })));
  });

  it('refuse an entry whose text the shard does not have', () => {
    expect(() => turnsFromColumns(turnColumns(turns), (id) => (id === 'a2' ? undefined : 'text'))).toThrow(/a2 has no text/);
  });

  it('store each repeated string once', () => {
    const columns = turnColumns(turns);
    expect(columns.sessionIds.names).toEqual(['trip', 'ops']);
    expect(columns.userIds.names).toEqual(['me']);
  });

  it('refuse columns that do not hold together', () => {
    const damage: Array<(c: ReturnType<typeof turnColumns>) => void> = [
      (c) => (c.seq = c.seq.subarray(1)),
      (c) => (c.sessionIds.codes[0] = 7),
      (c) => (c.speakers.codes[0] = -2),
      (c) => (c.entities.starts[1] = 99),
      (c) => (c.tags.names[0] = 'not-a-tag'),
      (c) => (c.roles.names[0] = 'narrator'),
    ];
    for (const hurt of damage) {
      const columns = structuredClone(turnColumns(turns));
      hurt(columns);
      expect(() => turnsFromColumns(columns, () => 'text')).toThrow(RangeError);
    }
  });
});

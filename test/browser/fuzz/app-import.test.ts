/**
 * Fuzzing the app's conversation import against a real IndexedDB store: an export written by the app's own
 * `DataController.exportFile`, mutated structurally, is imported through `DataController.importFile`. Each run
 * ends in success or a refusal whose notice names the problem; a refused import leaves every record of every
 * object store deep-equal to before, and an accepted one adds its conversations and changes no stored one.
 * Fewer runs than the Node fuzzers (IndexedDB writes); fast-check prints the seed of a failure to replay it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteMemoryDB } from '../../../src/memory/store/db.ts';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { DataController } from '../../../src/ui/controllers/data-controller.ts';
import { mutatedText } from '../../fixtures/fuzz/json-mutations.ts';
import { described } from '../../fixtures/fuzz/text-mutations.ts';
import { within, fuzzRuns } from '../../fixtures/fuzz/time-bound.ts';
import { canonical, changedStores, dumpDatabase, type Dump } from './store-dump.ts';

const name = `test-fuzz-import-${Date.now().toString(36)}`;
let store: MemoryStore;
let data: DataController;
let valid: Parameters<typeof mutatedText>[0];

beforeAll(async () => {
  store = await MemoryStore.open({ name, logger: { warn: () => {} } });
  const host = { addController: () => {}, removeController: () => {}, requestUpdate: () => {}, updateComplete: Promise.resolve(true) };
  data = new DataController(host, {
    store: async () => store,
    beforeWipe: async () => {},
    afterWipe: async () => {},
    imported: async () => {},
    counter: async () => ({ count: (t: string) => t.length }),
    docsImported: () => {},
  });
  const first = await store.createSession({ title: 'Backups' });
  await store.importTurns(first.id, [
    { role: 'user', content: 'When do backups run?' },
    { role: 'assistant', content: 'Nightly at two.' },
    { role: 'user', content: '中文 and `code`' },
    { role: 'assistant', content: 'Cut short', status: 'interrupted' },
  ]);
  const second = await store.createSession({ title: 'Empty-ish' });
  await store.importTurns(second.id, [{ role: 'user', content: 'hello' }]);
  valid = JSON.parse(JSON.stringify(await data.exportFile())) as typeof valid;
});

afterAll(async () => {
  await store.close();
  await deleteMemoryDB(name);
});

const sessionsAndTurns = (dump: Dump): unknown[] => [...(dump['sessions'] ?? []), ...(dump['turns'] ?? [])];

describe('conversation import under mutation (IndexedDB)', () => {
  it('imports, or refuses with a named problem and changes nothing', async () => {
    let before = await dumpDatabase(name);
    await fc.assert(
      fc.asyncProperty(fc.noShrink(mutatedText(valid, 100_000)).map((text) => described({ text }, text)), async ({ text }) => {
        const imported = await within(10_000, 'importFile', () => data.importFile(new Blob([text])));
        await store.whenIdle();
        const after = await dumpDatabase(name);
        if (!imported) {
          expect(data.notice).toMatchObject({ kind: 'error' });
          // The file's own problems have their own message; only a store failure is the generic one.
          expect(data.notice!.key).not.toBe('data.import.failed');
          expect(changedStores(before, after)).toEqual([]);
          return;
        }
        expect(data.notice).toMatchObject({ kind: 'ok', key: 'data.import.done' });
        // Nothing stored before changed; only new records were added.
        const kept = new Set(sessionsAndTurns(after).map(canonical));
        for (const record of sessionsAndTurns(before)) expect(kept.has(canonical(record))).toBe(true);
        const added = (after['sessions']?.length ?? 0) - (before['sessions']?.length ?? 0);
        expect(added).toBe(data.notice!.params!['count']);
        // Back to the starting store for the next run: delete what this run added.
        const old = new Set((before['sessions'] as Array<{ id: string }>).map((s) => s.id));
        for (const s of after['sessions'] as Array<{ id: string }>) if (!old.has(s.id)) await store.deleteSession(s.id);
        await store.whenIdle();
        before = await dumpDatabase(name);
      }),
      fuzzRuns(60, 60_000),
    );
  }, 60_000);
});

/**
 * Data control: export all conversations (the file the button downloads), import it back, and broken files —
 * not JSON, another app's, a newer version, damaged inside, too large — each refused with its own message and
 * nothing changed. ("Delete all my data" runs against the built app, with its service worker, in test/e2e.)
 * The replies come from the scripted engine (test/browser/engine/ui-worker.ts): what is exported is the subject
 * here, not the model.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { EXPORT_FORMAT, IMPORT_MAX_BYTES, type ExportFile } from '../../../src/ui/data/export-format.ts';
import { SCRIPTED_REPLY, conversationList, conversationTitles, freshStart, mountApp, resetAppStorage, sendAndWait, unmountApp, waitReady } from './app-helpers.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  vi.restoreAllMocks();
  await unmountApp();
  await resetAppStorage();
});

/** Everything stored, as comparable data. */
async function snapshotStore(name: string): Promise<unknown> {
  const store = await MemoryStore.open({ name });
  const out = [];
  for (const s of await store.listSessions()) out.push({ s, turns: await store.listTurns(s.id) });
  await store.close();
  return out;
}

const file = (text: string, name = 'export.json') => new File([text], name, { type: 'application/json' });

/** What a file picker does to the input: the chosen file in `files`, then `change`. */
function choose(input: HTMLInputElement, chosen: File): void {
  const transfer = new DataTransfer();
  transfer.items.add(chosen);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

describe('data control', () => {
  it('exports all conversations to a versioned file and imports it back', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted' });
    await waitReady(app);
    await sendAndWait(app, 'Remember that my cat is called Mochi');
    let exported: Blob | null = null;
    const create = URL.createObjectURL.bind(URL);
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      exported = blob as Blob;
      return create(blob as Blob);
    });
    await userEvent.click(page.getByRole('button', { name: 'Data' }));
    await userEvent.click(page.getByRole('button', { name: 'Export all conversations' }));
    await expect.element(page.getByText('Exported 1 conversations.')).toBeVisible();
    const data = JSON.parse(await exported!.text()) as ExportFile;
    expect(data.format).toBe(EXPORT_FORMAT);
    expect(data.version).toBe(2);
    expect(data.conversations).toHaveLength(1);
    expect(data.conversations[0]!.messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Remember that my cat is called Mochi', 'complete'],
      ['assistant', SCRIPTED_REPLY, 'complete'],
    ]);

    // Importing the same file again adds a copy (its id is taken, so it gets a new one).
    await userEvent.upload(page.getByLabelText('Choose a file'), file(JSON.stringify(data)));
    await expect.element(page.getByText('Imported 1 conversations.')).toBeVisible();
    await expect.poll(() => conversationTitles(app)).toEqual(['Remember that my cat is called Mochi', 'Remember that my cat is called Mochi']);
    const stored = (await snapshotStore(dbName)) as Array<{ turns: unknown[] }>;
    expect(stored.map((c) => c.turns.length)).toEqual([2, 2]);
  });

  it('exports each conversation’s working memory (pins and corrections included) and imports it with its sources', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted' });
    await waitReady(app);
    await sendAndWait(app, 'Our staging server is 10.0.0.7 and the database is PostgreSQL 15.');
    const original = app.chat.sessionId!;
    // The user pins the address and corrects it (as the memory panel does, through the store).
    const store = await MemoryStore.open({ name: dbName });
    const address = (await store.listWorkingItems(original)).find((i) => i.value === '10.0.0.7')!;
    await store.putWorkingItem({ ...address, value: '10.0.0.9', pinned: true, expiresAt: null });
    // And forgets the reply (a forgotten message is exported with its mark).
    const reply = (await store.listTurns(original)).find((t) => t.role === 'assistant')!;
    await store.updateTurn(reply.id, { tags: ['forgotten'] });
    await store.close();
    app.planner.workingMemoryChanged(original);

    const data = await app.data.exportFile();
    const [exported] = data.conversations;
    expect(data.version).toBe(2);
    const item = exported!.memory!.find((m) => m.value === '10.0.0.9')!;
    expect(item).toMatchObject({ kind: 'entity', pinned: true, expiresAt: null, source: 0 });
    expect(exported!.messages[item.source!]!.content).toContain('10.0.0.7');
    expect(exported!.messages.map((m) => m.forgotten)).toEqual([undefined, true]);

    // Imported again (a copy: the id is taken), the copy has the same memory, its sources its own messages.
    expect(await app.data.importFile(file(JSON.stringify(data)))).toBe(true);
    const check = await MemoryStore.open({ name: dbName });
    try {
      const copy = (await check.listSessions()).find((s) => s.id !== original)!;
      const copied = await check.listWorkingItems(copy.id);
      expect(copied.map((i) => i.value).sort()).toEqual(exported!.memory!.map((m) => m.value).sort());
      const pinned = copied.find((i) => i.value === '10.0.0.9')!;
      expect(pinned).toMatchObject({ sessionId: copy.id, pinned: true, expiresAt: null });
      expect(pinned.id.startsWith(`${copy.id}|`)).toBe(true);
      const copiedTurns = await check.listTurns(copy.id);
      const source = copiedTurns.find((t) => t.id === pinned.sourceTurnId)!;
      expect(source.content).toContain('10.0.0.7');
      expect(copiedTurns.map((t) => [t.role, t.tags.includes('forgotten')])).toEqual([['user', false], ['assistant', true]]);

      // The imported conversation's next prompt holds its memory.
      conversationList(app).dispatchEvent(new CustomEvent('qwen-open', { detail: { id: copy.id }, bubbles: true, composed: true }));
      await expect.poll(() => app.chat.sessionId).toBe(copy.id);
      await sendAndWait(app, 'Thanks, that is all.');
      expect(app.chat.lastSnapshot!.report.memory.working.text).toContain('10.0.0.9');
    } finally {
      await check.close();
    }
  });

  it('a broken or oversized file gets a clear error and changes nothing', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted' });
    await waitReady(app);
    await sendAndWait(app, 'Something worth keeping');
    const before = await snapshotStore(dbName);
    await userEvent.click(page.getByRole('button', { name: 'Data' }));
    const upload = (f: File) => userEvent.upload(page.getByLabelText('Choose a file'), f);
    const alert = () => page.getByRole('alert');
    const good = { role: 'user', content: 'fine', createdAt: 1, status: 'complete' };
    const conv = (messages: unknown[]) => ({ id: 'c1', title: 'x', createdAt: 1, updatedAt: 1, messages });
    const wrap = (conversations: unknown[], version = 1) => JSON.stringify({ format: EXPORT_FORMAT, version, exportedAt: '', conversations });

    await upload(file('{"format": "qwen-local-assistant/conversations", "version": 1, "conversations": ['));
    await expect.element(alert()).toHaveTextContent('This file is not valid JSON. Nothing was imported.');
    await upload(file(JSON.stringify({ messages: [] })));
    await expect.element(alert()).toHaveTextContent('not a conversation export of this app');
    await upload(file(wrap([], 3)));
    await expect.element(alert()).toHaveTextContent('This export has version 3; this app reads versions 1, 2.');
    // One good conversation before a damaged one: the good one is not imported either.
    await upload(file(wrap([conv([good]), conv([good, { role: 'wizard', content: 'x', createdAt: 1 }])])));
    await expect.element(alert()).toHaveTextContent('The file is damaged at conversations[1].messages[1].role. Nothing was imported.');
    await upload(file(wrap([conv([{ ...good, content: 42 }])])));
    await expect.element(alert()).toHaveTextContent('conversations[0].messages[0].content');
    // Chosen in the page itself, as the file picker hands it over: sending 21 MB through userEvent.upload's
    // test-runner channel took 15 s of every run and tests nothing of the app.
    choose(page.getByLabelText('Choose a file').element() as HTMLInputElement, file('x'.repeat(IMPORT_MAX_BYTES + 1), 'huge.json'));
    await expect.element(alert()).toHaveTextContent('The file is 21 MB; the limit is 20 MB. Nothing was imported.');

    expect(conversationTitles(app)).toEqual(['Something worth keeping']);
    expect(await snapshotStore(dbName)).toEqual(before);
  });
});

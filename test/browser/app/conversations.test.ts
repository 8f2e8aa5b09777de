/**
 * Conversations as a user handles them: the first message creates one (titled from it), "New conversation",
 * switching, renaming inline, searching titles and message text, deleting after a confirmation, and the last one
 * reopened when the app starts again on the same database (a real reload is in test/e2e/offline.test.ts).
 * The replies come from the scripted engine (test/browser/engine/ui-worker.ts): the conversations are the subject.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { SCRIPTED_ENDLESS_URL, SCRIPTED_REPLY, conversationTitles, deleteTestDatabase, freshStart, messageItems, messageTexts, mountApp, resetAppStorage, sendAndWait, unmountApp, waitReady } from './app-helpers.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

describe('conversations', () => {
  it('create, switch, rename, search by title and content, delete after confirming, and reopen the last one', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted' });
    await waitReady(app);

    await sendAndWait(app, 'Plan a trip to Hangzhou in May');
    await expect.poll(() => conversationTitles(app)).toEqual(['Plan a trip to Hangzhou in May']);

    await userEvent.click(page.getByRole('button', { name: 'New conversation' }).first());
    expect(messageItems(app)).toHaveLength(0);
    await sendAndWait(app, 'Explain binary search');
    await expect.poll(() => conversationTitles(app)).toEqual(['Explain binary search', 'Plan a trip to Hangzhou in May']);

    // Switching shows that conversation's messages.
    await userEvent.click(page.getByRole('button', { name: 'Plan a trip to Hangzhou in May', exact: true }));
    await expect.poll(() => messageTexts(app, 'user')).toEqual(['Plan a trip to Hangzhou in May']);
    expect(messageTexts(app, 'assistant')).toEqual([SCRIPTED_REPLY]);

    // Rename inline: Enter saves; Escape would cancel.
    await userEvent.click(page.getByRole('button', { name: 'Rename “Plan a trip to Hangzhou in May”' }));
    const title = page.getByRole('textbox', { name: 'New title' });
    await title.fill('Hangzhou trip');
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => conversationTitles(app)).toContain('Hangzhou trip');
    await userEvent.click(page.getByRole('button', { name: 'Rename “Hangzhou trip”' }));
    await page.getByRole('textbox', { name: 'New title' }).fill('Discarded name');
    await userEvent.keyboard('{Escape}');
    await expect.poll(() => conversationTitles(app)).toContain('Hangzhou trip');
    expect(conversationTitles(app)).not.toContain('Discarded name');

    // Search by title, then by something only a message says.
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('hangzhou');
    await expect.poll(() => conversationTitles(app)).toEqual(['Hangzhou trip']);
    await search.fill('binary');
    await expect.poll(() => conversationTitles(app)).toEqual(['Explain binary search']);
    await search.fill('scripted engine'); // only in the replies
    await expect.poll(() => conversationTitles(app).length).toBe(2);
    await search.fill('nothing like this');
    await expect.element(page.getByText('No conversation matches.')).toBeVisible();
    await search.fill('');
    await expect.poll(() => conversationTitles(app).length).toBe(2);

    // Delete: Cancel keeps it, Delete removes it (and its turns from the store).
    await userEvent.click(page.getByRole('button', { name: 'Delete “Explain binary search”' }));
    await userEvent.click(page.getByRole('button', { name: 'Cancel' }));
    expect(conversationTitles(app)).toContain('Explain binary search');
    await userEvent.click(page.getByRole('button', { name: 'Delete “Explain binary search”' }));
    await expect.element(page.getByRole('dialog')).toHaveTextContent(/cannot be undone/);
    await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
    await expect.poll(() => conversationTitles(app)).toEqual(['Hangzhou trip']);

    // Start again on the same database: the list and the last opened conversation come back.
    await unmountApp();
    const again = mountApp({ engine: 'scripted', dbName }).app;
    await expect.poll(() => conversationTitles(again)).toEqual(['Hangzhou trip']);
    await expect.poll(() => messageTexts(again, 'user')).toEqual(['Plan a trip to Hangzhou in May']);
    expect(messageTexts(again, 'assistant')).toEqual([SCRIPTED_REPLY]);

    const store = await MemoryStore.open({ name: dbName });
    const sessions = await store.listSessions();
    expect(sessions.map((s) => s.title)).toEqual(['Hangzhou trip']);
    await store.close();
  });
});

describe('taken off the page', () => {
  it('mid-reply: the database is let go, and the reply ending later neither reopens nor recreates it', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted', ggufUrl: SCRIPTED_ENDLESS_URL });
    await waitReady(app);
    await userEvent.type(page.getByRole('textbox', { name: 'Message' }), 'go on forever{Enter}');
    await expect.poll(() => Number(messageItems(app, 'assistant')[0]?.dataset.chunks ?? 0)).toBeGreaterThan(2);

    document.body.replaceChildren();
    // Not blocked: the store closed its connection (deleteTestDatabase fails on "blocked").
    await deleteTestDatabase(dbName);
    app.chat.stop();
    await expect.poll(() => app.chat.busy).toBe(false);
    await expect(app.conversations.store()).rejects.toThrow(/removed from the page/);
    expect((await indexedDB.databases()).map((db) => db.name)).not.toContain(dbName);
    app.client.terminate();
  });
});

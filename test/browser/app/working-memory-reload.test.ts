/**
 * Working memory that survives a reload (issue 17), in the app a user sees, with IndexedDB in real Chromium: state
 * a fact, reload, ask again, and the prompt's working memory still holds it; a second app on the same database (a
 * tab) reads it too; deleting the conversation deletes its items.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { freshStart, messageItems, mountApp, resetAppStorage, sendAndWait, unmountApp } from './app-helpers.ts';

beforeEach(() => freshStart());

afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

describe('working memory after a reload', () => {
  it('what the user stated is in the next prompt after a reload, and goes with its conversation', async () => {
    let { app, dbName } = mountApp({ engine: 'scripted' });
    await app.updateComplete;
    await sendAndWait(app, 'Our staging server is 10.0.0.7 and the database is PostgreSQL 15.');
    const sessionId = app.chat.sessionId!;
    expect(app.chat.lastSnapshot!.working.map((i) => i.value)).toContain('10.0.0.7');

    // Stored, with the message it came from.
    const check = await MemoryStore.open({ name: dbName });
    try {
      const items = await check.listWorkingItems(sessionId);
      expect(items.find((i) => i.value === '10.0.0.7')).toMatchObject({ sessionId, sourceTurnId: app.chat.messages[0]!.id });
    } finally {
      await check.close();
    }

    // A reload: a new app on the same database opens the same conversation.
    await unmountApp();
    ({ app } = mountApp({ engine: 'scripted', dbName }));
    await app.updateComplete;
    await expect.poll(() => app.chat.sessionId).toBe(sessionId);
    await expect.poll(() => messageItems(app).length).toBe(2);
    await sendAndWait(app, 'Which address was the staging server again?');
    const snapshot = app.chat.lastSnapshot!;
    expect(snapshot.working.map((i) => i.value)).toContain('10.0.0.7');
    expect(snapshot.report.memory.working.text).toContain('10.0.0.7');
    // It is in the prompt as working memory, not only as the old message: the prompt continues the one before the
    // reload (its context state is kept too), whose memory block already holds the item, so it is not sent again.
    expect(snapshot.report.mode).toBe('append');
    expect(snapshot.report.memory.block.held.working.join(' ')).toContain('10.0.0.7');
    const block = snapshot.messages.slice(0, -1).find((m) => m.role === 'user' && m.content.includes('10.0.0.7') && m.content !== 'Our staging server is 10.0.0.7 and the database is PostgreSQL 15.');
    expect(block).toBeDefined();

    // Deleting the conversation deletes what its messages taught.
    await app.conversations.remove(sessionId);
    const after = await MemoryStore.open({ name: dbName });
    try {
      expect(await after.listWorkingItems(sessionId, { includeExpired: true })).toEqual([]);
    } finally {
      await after.close();
    }
  });
});

/**
 * Regenerate, edit, delete and another tab's turns leave the memory in place (issue 17): the next prompt is planned
 * without reading the other conversations again, which a rebuild would (it reads every conversation's turns).
 * Counted on the app's own store, in real Chromium.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import { countReads } from '../memory/helpers.ts';
import { freshStart, messageItems, mountApp, resetAppStorage, sendAndWait, unmountApp } from './app-helpers.ts';

beforeEach(() => freshStart());

afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});


async function newConversation(app: QwenChatApp, text: string): Promise<string> {
  app.conversations.select(null);
  await expect.poll(() => app.chat.sessionId).toBeNull();
  await sendAndWait(app, text);
  return app.chat.sessionId!;
}

async function settled(app: QwenChatApp): Promise<void> {
  await expect.poll(() => app.chat.busy).toBe(false);
  expect(messageItems(app, 'assistant').at(-1)!.dataset.status).toBe('complete');
}

describe('the memory after a regenerate, an edit or a delete', () => {
  it('plans the next prompt without reading the other conversations again, and without the replaced turns', async () => {
    const { app } = mountApp({ engine: 'scripted' });
    await app.updateComplete;
    const first = await newConversation(app, 'Our staging server is 10.0.0.7 and it runs PostgreSQL 15.');
    const second = await newConversation(app, 'The harbour museum opens at nine on weekdays.');
    const third = await newConversation(app, 'Which database does the staging server run?');
    const store = await app.conversations.store();
    const reads = countReads(store);

    // Regenerate: the reply is replaced; the question is planned again.
    const replaced = app.chat.messages.at(-1)!.id;
    await app.chat.regenerate();
    await settled(app);
    expect(reads.get(first) ?? 0).toBe(0);
    expect(reads.get(second) ?? 0).toBe(0);
    let snapshot = app.chat.lastSnapshot!;
    expect(snapshot.history.map((t) => t.id)).not.toContain(replaced);
    expect(snapshot.history.map((t) => t.id)).toEqual([]);

    // Edit: the message changes, the reply after it goes.
    const editedReply = app.chat.messages.at(-1)!.id;
    await app.chat.editLast('When does the harbour museum open?');
    await settled(app);
    expect(reads.get(first) ?? 0).toBe(0);
    expect(reads.get(second) ?? 0).toBe(0);
    snapshot = app.chat.lastSnapshot!;
    expect(snapshot.input.text).toBe('When does the harbour museum open?');
    expect(snapshot.history.map((t) => t.id)).not.toContain(editedReply);
    expect(snapshot.messages.at(-1)!.content).toContain('When does the harbour museum open?');

    // Delete a conversation: nothing of it is searched any more, and nothing is read again.
    const gone = new Set((await store.listTurns(second)).map((t) => t.id));
    reads.clear();
    await app.conversations.remove(second);
    app.conversations.select(third);
    await expect.poll(() => app.chat.sessionId).toBe(third);
    await expect.poll(() => messageItems(app).length).toBe(2);
    await sendAndWait(app, 'And the museum, when does it open?');
    expect(reads.get(first) ?? 0).toBe(0);
    snapshot = app.chat.lastSnapshot!;
    expect(snapshot.report.memory.retrieval.injected.filter((id) => gone.has(id))).toEqual([]);
  });

  it("takes another tab's turns into the memory in place: the next prompt has them, and no other conversation is read again", async () => {
    const { app, dbName } = mountApp({ engine: 'scripted' });
    await app.updateComplete;
    const other = await newConversation(app, 'The harbour museum opens at nine on weekdays.');
    const open = await newConversation(app, 'Our staging server is 10.0.0.7 and it runs PostgreSQL 15.');
    const store = await app.conversations.store();
    const reads = countReads(store);

    // Another tab (its own connection to the same database) writes an exchange to the open conversation.
    const tab = await MemoryStore.open({ name: dbName });
    try {
      const question = await tab.appendTurn({ sessionId: open, role: 'user', content: 'The nightly backup window moved to 03:30.' });
      await tab.appendTurn({ sessionId: open, role: 'assistant', content: 'Noted: backups now start at 03:30.', replyTo: question.id });
      await expect.poll(() => messageItems(app).length).toBe(4);

      await sendAndWait(app, 'When does the backup window start now?');
      await settled(app);
      const snapshot = app.chat.lastSnapshot!;
      expect(snapshot.history.map((t) => t.id)).toContain(question.id);
      expect(snapshot.messages.map((m) => m.content).join('\n')).toContain('03:30');
      // Only the conversation the other tab wrote to was read again (a rebuild reads every conversation).
      expect(reads.get(other) ?? 0).toBe(0);
    } finally {
      await tab.close();
    }
  });
});

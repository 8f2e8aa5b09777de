/**
 * Exchanges as whole units (issue 15): a reply shows, is prompted and is exported right after its question even in
 * data two tabs interleaved before the exchange lock; and a question sent while another tab's exchange holds the
 * lock waits, visibly and revocably, then is stored after that exchange. The "other tab" here is the test page's
 * own connection to the database: its own store, BroadcastChannel and Web Locks, as a second tab has. The app runs
 * on the scripted UI engine: these are about storage order, the prompt's history and the lock, not the model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { exchangeLockName } from '../../../src/memory/store/tabs.ts';
import { LAST_SESSION_KEY } from '../../../src/ui/controllers/conversations-controller.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import { SCRIPTED_REPLY, freshDbName, freshStart, messageItems, messageTexts, mountApp, resetAppStorage, unmountApp } from './app-helpers.ts';

const stores: MemoryStore[] = [];

beforeEach(freshStart);
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await unmountApp();
  await resetAppStorage();
});

/** A database with one conversation, opened as another tab would, and that conversation reopened by the app. */
async function otherTab(title: string): Promise<{ dbName: string; store: MemoryStore; sessionId: string }> {
  const dbName = freshDbName();
  const store = await MemoryStore.open({ name: dbName });
  stores.push(store);
  const { id } = await store.createSession({ title });
  localStorage.setItem(LAST_SESSION_KEY, id);
  return { dbName, store, sessionId: id };
}

/** The engine loaded (generous on a loaded 2-core machine: a hang detector, not a speed check). */
const ready = (app: QwenChatApp) => expect.poll(() => app.engine.status, { timeout: 90_000 }).toBe('ready');

const composerText = (): string => (page.getByRole('textbox', { name: 'Message' }).element() as HTMLTextAreaElement).value;

describe('exchanges', () => {
  it('shows, prompts and exports old interleaved exchanges with each reply after its question', { timeout: 180_000 }, async () => {
    const { dbName, store, sessionId } = await otherTab('Interleaved');
    // Stored as two tabs left it before the lock: both questions first, then the replies, A's before B's.
    const qB = await store.appendTurn({ sessionId, role: 'user', content: 'Is the museum open on Mondays?' });
    const qA = await store.appendTurn({ sessionId, role: 'user', content: 'How do I descale a kettle?' });
    const rA = await store.appendTurn({ sessionId, role: 'assistant', content: 'Boil a mix of water and vinegar, then rinse it.', replyTo: qA.id });
    const rB = await store.appendTurn({ sessionId, role: 'assistant', content: 'Most museums close on Mondays; check its site.', replyTo: qB.id });
    const grouped = [qB, rB, qA, rA];

    const { app } = mountApp({ engine: 'scripted', dbName });
    await expect.poll(() => messageTexts(app)).toEqual(grouped.map((t) => t.content));
    expect(messageItems(app).map((li) => li.dataset.id)).toEqual(grouped.map((t) => t.id));

    const exported = await app.data.exportFile(sessionId);
    expect(exported.conversations[0]!.messages.map((m) => m.content)).toEqual(grouped.map((t) => t.content));

    await ready(app);
    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('And what about Tuesdays?');
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => messageItems(app, 'assistant').map((li) => li.dataset.status), { timeout: 90_000 }).toEqual(Array(3).fill('complete'));
    expect(messageTexts(app, 'assistant').at(-1)!.trim()).toBe(SCRIPTED_REPLY);
    // The prompt's history, and the messages the model got, pair each reply with its question.
    expect(app.chat.lastSnapshot!.history.map((h) => h.id)).toEqual(grouped.map((t) => t.id));
    const contents = new Set(grouped.map((t) => t.content));
    expect(app.chat.lastSnapshot!.messages.filter((m) => contents.has(m.content)).map((m) => m.content)).toEqual(grouped.map((t) => t.content));
  });

  it('a question sent during another tab’s exchange waits, shown and revocable, and is stored after that exchange', { timeout: 180_000 }, async () => {
    const { dbName, store, sessionId } = await otherTab('Waiting');
    const { app } = mountApp({ engine: 'scripted', dbName });
    // The other tab is mid-exchange: it holds the conversation's lock.
    let endExchange!: () => void;
    const held = new Promise<void>((resolve) => (endExchange = resolve));
    await new Promise<void>((taken) => void navigator.locks.request(exchangeLockName(sessionId), () => (taken(), held)));

    const input = page.getByRole('textbox', { name: 'Message' });
    await input.fill('Can you remind me to water the plants?');
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => messageItems(app).map((li) => `${li.dataset.status}:${li.textContent?.includes('Waiting for the reply another tab')}`)).toEqual(['queued:true']);
    expect(composerText()).toBe('');
    // Stop takes it back: into the composer, and nothing was stored.
    await userEvent.keyboard('{Escape}');
    await expect.poll(() => messageItems(app).length).toBe(0);
    expect(composerText()).toBe('Can you remind me to water the plants?');
    expect(await store.listTurns(sessionId)).toEqual([]);

    await userEvent.keyboard('{Enter}');
    await expect.poll(() => messageItems(app).map((li) => li.dataset.status)).toEqual(['queued']);
    // The other tab's exchange is written meanwhile: it shows live, above the waiting question.
    const question = await store.appendTurn({ sessionId, role: 'user', content: 'What is the capital of Portugal?' });
    const reply = await store.appendTurn({ sessionId, role: 'assistant', content: 'Lisbon.', replyTo: question.id });
    await expect.poll(() => messageItems(app).map((li) => li.dataset.id)).toEqual([question.id, reply.id, expect.stringMatching(/^queued:/)]);
    expect(await store.listTurns(sessionId)).toHaveLength(2);

    endExchange();
    await expect.poll(() => messageItems(app).map((li) => li.dataset.status), { timeout: 90_000 }).toEqual(['complete', 'complete', 'complete', 'complete']);
    const turns = await store.listTurns(sessionId);
    expect(turns.map((t) => t.content.slice(0, 20))).toEqual(['What is the capital ', 'Lisbon.', 'Can you remind me to', messageTexts(app, 'assistant')[1]!.slice(0, 20)]);
    expect(turns[3]!.replyTo).toBe(turns[2]!.id);
    expect(messageItems(app).map((li) => li.dataset.id)).toEqual(turns.map((t) => t.id));
  });
});

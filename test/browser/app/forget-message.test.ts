/**
 * "Forget this message" (issue 22), in the app with IndexedDB in real Chromium: a forgotten message stays in the
 * conversation, marked, but leaves the memory — it is in no later prompt (not retrieved, not among the recent
 * turns) and what it taught the working memory is gone; Undo (until the page closes) brings both back; after a
 * reload it is still forgotten, with no Undo. (Another tab: two-tabs.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import { freshStart, messageItems, mountApp, resetAppStorage, sendAndWait, unmountApp } from './app-helpers.ts';

beforeEach(() => freshStart());

afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

const SECRET = '10.0.0.42';
const button = (li: HTMLElement, action: string): HTMLButtonElement | null => li.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`);
/** Everything the model was handed for the last message. */
const lastPrompt = (app: QwenChatApp): string => app.chat.lastSnapshot!.messages.map((m) => m.content).join('\n');

async function twoMessages(app: QwenChatApp): Promise<HTMLElement> {
  await sendAndWait(app, `The backup host is ${SECRET}, reachable over SSH.`);
  await sendAndWait(app, 'Lunch today is at noon in the small kitchen.');
  expect(app.chat.lastSnapshot!.working.map((i) => i.value)).toContain(SECRET);
  return messageItems(app, 'user')[0]!;
}

describe('forget this message', () => {
  it('keeps the message, marked, out of every later prompt and out of working memory; after a reload too', async () => {
    let { app, dbName } = mountApp({ engine: 'scripted' });
    await app.updateComplete;
    const first = await twoMessages(app);
    const id = first.dataset.id!;
    const sessionId = app.chat.sessionId!;

    button(first, 'forget')!.click();
    await expect.poll(() => messageItems(app, 'user')[0]!.hasAttribute('data-forgotten')).toBe(true);
    const marked = messageItems(app, 'user')[0]!;
    expect(marked.textContent).toContain(SECRET);
    expect(marked.textContent).toContain('Forgotten');
    expect(button(marked, 'unforget')).not.toBeNull();

    const check = await MemoryStore.open({ name: dbName });
    try {
      await expect.poll(async () => (await check.getTurn(id))?.tags).toContain('forgotten');
      expect((await check.listWorkingItems(sessionId, { includeExpired: true })).filter((i) => i.sourceTurnId === id)).toEqual([]);
    } finally {
      await check.close();
    }

    // The model is handed nothing of it: not as working memory, not retrieved, not as a recent turn.
    await sendAndWait(app, `Which machine keeps the backups? The one at ${'10.0.0'} something.`);
    expect(lastPrompt(app)).not.toContain(SECRET);
    expect(lastPrompt(app)).toContain('Lunch today is at noon');

    // A reload: still marked (no Undo: the page that forgot it is gone), still out of the prompt.
    await unmountApp();
    ({ app } = mountApp({ engine: 'scripted', dbName }));
    await app.updateComplete;
    await expect.poll(() => messageItems(app, 'user')[0]?.hasAttribute('data-forgotten')).toBe(true);
    expect(button(messageItems(app, 'user')[0]!, 'unforget')).toBeNull();
    await sendAndWait(app, 'Which host has the backups?');
    expect(lastPrompt(app)).not.toContain(SECRET);
  });

  it('Undo puts the message and what it taught back into the memory', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted' });
    await app.updateComplete;
    const first = await twoMessages(app);
    const id = first.dataset.id!;
    button(first, 'forget')!.click();
    await expect.poll(() => button(messageItems(app, 'user')[0]!, 'unforget') !== null).toBe(true);
    button(messageItems(app, 'user')[0]!, 'unforget')!.click();
    await expect.poll(() => messageItems(app, 'user')[0]!.hasAttribute('data-forgotten')).toBe(false);
    expect(button(messageItems(app, 'user')[0]!, 'forget')).not.toBeNull();

    const check = await MemoryStore.open({ name: dbName });
    try {
      expect((await check.getTurn(id))?.tags).not.toContain('forgotten');
      expect((await check.listWorkingItems(app.chat.sessionId!)).find((i) => i.sourceTurnId === id)?.value).toBe(SECRET);
    } finally {
      await check.close();
    }
    await sendAndWait(app, 'Which host has the backups?');
    expect(app.chat.lastSnapshot!.report.memory.working.text).toContain(SECRET);
  });
});

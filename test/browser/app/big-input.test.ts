/**
 * A 100,000-character paste, as a user sends it: stored whole, sent in part (cut at a sentence end, with room
 * left for the answer), the message itself saying how much was sent (also after the app starts again), the
 * inspector's line meaning what it says. (The 200 ms long-task goal of issue 15 is not met yet: see the note below.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { MemoryStore } from '../../../src/memory/store.ts';
import { freshStart, messageItems, mountApp, resetAppStorage, sendAndWait, shadow, unmountApp, waitReady } from './app-helpers.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';

const WORDS = ['the', 'server', 'answered', 'every', 'request', 'on', 'port', 'with', 'a', 'short', 'delay', 'and', 'we', 'logged', 'it', 'twice'];

/** Plain English prose: sentences, a paragraph break every ten, exactly `n` characters. */
function prose(n: number, seed: number): string {
  let text = '';
  for (let i = 0; text.length < n; i++) {
    const words = Array.from({ length: 9 + ((i + seed) % 5) }, (_, w) => WORDS[(i * 7 + w * 5 + seed) % WORDS.length]!);
    const sentence = words.join(' ');
    text += `${sentence[0]!.toUpperCase()}${sentence.slice(1)} ${i}. `;
    if (i % 10 === 9) text += '\n\n';
  }
  return text.slice(0, n);
}

/**
 * Pastes `text`, sends it and waits for the reply. Not asserted yet, but kept measurable: issue 15 wants no long
 * task over 200 ms from here to the reply; on the shared 2-core machine the longest is still 0.6–1.4 s (it was
 * 1.8–4 s before the message was bounded to what a prompt can hold).
 */
async function pasteAndSend(app: QwenChatApp, text: string): Promise<void> {
  const before = messageItems(app, 'assistant').length;
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => messageItems(app, 'assistant')[before]?.dataset.status, { timeout: 90_000 }).toBe('complete');
}

const BIG = prose(100_000, 0);
const inspector = (app: QwenChatApp) => shadow(shadow(app).querySelector('qwen-inspector'));

describe('a 100,000-character paste', () => {
  let app: QwenChatApp;
  let dbName: string;

  // Set up by the first test that runs (expect.poll works only inside a test), then shared.
  let setup: Promise<void> | null = null;
  const pasted = (): Promise<void> =>
    (setup ??= (async () => {
      await freshStart();
      ({ app, dbName } = mountApp());
      await waitReady(app);
      // The tokenizer and the memory pipeline load with the first message; that one-off cost is not the paste's.
      await sendAndWait(app, 'Hello, a short question first.');
      await userEvent.click(page.getByRole('button', { name: 'New conversation' }).first());
      await pasteAndSend(app, BIG);
    })());

  afterAll(async () => {
    await unmountApp();
    await resetAppStorage();
  });

  it('is stored whole (read back from IndexedDB)', { timeout: 180_000 }, async () => {
    await pasted();
    const store = await MemoryStore.open({ name: dbName });
    try {
      const sessionId = app.chat.sessionId!;
      const turns = await store.listTurns(sessionId);
      expect(turns[0]!.role).toBe('user');
      expect(turns[0]!.content).toBe(BIG);
      expect(turns[0]!.sent?.chars).toBeLessThan(BIG.length);
    } finally {
      await store.close();
    }
  });

  it('reaches the model in part: its start, cut at a sentence end, with room left for the answer', async () => {
    await pasted();
    const snapshot = app.chat.lastSnapshot!;
    const sent = snapshot.messages.at(-1)!;
    expect(sent.role).toBe('user');
    const marker = '\n…[truncated]';
    expect(sent.content.endsWith(marker)).toBe(true);
    const kept = sent.content.slice(0, -marker.length);
    expect(BIG.startsWith(kept)).toBe(true);
    expect(kept).toMatch(/\.$/);
    expect(kept.length).toBeGreaterThan(1_000);
    const report = snapshot.report;
    expect(report.promptTokens).toBeLessThanOrEqual(report.budget.promptLimit);
    expect(report.budget.total - report.promptTokens).toBeGreaterThanOrEqual(report.budget.reserve);
  });

  it('says on the message how much was sent, and still does after the app starts again', async () => {
    await pasted();
    const sent = app.chat.messages[0]!.sent!;
    const notice = `Only the first ${sent.chars.toLocaleString('en')} of 100,000 characters (about ${sent.tokens.toLocaleString('en')} tokens) were sent to the model; the whole message is saved.`;
    const user = () => messageItems(app, 'user')[0]?.querySelector('[data-sent]')?.textContent?.trim();
    expect(user()).toBe(notice);
    // The bubble shows the start of the text and offers the rest.
    expect(messageItems(app, 'user')[0]!.querySelector('.content')!.textContent!.length).toBeLessThan(5_000);
    await expect.element(page.getByRole('button', { name: 'Show all 100,000 characters' })).toBeVisible();

    await unmountApp();
    ({ app } = mountApp({ dbName }));
    await expect.poll(() => user()).toBe(notice);
  });

  it('the inspector says what the message was cut to and why', async () => {
    await pasted();
    // After the restart the inspector is empty until a request: ask again for the pasted message.
    await waitReady(app);
    await userEvent.click(page.getByRole('button', { name: 'Regenerate' }));
    await expect.poll(() => messageItems(app, 'assistant')[0]?.dataset.status, { timeout: 60_000 }).toBe('complete');
    await userEvent.click(page.getByRole('button', { name: 'Inspector' }));
    const line = () => inspector(app).querySelector('[data-message-cut]')?.textContent?.trim() ?? '';
    await expect.poll(line).toMatch(/^Your message was cut to [\d,]+ tokens to fit the [\d,]+ left for it/);
    const report = app.chat.lastSnapshot!.report;
    const cut = report.turns.at(-1)!.cut!;
    expect(line()).toContain(`cut to ${cut.keptTokens.toLocaleString('en')} tokens to fit the ${report.sections.input.limit.toLocaleString('en')} left`);
    expect(cut.keptTokens).toBeLessThanOrEqual(report.sections.input.limit);
    expect(line()).toContain('of its 100,000 characters were sent');
  });
});

/**
 * After a page load the app continues a conversation's last prompt (its context state is kept in IndexedDB), and
 * prefills it before the user sends anything: the first reply after the reload prefills only the new message.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshStart, messageItems, mountApp, resetAppStorage, sendAndWait, unmountApp, waitReady } from './app-helpers.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

describe('a conversation reopened after a page load', () => {
  it('continues its last prompt, which the engine prefilled while the page waited for the user', async () => {
    let { app, dbName } = mountApp({ engine: 'scripted' });
    await waitReady(app);
    await sendAndWait(app, 'The greenhouse vents open at 24 °C; 夜里最低温度设在 12 度。');
    await sendAndWait(app, 'And the misting runs every 40 minutes.');
    const sessionId = app.chat.sessionId!;
    const before = app.chat.lastSnapshot!.messages;

    await unmountApp();
    ({ app } = mountApp({ engine: 'scripted', dbName }));
    await waitReady(app);
    await expect.poll(() => app.chat.sessionId).toBe(sessionId);
    await expect.poll(() => messageItems(app).length).toBe(4);
    await expect.poll(() => app.warmer.last?.sessionId, { timeout: 20_000 }).toBe(sessionId);
    const warm = app.warmer.last!;
    // The last prompt and its reply.
    expect(warm.messages).toBe(before.length + 1);

    await sendAndWait(app, 'What temperature do the vents open at?');
    const snapshot = app.chat.lastSnapshot!;
    expect(snapshot.report.mode).toBe('append');
    expect(snapshot.messages.slice(0, before.length)).toEqual(before);
    const stats = app.chat.lastStats!;
    expect(stats.cachedTokens).toBeGreaterThanOrEqual(warm.result.promptTokens - 1);
  });
});

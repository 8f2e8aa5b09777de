/**
 * The app prefills the start of the open conversation's next prompt while the user types: the first message of a
 * visit finds the system prompt in the engine's cache, and a conversation switched back to finds its whole previous
 * prompt and reply. Checked on the scripted engine (whose cache is the common prefix of what it was sent, as
 * llama.cpp's) and on the real CPU engine with the generated model, whose counters are llama.cpp's own.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { freshStart, mountApp, resetAppStorage, sendAndWait, shadow, unmountApp, waitReady } from './app-helpers.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

/** Waits for a finished warm-up of `sessionId` (null: a new conversation) and returns it. */
async function warmed(app: QwenChatApp, sessionId: string | null) {
  await expect.poll(() => app.warmer.last?.sessionId, { timeout: 20_000 }).toBe(sessionId);
  return app.warmer.last!;
}

describe('the prompt is prefilled while the user types', () => {
  it('the first message of a visit finds the system prompt already in the cache', async () => {
    const { app } = mountApp({ engine: 'scripted' });
    await waitReady(app);
    const warm = await warmed(app, null);
    expect(warm.messages).toBe(1);
    expect(warm.result.promptTokens).toBeGreaterThan(20);

    await sendAndWait(app, 'Our staging box runs Caddy on port 8443.');
    const stats = app.chat.lastStats!;
    expect(stats.cachedTokens).toBeGreaterThanOrEqual(warm.result.promptTokens - 1);

    // The inspector says where those cached tokens came from (the context engine expected none for a first prompt)…
    await userEvent.click(page.getByRole('button', { name: 'Inspector' }));
    const cached = () => shadow(shadow(app).querySelector('qwen-inspector')).querySelector('dd[data-field="cached"]');
    await expect.poll(() => cached()?.textContent ?? '').toContain('prefilled before the message was sent, while you typed');
    expect(Number(cached()!.querySelector<HTMLElement>('[data-warmed]')!.dataset.warmed)).toBe(warm.result.promptTokens - warm.result.cachedTokens);
    // …for that message only: the next one's cache is the previous prompt and its reply.
    await sendAndWait(app, 'And which port does the admin API use?');
    await expect.poll(() => cached()?.querySelector('[data-warmed]') ?? null).toBeNull();
  });

  it('a conversation switched back to finds its previous prompt and reply in the cache', async () => {
    const { app } = mountApp({ engine: 'scripted' });
    await waitReady(app);
    await sendAndWait(app, 'The garden hose leaks at the tap; 水管接头要换新的。');
    await sendAndWait(app, 'Which washer size fits a standard tap?');
    const first = app.chat.sessionId!;
    await userEvent.click(page.getByRole('button', { name: 'New conversation' }).first());
    await sendAndWait(app, 'Recommend a book about bees.');

    await userEvent.click(page.getByRole('button', { name: 'The garden hose leaks at the tap; 水管接头要换新的。', exact: true }));
    const warm = await warmed(app, first);
    // The system message, both exchanges as last sent, and the last reply.
    expect(warm.messages).toBe(5);
    await sendAndWait(app, 'And how tight should it be?');
    const stats = app.chat.lastStats!;
    expect(stats.cachedTokens).toBeGreaterThanOrEqual(warm.result.promptTokens - 1);
    // Only the new message (with any memory it brings) was prefilled.
    expect(stats.promptTokens - stats.cachedTokens).toBeLessThan(warm.result.promptTokens / 2);
  });

  it('on the real CPU engine, the first reply prefills only what follows the system prompt', async () => {
    const { app } = mountApp();
    await waitReady(app);
    const warm = await warmed(app, null);
    await sendAndWait(app, 'Remind me: the tomatoes went in on the south bed in April.');
    const stats = app.chat.lastStats!;
    expect(stats.cachedTokens).toBeGreaterThanOrEqual(warm.result.promptTokens - 1);
    expect(stats.cachedTokens).toBeGreaterThan(20);
  });
});

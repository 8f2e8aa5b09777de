/**
 * The context inspector after real requests to the test model: the sections of the last prompt add up to the
 * window, the prompt size equals what the engine counted, the cached and prefilled tokens are the engine's, every
 * turn is listed with its fate, working memory shows what the user said and where, and memory from an earlier
 * conversation is listed once the session rule lets it in.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { freshStart, mountApp, resetAppStorage, sendAndWait, shadow, unmountApp, waitReady } from './app-helpers.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

const inspector = () => shadow(document.querySelector('qwen-chat-app')!.shadowRoot!.querySelector('qwen-inspector'));
const num = (text: string | null | undefined): number => Number((text ?? '').replace(/[^\d]/g, ''));

describe('context inspector', () => {
  it('shows the last request: sections against the budget, the engine’s own numbers, turns, memory', async () => {
    const { app } = mountApp();
    await waitReady(app);
    // An earlier conversation about a server…
    await sendAndWait(app, 'Our billing server 10.0.0.5 runs PostgreSQL and nginx.');
    await sendAndWait(app, 'The billing server 10.0.0.5 has PostgreSQL replication lag.');
    await sendAndWait(app, 'Restarting PostgreSQL on 10.0.0.5 fixed the billing lag.');
    // …and a new one that comes back to it: after the warm start, the earlier one may be recalled.
    await userEvent.click(page.getByRole('button', { name: 'New conversation' }).first());
    await sendAndWait(app, 'Is the billing server 10.0.0.5 healthy?');
    await sendAndWait(app, 'Check PostgreSQL on 10.0.0.5 for billing lag.');
    await sendAndWait(app, 'What fixed the PostgreSQL billing lag on 10.0.0.5 last time?');

    await userEvent.click(page.getByRole('button', { name: 'Inspector' }));
    await expect.element(page.getByRole('heading', { name: 'Context inspector' })).toBeVisible();
    const snapshot = app.chat.lastSnapshot!;
    const engine = app.chat.lastStats!;
    expect(snapshot.result).toEqual(engine);

    // Sections: one row each, adding up exactly to the window; the prompt is everything but the answer's room.
    const bar = shadow(inspector().querySelector('qwen-token-bar'));
    const rows = [...bar.querySelectorAll<HTMLElement>('tr[data-section]')];
    expect(rows.map((r) => r.dataset.section)).toEqual(['system', 'working', 'retrieval', 'history', 'message', 'template', 'answer']);
    const tokens = Object.fromEntries(rows.map((r) => [r.dataset.section!, Number(r.dataset.tokens)]));
    const window = snapshot.report.budget.total;
    expect(Object.values(tokens).reduce((a, b) => a + b, 0)).toBe(window);
    expect(window - tokens.answer!).toBe(snapshot.report.promptTokens);
    expect(Number(rows[0]!.dataset.budget)).toBe(snapshot.report.memory.budgets.system);
    expect(tokens.system).toBeGreaterThan(0);
    expect(tokens.message).toBeGreaterThan(0);

    // The engine's numbers, shown as the engine reported them; the context engine counted the same prompt.
    const field = (name: string) => inspector().querySelector(`dd[data-field="${name}"]`)?.textContent;
    expect(num(field('prompt')?.split('(')[0])).toBe(engine.promptTokens);
    expect(engine.promptTokens).toBe(snapshot.report.promptTokens);
    expect(field('prompt')).toContain('the context engine counted the same');
    expect(num(field('cached')?.split('(')[0])).toBe(engine.cachedTokens);
    expect(num(field('prefilled'))).toBe(engine.promptTokens - engine.cachedTokens);
    expect(num(field('completion'))).toBe(engine.completionTokens);
    expect(field('ttft')).toMatch(/\d+ (ms|s)/);
    expect(field('speed')).toMatch(/tokens\/s/);

    // Every turn, with its fate; the message answered now is last and in.
    const turns = [...inspector().querySelectorAll<HTMLElement>('tr[data-turn]')];
    expect(turns).toHaveLength(snapshot.report.turns.length);
    expect(turns.at(-1)!.dataset.reason).toBe('current-input');
    expect(turns.at(-1)!.textContent).toContain('What fixed the PostgreSQL billing lag');

    // Working memory: the IP the user gave, with the message it came from.
    const items = [...inspector().querySelectorAll<HTMLElement>('li[data-kind]')];
    const ip = items.find((li) => li.textContent!.includes('10.0.0.5'));
    expect(ip, 'the IP is in working memory').toBeDefined();
    expect(ip!.querySelector('.source')!.textContent).toMatch(/from “.*10\.0\.0\.5/);

    // Memory considered: the earlier conversation's turns are listed with what became of each.
    const candidates = [...inspector().querySelectorAll<HTMLElement>('tr[data-candidate]')];
    expect(candidates.length).toBe(snapshot.report.memory.retrieval.candidates.length);
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.some((c) => c.textContent!.includes('Our billing server 10.0.0.5'))).toBe(true);
  });
});

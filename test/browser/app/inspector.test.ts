/**
 * The context inspector after requests through the app: the sections of the last prompt add up to the window,
 * every turn is listed with its fate, working memory shows what the user said and where, memory from an earlier
 * conversation is listed once the session rule lets it in, and the engine's numbers are shown as it reported them.
 * That layout is checked over six messages on the scripted engine (test/browser/engine/ui-worker.ts), whose rough
 * token counts differ from the context engine's, so a field that showed our count instead of the engine's would
 * fail. The real engine (the generated test model) is then asked twice: the prompt size it counted equals the
 * context engine's count, and the cached and prefilled tokens shown are its own.
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

/** A field of the inspector's engine section, as shown. */
const field = (name: string) => inspector().querySelector(`dd[data-field="${name}"]`)?.textContent;

describe('context inspector', () => {
  it('shows the topic under discussion, and why a follow-up searched for it', async () => {
    const { app } = mountApp({ engine: 'scripted' });
    await waitReady(app);
    await sendAndWait(app, 'The billing-gateway on staging keeps dropping connections since this morning.');
    await sendAndWait(app, 'What port does it use?');
    await userEvent.click(page.getByRole('button', { name: 'Inspector' }));
    await expect.element(page.getByRole('heading', { name: 'Context inspector' })).toBeVisible();
    const topic = app.chat.lastSnapshot!.report.memory!.query.topic;
    expect(topic).toMatchObject({ value: 'billing-gateway', why: 'carried' });
    await expect.poll(() => inspector().querySelector('p.topic')?.textContent ?? '').toContain('Topic: billing-gateway (this message names nothing');
  });

  it('shows the last request: sections against the budget, the engine’s numbers as reported, turns, memory', async () => {
    const { app } = mountApp({ engine: 'scripted' });
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

    // The engine's numbers, shown as the engine reported them (the scripted engine counts otherwise than the
    // context engine, which the field says).
    expect(engine.promptTokens).not.toBe(snapshot.report.promptTokens);
    expect(num(field('prompt')?.split('(')[0])).toBe(engine.promptTokens);
    expect(field('prompt')).toContain(`the context engine counted ${snapshot.report.promptTokens}`);
    expect(engine.cachedTokens).toBeGreaterThan(0);
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

  it('the real engine counted the same prompt as the context engine, and the cache it reused is shown', async () => {
    const { app } = mountApp();
    await waitReady(app);
    await sendAndWait(app, 'Our billing server 10.0.0.5 runs PostgreSQL and nginx.');
    await sendAndWait(app, 'Is the billing server 10.0.0.5 healthy?');
    await userEvent.click(page.getByRole('button', { name: 'Inspector' }));
    await expect.element(page.getByRole('heading', { name: 'Context inspector' })).toBeVisible();
    const snapshot = app.chat.lastSnapshot!;
    const engine = app.chat.lastStats!;
    expect(snapshot.result).toEqual(engine);

    // The prompt size llama.cpp counted is the context engine's count of the same prompt.
    expect(num(field('prompt')?.split('(')[0])).toBe(engine.promptTokens);
    expect(engine.promptTokens).toBe(snapshot.report.promptTokens);
    expect(field('prompt')).toContain('the context engine counted the same');
    // The second message reused the first exchange from the KV cache: the engine's own numbers, as shown.
    expect(engine.cachedTokens).toBeGreaterThan(0);
    expect(num(field('cached')?.split('(')[0])).toBe(engine.cachedTokens);
    expect(num(field('prefilled'))).toBe(engine.promptTokens - engine.cachedTokens);
    expect(num(field('completion'))).toBe(engine.completionTokens);
    expect(field('ttft')).toMatch(/\d+ (ms|s)/);
    expect(field('speed')).toMatch(/tokens\/s/);
  });
});

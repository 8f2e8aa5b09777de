/**
 * Settings as a user edits them: every invalid value gets its own message and nothing is kept; valid values are
 * kept across a restart and shape the next prompt (system prompt, recent turns, budgets). The engine is the
 * scripted one (test/browser/engine/ui-worker.ts) behind the real handler: the load it is asked for (its window)
 * and the prompt it is sent are the subject, not the model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { SETTINGS_STORAGE_KEY } from '../../../src/ui/data/settings.ts';
import { freshStart, mountApp, resetAppStorage, sendAndWait, unmountApp, waitReady } from './app-helpers.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

describe('settings', () => {
  it('refuses invalid values field by field, keeps valid ones, and the next prompt follows them', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted' });
    await userEvent.click(page.getByRole('button', { name: 'Settings' }));

    await page.getByLabelText('Context window (tokens)').fill('100');
    await page.getByLabelText('Temperature').fill('3');
    await page.getByLabelText('Top-p').fill('0');
    await page.getByLabelText('Recent exchanges always kept').fill('2.5');
    await page.getByLabelText('Retrieval').fill('-1');
    await userEvent.click(page.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('A whole number from 256 to 4096.')).toBeVisible();
    await expect.element(page.getByText('A number from 0 to 2.')).toBeVisible();
    await expect.element(page.getByText('A number above 0 and at most 1.')).toBeVisible();
    await expect.element(page.getByText('A whole number from 0 to 20.')).toBeVisible();
    await expect.element(page.getByText('A whole number, 0 or more.')).toBeVisible();
    await expect.element(page.getByRole('alert')).toHaveTextContent('5 fields need a fix.');
    await expect.element(page.getByLabelText('Temperature')).toHaveAttribute('aria-invalid', 'true');
    expect(localStorage.getItem(SETTINGS_STORAGE_KEY)).toBeNull();

    // Budgets that do not add up to the window are refused with the sums in the message.
    await page.getByLabelText('Context window (tokens)').fill('2048');
    await page.getByLabelText('Temperature').fill('0.2');
    await page.getByLabelText('Top-p').fill('0.8');
    await page.getByLabelText('Recent exchanges always kept').fill('1');
    await page.getByLabelText('Retrieval').fill('480');
    await userEvent.click(page.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText(/The budgets add up to 1024, but the window is 2048/)).toBeVisible();
    expect(localStorage.getItem(SETTINGS_STORAGE_KEY)).toBeNull();

    // "Budgets for this window" fixes them; now it saves.
    await userEvent.click(page.getByRole('button', { name: 'Budgets for this window' }));
    await page.getByLabelText('System prompt').fill('You answer like a ship’s captain.');
    await userEvent.click(page.getByRole('button', { name: 'Save' }));
    await expect.element(page.getByText('Saved.')).toBeVisible();
    const saved = JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY)!);
    expect(saved).toMatchObject({ window: 2048, temperature: 0.2, topP: 0.8, recentExchanges: 1, systemPrompt: 'You answer like a ship’s captain.' });
    expect(Object.values(saved.budgets as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(2048);

    // The next prompt: the new window (the model reloads with it), the new system prompt first.
    await waitReady(app);
    await sendAndWait(app, 'Hello there');
    const snapshot = app.chat.lastSnapshot!;
    expect(snapshot.report.budget.total).toBe(2048);
    expect(snapshot.messages[0]!.content.startsWith('You answer like a ship’s captain.')).toBe(true);
    expect(app.engine.loaded!.contextWindow).toBe(2048);

    // A restart keeps them.
    await unmountApp();
    mountApp({ engine: 'scripted', dbName, autoload: false });
    await userEvent.click(page.getByRole('button', { name: 'Settings' }));
    await expect.element(page.getByLabelText('Context window (tokens)')).toHaveValue(2048);
    await expect.element(page.getByLabelText('System prompt')).toHaveValue('You answer like a ship’s captain.');
  });
});

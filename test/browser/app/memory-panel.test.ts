/**
 * The memory panel (issue 22), in the app with IndexedDB in real Chromium: it lists what the conversation taught
 * the working memory, with where each item came from; pin, edit and forget are written to the store, and the next
 * prompt's working memory is exactly what the panel then shows; the list can be searched, and a second app on the
 * same database (a tab) sees the corrections.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import type { QwenMemoryPanel } from '../../../src/ui/qwen-memory-panel.ts';
import { freshStart, mountApp, resetAppStorage, sendAndWait, shadow, unmountApp } from './app-helpers.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';

beforeEach(() => freshStart());

afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

const panelOf = (app: QwenChatApp): QwenMemoryPanel => shadow(app).querySelector('qwen-memory-panel')!;
const rows = (app: QwenChatApp): HTMLElement[] => [...(panelOf(app)?.shadowRoot?.querySelectorAll<HTMLElement>('li') ?? [])];
const shownValues = (app: QwenChatApp): string[] => rows(app).map((li) => (li.querySelector('.value, input') as HTMLElement & { value?: string }).textContent?.trim() || '').sort();
const rowOf = (app: QwenChatApp, value: string): HTMLElement => rows(app).find((li) => li.querySelector('.value')?.textContent?.trim() === value)!;
const button = (row: HTMLElement, label: RegExp): HTMLButtonElement => [...row.querySelectorAll('button')].find((b) => label.test(b.textContent ?? ''))!;

async function openPanel(app: QwenChatApp): Promise<void> {
  shadow(app).querySelector<HTMLButtonElement>('button[data-panel="memory"]')!.click();
  await expect.poll(() => panelOf(app) !== null).toBe(true);
}

describe('the memory panel', () => {
  it('lists what was learned; pin, edit and forget change the next prompt exactly as the panel shows', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted' });
    await app.updateComplete;
    await sendAndWait(app, 'Our staging server is 10.0.0.7 and the database is PostgreSQL 15.');
    const sessionId = app.chat.sessionId!;
    const learned = app.chat.lastSnapshot!.working.map((i) => i.value).sort();
    expect(learned).toContain('10.0.0.7');
    expect(learned.length).toBeGreaterThan(1);

    await openPanel(app);
    await expect.poll(() => shownValues(app)).toEqual(learned);
    // Where each item came from: the user's message.
    expect(rowOf(app, '10.0.0.7').textContent).toContain('Our staging server is 10.0.0.7');
    // The other item to forget: the longest (a shorter one may be part of it, as "PostgreSQL" is of "PostgreSQL 15").
    const other = learned.filter((v) => v !== '10.0.0.7').sort((a, b) => b.length - a.length)[0]!;

    // Edit the address, pin it, forget the other item.
    button(rowOf(app, '10.0.0.7'), /^Edit$/).click();
    await panelOf(app).updateComplete;
    const input = panelOf(app).shadowRoot!.querySelector<HTMLInputElement>('form input')!;
    expect(panelOf(app).shadowRoot!.activeElement).toBe(input);
    input.value = '10.0.0.9';
    panelOf(app).shadowRoot!.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await expect.poll(() => shownValues(app)).toContain('10.0.0.9');
    button(rowOf(app, '10.0.0.9'), /^Pin$/).click();
    await expect.poll(() => button(rowOf(app, '10.0.0.9'), /^Unpin$/)?.getAttribute('aria-pressed')).toBe('true');
    button(rowOf(app, other), /^Forget$/).click();
    await expect.poll(() => shownValues(app)).not.toContain(other);
    const panelShows = shownValues(app);

    // In the store, where the next page and every tab read them.
    const check = await MemoryStore.open({ name: dbName });
    try {
      const stored = await check.listWorkingItems(sessionId);
      expect(stored.map((i) => i.value).filter((v) => panelShows.includes(v) || v === other || v === '10.0.0.7').sort()).toEqual(panelShows);
      expect(stored.find((i) => i.value === '10.0.0.9')).toMatchObject({ pinned: true, expiresAt: null });
    } finally {
      await check.close();
    }

    // The next prompt's working memory is what the panel shows: the edited value, pinned, and not the forgotten one.
    await sendAndWait(app, 'Thanks, that is all for now.');
    const snapshot = app.chat.lastSnapshot!;
    expect(snapshot.working.map((i) => i.value).sort()).toEqual(panelShows);
    expect(snapshot.working.find((i) => i.value === '10.0.0.9')!.expiresAt).toBeNull();
    const block = snapshot.report.memory.working.text;
    expect(block).toContain('10.0.0.9');
    expect(block).not.toContain('10.0.0.7');
    expect(block).not.toContain(other);
    // The panel still agrees after that message was stored.
    await expect.poll(() => shownValues(app)).toEqual(panelShows);
  });

  it('searches the remembered items by subject, value or source message', async () => {
    const { app } = mountApp({ engine: 'scripted' });
    await app.updateComplete;
    await sendAndWait(app, 'Our staging server is 10.0.0.7.');
    await sendAndWait(app, 'The database is PostgreSQL 15.');
    const learned = app.chat.lastSnapshot!.working.map((i) => i.value).sort();
    await openPanel(app);
    await expect.poll(() => shownValues(app)).toEqual(learned);
    const search = panelOf(app).shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!;
    const find = async (query: string): Promise<void> => {
      search.value = query;
      search.dispatchEvent(new Event('input'));
      await panelOf(app).updateComplete;
    };
    await find('10.0.0');
    expect(shownValues(app)).toEqual(['10.0.0.7']);
    // A word of the source message finds what that message taught.
    await find('database');
    expect(shownValues(app)).toEqual(learned.filter((v) => v !== '10.0.0.7'));
    await find('nothing like this');
    expect(rows(app)).toEqual([]);
    expect(panelOf(app).shadowRoot!.querySelector('[role="status"]')?.textContent).toContain('Nothing remembered matches');
    await find('');
    expect(shownValues(app)).toEqual(learned);
  });
});

/**
 * Two tabs on one conversation (issue 15): each tab is the whole app in its own iframe (its own document, engine,
 * database connection, BroadcastChannel and Web Locks), driven through its DOM as a user would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import type { TurnRecord } from '../../../src/memory/store/records.ts';
import { LAST_SESSION_KEY } from '../../../src/ui/controllers/conversations-controller.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import { SCRIPTED_REPLY, freshDbName, freshStart, resetAppStorage } from './app-helpers.ts';

interface Tab {
  frame: HTMLIFrameElement;
  app(): QwenChatApp;
}

const tabs: Tab[] = [];

function openTab(dbName: string): Tab {
  const frame = document.createElement('iframe');
  // Not a template inside `new URL(…, import.meta.url)`: Vite rewrites that pattern and drops the query.
  const url = new URL('./app-tab.html', import.meta.url);
  url.searchParams.set('db', dbName);
  frame.src = url.href;
  frame.style.cssText = 'width:1100px;height:700px;border:0';
  document.body.append(frame);
  const tab: Tab = {
    frame,
    app: () => {
      const app = frame.contentDocument?.querySelector('qwen-chat-app');
      if (!app) throw new Error('the tab has no app yet');
      return app;
    },
  };
  tabs.push(tab);
  return tab;
}

/** The tab's model is loaded and its conversation shows `count` messages. */
async function ready(tab: Tab, count: number): Promise<void> {
  await expect.poll(() => frameApp(tab)?.engine.status, { timeout: 60_000 }).toBe('ready');
  await expect.poll(() => items(tab).length, { timeout: 30_000 }).toBe(count);
}

const frameApp = (tab: Tab): QwenChatApp | null => tab.frame.contentDocument?.querySelector('qwen-chat-app') ?? null;

function items(tab: Tab): HTMLElement[] {
  const list = frameApp(tab)?.shadowRoot?.querySelector('qwen-message-list')?.shadowRoot;
  return list ? [...list.querySelectorAll<HTMLElement>('li[data-role]')] : [];
}

/** What a user reads, in order: role, status and text of each message, and the stored turn each one is. */
function shown(tab: Tab): { id: string; role: string; status: string; text: string }[] {
  return items(tab).map((li) => ({ id: li.dataset.id!, role: li.dataset.role!, status: li.dataset.status!, text: li.querySelector('.content')?.textContent ?? '' }));
}

/** Types into the tab's composer and presses Send. */
function send(tab: Tab, text: string): void {
  const composer = tab.app().shadowRoot!.querySelector('qwen-composer')!;
  composer.value = text;
  composer.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
}

/** Both tabs show `exchanges` whole exchanges, every reply complete, and nothing waiting or streaming. */
async function settled(a: Tab, b: Tab, exchanges: number): Promise<void> {
  for (const tab of [a, b]) {
    await expect
      // A failed reply shows its error here, so a failure says why.
      .poll(() => items(tab).map((li) => `${li.dataset.role}:${li.dataset.status}${li.dataset.status === 'failed' ? ` (${li.querySelector('.note')?.textContent})` : ''}`).join(' '), { timeout: 60_000 })
      .toBe(Array.from({ length: exchanges }, () => 'user:complete assistant:complete').join(' '));
    // The exchange ends after its reply shows (the memory records the reply first): then the composer is free.
    await expect.poll(() => frameApp(tab)?.chat.busy, { timeout: 30_000 }).toBe(false);
  }
}

/** The stored turns in storage order: question, its reply, question, its reply… */
function expectWholeExchanges(turns: TurnRecord[]): void {
  turns.forEach((t, i) => {
    expect(t.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
    if (t.role === 'assistant') expect(t.replyTo).toBe(turns[i - 1]!.id);
  });
}

/** A new database with one empty conversation, open in two tabs at once (two windows restored together). */
async function twoTabsOn(title: string): Promise<{ dbName: string; session: { id: string }; a: Tab; b: Tab }> {
  const dbName = freshDbName();
  const store = await MemoryStore.open({ name: dbName });
  const session = await store.createSession({ title });
  await store.close();
  // Both tabs reopen the last conversation, as after a restart with two windows.
  localStorage.setItem(LAST_SESSION_KEY, session.id);
  const a = openTab(dbName);
  const b = openTab(dbName);
  await ready(a, 0);
  await ready(b, 0);
  return { dbName, session, a, b };
}

beforeEach(freshStart);

afterEach(async () => {
  // The app closes its store when taken off the page; then the tab goes, as a closed tab would.
  for (const tab of tabs.splice(0)) {
    frameApp(tab)?.remove();
    await new Promise((resolve) => setTimeout(resolve, 50));
    tab.frame.remove();
  }
  await resetAppStorage();
});

describe('two tabs on one conversation', () => {
  // Two tabs on the scripted engine (app-tab.ts), ten replies and two reloads on a loaded 2-core machine: a hang
  // detector, not a speed check.
  it('both send at once for five rounds: both show the same ten exchanges in order, before and after a reload', { timeout: 300_000 }, async () => {
    const { dbName, session, a, b } = await twoTabsOn('Weekend plans');

    const sent: string[] = [];
    for (let round = 1; round <= 5; round++) {
      const fromA = `Tab A, round ${round}: which trail should we hike on Saturday?`;
      const fromB = `Tab B, round ${round}: what should we pack for a picnic?`;
      sent.push(fromA, fromB);
      // At once: the same task, so neither tab's question is stored before the other pressed Send.
      send(a, fromA);
      send(b, fromB);
      await settled(a, b, round * 2);
      // Each tab also shows the other's exchanges, live, in the same order.
      expect(shown(b)).toEqual(shown(a));
    }

    const before = shown(a);
    expect(before.filter((m) => m.role === 'user').map((m) => m.text).sort()).toEqual([...sent].sort());
    // Every reply is shown whole (the scripted engine's fixed reply), in both tabs.
    expect(before.filter((m) => m.role === 'assistant').map((m) => m.text.trim())).toEqual(Array(10).fill(SCRIPTED_REPLY));
    // Each reply shown is the stored reply to the question above it.
    const check = await MemoryStore.open({ name: dbName });
    try {
      const turns = await check.listTurns(session.id);
      expect(turns).toHaveLength(20);
      expectWholeExchanges(turns);
      expect(before.map((m) => m.id)).toEqual(turns.map((t) => t.id));
    } finally {
      await check.close();
    }

    const old = [a, b].map((tab) => tab.frame.contentDocument);
    for (const tab of [a, b]) tab.frame.contentWindow!.location.reload();
    for (const [i, tab] of [a, b].entries()) {
      await expect.poll(() => tab.frame.contentDocument !== old[i] && frameApp(tab) !== null, { timeout: 30_000 }).toBe(true);
      await expect.poll(() => shown(tab), { timeout: 60_000 }).toEqual(before);
    }
  });

  it('a message forgotten in one tab is marked in the other, and out of that tab’s next prompt too', { timeout: 180_000 }, async () => {
    const { a, b } = await twoTabsOn('Backups');
    send(a, 'The backup host is 10.0.0.42, reachable over SSH.');
    await settled(a, b, 1);
    send(a, 'Lunch today is at noon in the small kitchen.');
    await settled(a, b, 2);

    items(a)[0]!.querySelector<HTMLButtonElement>('button[data-action="forget"]')!.click();
    await expect.poll(() => items(b)[0]!.hasAttribute('data-forgotten'), { timeout: 30_000 }).toBe(true);
    // Undo belongs to the tab that forgot it.
    expect(items(b)[0]!.querySelector('button[data-action="unforget"]')).toBeNull();
    send(b, 'Which machine keeps the backups?');
    await settled(a, b, 3);
    const prompt = frameApp(b)!.chat.lastSnapshot!.messages.map((m) => m.content).join('\n');
    expect(prompt).not.toContain('10.0.0.42');
    expect(prompt).toContain('Lunch today is at noon');
  });
});

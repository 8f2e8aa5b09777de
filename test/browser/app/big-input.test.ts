/**
 * A 100,000-character paste, as a user sends it: stored whole, sent in part (cut at a sentence end, with room
 * left for the answer), the message itself saying how much was sent (also after the app starts again), the
 * inspector's line meaning what it says, and the page never blocked for long on the way (issue 15).
 *
 * The app runs on the scripted UI engine (the real handler and worker protocol, a fixed reply streamed in chunks):
 * what is cut and why is the context engine's work on the main thread, with the real Qwen tokenizer, whatever model
 * answers; and the long tasks measured are the page's own (the model runs in its worker either way). The one-off
 * loads the first message brings (tokenizer, memory pipeline) are main-thread work too, and still happen before
 * the paste, as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { freshStart, messageItems, mountApp, resetAppStorage, sendAndWait, shadow, unmountApp, waitReady } from './app-helpers.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import { mixedProse } from '../../fixtures/mixed-prose.ts';

/** Longest main-thread task allowed from the paste to the end of the reply (issue 15). */
const LONG_TASK_LIMIT_MS = 200;
/** After the reply: the store's deferred work (statistics saved 2 s after a change, background embedding). */
const SETTLE_MS = 3_000;

/**
 * A fixed piece of CPU work, and its time on this machine at rest (V8, optimised: 2.3 ms at best here). Timed
 * around the paste, it tells how much other processes stretch every task right now: on the shared 2-core machine
 * it took 12-180 ms (median 49) while other test suites ran, and the paste's longest task then reached 300-720 ms.
 */
const YARDSTICK_REST_MS = 2.5;
/** The limit stretches with the load up to this factor, no further: a second-long block still fails. */
const MAX_SLOWDOWN = 5;
let sink = 0;
function yardstick(): number {
  const start = performance.now();
  let h = 0;
  for (let i = 0; i < 2_000_000; i++) h = (Math.imul(h, 31) + i) | 0;
  sink ^= h;
  return performance.now() - start;
}

/** Median yardstick times, each run its own task, optimised first as the page's own code is by then. */
async function yardstickTimes(): Promise<number[]> {
  for (let i = 0; i < 20; i++) yardstick();
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    times.push(yardstick());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return times;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

interface LongTask {
  at: number;
  ms: number;
}

interface Measured {
  tasks: LongTask[];
  /** How much the machine's load stretched a fixed piece of work meanwhile (1: not at all). */
  slowdown: number;
}

/**
 * Pastes `text` as Ctrl+V does (a paste event carrying the clipboard's text), sends it with Enter and waits for
 * the reply and the store's deferred work, recording every long task the browser reports meanwhile.
 */
async function pasteAndSend(app: QwenChatApp, text: string): Promise<Measured> {
  const yardsticks = await yardstickTimes();
  const tasks: LongTask[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ at: Math.round(entry.startTime - start), ms: Math.round(entry.duration) });
  });
  const before = messageItems(app, 'assistant').length;
  const input = page.getByRole('textbox', { name: 'Message' });
  await userEvent.click(input);
  observer.observe({ type: 'longtask' });
  const start = performance.now();
  const clipboardData = new DataTransfer();
  clipboardData.setData('text/plain', text);
  const textarea = input.element() as HTMLTextAreaElement;
  const inserted = textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true, composed: true }));
  // The composer took the paste (a textarea would lay the whole text out: over a second for this one).
  expect(inserted).toBe(false);
  const composer = shadow(shadow(app).querySelector('qwen-composer'));
  await expect.poll(() => composer.querySelector('[data-long]')?.textContent).toContain(`A long text (${text.length.toLocaleString('en')} characters)`);
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => messageItems(app, 'assistant')[before]?.dataset.status, { timeout: 90_000 }).toBe('complete');
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  observer.disconnect();
  yardsticks.push(...(await yardstickTimes()));
  return { tasks, slowdown: median(yardsticks) / YARDSTICK_REST_MS };
}

const BIG = mixedProse(100_000);
const inspector = (app: QwenChatApp) => shadow(shadow(app).querySelector('qwen-inspector'));

describe('a 100,000-character paste', () => {
  let app: QwenChatApp;
  let dbName: string;
  let measured: Measured = { tasks: [], slowdown: 1 };

  // Set up by the first test that runs (expect.poll works only inside a test), then shared.
  let setup: Promise<void> | null = null;
  const pasted = (): Promise<void> =>
    (setup ??= (async () => {
      await freshStart();
      ({ app, dbName } = mountApp({ engine: 'scripted' }));
      await waitReady(app);
      // The tokenizer and the memory pipeline load with the first message; that one-off cost is not the paste's.
      await sendAndWait(app, 'Hello, a short question first.');
      await userEvent.click(page.getByRole('button', { name: 'New conversation' }).first());
      measured = await pasteAndSend(app, BIG);
    })());

  afterAll(async () => {
    await unmountApp();
    await resetAppStorage();
  });

  it(`never blocks the page for more than ${LONG_TASK_LIMIT_MS} ms, from the paste to the end of the reply`, { timeout: 180_000 }, async () => {
    await pasted();
    // 200 ms on a machine at rest; stretched by the load measured meanwhile, up to MAX_SLOWDOWN (see the yardstick).
    const limit = LONG_TASK_LIMIT_MS * Math.min(MAX_SLOWDOWN, Math.max(1, measured.slowdown));
    const longest = Math.max(0, ...measured.tasks.map((t) => t.ms));
    // The message lists every task over 50 ms the browser measured, with when it began after the paste.
    expect(longest, `limit ${Math.round(limit)} ms (slowdown ${measured.slowdown.toFixed(1)}); ${JSON.stringify(measured.tasks)}; ${sink}`).toBeLessThanOrEqual(limit);
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
    expect(kept).toMatch(/[.。]$/);
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
    ({ app } = mountApp({ engine: 'scripted', dbName }));
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

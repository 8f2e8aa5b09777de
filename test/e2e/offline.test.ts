/**
 * The built app as a returning user lives with it, with every request intercepted:
 * - after the first visit, a reload works with the network off (service worker + the model on the device),
 *   and the only requests ever made go to the app's own origin and the model's host;
 * - conversations, renames and deletions survive reloads, the last one reopens, and a reply cut off by a reload
 *   is marked interrupted and can be regenerated;
 * - "delete all my data" leaves IndexedDB, the caches, the origin-private files and localStorage empty.
 */
import type { BrowserContext, Page } from 'playwright';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { conversationTitles, guardedContext, messageStates, sendAndWait, useBuiltApp, waitForReady, type RequestLog } from './harness.ts';

const built = useBuiltApp('offline');

/** Waits until the service worker controls the page and has cached the page and its engine files. */
async function waitForShellCache(page: Page): Promise<string[]> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const cached = await page.evaluate(async () => {
      const cache = await caches.open('qwen-shell-v1');
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    const has = (re: RegExp) => cached.some((p) => re.test(p));
    if (has(/^\/$/) && has(/\/assets\/index-.*\.js$/) && has(/\/assets\/worker-.*\.js$/) && has(/\/assets\/wllama-.*\.wasm$/) && has(/tokenizer\.tables-v1\.json$/)) return cached;
    if (Date.now() > deadline) throw new Error(`the shell cache is incomplete: ${cached.join(', ')}`);
    await page.waitForTimeout(200);
  }
}

/** The returning user's browser the three tests share: one profile, visited first as a newcomer (see firstVisit). */
interface Visit {
  context: BrowserContext;
  page: Page;
  requests: RequestLog[];
  blocked: RequestLog[];
  modelUrl: string;
}

describe('offline, reloads and data control in the built app', () => {
  // One profile for the file: the tests follow one user, visit after visit, so the model is downloaded and the
  // first reply's tokenizer built once rather than once per test. Each test still starts from a first visit when
  // it runs alone (`-t`), and asserts only what it does itself.
  let visit: Promise<Visit> | undefined;
  afterAll(async () => (await visit?.catch(() => undefined))?.context.close());

  /**
   * A first visit (asked first; the model comes from its host, another origin, with CORS), one reply, and the
   * service worker's shell cache filled. The model host is not in the build's policy: the page allows it as an
   * operator would (its CSP meta). Every request of the profile is intercepted and logged.
   */
  function firstVisit(): Promise<Visit> {
    visit ??= (async () => {
      const { browser, origin, otherOrigin } = built();
      const modelUrl = `${otherOrigin}/models/test/qwen2-tiny.gguf`;
      const { context, requests, blocked } = await guardedContext(browser, [origin, otherOrigin], {}, { connect: [otherOrigin] });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.log('pageerror:', e.message));
      await page.goto(`${origin}/?model=${encodeURIComponent(modelUrl)}`);
      await page.getByRole('button', { name: 'Load the model' }).click();
      await waitForReady(page);
      await sendAndWait(page, 'Nightly backup at 02:00 on 10.1.2.3');
      await waitForShellCache(page);
      return { context, page, requests, blocked, modelUrl };
    })();
    return visit;
  }

  it('works offline after the first visit; requests go only to the app and the model host', async () => {
    const { origin, otherOrigin } = built();
    const { context, page, requests, blocked, modelUrl } = await firstVisit();
    // Network off; reload: the page, the engine and the model come from this device.
    await context.setOffline(true);
    try {
      const requestsBefore = requests.length;
      await page.reload();
      await waitForReady(page);
      expect(await page.getByRole('button', { name: 'Load the model' }).count()).toBe(0);
      expect(await conversationTitles(page)).toEqual(['Nightly backup at 02:00 on 10.1.2.3']);
      expect(await messageStates(page)).toEqual(['user:complete', 'assistant:complete']);
      await sendAndWait(page, 'When does the backup run?');
      await page.getByLabel('Conversation').getByText(TEST_MODEL_REPLY).nth(1).waitFor();
      // The network really is off (not every Chromium flips navigator.onLine for an emulated offline context): a file
      // the service worker does not keep cannot be fetched.
      expect(await page.evaluate(() => fetch('/models/test/not-kept.gguf', { cache: 'no-store' }).then(() => 'reached', () => 'offline'))).toBe('offline');
      // Offline, nothing reached the network: whatever was asked for was answered on the device.
      const offlineRequests = requests.slice(requestsBefore);
      expect(offlineRequests.filter((r) => !r.url.startsWith(origin))).toEqual([]);
    } finally {
      await context.setOffline(false);
    }

    // Over the whole visit: the app's origin, and the model host only for the model file.
    expect(blocked).toEqual([]);
    const toModelHost = requests.filter((r) => r.url.startsWith(otherOrigin));
    expect(toModelHost.length).toBeGreaterThan(0);
    expect(toModelHost.every((r) => r.url === modelUrl && (r.method === 'GET' || r.method === 'HEAD'))).toBe(true);
  }, 120_000);

  it('conversations survive reloads; a reply cut off by a reload is marked and can be regenerated', async () => {
    const { origin } = built();
    const { page, blocked } = await firstVisit();
    // What this profile held before (the first visit's conversation): kept as it is, next to what is done here.
    const earlier = await conversationTitles(page);
    await page.getByRole('button', { name: 'New conversation' }).first().click();
    await sendAndWait(page, 'Recipe ideas for dinner');
    await page.getByRole('button', { name: 'New conversation' }).first().click();
    await sendAndWait(page, 'Draft an email to the landlord');
    await page.getByRole('button', { name: 'New conversation' }).first().click();
    await sendAndWait(page, 'Throwaway question');
    await page.getByRole('button', { name: 'Rename “Recipe ideas for dinner”' }).click();
    await page.getByRole('textbox', { name: 'New title' }).fill('Dinner plans');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Delete “Throwaway question”' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Draft an email to the landlord', exact: true }).click();
    await page.waitForFunction(() => (document.querySelector('qwen-chat-app') as unknown as { chat: { messages: unknown[] } }).chat.messages.length === 2);

    await page.reload();
    await waitForReady(page);
    expect((await conversationTitles(page)).sort()).toEqual([...earlier, 'Dinner plans', 'Draft an email to the landlord'].sort());
    await page.getByRole('heading', { name: 'Draft an email to the landlord' }).waitFor();
    expect(await messageStates(page)).toEqual(['user:complete', 'assistant:complete']);

    // A reply that streams forever, cut off by a reload.
    await page.goto(`${origin}/?model=${encodeURIComponent('/models/test/qwen2-tiny-loop.gguf')}&autoload=1`);
    await waitForReady(page);
    await page.getByRole('button', { name: 'New conversation' }).first().click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Tell me everything');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => {
      const m = (document.querySelector('qwen-chat-app') as unknown as { chat: { messages: Array<{ chunks: number }> } }).chat.messages[1];
      return (m?.chunks ?? 0) > 5;
    });
    await page.waitForTimeout(300); // the partial reply is written every 50 ms
    await page.reload();
    await waitForReady(page);
    await page.getByRole('heading', { name: 'Tell me everything' }).waitFor();
    expect(await messageStates(page)).toEqual(['user:complete', 'assistant:interrupted']);
    await page.getByText('Interrupted: this reply was cut off.').waitFor();
    const partial = await page.evaluate(() => (document.querySelector('qwen-chat-app') as unknown as { chat: { messages: Array<{ content: string }> } }).chat.messages[1]!.content);
    expect(partial.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Regenerate' }).click();
    await page.waitForFunction(() => {
      const m = (document.querySelector('qwen-chat-app') as unknown as { chat: { messages: Array<{ chunks: number; status: string }> } }).chat.messages[1];
      return m?.status === 'streaming' && m.chunks > 3;
    });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => (document.querySelector('qwen-chat-app') as unknown as { chat: { busy: boolean } }).chat.busy === false);
    expect(await messageStates(page)).toEqual(['user:complete', 'assistant:stopped']);
    expect(blocked).toEqual([]);
  }, 120_000);

  it('"delete all my data" empties IndexedDB, every cache, the origin-private files and localStorage', async () => {
    const { page } = await firstVisit();
    // The profile holds conversations, a model in the origin-private files, the shell cache and settings.
    await waitForShellCache(page);
    const inventory = () =>
      page.evaluate(async () => {
        const root = await navigator.storage.getDirectory();
        const files: string[] = [];
        for await (const handle of (root as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) files.push(handle.name);
        return {
          databases: (await indexedDB.databases()).map((d) => d.name),
          caches: await caches.keys(),
          files,
          localStorage: localStorage.length,
        };
      });
    const before = await inventory();
    expect(before.databases.length).toBeGreaterThan(0);
    expect(before.caches.length).toBeGreaterThan(0);
    expect(before.files).toContain('cache');
    expect(before.localStorage).toBeGreaterThan(0);
    expect((await conversationTitles(page)).length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Data' }).click();
    await page.getByRole('button', { name: 'Delete all my data' }).click();
    await page.getByRole('dialog').getByText('cannot be undone').waitFor();
    await page.getByRole('button', { name: 'Delete everything' }).click();
    await page.getByText('All your data was deleted from this device.').waitFor();
    expect(await inventory()).toEqual({ databases: [], caches: [], files: [], localStorage: 0 });
    expect(await conversationTitles(page)).toEqual([]);
    await page.getByRole('button', { name: 'Load the model' }).waitFor();
  }, 120_000);
});

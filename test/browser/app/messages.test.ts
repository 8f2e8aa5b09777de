/**
 * Messages as a user meets them: markdown rendered and sanitised (a reply with a script tag and an `onerror`
 * image arrives through an imported file, as an attacker would send it), code highlighted with a working copy
 * button, and the last exchange stopped, regenerated and edited — with the store agreeing afterwards.
 * The replies come from the scripted engine (test/browser/engine/ui-worker.ts), a fixed one or one that goes on
 * until stopped: what the app does with them is the subject. Stopping the real engine mid-stream is in
 * test/browser/chat-app.test.ts and engine-wllama.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { EXPORT_FORMAT } from '../../../src/ui/data/export-format.ts';
import { SCRIPTED_ENDLESS_URL, SCRIPTED_REPLY, freshStart, messageItems, messageList, messageTexts, mountApp, resetAppStorage, sendAndWait, unmountApp, waitReady } from './app-helpers.ts';

beforeEach(() => freshStart());
afterEach(async () => {
  vi.restoreAllMocks();
  await unmountApp();
  await resetAppStorage();
});

const HOSTILE = [
  'Here is what you asked for:',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  '<a href="javascript:window.__pwned=\'link\'">click me</a>',
  '',
  '```python',
  'def greet(name):',
  '    return f"Hello, {name}!"',
  '```',
  '',
  '- **bold** and `inline`',
].join('\n');

function exportFile(messages: Array<{ role: string; content: string }>, title = 'Imported'): File {
  const now = Date.now();
  const file = {
    format: EXPORT_FORMAT,
    version: 1,
    exportedAt: new Date(now).toISOString(),
    conversations: [{ id: 'imported-1', title, createdAt: now, updatedAt: now, messages: messages.map((m, i) => ({ ...m, createdAt: now + i, status: 'complete' })) }],
  };
  return new File([JSON.stringify(file)], 'export.json', { type: 'application/json' });
}

async function importThrough(file: File): Promise<void> {
  await userEvent.click(page.getByRole('button', { name: 'Data' }));
  await userEvent.upload(page.getByLabelText('Choose a file'), file);
  await expect.element(page.getByRole('status').filter({ hasText: /Imported 1 conversations/ })).toBeVisible();
  await userEvent.click(page.getByRole('button', { name: 'Close the panel' }));
}

/** Chunks of the reply now streaming; 0 while the shown reply is a finished or stopped one. */
function streamedChunks(app: Parameters<typeof messageItems>[0]): number {
  const reply = messageItems(app, 'assistant')[0];
  return reply?.dataset.status === 'streaming' ? Number(reply.dataset.chunks ?? 0) : 0;
}

describe('messages', () => {
  it('renders markdown inert: no script runs, no handler survives, code is highlighted and copies', async () => {
    const { app } = mountApp({ engine: 'scripted', autoload: false });
    delete (window as { __pwned?: string }).__pwned;
    await importThrough(exportFile([{ role: 'user', content: 'Show me <b>raw</b> html' }, { role: 'assistant', content: HOSTILE }]));

    await expect.poll(() => messageItems(app, 'assistant').length).toBe(1);
    const root = messageList(app).shadowRoot!;
    const reply = messageItems(app, 'assistant')[0]!;
    // The user's text is shown as typed, never as HTML.
    expect(messageTexts(app, 'user')).toEqual(['Show me <b>raw</b> html']);
    expect(root.querySelector('li[data-role="user"] b')).toBeNull();
    // The reply: markdown yes, active content no.
    expect(reply.querySelector('script, img, iframe')).toBeNull();
    expect([...reply.querySelectorAll('*')].some((el) => [...el.attributes].some((a) => a.name.startsWith('on')))).toBe(false);
    expect(reply.querySelector('a')?.getAttribute('href') ?? '').not.toMatch(/javascript:/i);
    expect(reply.querySelector('strong')?.textContent).toBe('bold');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((window as { __pwned?: string }).__pwned).toBeUndefined();

    const code = reply.querySelector('pre code.language-python')!;
    expect(code.querySelector('.hljs-keyword')?.textContent).toBe('def');
    const write = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    await userEvent.click(page.getByRole('button', { name: 'Copy code' }));
    expect(write).toHaveBeenCalledWith('def greet(name):\n    return f"Hello, {name}!"');
    await expect.element(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  });

  it('stop, regenerate and edit the last message; the store holds only what is shown', async () => {
    const { app, dbName } = mountApp({ engine: 'scripted', ggufUrl: SCRIPTED_ENDLESS_URL });
    await waitReady(app);
    const input = page.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'count to a million{Enter}');
    await expect.poll(() => Number(messageItems(app, 'assistant')[0]?.dataset.chunks ?? 0)).toBeGreaterThan(3);
    await userEvent.keyboard('{Escape}');
    await expect.poll(() => messageItems(app, 'assistant')[0]!.dataset.status).toBe('stopped');
    expect(messageTexts(app, 'assistant')[0]!.length).toBeGreaterThan(0);

    // Regenerate replaces the stopped reply. The new reply is the one streaming: the stopped one, with its chunks,
    // is still shown until regenerate holds the exchange lock, and a Stop then would keep it.
    await userEvent.click(page.getByRole('button', { name: 'Regenerate' }));
    await expect.poll(() => streamedChunks(app)).toBeGreaterThan(3);
    expect(messageItems(app, 'assistant')).toHaveLength(1);
    await userEvent.click(page.getByRole('button', { name: 'Stop' }));
    await expect.poll(() => messageItems(app, 'assistant')[0]!.dataset.status).toBe('stopped');

    // Edit the last user message: it changes in place and a new reply follows.
    await userEvent.click(page.getByRole('button', { name: 'Edit' }));
    const edit = page.getByRole('textbox', { name: 'Edit your message' });
    await expect.element(edit).toHaveValue('count to a million');
    await edit.fill('count to ten');
    await userEvent.click(page.getByRole('button', { name: 'Save and send' }));
    await expect.poll(() => messageTexts(app, 'user')).toEqual(['count to ten']);
    await expect.poll(() => streamedChunks(app)).toBeGreaterThan(3);
    app.chat.stop();
    await expect.poll(() => messageItems(app, 'assistant')[0]!.dataset.status).toBe('stopped');
    expect(messageItems(app)).toHaveLength(2);

    const store = await MemoryStore.open({ name: dbName });
    const [session] = await store.listSessions();
    const all = await store.listTurns(session!.id);
    // The two replaced replies are kept, hidden; the conversation is the edited message and its reply.
    expect(all.filter((t) => t.tags.includes('hidden')).map((t) => t.role)).toEqual(['assistant', 'assistant']);
    const turns = all.filter((t) => !t.tags.includes('hidden'));
    expect(turns.map((t) => [t.role, t.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'interrupted'],
    ]);
    expect(turns[0]!.content).toBe('count to ten');
    expect(turns[1]!.content).toBe(messageTexts(app, 'assistant')[0]);
    await store.close();
  });

  it('a reply to an edited message answers the edit; the live region reads the finished reply', async () => {
    const { app } = mountApp({ engine: 'scripted' });
    await waitReady(app);
    await sendAndWait(app, 'first try');
    await userEvent.click(page.getByRole('button', { name: 'Edit' }));
    await page.getByRole('textbox', { name: 'Edit your message' }).fill('second try');
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => messageTexts(app, 'user')).toEqual(['second try']);
    await expect.poll(() => messageItems(app, 'assistant')[0]?.dataset.status).toBe('complete');
    expect(app.chat.lastSnapshot!.input.text).toBe('second try');
    const live = app.shadowRoot!.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe(SCRIPTED_REPLY);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import '../../src/ui/qwen-chat-app.ts';
import type { QwenChatApp } from '../../src/ui/qwen-chat-app.ts';
import { freshDbName, resetAppStorage } from './app/app-helpers.ts';
import { HEARTBEAT_TIMEOUT_MS } from '../../src/engine/client.ts';
import { LOOP_MODEL_URL, TINY_MODEL_URL, clientWithWorkers } from './helpers.ts';

function mount(ggufUrl = TINY_MODEL_URL, heartbeatTimeoutMs = HEARTBEAT_TIMEOUT_MS): { app: QwenChatApp; workers: Worker[] } {
  const { client, workers } = clientWithWorkers(heartbeatTimeoutMs);
  const app = document.createElement('qwen-chat-app');
  app.client = client;
  // Each test has its own conversations: a fresh database, nothing remembered from an earlier test.
  app.dbName = freshDbName();
  app.source = { ggufUrl };
  app.backend = 'wasm';
  app.style.height = '600px';
  document.body.replaceChildren(app);
  return { app, workers };
}

const messages = () => page.elementLocator(document.body).getByRole('listitem');

/** A first visit downloads nothing unasked: the user agrees on the load card first. */
async function agreeToLoad(): Promise<void> {
  await userEvent.click(page.getByRole('button', { name: 'Load the model' }));
}
const assistantReplies = (app: QwenChatApp) =>
  [...(app.shadowRoot!.querySelector('qwen-message-list')!.shadowRoot!.querySelectorAll('li[data-role="assistant"]'))] as HTMLElement[];

// A first visit: no model on the device, no conversations.
beforeEach(() => resetAppStorage());

afterEach(async () => {
  document.querySelector('qwen-chat-app')?.client.terminate();
  document.body.replaceChildren();
  await resetAppStorage();
});

describe('<qwen-chat-app> end to end with the generated model', () => {
  it('says what will be downloaded, loads on request with a progress bar, and shows the backend', async () => {
    const { app } = mount();
    await expect.element(page.getByText(/downloads the model/)).toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Load the model' }));
    // A hang limit, not a speed check: the first model load of a page took over 15 s beside the e2e files.
    await expect.element(page.getByText(/CPU · wllama/), { timeout: 45_000 }).toBeVisible();
    expect(app.engine.status).toBe('ready');
  });

  it('type, Enter, the exact reply streams in several chunks; Shift+Enter makes a new line; a second message works', async () => {
    const { app } = mount();
    await agreeToLoad();
    const input = page.getByRole('textbox', { name: 'Message' });
    await userEvent.click(input);
    await userEvent.keyboard('你好{Shift>}{Enter}{/Shift}there');
    expect((input.element() as HTMLTextAreaElement).value).toBe('你好\nthere');
    await userEvent.keyboard('{Enter}');
    await expect.element(page.getByLabelText('Conversation').getByText(TEST_MODEL_REPLY)).toBeVisible();
    const first = assistantReplies(app)[0]!;
    // The text can be on screen a moment before the engine's final record marks the reply complete.
    await expect.poll(() => first.dataset.status).toBe('complete');
    expect(Number(first.dataset.chunks)).toBeGreaterThan(3);
    expect((input.element() as HTMLTextAreaElement).value).toBe('');

    await userEvent.type(input, 'second question{Enter}');
    await expect.poll(() => assistantReplies(app).filter((li) => li.dataset.status === 'complete').length).toBe(2);
    expect(assistantReplies(app)[1]!.querySelector('.content')!.textContent).toBe(TEST_MODEL_REPLY);
    expect(app.chat.lastStats!.cachedTokens).toBeGreaterThan(0);
    await expect.element(messages().nth(2)).toHaveTextContent('second question');
  });

  it('Stop ends a reply mid-stream, marks it stopped, and the next message works', async () => {
    const { app } = mount(LOOP_MODEL_URL);
    await agreeToLoad();
    const input = page.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'go on forever{Enter}');
    // The first reply waits for the model to load, which takes far longer on a loaded CI machine.
    await expect.poll(() => Number(assistantReplies(app)[0]?.dataset.chunks ?? 0), { timeout: 45_000 }).toBeGreaterThan(3);
    await userEvent.click(page.getByRole('button', { name: 'Stop' }));
    await expect.poll(() => assistantReplies(app)[0]!.dataset.status).toBe('stopped');
    await expect.element(page.getByText('Stopped.')).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Send' })).toBeVisible();

    await userEvent.type(input, 'again{Enter}');
    await expect.poll(() => Number(assistantReplies(app)[1]?.dataset.chunks ?? 0)).toBeGreaterThan(3);
    await userEvent.keyboard('{Escape}');
    await expect.poll(() => assistantReplies(app)[1]!.dataset.status).toBe('stopped');
  });

  it('a killed worker mid-stream: the UI says so with the code, keeps the user text, and Regenerate works', async () => {
    const { app, workers } = mount(LOOP_MODEL_URL, 1_000);
    await agreeToLoad();
    const input = page.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'keep this question{Enter}');
    await expect.poll(() => Number(assistantReplies(app)[0]?.dataset.chunks ?? 0), { timeout: 45_000 }).toBeGreaterThan(2);
    workers[0]!.terminate();
    await expect.poll(() => assistantReplies(app)[0]!.dataset.status, { timeout: 10_000 }).toBe('failed');
    expect(assistantReplies(app)[0]!.querySelector('[data-code]')!.getAttribute('data-code')).toBe('worker_crashed');
    await expect.element(messages().first()).toHaveTextContent('keep this question');

    await userEvent.click(page.getByRole('button', { name: 'Regenerate' }));
    // The new reply (the failed one can still be on screen, with its chunks, until the regenerate holds its lock).
    const newReply = (): number => {
      const reply = assistantReplies(app)[0];
      return reply === undefined || reply.dataset.status === 'failed' ? 0 : Number(reply.dataset.chunks ?? 0);
    };
    await expect.poll(newReply, { timeout: 45_000 }).toBeGreaterThan(2);
    expect(workers).toHaveLength(2);
    app.chat.stop();
  }, 120_000);

  it('a model URL that answers 404 shows a clear error naming the URL, and nothing hangs', async () => {
    mount('/models/test/missing.gguf');
    await userEvent.click(page.getByRole('button', { name: 'Load the model' }));
    await expect.element(page.getByRole('alert')).toHaveTextContent(/not found at .*\/models\/test\/missing\.gguf/);
    await expect.element(page.getByText('Error code: model_not_found')).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});

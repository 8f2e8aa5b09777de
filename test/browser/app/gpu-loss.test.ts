/**
 * The GPU's device is lost in the middle of a reply (real Chromium, the app as a user sees it, the real handler and
 * WebGPU backend over a web-llm double that fails as web-llm 0.2.86 does: see gpu-loss-worker.ts). The app says
 * so, answers the same question again on the CPU engine with the same history, and goes on there; WebGPU is not
 * tried again in this visit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { mlcSourceAt } from '../../../src/engine/model-sources.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import { GPU_REPLY, createGpuLossWorker } from '../engine/gpu-loss-script.ts';
import { clientWithWorkers } from '../helpers.ts';
import { SCRIPTED_MODEL_URL, SCRIPTED_REPLY, freshDbName, messageItems, resetAppStorage, sendAndWait, shadow } from './app-helpers.ts';

function mount(): { app: QwenChatApp; workers: Worker[]; dbName: string } {
  const { client, workers } = clientWithWorkers(5_000, createGpuLossWorker);
  const app = document.createElement('qwen-chat-app');
  const dbName = freshDbName();
  app.client = client;
  app.dbName = dbName;
  app.source = { ggufUrl: SCRIPTED_MODEL_URL, mlc: mlcSourceAt('https://models.invalid/mlc', 'https://models.invalid/libs') };
  app.backend = 'auto';
  app.autoload = true;
  app.style.height = '700px';
  app.style.display = 'block';
  document.body.replaceChildren(app);
  return { app, workers, dbName };
}

const replies = (app: QwenChatApp): string[] => messageItems(app, 'assistant').map((li) => li.querySelector('.content')!.textContent!.trim());
const gpuLostNotice = (app: QwenChatApp) => shadow(app).querySelector('[data-notice="gpu-lost"]');

beforeEach(() => resetAppStorage());

afterEach(async () => {
  document.querySelector('qwen-chat-app')?.client.terminate();
  document.body.replaceChildren();
  await resetAppStorage();
});

describe('the GPU device is lost mid-reply', () => {
  it('the question is answered again on the CPU, once, with a notice; the conversation goes on there', async () => {
    const { app, workers, dbName } = mount();
    await app.updateComplete;
    await sendAndWait(app, 'first question');
    expect(app.engine.loaded?.backend).toBe('webllm');
    expect(replies(app)).toEqual([GPU_REPLY]);
    expect(gpuLostNotice(app)).toBeNull();
    // web-llm reports only what it prefilled: the inspector labels the total and the cached part as derived.
    await userEvent.click(page.getByRole('button', { name: 'Inspector' }));
    const inspector = shadow(shadow(app).querySelector('qwen-inspector'));
    await expect.poll(() => inspector.querySelector('dd[data-field="cached"]')?.getAttribute('data-derived')).toBe('true');
    expect(inspector.querySelector('dd[data-field="prompt"]')!.textContent).toContain('derived: the engine reports only the tokens it prefilled');
    expect(inspector.querySelector('dd[data-field="prefilled"]')!.textContent).not.toContain('derived');

    // The device goes during this reply: a few words arrive from the GPU, then the CPU engine answers.
    await sendAndWait(app, 'second question');
    expect(app.engine.loaded?.backend).toBe('wllama');
    expect(app.engine.loaded?.reason).toContain('the WebGPU device was lost earlier in this session');
    expect(replies(app)).toEqual([GPU_REPLY, SCRIPTED_REPLY]);
    expect(messageItems(app, 'assistant')[1]!.dataset.status).toBe('complete');
    await expect.element(page.getByRole('status').filter({ hasText: 'The GPU stopped working' })).toBeVisible();
    // The same history, planned again for the new engine: the first exchange and the question.
    const prompt = app.chat.lastSnapshot!.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('first question');
    expect(prompt).toContain(GPU_REPLY);
    expect(prompt).toContain('second question');
    // No crash, no new worker: the handler dropped the dead backend and loaded the CPU one.
    expect(workers).toHaveLength(1);

    await sendAndWait(app, 'third question');
    expect(app.engine.loaded?.backend).toBe('wllama');
    // The CPU engine's counters are its own.
    await expect.poll(() => inspector.querySelector('dd[data-field="cached"]')?.getAttribute('data-derived')).toBe('false');
    expect(replies(app)).toEqual([GPU_REPLY, SCRIPTED_REPLY, SCRIPTED_REPLY]);

    // Stored: one reply per question, the retried one whole (nothing of the lost GPU reply left in it).
    const store = await MemoryStore.open({ name: dbName });
    try {
      const [session] = await store.listSessions();
      const turns = await store.listTurns(session!.id);
      expect(turns.map((t) => [t.role, t.content.trim()])).toEqual([
        ['user', 'first question'],
        ['assistant', GPU_REPLY],
        ['user', 'second question'],
        ['assistant', SCRIPTED_REPLY],
        ['user', 'third question'],
        ['assistant', SCRIPTED_REPLY],
      ]);
    } finally {
      await store.close();
    }
  });
});

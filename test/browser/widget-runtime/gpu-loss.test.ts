/**
 * The widget's GPU loses its device in the middle of an answer (real Chromium, the real handler and WebGPU backend
 * over the web-llm double: test/browser/engine/gpu-loss-worker.ts). The runtime answers the same question again on
 * the CPU engine, the reader's partial answer is replaced, the status line says why WebGPU is no longer used, and
 * the next question stays on the CPU.
 */
import { afterAll, afterEach, expect, it } from 'vitest';
import { deleteMemoryDB } from '../../../src/memory/store/db.ts';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { createWidgetRuntimeWith, type WidgetRuntimeImpl } from '../../../src/widget/runtime/index.ts';
import { GPU_REPLY, createGpuLossWorker } from '../engine/gpu-loss-script.ts';
import { SCRIPTED_MODEL_URL, SCRIPTED_REPLY } from '../engine/ui-script.ts';
import { fixtureDir, removeFixtures, writeDocsIndex } from './docs-fixture.ts';

const storeName = `gpu-loss-${Date.now()}`;
let runtime: WidgetRuntimeImpl | null = null;

afterAll(removeFixtures);
afterEach(async () => {
  await runtime?.dispose();
  await deleteMemoryDB(`qwen-widget:${storeName}`);
});

it('answers again on the CPU once the GPU is lost mid-answer, and says so on the status line', { timeout: 60_000 }, async () => {
  const { manifestUrl } = await writeDocsIndex(fixtureDir('gpu-loss'), [
    { url: 'guide.html', title: 'Guide', sections: [{ anchor: '', heading: '', text: 'The gateway restarts every night at two.' }] },
  ]);
  runtime = createWidgetRuntimeWith(
    { base: '/', model: SCRIPTED_MODEL_URL, mlcModel: 'https://models.invalid/mlc', docsIndex: manifestUrl, lang: 'en', window: 1024, storeName },
    { createWorker: createGpuLossWorker },
  );
  await runtime.ready();
  expect(runtime.status.text).toMatch(/^WebGPU \(web-llm\)/);
  const first = await runtime.ask('When does the gateway restart?');
  expect(first.reply).toBe(GPU_REPLY);

  const events: string[] = [];
  const second = await runtime.ask('And what happens then?', {
    onDelta: (text) => events.push(text),
    onRestart: () => events.push('restart'),
  });
  // Some words came from the GPU, then the reply started over on the CPU.
  expect(events.indexOf('restart')).toBeGreaterThan(0);
  expect(events.slice(events.indexOf('restart') + 1).join('')).toBe(SCRIPTED_REPLY);
  expect(second.reply).toBe(SCRIPTED_REPLY);
  expect(runtime.status.text).toContain('WebGPU not used: the WebGPU device was lost earlier in this session');

  const third = await runtime.ask('Thanks, one more?');
  expect(third.reply).toBe(SCRIPTED_REPLY);

  const store = await MemoryStore.open({ name: `qwen-widget:${storeName}` });
  try {
    const [session] = await store.listSessions();
    const turns = await store.listTurns(session!.id);
    expect(turns.filter((t) => t.role === 'assistant').map((t) => t.content)).toEqual([GPU_REPLY, SCRIPTED_REPLY, SCRIPTED_REPLY]);
  } finally {
    await store.close();
  }
});

import { describe, expect, it } from 'vitest';
import { EngineHandler } from '../../../src/engine/handler.ts';
import type { BackendKind, ClientMessage, LoadPayload, WorkerMessage } from '../../../src/engine/protocol.ts';
import type { GpuCapabilities } from '../../../src/engine/select-backend.ts';
import { NO_GPU } from '../../../src/engine/probe-gpu.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import { ScriptedBackend, type Script } from './scripted-backend.ts';
import { CAPABLE_GPU } from '../../fixtures/gpu.ts';

const GPU: GpuCapabilities = { ...CAPABLE_GPU, shaderF16: false };
const MLC = { modelId: 'm-q4f16_1', urlF16: 'https://x/f16', urlF32: 'https://x/f32', libF16: 'https://x/a.wasm', libF32: 'https://x/b.wasm' };
const LOAD: LoadPayload = { backend: 'auto', source: { ggufUrl: '/m.gguf', mlc: MLC }, contextWindow: 1024 };

function setup(scripts: Partial<Record<BackendKind, Script>>, gpu: GpuCapabilities = NO_GPU) {
  const posted: WorkerMessage[] = [];
  const backends: ScriptedBackend[] = [];
  const handler = new EngineHandler({
    createBackend: async (kind) => {
      const backend = new ScriptedBackend(kind, scripts[kind] ?? {});
      backends.push(backend);
      return backend;
    },
    probeGpu: async () => gpu,
    post: (m) => posted.push(m),
  });
  const settled = (id: number) =>
    new Promise<WorkerMessage>((resolve) => {
      const check = () => {
        const done = posted.find((m) => m.type !== 'event' && m.type !== 'pong' && m.id === id);
        if (done) resolve(done);
        else setTimeout(check, 1);
      };
      check();
    });
  const send = (m: ClientMessage) => handler.handle(m);
  return { posted, backends, send, settled };
}

describe('EngineHandler', () => {
  it('loads, streams chat deltas tagged with the request id, and returns the engine counters', async () => {
    const { posted, send, settled } = setup({ wllama: { deltas: ['你', '好', '𝄞'] } });
    send({ type: 'request', id: 1, method: 'load', payload: LOAD });
    const load = await settled(1);
    expect(load).toMatchObject({ type: 'result', method: 'load', result: { backend: 'wllama', contextWindow: 1024 } });
    expect(posted.some((m) => m.type === 'event' && m.id === 1 && m.method === 'load')).toBe(true);

    send({ type: 'request', id: 2, method: 'chat', payload: { messages: [{ role: 'user', content: 'hi' }], options: {} } });
    const chat = await settled(2);
    const deltas = posted.filter((m) => m.type === 'event' && m.id === 2).map((m) => (m as { event: { text: string } }).event.text);
    expect(deltas).toEqual(['你', '好', '𝄞']);
    expect(chat).toMatchObject({ type: 'result', result: { finishReason: 'stop', promptTokens: 10, cachedTokens: 4 } });
  });

  it("times each step of a load: the worker's start from the page's request, the GPU probe, the engine's code, then the backend's own", async () => {
    const { send, settled } = setup({});
    const requestedAt = performance.timeOrigin + performance.now() - 40;
    send({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, backend: 'wasm', requestedAt } });
    const { result } = (await settled(1)) as { result: { steps: Array<{ name: string; start: number; end: number; readBytes?: number }> } };

    // A CPU-only load asks for no GPU adapter.
    expect(result.steps.map((s) => s.name)).toEqual(['worker', 'engine-code', 'model-load']);
    expect(result.steps[0]!.start).toBe(requestedAt);
    for (const [i, step] of result.steps.entries()) {
      expect(step.end).toBeGreaterThanOrEqual(step.start);
      if (i > 0 && step.name !== 'model-load') expect(step.start).toBeGreaterThanOrEqual(result.steps[i - 1]!.end);
    }
    expect(result.steps.at(-1)).toMatchObject({ readBytes: 10 });
  });

  it('asks for a GPU adapter only when the load could choose WebGPU, and times that step', async () => {
    let probes = 0;
    const handler = (gpuPosted: WorkerMessage[]) =>
      new EngineHandler({
        createBackend: async (kind) => new ScriptedBackend(kind, {}),
        probeGpu: async () => {
          probes++;
          return GPU;
        },
        post: (m) => gpuPosted.push(m),
      });
    const posted: WorkerMessage[] = [];
    const engine = handler(posted);
    const result = async (id: number) => {
      for (;;) {
        const done = posted.find((m) => m.type === 'result' && m.id === id) as { result: { steps: Array<{ name: string }> } } | undefined;
        if (done) return done.result;
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    engine.handle({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, source: { ggufUrl: '/m.gguf' } } });
    expect((await result(1)).steps.map((s) => s.name)).not.toContain('gpu-probe');
    engine.handle({ type: 'request', id: 2, method: 'load', payload: { ...LOAD, backend: 'wasm' } });
    expect((await result(2)).steps.map((s) => s.name)).not.toContain('gpu-probe');
    expect(probes).toBe(0);
    engine.handle({ type: 'request', id: 3, method: 'load', payload: LOAD });
    expect((await result(3)).steps.map((s) => s.name)).toContain('gpu-probe');
    expect(probes).toBe(1);
  });

  it('applies seed-000 sampling defaults when the request leaves them out', async () => {
    const { backends, send, settled } = setup({});
    send({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, backend: 'wasm' } });
    await settled(1);
    send({ type: 'request', id: 2, method: 'chat', payload: { messages: [{ role: 'user', content: 'x' }], options: { topP: 0.5 } } });
    await settled(2);
    expect(backends[0]!.calls.at(-1)!.options).toEqual({ maxTokens: 512, temperature: 0.7, topP: 0.5 });
  });

  it('falls back from web-llm to wllama when WebGPU fails to load, with a notice', async () => {
    const { send, settled } = setup({ webllm: { loadError: new AssistantError('network', 'offline') } }, GPU);
    send({ type: 'request', id: 1, method: 'load', payload: LOAD });
    const result = await settled(1);
    expect(result).toMatchObject({ type: 'result', result: { backend: 'wllama', reason: 'wllama scripted (WebGPU failed to load)' } });
    expect((result as { result: { fallbackNotice: string } }).result.fallbackNotice).toMatch(/WebGPU .*offline/);
  });

  it('chooses web-llm first when the adapter is good enough', async () => {
    const { send, settled } = setup({}, GPU);
    send({ type: 'request', id: 1, method: 'load', payload: LOAD });
    expect(await settled(1)).toMatchObject({ result: { backend: 'webllm', reason: 'webllm scripted (WebGPU adapter available)' } });
  });

  it('rejects chat before load with not_loaded, and bad options with invalid_input', async () => {
    const { send, settled } = setup({});
    send({ type: 'request', id: 1, method: 'chat', payload: { messages: [{ role: 'user', content: 'x' }], options: {} } });
    expect(await settled(1)).toMatchObject({ type: 'error', error: { code: 'not_loaded' } });
    send({ type: 'request', id: 2, method: 'load', payload: { ...LOAD, backend: 'wasm' } });
    await settled(2);
    send({ type: 'request', id: 3, method: 'chat', payload: { messages: [], options: {} } });
    expect(await settled(3)).toMatchObject({ type: 'error', error: { code: 'invalid_input' } });
    send({ type: 'request', id: 4, method: 'chat', payload: { messages: [{ role: 'user', content: 'x' }], options: { temperature: 9 } } });
    expect(await settled(4)).toMatchObject({ type: 'error', error: { code: 'invalid_input' } });
  });

  it('cancels a streaming chat with an aborted error and serves the next request', async () => {
    const { send, settled, posted } = setup({ wllama: { deltas: ['a', 'b', 'c', 'd', 'e', 'f'], delayMs: 10 } });
    send({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, backend: 'wasm' } });
    await settled(1);
    send({ type: 'request', id: 2, method: 'chat', payload: { messages: [{ role: 'user', content: 'x' }], options: {} } });
    send({ type: 'request', id: 3, method: 'chat', payload: { messages: [{ role: 'user', content: 'y' }], options: {} } });
    await new Promise((r) => setTimeout(r, 25));
    send({ type: 'cancel', id: 2 });
    expect(await settled(2)).toMatchObject({ type: 'error', error: { code: 'aborted' } });
    expect(await settled(3)).toMatchObject({ type: 'result' });
    expect(posted.filter((m) => m.type === 'event' && m.id === 2).length).toBeLessThan(6);
  });

  it('cancels a request that is still waiting in the queue without running it', async () => {
    const { send, settled, backends } = setup({ wllama: { delayMs: 5 } });
    send({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, backend: 'wasm' } });
    send({ type: 'request', id: 2, method: 'chat', payload: { messages: [{ role: 'user', content: 'x' }], options: {} } });
    send({ type: 'cancel', id: 2 });
    expect(await settled(2)).toMatchObject({ type: 'error', error: { code: 'aborted' } });
    await settled(1);
    expect(backends[0]!.calls.filter((c) => c.method === 'chat')).toHaveLength(0);
  });

  it('runs a prefill in the model lane: a chat sent meanwhile starts only after it, on the warm cache', async () => {
    const { send, settled, backends } = setup({ wllama: { prefillMs: 30 } });
    send({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, backend: 'wasm' } });
    await settled(1);
    const head = [{ role: 'system' as const, content: 'You help.' }];
    send({ type: 'request', id: 2, method: 'prefill', payload: { messages: head } });
    send({ type: 'request', id: 3, method: 'chat', payload: { messages: [...head, { role: 'user', content: 'hi' }], options: {} } });
    expect(await settled(2)).toMatchObject({ type: 'result', method: 'prefill', result: { supported: true } });
    expect(await settled(3)).toMatchObject({ type: 'result', method: 'chat' });
    const order = backends[0]!.calls.map((c) => c.method).filter((m) => m !== 'load');
    expect(order).toEqual(['prefill', 'prefill-done', 'chat']);
    expect(backends[0]!.calls.find((c) => c.method === 'prefill')!.messages).toEqual(head);
  });

  it('refuses a prefill with no messages, and one before a model is loaded', async () => {
    const { send, settled } = setup({});
    send({ type: 'request', id: 1, method: 'prefill', payload: { messages: [] } });
    expect(await settled(1)).toMatchObject({ type: 'error', error: { code: 'not_loaded' } });
    send({ type: 'request', id: 2, method: 'load', payload: { ...LOAD, backend: 'wasm' } });
    await settled(2);
    send({ type: 'request', id: 3, method: 'prefill', payload: { messages: [] } });
    expect(await settled(3)).toMatchObject({ type: 'error', error: { code: 'invalid_input' } });
  });

  it('answers pings at once, even while a request runs', async () => {
    const { send, posted } = setup({});
    send({ type: 'request', id: 1, method: 'load', payload: LOAD });
    send({ type: 'ping', id: 0 });
    expect(posted.some((m) => m.type === 'pong')).toBe(true);
  });

  it('unloads the model before deleting its cached files', async () => {
    const events: string[] = [];
    const posted: WorkerMessage[] = [];
    const backend = new ScriptedBackend('wllama');
    const handler = new EngineHandler({
      createBackend: async () => backend,
      probeGpu: async () => NO_GPU,
      cache: {
        read: async () => ({ models: [{ backend: 'wllama', id: 'u', bytes: 3 }] }),
        delete: async (_source, all) => void events.push(`delete all=${all} unloaded=${backend.unloaded}`),
      },
      post: (m) => posted.push(m),
    });
    handler.handle({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, backend: 'wasm' } });
    handler.handle({ type: 'request', id: 2, method: 'cacheInfo', payload: { source: LOAD.source } });
    handler.handle({ type: 'request', id: 3, method: 'deleteCache', payload: { source: LOAD.source, all: true } });
    handler.handle({ type: 'request', id: 4, method: 'chat', payload: { messages: [{ role: 'user', content: 'x' }], options: {} } });
    await new Promise((r) => setTimeout(r, 50));
    expect(posted.find((m) => m.type === 'result' && m.id === 2)).toMatchObject({ result: { models: [{ bytes: 3 }] } });
    expect(events).toEqual(['delete all=true unloaded=true']);
    expect(posted.find((m) => m.id === 4 && m.type === 'error')).toMatchObject({ error: { code: 'not_loaded' } });
  });

  it('reports a source no backend can run as invalid_config', async () => {
    const { send, settled } = setup({});
    send({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, source: { mlc: MLC } } });
    expect(await settled(1)).toMatchObject({ type: 'error', error: { code: 'invalid_config' } });
  });
});

describe('a WebGPU device lost after loading', () => {
  const lost = new AssistantError('webgpu_unavailable', 'The GPU stopped working (its WebGPU device was lost): ModelNotLoadedError');

  it('drops the web-llm backend (no dead "ready" engine), and the next automatic load takes the CPU', async () => {
    const { send, settled, backends } = setup({ webllm: { chatError: lost } }, GPU);
    send({ type: 'request', id: 1, method: 'load', payload: LOAD });
    expect(await settled(1)).toMatchObject({ result: { backend: 'webllm' } });
    send({ type: 'request', id: 2, method: 'chat', payload: { messages: [{ role: 'user', content: 'q' }], options: {} } });
    expect(await settled(2)).toMatchObject({ type: 'error', error: { code: 'webgpu_unavailable' } });
    expect(backends[0]!.unloaded).toBe(true);
    send({ type: 'request', id: 3, method: 'chat', payload: { messages: [{ role: 'user', content: 'q' }], options: {} } });
    expect(await settled(3)).toMatchObject({ type: 'error', error: { code: 'not_loaded' } });
    // The adapter still looks fine, but this worker saw its device go: the CPU engine runs.
    send({ type: 'request', id: 4, method: 'load', payload: LOAD });
    expect(await settled(4)).toMatchObject({ result: { backend: 'wllama', reason: expect.stringContaining('the WebGPU device was lost earlier in this session') } });
    expect(backends.map((b) => b.kind)).toEqual(['webllm', 'wllama']);
  });

  it('a new worker told by the page (webgpuLost) does not choose WebGPU either, even when it is forced', async () => {
    for (const backend of ['auto', 'webgpu'] as const) {
      const { send, settled } = setup({}, GPU);
      send({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, backend, webgpuLost: true } });
      expect(await settled(1)).toMatchObject({ result: { backend: 'wllama' } });
    }
  });

  it('another failure of web-llm (not a lost device) keeps the backend', async () => {
    const { send, settled, backends } = setup({ webllm: { chatError: new AssistantError('inference_failed', 'boom') } }, GPU);
    send({ type: 'request', id: 1, method: 'load', payload: LOAD });
    await settled(1);
    send({ type: 'request', id: 2, method: 'chat', payload: { messages: [{ role: 'user', content: 'q' }], options: {} } });
    expect(await settled(2)).toMatchObject({ error: { code: 'inference_failed' } });
    expect(backends[0]!.unloaded).toBe(false);
  });
});

describe('embeddings run beside the chat, never in front of it', () => {
  const chat = (id: number): ClientMessage => ({ type: 'request', id, method: 'chat', payload: { messages: [{ role: 'user', content: 'hi' }], options: {} } });
  const loaded = async (script: Script) => {
    const harness = setup({ wllama: script });
    harness.send({ type: 'request', id: 1, method: 'load', payload: { ...LOAD, backend: 'wasm' } });
    await harness.settled(1);
    return harness;
  };
  const order = (posted: WorkerMessage[]): number[] => posted.filter((m) => m.type === 'result' || m.type === 'error').map((m) => m.id);

  it("a chat sent while the embedding model downloads is answered before the download ends, and the download's progress is reported", async () => {
    const { posted, send, settled } = await loaded({ embedderLoadMs: 200, delayMs: 1 });
    send({ type: 'request', id: 2, method: 'loadEmbedder', payload: { source: LOAD.source } });
    send(chat(3));
    await Promise.all([settled(2), settled(3)]);
    expect(order(posted).slice(1)).toEqual([3, 2]);
    expect(posted.filter((m) => m.type === 'event' && m.id === 2).length).toBe(10);
  });

  it('a background embedding waits while a chat runs or waits; a query embedding does not', async () => {
    const { posted, send, settled, backends } = await loaded({ deltas: ['a', 'b', 'c', 'd'], delayMs: 20 });
    send({ type: 'request', id: 2, method: 'loadEmbedder', payload: { source: LOAD.source } });
    await settled(2);
    send(chat(3));
    send(chat(4));
    send({ type: 'request', id: 5, method: 'embed', payload: { texts: ['stored turn'], background: true } });
    send({ type: 'request', id: 6, method: 'embed', payload: { texts: ['the question'], purpose: 'query' } });
    await Promise.all([3, 4, 5, 6].map(settled));
    // The query embedding answered while the first chat was still streaming; the background one after both chats.
    expect(order(posted).slice(2)).toEqual([6, 3, 4, 5]);
    const calls = backends[0]!.calls;
    expect(calls.find((c) => c.texts?.[0] === 'the question')?.purpose).toBe('query');
    expect(calls.find((c) => c.texts?.[0] === 'stored turn')?.purpose).toBe('document');
  });

  it('a background embedding waiting for a chat can be cancelled', async () => {
    const { posted, send, settled } = await loaded({ deltas: ['a', 'b', 'c'], delayMs: 20 });
    send({ type: 'request', id: 2, method: 'loadEmbedder', payload: { source: LOAD.source } });
    await settled(2);
    send(chat(3));
    send({ type: 'request', id: 4, method: 'embed', payload: { texts: ['x'], background: true } });
    send({ type: 'cancel', id: 4 });
    expect(await settled(4)).toMatchObject({ type: 'error', error: { code: 'aborted' } });
    await settled(3);
    expect(order(posted).slice(2)).toEqual([4, 3]);
  });
});

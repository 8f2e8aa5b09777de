/**
 * The WebGPU backend against a double of web-llm 0.2.86 (test/fixtures/webllm-double.ts, written from the
 * installed source): its counters turn by turn, the reply it stores, a lost device, a cancelled load, the adapter.
 */
import { describe, expect, it } from 'vitest';
import { WebLlmBackend } from '../../../src/engine/backends/webllm.ts';
import { CHAT_DEFAULTS, type ChatMessage, type ChatResult, type LoadPayload } from '../../../src/engine/protocol.ts';
import type { GpuCapabilities } from '../../../src/engine/select-backend.ts';
import { EMBEDDING_WINDOW, HALF_CHAR, embeddingTokens, STOP, WebLlmDouble, type DoubleOptions } from '../../fixtures/webllm-double.ts';
import { CAPABLE_GPU } from '../../fixtures/gpu.ts';

const GPU: GpuCapabilities = { ...CAPABLE_GPU, description: 'test GPU' };
const MLC = { modelId: 'Qwen-q4f16_1-MLC', urlF16: 'https://models.test/f16', urlF32: 'https://models.test/f32', libF16: 'https://models.test/f16.wasm', libF32: 'https://models.test/f32.wasm' };
const LOAD: LoadPayload = { backend: 'webgpu', source: { mlc: MLC }, contextWindow: 4096 };
const SYSTEM: ChatMessage = { role: 'system', content: 'You are a helpful assistant.' };

async function loaded(options: DoubleOptions = {}, gpu: GpuCapabilities = GPU) {
  const double = new WebLlmDouble(options);
  const backend = new WebLlmBackend({ webllm: async () => double.module(), probeGpu: async () => gpu });
  await backend.load(LOAD, () => {}, new AbortController().signal);
  return { double, backend };
}

async function ask(backend: WebLlmBackend, messages: ChatMessage[], options: Partial<typeof CHAT_DEFAULTS> = {}, signal = new AbortController().signal) {
  let streamed = '';
  const result = await backend.chat(messages, { ...CHAT_DEFAULTS, ...options }, (text) => (streamed += text), signal);
  return { result, streamed };
}

/** What the backend reported equals what the double's KV cache held for that turn. */
function expectHonest(result: ChatResult, turn: { reused: number; prefilled: number; promptInCache: number; sampled: number }): void {
  expect(result.cachedTokens).toBe(turn.reused);
  expect(result.promptTokens).toBe(turn.promptInCache);
  expect(result.promptTokens - result.cachedTokens).toBe(turn.prefilled);
  expect(result.completionTokens).toBe(turn.sampled);
  expect(result.derived).toEqual(['promptTokens', 'cachedTokens']);
}

describe('the counters follow web-llm turn by turn', () => {
  it('after each `stop`, the cached count is exactly what the KV cache holds (the stop token is not in it)', async () => {
    const { double, backend } = await loaded({ script: () => ['Sure', ',', ' ', 'here', STOP] });
    let messages: ChatMessage[] = [SYSTEM, { role: 'user', content: 'first question' }];
    for (let turn = 0; turn < 5; turn++) {
      const { result } = await ask(backend, messages);
      expectHonest(result, double.turns[turn]!);
      if (turn > 0) expect(result.cachedTokens).toBeGreaterThan(0);
      messages = [...messages, { role: 'assistant', content: result.text! }, { role: 'user', content: `question ${turn + 2}` }];
    }
    // Five turns in, a drift of one token per turn would be five.
    expect(double.turns.map((t) => t.reused)).toEqual(double.turns.map((_, i) => (i === 0 ? 0 : double.turns[i - 1]!.promptInCache + double.turns[i - 1]!.sampled - 1)));
  });

  it('a prefill is declined (web-llm holds no prefix without a reply): web-llm is not called, and the cache stays as it was', async () => {
    const { double, backend } = await loaded({ script: () => ['ok', STOP] });
    const messages: ChatMessage[] = [SYSTEM, { role: 'user', content: 'first question' }];
    const first = await ask(backend, messages);
    const warmed = await backend.prefill();
    expect(warmed).toEqual({ supported: false, promptTokens: 0, cachedTokens: 0, ms: 0 });
    expect(double.turns).toHaveLength(1);
    const next = await ask(backend, [...messages, { role: 'assistant', content: first.result.text! }, { role: 'user', content: 'second' }]);
    expectHonest(next.result, double.turns[1]!);
    expect(next.result.cachedTokens).toBeGreaterThan(0);
  });

  it('after a reply cut by `length`, web-llm rebuilds the cache, and the next turn reports nothing cached', async () => {
    const { double, backend } = await loaded({ script: () => ['a', ' ', 'b', ' ', 'c', STOP] });
    const first = await ask(backend, [SYSTEM, { role: 'user', content: 'q1' }], { maxTokens: 2 });
    expect(first.result.finishReason).toBe('length');
    const next = await ask(backend, [SYSTEM, { role: 'user', content: 'q1' }, { role: 'assistant', content: first.result.text! }, { role: 'user', content: 'q2' }]);
    expect(double.turns[1]!.reused).toBe(0);
    expectHonest(next.result, double.turns[1]!);
  });

  it('after a stopped reply (`abort`), the next turn reports nothing cached', async () => {
    const { double, backend } = await loaded({ script: () => ['x', ' ', 'y', ' ', 'z', STOP], stepMs: 5 });
    const abort = new AbortController();
    double.onDecode = (step) => {
      if (step === 2) abort.abort();
    };
    await expect(ask(backend, [SYSTEM, { role: 'user', content: 'q1' }], {}, abort.signal)).rejects.toMatchObject({ code: 'aborted' });
    expect(double.turns[0]!.finish).toBe('abort');
    double.onDecode = null;
    const partial = await double.engine.getMessage();
    const next = await ask(backend, [SYSTEM, { role: 'user', content: 'q1' }, { role: 'assistant', content: partial }, { role: 'user', content: 'q2' }]);
    expect(double.turns[1]!.reused).toBe(0);
    expectHonest(next.result, double.turns[1]!);
  });

  it('a compacted history (an old exchange dropped, or two new turns) is not reported as cached', async () => {
    const { double, backend } = await loaded();
    const a = await ask(backend, [SYSTEM, { role: 'user', content: 'q1' }]);
    const b = await ask(backend, [SYSTEM, { role: 'user', content: 'q1' }, { role: 'assistant', content: a.result.text! }, { role: 'user', content: 'q2' }]);
    expect(b.result.cachedTokens).toBeGreaterThan(0);
    // The planner dropped the first exchange to make room.
    const c = await ask(backend, [SYSTEM, { role: 'user', content: 'q2' }, { role: 'assistant', content: b.result.text! }, { role: 'user', content: 'q3' }]);
    expectHonest(c.result, double.turns[2]!);
    expect(c.result.cachedTokens).toBe(0);
    // Two turns more than web-llm holds: it cannot continue either.
    const d = await ask(backend, [SYSTEM, { role: 'user', content: 'q2' }, { role: 'assistant', content: b.result.text! }, { role: 'user', content: 'q3' }, { role: 'assistant', content: c.result.text! }, { role: 'user', content: 'aside' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'q4' }]);
    expectHonest(d.result, double.turns[3]!);
    expect(d.result.cachedTokens).toBe(0);
  });

  it('a prompt over the window fails with context_overflow, and the next turn starts afresh', async () => {
    const { double, backend } = await loaded({ contextWindow: 40 });
    await expect(ask(backend, [SYSTEM, { role: 'user', content: 'word '.repeat(60) }])).rejects.toMatchObject({ code: 'context_overflow' });
    const next = await ask(backend, [SYSTEM, { role: 'user', content: 'short' }]);
    expectHonest(next.result, double.turns[0]!);
  });
});

describe('the reply is the one web-llm recorded', () => {
  it('a reply ending in half a character: the stream holds it back, the result carries getMessage(), and re-sending that keeps the cache', async () => {
    const { double, backend } = await loaded({ script: () => ['caf', HALF_CHAR, STOP] });
    const first = await ask(backend, [SYSTEM, { role: 'user', content: 'q1' }]);
    expect(first.streamed).toBe('caf');
    expect(first.result.text).toBe(`caf${HALF_CHAR}`);
    expect(first.result.text).toBe(await double.engine.getMessage());
    const history = [SYSTEM, { role: 'user', content: 'q1' } as ChatMessage];
    // Re-sent as streamed, web-llm would not recognise its conversation.
    const probe = new WebLlmDouble({ script: () => ['caf', HALF_CHAR, STOP] });
    const probeBackend = new WebLlmBackend({ webllm: async () => probe.module(), probeGpu: async () => GPU });
    await probeBackend.load(LOAD, () => {}, new AbortController().signal);
    await ask(probeBackend, history);
    const asStreamed = await ask(probeBackend, [...history, { role: 'assistant', content: first.streamed }, { role: 'user', content: 'q2' }]);
    expect(probe.turns[1]!.reused).toBe(0);
    expectHonest(asStreamed.result, probe.turns[1]!);
    // Re-sent as recorded, it continues.
    const asRecorded = await ask(backend, [...history, { role: 'assistant', content: first.result.text! }, { role: 'user', content: 'q2' }]);
    expect(double.turns[1]!.reused).toBeGreaterThan(0);
    expectHonest(asRecorded.result, double.turns[1]!);
  });
});

describe('a lost GPU device ends the backend with webgpu_unavailable', () => {
  it('lost between requests: web-llm unloaded itself, the request fails with webgpu_unavailable, and the backend refuses further work', async () => {
    const { double, backend } = await loaded();
    await ask(backend, [SYSTEM, { role: 'user', content: 'q1' }]);
    double.engine.loseDevice();
    await expect(ask(backend, [SYSTEM, { role: 'user', content: 'q2' }])).rejects.toMatchObject({ code: 'webgpu_unavailable', message: expect.stringMatching(/ModelNotLoadedError/) });
    await expect(ask(backend, [SYSTEM, { role: 'user', content: 'q3' }])).rejects.toMatchObject({ code: 'not_loaded' });
  });

  it('lost mid-reply: the disposed pipeline fails the decode, and the request fails with webgpu_unavailable', async () => {
    const { double, backend } = await loaded({ script: () => ['one', ' ', 'two', ' ', 'three', STOP] });
    double.onDecode = (step) => {
      if (step === 2) double.engine.loseDevice();
    };
    await expect(ask(backend, [SYSTEM, { role: 'user', content: 'q1' }])).rejects.toMatchObject({ code: 'webgpu_unavailable', message: expect.stringMatching(/disposed/) });
    expect(double.engine.loaded).toBe(false);
  });

  it('embedding after the loss fails the same way', async () => {
    const double = new WebLlmDouble();
    const backend = new WebLlmBackend({ webllm: async () => double.module(), probeGpu: async () => GPU });
    const source = { mlc: { ...MLC, embedding: { modelId: 'e', url: 'https://models.test/e', lib: 'https://models.test/e.wasm' } } };
    await backend.load({ ...LOAD, source }, () => {}, new AbortController().signal);
    await backend.loadEmbedder({ source }, () => {}, new AbortController().signal);
    expect(await backend.embed(['a'], 'document', new AbortController().signal)).toHaveLength(1);
    for (const engine of double.engines) engine.loseDevice();
    await expect(backend.embed(['a'], 'document', new AbortController().signal)).rejects.toMatchObject({ code: 'webgpu_unavailable' });
  });
});

describe('embeddings on WebGPU follow the embedding model, not characters', () => {
  const QUERY_PREFIX = 'Represent this sentence for searching relevant passages: ';
  const source = { mlc: { ...MLC, embedding: { modelId: 'arctic', url: 'https://models.test/arctic', lib: 'https://models.test/arctic.wasm', queryPrefix: QUERY_PREFIX } } };
  const ready = async (options: ConstructorParameters<typeof WebLlmDouble>[0] = {}) => {
    const double = new WebLlmDouble(options);
    const backend = new WebLlmBackend({ webllm: async () => double.module(), probeGpu: async () => GPU });
    await backend.load({ ...LOAD, source }, () => {}, new AbortController().signal);
    const info = await backend.loadEmbedder({ source }, () => {}, new AbortController().signal);
    return { double, backend, info, embedder: double.engine };
  };
  const signal = new AbortController().signal;

  it('2,000 Chinese characters (past the 512-token window, which web-llm refuses whole) are cut to the longest start that fits', async () => {
    const { backend, embedder, info } = await ready();
    expect(info).toMatchObject({ backend: 'webllm', modelId: 'arctic', maxTokens: EMBEDDING_WINDOW });
    const long = '记忆'.repeat(1_000);
    expect(embeddingTokens(long)).toBeGreaterThan(EMBEDDING_WINDOW);
    const [vector] = await backend.embed([long], 'document', signal);
    expect(vector).toBeDefined();
    const sent = embedder.embedded.at(-1)!;
    expect(embeddingTokens(sent)).toBe(EMBEDDING_WINDOW);
    expect(long.startsWith(sent)).toBe(true);
    // English words are one token each here, so far more characters fit than a character cut would allow.
    const words = Array.from({ length: 800 }, (_, i) => `word${i}`).join(' ');
    await backend.embed([words], 'document', signal);
    expect(embeddingTokens(embedder.embedded.at(-1)!)).toBe(EMBEDDING_WINDOW);
    expect(embedder.embedded.at(-1)!.length).toBeGreaterThan(EMBEDDING_WINDOW * 4);
  });

  it('the query prefix goes on queries only, and counts against the window', async () => {
    const { backend, embedder } = await ready();
    await backend.embed(['where is the cache?'], 'query', signal);
    expect(embedder.embedded.at(-1)).toBe(`${QUERY_PREFIX}where is the cache?`);
    await backend.embed(['the cache lives in IndexedDB'], 'document', signal);
    expect(embedder.embedded.at(-1)).toBe('the cache lives in IndexedDB');
    await backend.embed(['问'.repeat(2_000)], 'query', signal);
    const sent = embedder.embedded.at(-1)!;
    expect(sent.startsWith(QUERY_PREFIX)).toBe(true);
    expect(embeddingTokens(sent)).toBe(EMBEDDING_WINDOW);
  });

  it('without a readable pipeline (web-llm internals moved) texts are cut to a bound that cannot exceed the window', async () => {
    const { backend, embedder } = await ready({ embeddingPipeline: false });
    await backend.embed(['记'.repeat(2_000)], 'document', signal);
    expect(embeddingTokens(embedder.embedded.at(-1)!)).toBeLessThanOrEqual(EMBEDDING_WINDOW);
  });

  it('embedding needs the embedding model loaded first', async () => {
    const double = new WebLlmDouble();
    const backend = new WebLlmBackend({ webllm: async () => double.module(), probeGpu: async () => GPU });
    await backend.load({ ...LOAD, source }, () => {}, new AbortController().signal);
    await expect(backend.embed(['a'], 'document', signal)).rejects.toMatchObject({ code: 'not_loaded' });
  });
});

describe('loading', () => {
  it('a load cancelled in the middle of reload() (web-llm then returns normally) rejects with aborted and unloads', async () => {
    const double = new WebLlmDouble({ reloadMs: 200 });
    const backend = new WebLlmBackend({ webllm: async () => double.module(), probeGpu: async () => GPU });
    const abort = new AbortController();
    const load = backend.load(LOAD, () => {}, abort.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    abort.abort();
    await expect(load).rejects.toMatchObject({ code: 'aborted' });
    expect(double.engine.loaded).toBe(false);
    await expect(ask(backend, [{ role: 'user', content: 'q' }])).rejects.toMatchObject({ code: 'not_loaded' });
  });

  it('an adapter below web-llm\'s limits is refused before web-llm is even imported', async () => {
    const double = new WebLlmDouble();
    let imported = false;
    const backend = new WebLlmBackend({
      webllm: async () => {
        imported = true;
        return double.module();
      },
      probeGpu: async () => ({ ...GPU, maxStorageBuffersPerShaderStage: 8 }),
    });
    await expect(backend.load(LOAD, () => {}, new AbortController().signal)).rejects.toMatchObject({ code: 'webgpu_unavailable', message: expect.stringContaining('maxStorageBuffersPerShaderStage') });
    expect(imported).toBe(false);
  });

  it('names the adapter in the load reason', async () => {
    const double = new WebLlmDouble();
    const backend = new WebLlmBackend({ webllm: async () => double.module(), probeGpu: async () => GPU });
    const info = await backend.load(LOAD, () => {}, new AbortController().signal);
    expect(info.reason).toBe('WebGPU, q4f16 on test GPU');
  });
});

describe('a load with no leave to download', () => {
  it('loads weights web-llm has cached, and answers model_not_downloaded without reloading when it has none', async () => {
    const cached = new WebLlmDouble({ cached: true });
    const backend = new WebLlmBackend({ webllm: async () => cached.module(), probeGpu: async () => GPU });
    await backend.load({ ...LOAD, allowDownload: false }, () => {}, new AbortController().signal);
    expect(cached.engine.loaded).toBe(true);

    const missing = new WebLlmDouble({ cached: false });
    const other = new WebLlmBackend({ webllm: async () => missing.module(), probeGpu: async () => GPU });
    await expect(other.load({ ...LOAD, allowDownload: false }, () => {}, new AbortController().signal)).rejects.toMatchObject({ code: 'model_not_downloaded' });
    expect(missing.engines).toHaveLength(0);
    // With leave to download, the same missing model loads (web-llm fetches it).
    await other.load(LOAD, () => {}, new AbortController().signal);
    expect(missing.engine.loaded).toBe(true);
  });
});

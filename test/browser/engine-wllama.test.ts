import { CacheManager } from '@wllama/wllama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import type { EngineClient } from '../../src/engine/client.ts';
import type { LoadResult } from '../../src/engine/protocol.ts';
import { wallNow } from '../../src/engine/start-steps.ts';
import { readModelCache } from '../../src/ui/data/model-cache.ts';
import { AssistantError } from '../../src/shared/errors.ts';
import { EMBED_MODEL_URL, LOOP_MODEL_URL, TINY_MODEL_URL, clientWithWorkers, collectChat, wasmLoad } from './helpers.ts';

describe('wllama engine in a worker, with the generated Qwen2 model', () => {
  let client: EngineClient;

  let loaded: LoadResult;
  let progressSteps: string[];

  beforeAll(async () => {
    ({ client } = clientWithWorkers());
    const fractions: number[] = [];
    progressSteps = [];
    loaded = await client.load({ ...wasmLoad(), requestedAt: wallNow() }, {
      onProgress: (p) => {
        fractions.push(p.fraction);
        if (p.step !== undefined && progressSteps.at(-1) !== p.step) progressSteps.push(p.step);
      },
    });
    expect(loaded.backend).toBe('wllama');
    expect(loaded.reason).toMatch(/^WASM CPU, \d+ threads? \(chosen in settings\)$/);
    expect(fractions.at(-1)).toBe(1);
    // The test server sends COOP/COEP, so wllama runs its multi-thread build.
    expect(globalThis.crossOriginIsolated).toBe(true);
    expect(loaded.threads).toBe(Math.min(navigator.hardwareConcurrency, 8));
  });
  afterAll(async () => {
    client.terminate();
    // Other tests list wllama's cache: the embedding model leaves it with this file.
    await new CacheManager().delete(new URL(EMBED_MODEL_URL, location.href).href);
  });

  it('times every step of its start, in order, and says which step is under way while it loads', async () => {
    const names = loaded.steps.map((s) => s.name);
    expect(names).toEqual(['worker', 'engine-code', 'weights-open', 'wasm', 'model-load']);
    for (const [i, step] of loaded.steps.entries()) {
      expect(step.end).toBeGreaterThanOrEqual(step.start);
      if (i > 0) expect(step.start).toBeGreaterThanOrEqual(loaded.steps[i - 1]!.end - 1);
    }
    // llama.cpp read the whole file (its header twice), and the wait for it is within the step.
    const size = Number((await fetch(TINY_MODEL_URL, { method: 'HEAD' })).headers.get('content-length'));
    const load = loaded.steps.at(-1)!;
    expect(load.readBytes).toBeGreaterThanOrEqual(size);
    expect(load.readMs).toBeLessThanOrEqual(load.end - load.start);
    expect(progressSteps).toEqual(expect.arrayContaining(['wasm', 'model-load']));
    expect(progressSteps.indexOf('wasm')).toBeLessThan(progressSteps.indexOf('model-load'));
  });

  it('streams the fixed reply (Chinese and an astral character) in several chunks, then stops at <|im_end|>', async () => {
    const { deltas, final } = await collectChat(client.chat([{ role: 'user', content: '你好' }], { temperature: 0.7, topP: 0.9 }));
    expect(deltas.join('')).toBe(TEST_MODEL_REPLY);
    expect(deltas.length).toBeGreaterThan(3);
    expect(final.finishReason).toBe('stop');
    expect(final.completionTokens).toBeGreaterThan(3);
    expect(final.promptTokens).toBeGreaterThan(5);
  });

  it('reuses the KV cache when the next prompt extends the previous one', async () => {
    const first = [
      { role: 'system' as const, content: 'You are a helpful assistant.' },
      { role: 'user' as const, content: 'Tell me something about caches.' },
    ];
    const a = await collectChat(client.chat(first));
    const second = [...first, { role: 'assistant' as const, content: a.deltas.join('') }, { role: 'user' as const, content: 'And again?' }];
    const b = await collectChat(client.chat(second));
    expect(b.final.cachedTokens).toBeGreaterThan(0);
    expect(b.final.cachedTokens).toBeGreaterThanOrEqual(a.final.promptTokens - 1);
    expect(b.final.promptTokens).toBeGreaterThan(b.final.cachedTokens);
  });

  it('prefills a conversation while the user types: the reply that follows prefills only the new message', async () => {
    const head = [
      { role: 'system' as const, content: 'You answer questions about the garden, briefly.' },
      { role: 'user' as const, content: 'The tomatoes went in on the south bed in April; 浇水每周两次。' },
      { role: 'assistant' as const, content: 'Noted: tomatoes in the south bed since April, watered twice a week.' },
    ];
    const warmed = await client.prefill(head);
    expect(warmed.supported).toBe(true);
    expect(warmed.promptTokens).toBeGreaterThan(30);
    // Only the first tokens (`<|im_start|>system\n`) can match what the cache held before.
    expect(warmed.cachedTokens).toBeLessThan(5);

    const again = await client.prefill(head);
    expect(again.cachedTokens).toBeGreaterThanOrEqual(warmed.promptTokens - 1);

    const { final } = await collectChat(client.chat([...head, { role: 'user' as const, content: 'When did they go in?' }]));
    expect(final.cachedTokens).toBeGreaterThanOrEqual(warmed.promptTokens - 1);
    // What is left: `<|im_start|>user\n`, the question, `<|im_end|>\n` and the generation prompt.
    expect(final.promptTokens - final.cachedTokens).toBeLessThan(20);
  });

  it('loads the embedding GGUF beside the chat model, with progress, and embeds by meaning across languages', async () => {
    const fractions: number[] = [];
    const info = await client.loadEmbedder({ source: { embeddingGguf: { url: EMBED_MODEL_URL } } }, { onProgress: (p) => fractions.push(p.fraction) });
    expect(info).toMatchObject({ backend: 'wllama', dimensions: 32, maxTokens: 512 });
    expect(info.modelId).toBe(new URL(EMBED_MODEL_URL, location.href).href);
    expect(fractions.at(-1)).toBe(1);
    const docs = ['I bought a bag of apples at the market', 'My bike has a flat tyre', 'The database needs a new index'];
    const vectors = await client.embed(docs, { purpose: 'document', background: true });
    const [query] = await client.embed(['数据库'], { purpose: 'query' });
    const scores = vectors.map((v) => v.reduce((sum, x, i) => sum + x * query![i]!, 0));
    expect(scores.indexOf(Math.max(...scores))).toBe(2);
    // The chat model still answers after (and beside) the embedder.
    const { deltas } = await collectChat(client.chat([{ role: 'user', content: 'hi' }]));
    expect(deltas.join('')).toBe(TEST_MODEL_REPLY);
  });

  it('a text longer than the embedding window (which llama.cpp refuses whole) is cut by its token count and embedded', async () => {
    await client.loadEmbedder({ source: { embeddingGguf: { url: EMBED_MODEL_URL } } });
    // ~3,000 tokens, the last sentence about a bicycle past the window: the cut keeps the start.
    const long = `${'The cat sat on the warm windowsill all afternoon. '.repeat(300)}My bike is red.`;
    const [longVector, catVector, bikeVector] = await client.embed([long, 'a kitten', 'a bicycle'], { purpose: 'document' });
    const dot = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
    expect(dot(longVector!, catVector!)).toBeGreaterThan(0.9);
    expect(dot(longVector!, bikeVector!)).toBeLessThan(0.2);
  });
});

describe('stopping and crashes, with a model that never stops by itself', () => {
  it('an abort mid-stream ends cleanly and the next request works', async () => {
    const { client } = clientWithWorkers();
    await client.load(wasmLoad(LOOP_MODEL_URL));
    const abort = new AbortController();
    let seen = 0;
    const error = await (async () => {
      for await (const event of client.chat([{ role: 'user', content: 'go' }], { maxTokens: 3000, signal: abort.signal })) {
        if (event.type === 'delta' && ++seen === 5) abort.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError', code: 'aborted' });
    // The worker really stopped generating: a short request right after completes.
    const next = await collectChat(client.chat([{ role: 'user', content: 'again' }], { maxTokens: 8 }));
    expect(next.final.finishReason).toBe('length');
    expect(next.final.completionTokens).toBe(8);
    client.terminate();
  });

  it('a killed worker rejects the pending chat with worker_crashed, and a new worker serves the retry', async () => {
    const { client, workers } = clientWithWorkers(1_000);
    await client.load(wasmLoad(LOOP_MODEL_URL));
    let seen = 0;
    const error = await (async () => {
      for await (const event of client.chat([{ role: 'user', content: 'go' }], { maxTokens: 3000 })) {
        if (event.type === 'delta' && ++seen === 3) workers[0]!.terminate();
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssistantError);
    expect((error as AssistantError).code).toBe('worker_crashed');
    await client.load(wasmLoad(LOOP_MODEL_URL));
    expect(workers).toHaveLength(2);
    const retry = await collectChat(client.chat([{ role: 'user', content: 'go' }], { maxTokens: 4 }));
    expect(retry.deltas.length).toBeGreaterThan(0);
    client.terminate();
  });
});

describe('load failures say what happened and where', () => {
  it('a model URL that answers 404 gives model_not_found naming the URL', async () => {
    const { client } = clientWithWorkers();
    const error = await client.load(wasmLoad('/models/test/does-not-exist.gguf')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'model_not_found' });
    expect((error as Error).message).toContain('/models/test/does-not-exist.gguf');
    expect((error as Error).message).toMatch(/404/);
    client.terminate();
  });

  it('a load without leave to download answers model_not_downloaded for weights not on the device, and fetches none of them', async () => {
    const { client } = clientWithWorkers();
    const url = '/models/test/qwen2-tiny-loop.gguf?never-downloaded';
    const stored = async () => (await readModelCache()).files.filter((f) => f.url.includes('never-downloaded')).length;
    const error = await client.load({ ...wasmLoad(url), allowDownload: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'model_not_downloaded' });
    expect(await stored()).toBe(0);
    // The same load with leave to download fetches it into the cache.
    const loaded = await client.load(wasmLoad(url));
    expect(loaded.backend).toBe('wllama');
    expect(await stored()).toBe(1);
    client.terminate();
  });

  it('an unreachable host gives a network error naming the URL', async () => {
    const { client } = clientWithWorkers();
    const url = 'http://127.0.0.1:9/qwen.gguf';
    const error = await client.load(wasmLoad(url)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network' });
    expect((error as Error).message).toContain(url);
    client.terminate();
  });
});

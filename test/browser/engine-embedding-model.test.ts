/**
 * The tiny embedding test model (scripts/test-model/embedding-model.ts, made by `npm run test-model`) in raw
 * wllama, loaded as an embedder: a semantic search finds the document of the query's concept, across languages,
 * and the vectors are the ones the model was built to give. Also pins what wllama 3.13 (llama.cpp b12211) does
 * with an input longer than the batch or the context: it rejects the whole call, naming the token count, and the
 * instance keeps working.
 */
import { CacheManager, Wllama, WllamaError, type LoadModelParams } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import compatWasmUrl from '@wllama/wllama-compat/wasm/wllama.wasm?url';
import compatWorkerUrl from '@wllama/wllama-compat/wasm/wllama.js?url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDING_CONCEPTS, EMBEDDING_EXAMPLES, conceptOf, type EmbeddingConcept } from '../../scripts/test-model/embedding-concepts.ts';

const EMBED_MODEL_URL = '/models/test/qwen2-embed-tiny.gguf';
const absolute = (url: string): string => new URL(url, location.href).href;

/** As the engine's embedder loads (src/engine/backends/wllama.ts), with the batch spelled out. */
const EMBED_PARAMS: LoadModelParams = { embeddings: true, pooling_type: 'mean', n_ctx: 512, n_batch: 512, n_ubatch: 512, n_threads: 1, n_gpu_layers: 0 };

async function openEmbedder(params: LoadModelParams): Promise<Wllama> {
  const logger = {
    debug: () => {},
    log: () => {},
    warn: console.warn,
    // the inputs refused on purpose below are logged as errors too
    error: (...args: unknown[]) => (args[0] === 'Model returned an error:' ? undefined : console.error(...args)),
  };
  const wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, allowOffline: true, logger });
  wllama.setCompat({ wasm: absolute(compatWasmUrl), worker: absolute(compatWorkerUrl) });
  await wllama.loadModelFromUrl(absolute(EMBED_MODEL_URL), params);
  return wllama;
}

async function embed(wllama: Wllama, texts: string[]): Promise<number[][]> {
  const response = await wllama.createEmbedding({ input: texts });
  return response.data.map((d) => d.embedding as number[]);
}

const dot = (a: number[], b: number[]): number => a.reduce((s, v, i) => s + v * b[i]!, 0);

const DOCS = EMBEDDING_EXAMPLES;

/** Ten tokens, each of its words one Qwen token; n of them joined by spaces are 10·n tokens. */
const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
const sentences = (n: number): string => Array.from({ length: n }, () => SENTENCE).join(' ');

// loadModelFromUrl keeps the file in wllama's OPFS cache, which other files list
afterAll(() => new CacheManager().delete(absolute(EMBED_MODEL_URL)));

describe('the tiny embedding model in wllama', () => {
  let wllama: Wllama;

  beforeAll(async () => {
    const head = await fetch(EMBED_MODEL_URL, { method: 'HEAD' });
    if (!head.ok) throw new Error(`${EMBED_MODEL_URL} is missing: run \`npm run test-model\` first (npm test does it for you).`);
    wllama = await openEmbedder(EMBED_PARAMS);
  });
  afterAll(() => wllama?.exit());

  it('loads as a 32-wide model with mean pooling written in the file', () => {
    const info = wllama.getLoadedContextInfo();
    expect(info.n_embd).toBe(32);
    expect(info.n_ctx_train).toBe(512);
    expect(info.metadata['qwen2.pooling_type']).toBe('1');
  });

  it('gives each concept word its own direction, whatever the language, and counts tokens as Qwen does (no BOS or EOS)', async () => {
    const response = await wllama.createEmbedding({ input: ['苹果', 'apple', 'I ate an apple with lunch today.'] });
    // 苹果 and apple are one token each; the sentence is eight
    expect(response.usage.prompt_tokens).toBe(10);
    const [zh, en, doc] = response.data.map((d) => d.embedding as number[]);
    // fruit is the first concept: dim 1, a unit one-hot for a text of concept tokens only
    expect(zh![1]).toBeCloseTo(1, 3);
    expect(dot(zh!, en!)).toBeCloseTo(1, 3);
    expect(dot(zh!, doc!)).toBeGreaterThan(0.95);
  });

  it('finds the English and the Chinese document of the query concept first, for every concept word', async () => {
    const queries: Array<{ text: string; concept: EmbeddingConcept }> = [
      ...Object.values(EMBEDDING_CONCEPTS).flatMap((words) => words.map((w) => ({ text: w, concept: conceptOf(w)! }))),
      { text: 'Where can I park my bike?', concept: 'bicycle' },
      { text: '苹果好吃吗？', concept: 'fruit' },
    ];
    const vectors = await embed(wllama, [...DOCS, ...queries].map((t) => t.text));
    const docVectors = vectors.slice(0, DOCS.length);
    queries.forEach(({ text: query, concept }, i) => {
      const q = vectors[DOCS.length + i]!;
      const ranked = DOCS.map((d, j) => ({ ...d, score: dot(q, docVectors[j]!) })).sort((a, b) => b.score - a.score);
      const [first, second, third] = ranked;
      expect([first!.concept, second!.concept], `${query}: ${first!.text}, ${second!.text}`).toEqual([concept, concept]);
      expect(second!.score, query).toBeGreaterThan(0.8);
      // the rest score about the same, near zero
      expect(third!.score, `${query}: ${third!.text}`).toBeLessThan(0.15);
    });
  });

  it('embeds an input of exactly n_ubatch (512) tokens, and refuses 513 with the count in the message', async () => {
    const fits = await wllama.createEmbedding({ input: [`${sentences(51)} cat cat`] });
    expect(fits.usage.prompt_tokens).toBe(512);
    const error = await wllama.createEmbedding({ input: [`${sentences(51)} cat cat cat`] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WllamaError);
    expect((error as WllamaError).message).toBe('input (513 tokens) is too large to process. increase the physical batch size (current batch size: 512)');
  });

  it('refuses a 3,000-word text (and every other text of the same call) with an error, not a crash nor a truncation', async () => {
    // 334 sentences: 3,006 words, 3,340 tokens. llama.cpp's server checks the batch first:
    //   "input (3340 tokens) is too large to process. increase the physical batch size (current batch size: 512)"
    const error = await wllama.createEmbedding({ input: ['cat', sentences(334), 'rain'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WllamaError);
    expect(error).toMatchObject({
      type: 'inference_error',
      message: 'input (3340 tokens) is too large to process. increase the physical batch size (current batch size: 512)',
    });
    // the instance lives on
    const after = await wllama.createEmbedding({ input: ['cat', 'rain'] });
    expect(after.data).toHaveLength(2);
    expect(after.usage.prompt_tokens).toBe(2);
  });
});

describe('the tiny embedding model with a batch bigger than its context', () => {
  it('refuses an input past the context (capped at the 512 the model was trained for) with another message', async () => {
    const wllama = await openEmbedder({ ...EMBED_PARAMS, n_ctx: 2048, n_batch: 2048, n_ubatch: 2048 });
    try {
      // The slot context is capped at the model's training context (512), the batch is not: so the context check speaks.
      //   "input (600 tokens) is larger than the max context size (512 tokens). skipping"
      const error = await wllama.createEmbedding({ input: [sentences(60)] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WllamaError);
      expect((error as WllamaError).message).toBe('input (600 tokens) is larger than the max context size (512 tokens). skipping');
      expect((await wllama.createEmbedding({ input: [sentences(50)] })).usage.prompt_tokens).toBe(500);
    } finally {
      await wllama.exit();
    }
  });
});

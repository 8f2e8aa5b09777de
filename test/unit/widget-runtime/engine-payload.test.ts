/** What the widget asks its engine to load: wllama only, or (with `mlc-model`) web-llm first, every URL absolute. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_GGUF_URL } from '../../../src/engine/model-sources.ts';
import { loadPayloadOf, mlcSourceOf, modelOfferOf } from '../../../src/widget/runtime/engine-source.ts';
import type { EngineClient } from '../../../src/engine/client.ts';
import { loadEngine } from '../../../src/widget/runtime/parts.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import type { WidgetRuntimeConfig } from '../../../src/widget/runtime/types.ts';

const config: WidgetRuntimeConfig = {
  base: 'https://docs.example/assets/widget/',
  model: 'models/test/qwen2-tiny.gguf',
  docsIndex: '',
  lang: 'en',
  window: 1024,
  storeName: 'test',
};

describe('the widget engine payload', () => {
  // The page the widget sits on (the base URL is absolute anyway; the runtime resolves against the page, as a browser does).
  beforeAll(() => vi.stubGlobal('location', new URL('https://docs.example/guide/install.html')));
  afterAll(() => vi.unstubAllGlobals());

  it('starts a load that stalled again once, as the app does; a second stall, or any other failure, is the error', async () => {
    const stalled = new AssistantError('load_stalled', 'The model load made no progress for 30 s.');
    const ready = { backend: 'wllama', reason: 'WASM CPU', modelUrl: 'https://docs.example/m.gguf', steps: [] };
    const once = { load: vi.fn().mockRejectedValueOnce(stalled).mockResolvedValueOnce(ready) };
    await expect(loadEngine(once as unknown as EngineClient, config, () => {}, undefined)).resolves.toEqual(ready);
    expect(once.load).toHaveBeenCalledTimes(2);
    const twice = { load: vi.fn().mockRejectedValue(stalled) };
    await expect(loadEngine(twice as unknown as EngineClient, config, () => {}, undefined)).rejects.toMatchObject({ code: 'load_stalled' });
    expect(twice.load).toHaveBeenCalledTimes(2);
    const network = { load: vi.fn().mockRejectedValue(new AssistantError('network', 'offline')) };
    await expect(loadEngine(network as unknown as EngineClient, config, () => {}, undefined)).rejects.toMatchObject({ code: 'network' });
    expect(network.load).toHaveBeenCalledTimes(1);
  });

  it('without mlc-model runs wllama only, on the model resolved against the widget base', () => {
    const expected = { backend: 'wasm', source: { ggufUrl: 'https://docs.example/assets/widget/models/test/qwen2-tiny.gguf' }, contextWindow: 1024 };
    expect(loadPayloadOf(config)).toEqual(expected);
    expect(loadPayloadOf({ ...config, mlcModel: '' })).toEqual(expected);
    expect(loadPayloadOf({ ...config, mlcModel: '   ' })).toEqual(expected);
    expect(loadPayloadOf({ ...config, model: '' }).source).toEqual({ ggufUrl: DEFAULT_GGUF_URL });
  });

  it('backend="webgpu" lets the choice take a software adapter (the CPU still behind it); "wasm" is the CPU only', () => {
    const gpu = loadPayloadOf({ ...config, mlcModel: 'models/mlc/', backend: 'webgpu' });
    expect(gpu).toMatchObject({ backend: 'auto', softwareGpu: true });
    expect(gpu.source.ggufUrl).toBeDefined();
    const cpu = loadPayloadOf({ ...config, mlcModel: 'models/mlc/', backend: 'wasm' });
    expect(cpu).toEqual({ backend: 'wasm', source: { ggufUrl: 'https://docs.example/assets/widget/models/test/qwen2-tiny.gguf' }, contextWindow: 1024 });
    expect(loadPayloadOf({ ...config, mlcModel: 'models/mlc/', backend: 'auto' })).not.toHaveProperty('softwareGpu');
  });

  it('backend="webgpu" without mlc-model runs on the CPU (the attribute check names the problem)', () => {
    expect(loadPayloadOf({ ...config, backend: 'webgpu' })).toMatchObject({ backend: 'wasm' });
  });

  it('after a lost GPU device the load says so, so WebGPU is not chosen again', () => {
    expect(loadPayloadOf({ ...config, mlcModel: 'models/mlc/' }, true)).toMatchObject({ backend: 'auto', webgpuLost: true });
  });

  it('with mlc-model lets the engine choose, with the MLC folder and its libs as fetch-model lays them out', () => {
    const payload = loadPayloadOf({ ...config, mlcModel: 'models/mlc/' });
    const folder = 'https://docs.example/assets/widget/models/mlc';
    expect(payload).toEqual({
      backend: 'auto',
      contextWindow: 1024,
      source: {
        ggufUrl: 'https://docs.example/assets/widget/models/test/qwen2-tiny.gguf',
        mlc: {
          modelId: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
          urlF16: `${folder}/Qwen2.5-0.5B-Instruct-q4f16_1-MLC`,
          urlF32: `${folder}/Qwen2.5-0.5B-Instruct-q4f32_1-MLC`,
          libF16: `${folder}/libs/Qwen2-0.5B-Instruct-q4f16_1_cs1k-webgpu.wasm`,
          libF32: `${folder}/libs/Qwen2-0.5B-Instruct-q4f32_1_cs1k-webgpu.wasm`,
          embedding: {
            modelId: 'snowflake-arctic-embed-s-q0f32-MLC-b4',
            url: `${folder}/snowflake-arctic-embed-s-q0f32-MLC`,
            lib: `${folder}/libs/snowflake-arctic-embed-s-q0f32-ctx512_cs512_batch4-webgpu.wasm`,
            queryPrefix: 'Represent this sentence for searching relevant passages: ',
          },
        },
      },
    });
  });

  it('resolves the folder like a URL: with or without the slash, site-absolute, or on another host', () => {
    const f32 = (mlcModel: string): string | undefined => mlcSourceOf({ base: config.base, mlcModel })?.urlF32;
    expect(f32('models/mlc')).toBe('https://docs.example/assets/widget/models/mlc/Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    expect(f32('/models/mlc//')).toBe('https://docs.example/models/mlc/Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    expect(f32('https://models.example/mlc/')).toBe('https://models.example/mlc/Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    expect(mlcSourceOf({ base: config.base })).toBeNull();
  });

  it('refuses a folder with a query, as an error with a code', () => {
    expect(() => mlcSourceOf({ base: config.base, mlcModel: 'models/mlc/?v=1' })).toThrow(expect.objectContaining({ code: 'invalid_config' }));
  });
});

describe('what the consent step names', () => {
  beforeAll(() => vi.stubGlobal('location', new URL('https://docs.example/guide/page.html')));
  afterAll(() => vi.unstubAllGlobals());

  it('the default model: its file, Hugging Face, and its size', () => {
    expect(modelOfferOf({ base: 'https://docs.example/widget/', model: '' })).toEqual({ file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf', host: 'huggingface.co', megabytes: 491 });
  });

  it('a site’s own model: its file and host, its size not guessed', () => {
    expect(modelOfferOf({ base: 'https://docs.example/widget/', model: 'https://models.example.org/files/my%20model.Q4.gguf' })).toEqual({ file: 'my model.Q4.gguf', host: 'models.example.org', megabytes: null });
    expect(modelOfferOf({ base: 'https://docs.example/widget/', model: 'models/test/qwen2-tiny.gguf' })).toEqual({ file: 'qwen2-tiny.gguf', host: 'docs.example', megabytes: null });
  });
});

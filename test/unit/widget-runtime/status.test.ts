/** The widget's status line as a visitor reads it, in English and Chinese. */
import { describe, expect, it } from 'vitest';
import { splitReason, statusOf, type StatusFacts } from '../../../src/widget/runtime/status.ts';

const CPU_REASON = 'WASM CPU, single thread (page is not cross-origin isolated)';
const base: StatusFacts = {
  phase: 'ready',
  lang: 'en',
  progress: null,
  threads: 1,
  backend: 'wllama',
  reason: `${CPU_REASON} (chosen in settings)`,
  webgpu: false,
  fallback: false,
  isolated: false,
  pages: 8,
  docsOffline: false,
  step: null,
  error: null,
};

describe('widget status line', () => {
  it('says the engine runs on one thread because the page is not cross-origin isolated, and how many doc pages it knows', () => {
    expect(statusOf(base)).toEqual({ phase: 'ready', text: 'WASM CPU, single thread (this page is not cross-origin isolated) · 8 doc pages', progress: null, threads: 1, error: null });
    expect(statusOf({ ...base, lang: 'zh' }).text).toBe('WASM CPU，单线程（此页面未启用跨源隔离） · 8 个文档页面');
  });

  it('names the threads on an isolated page, one page in the singular, and an offline copy of the docs', () => {
    expect(statusOf({ ...base, threads: 4, isolated: true, pages: 1 }).text).toBe('WASM CPU, 4 threads · 1 doc page');
    expect(statusOf({ ...base, docsOffline: true }).text).toBe('WASM CPU, single thread (this page is not cross-origin isolated) · 8 doc pages (offline copy)');
    expect(statusOf({ ...base, pages: null }).text).toBe('WASM CPU, single thread (this page is not cross-origin isolated)');
  });

  it('with a WebGPU model configured, names web-llm and its variant, or says why the CPU runs instead', () => {
    const gpu = { ...base, webgpu: true, backend: 'webllm', threads: 1, reason: 'WebGPU, q4f32 — no shader-f16 (software adapter) (WebGPU adapter available)' } as const;
    expect(statusOf(gpu).text).toBe('WebGPU (web-llm), q4f32 — no shader-f16 (software adapter) · 8 doc pages');
    expect(statusOf({ ...gpu, lang: 'zh' }).text).toBe('WebGPU（web-llm），q4f32 — no shader-f16 (software adapter) · 8 个文档页面');
    const fellBack = { ...base, webgpu: true, fallback: true, reason: `${CPU_REASON} (WebGPU failed to load)` };
    expect(statusOf(fellBack).text).toBe(
      'WASM CPU, single thread (this page is not cross-origin isolated) · WebGPU could not load the model, so it runs on the CPU · 8 doc pages',
    );
    expect(statusOf({ ...fellBack, lang: 'zh' }).text).toBe('WASM CPU，单线程（此页面未启用跨源隔离） · WebGPU 无法加载模型，改用 CPU 运行 · 8 个文档页面');
    const noAdapter = { ...base, webgpu: true, reason: `${CPU_REASON} (no WebGPU adapter)` };
    expect(statusOf(noAdapter).text).toBe('WASM CPU, single thread (this page is not cross-origin isolated) · WebGPU not used: no WebGPU adapter · 8 doc pages');
    expect(statusOf({ ...noAdapter, lang: 'zh' }).text).toBe('WASM CPU，单线程（此页面未启用跨源隔离） · 未使用 WebGPU：没有 WebGPU 适配器 · 8 个文档页面');
    // Without a WebGPU model the CPU line stays as it was: the choice was the site's.
    expect(statusOf({ ...noAdapter, webgpu: false }).text).toBe('WASM CPU, single thread (this page is not cross-origin isolated) · 8 doc pages');
  });

  it('says in both languages why WebGPU is not used, with the engine\'s details kept', () => {
    const cpu = { ...base, webgpu: true, backend: 'wllama', threads: 1 } as const;
    // The reasons the engine gives (select-backend.ts), as the handler appends them: no parenthesis inside.
    for (const [why, zh] of [
      ['only a software WebGPU adapter', '只有软件模拟的 WebGPU 适配器'],
      ['the WebGPU device was lost earlier in this session', '本次访问中 WebGPU 设备已丢失'],
      ['WebGPU adapter limits too small for web-llm: maxStorageBuffersPerShaderStage 8 < 10', 'WebGPU 适配器的上限不满足 web-llm 的要求: maxStorageBuffersPerShaderStage 8 < 10'],
    ] as const) {
      const facts = { ...cpu, reason: `${CPU_REASON} (${why})` };
      expect(statusOf(facts).text).toContain(`WebGPU not used: ${why}`);
      expect(statusOf({ ...facts, lang: 'zh' }).text).toContain(`未使用 WebGPU：${zh}`);
    }
  });

  it('splits the engine reason into how it runs and why it was chosen', () => {
    expect(splitReason(`${CPU_REASON} (WebGPU adapter limits too small)`)).toEqual({ how: CPU_REASON, why: 'WebGPU adapter limits too small' });
    expect(splitReason('WebGPU, q4f16 (WebGPU adapter available)')).toEqual({ how: 'WebGPU, q4f16', why: 'WebGPU adapter available' });
    expect(splitReason('no parenthesis')).toEqual({ how: 'no parenthesis', why: '' });
  });

  it('shows loading progress and errors with their code', () => {
    expect(statusOf({ ...base, phase: 'loading', progress: 0.42, step: 'model', threads: null })).toMatchObject({ text: 'Loading the model 42%', progress: 0.42 });
    expect(statusOf({ ...base, phase: 'loading', progress: 0.9, step: 'docs', lang: 'zh' }).text).toBe('正在读取文档索引 90%');
    const error = { code: 'docs_index_invalid', message: 'The docs index manifest is malformed.' };
    expect(statusOf({ ...base, phase: 'error', error })).toMatchObject({ text: 'Error (docs_index_invalid): The docs index manifest is malformed.', error, progress: null });
  });
});

import { describe, expect, it } from 'vitest';
import { describeGpu, planBackends, type GpuCapabilities } from '../../../src/engine/select-backend.ts';

const MLC = { modelId: 'm', urlF16: 'a', urlF32: 'b', libF16: 'c', libF32: 'd' };
const both = { ggufUrl: '/m.gguf', mlc: MLC };
const gpu = (over: Partial<GpuCapabilities> = {}): GpuCapabilities => ({
  adapter: true,
  shaderF16: true,
  maxStorageBufferBindingSize: 1 << 30,
  maxBufferSize: 1 << 30,
  fallbackAdapter: false,
  ...over,
});

describe('planBackends', () => {
  it('prefers web-llm with f16 weights on a capable adapter, wllama as fallback', () => {
    expect(planBackends('auto', gpu(), both)).toEqual({ order: ['webllm', 'wllama'], why: 'WebGPU adapter available' });
  });
  it('says which weights WebGPU takes and why', () => {
    expect(describeGpu(gpu({ shaderF16: false }))).toBe('WebGPU, q4f32 — no shader-f16');
    expect(describeGpu(gpu())).toBe('WebGPU, q4f16');
    expect(describeGpu(gpu({ fallbackAdapter: true }))).toBe('WebGPU, q4f16 (software adapter)');
  });
  it('uses the CPU without an adapter or with too-small limits, and says why', () => {
    expect(planBackends('auto', gpu({ adapter: false }), both)).toEqual({ order: ['wllama'], why: 'no WebGPU adapter' });
    expect(planBackends('auto', gpu({ maxStorageBufferBindingSize: 64 << 20 }), both).order).toEqual(['wllama']);
  });
  it('obeys a forced backend', () => {
    expect(planBackends('wasm', gpu(), both).order).toEqual(['wllama']);
    expect(planBackends('webgpu', gpu({ adapter: false }), both).order).toEqual(['webllm']);
  });
  it('uses what the source offers: a GGUF-only source never tries web-llm', () => {
    expect(planBackends('auto', gpu(), { ggufUrl: '/t.gguf' })).toEqual({ order: ['wllama'], why: 'the model source is a GGUF file' });
    expect(planBackends('wasm', gpu(), { mlc: MLC }).order).toEqual([]);
  });
});

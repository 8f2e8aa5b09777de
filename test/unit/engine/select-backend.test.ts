import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../../src/engine/probe-gpu.ts';
import { WEBLLM_REQUIRED_LIMITS, describeGpu, planBackends, webLlmShortfalls, type GpuCapabilities } from '../../../src/engine/select-backend.ts';
import { CAPABLE_GPU } from '../../fixtures/gpu.ts';

const MLC = { modelId: 'm', urlF16: 'a', urlF32: 'b', libF16: 'c', libF32: 'd' };
const both = { ggufUrl: '/m.gguf', mlc: MLC };
const gpu = (over: Partial<GpuCapabilities> = {}): GpuCapabilities => ({ ...CAPABLE_GPU, ...over });

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

  it('never picks a software (fallback) adapter automatically: the CPU runs, and the badge says why', () => {
    const plan = planBackends('auto', gpu({ fallbackAdapter: true }), both);
    expect(plan.order).toEqual(['wllama']);
    expect(plan.why).toMatch(/software WebGPU adapter/);
    // Forced, it is still used: the app's ?backend=webgpu (web-llm only), and the widget's backend="webgpu"
    // (softwareGpu: web-llm first, the CPU when it fails), which the SwiftShader tests use to reach web-llm.
    expect(planBackends('webgpu', gpu({ fallbackAdapter: true }), both).order).toEqual(['webllm']);
    expect(planBackends('auto', gpu({ fallbackAdapter: true }), both, { softwareGpu: true }).order).toEqual(['webllm', 'wllama']);
    // Still never below web-llm's limits, nor after a lost device.
    expect(planBackends('auto', gpu({ fallbackAdapter: true, maxBufferSize: 1 << 20 }), both, { softwareGpu: true }).order).toEqual(['wllama']);
    expect(planBackends('auto', gpu({ fallbackAdapter: true, lostThisSession: true }), both, { softwareGpu: true }).order).toEqual(['wllama']);
  });
  it('never picks WebGPU again once its device was lost in this session', () => {
    const plan = planBackends('auto', gpu({ lostThisSession: true }), both);
    expect(plan).toEqual({ order: ['wllama'], why: 'the WebGPU device was lost earlier in this session' });
  });
});

/**
 * The thresholds of web-llm 0.2.86's own `detectGPUDevice` (node_modules/@mlc-ai/web-llm/lib/index.js ~4775–4818),
 * restated here from that source, not from the constant under test: an adapter just below any of them is refused
 * before anything is downloaded; one exactly at all of them is accepted.
 */
describe("the adapter check equals web-llm's required limits", () => {
  const atMinimum = gpu({ maxBufferSize: 256 * 1024 * 1024, maxStorageBufferBindingSize: 128 * 1024 * 1024, maxComputeWorkgroupStorageSize: 32 * 1024, maxStorageBuffersPerShaderStage: 10 });
  it('accepts an adapter exactly at every minimum', () => {
    expect(webLlmShortfalls(atMinimum)).toEqual([]);
    expect(planBackends('auto', atMinimum, both).order).toEqual(['webllm', 'wllama']);
  });
  it.each([
    ['maxBufferSize', 256 * 1024 * 1024 - 1],
    ['maxStorageBufferBindingSize', 128 * 1024 * 1024 - 1],
    ['maxComputeWorkgroupStorageSize', 32 * 1024 - 1],
    ['maxStorageBuffersPerShaderStage', 8], // WebGPU's default, which web-llm rejects
  ] as const)('refuses one below on %s, and names the limit on the badge', (name, value) => {
    const short = gpu({ ...atMinimum, [name]: value });
    expect(webLlmShortfalls(short)).toHaveLength(1);
    const plan = planBackends('auto', short, both);
    expect(plan.order).toEqual(['wllama']);
    expect(plan.why).toContain(name);
  });
  it('keeps the constant and the restated thresholds the same', () => {
    expect(WEBLLM_REQUIRED_LIMITS).toEqual({ maxBufferSize: 268435456, maxStorageBufferBindingSize: 134217728, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10 });
  });
  it('reads the limits, the fallback flag and the name from an adapter', () => {
    const adapter = {
      features: { has: (name: string) => name === 'shader-f16' },
      limits: { maxStorageBufferBindingSize: 1 << 27, maxBufferSize: 1 << 28, maxComputeWorkgroupStorageSize: 1 << 14, maxStorageBuffersPerShaderStage: 8 },
      info: { isFallbackAdapter: true, vendor: 'google', architecture: 'swiftshader', description: '' },
    };
    const caps = capabilitiesOf(adapter);
    expect(caps).toMatchObject({ adapter: true, shaderF16: true, fallbackAdapter: true, description: 'google · swiftshader' });
    expect(webLlmShortfalls(caps)).toEqual(['maxComputeWorkgroupStorageSize 16 KiB < 32 KiB', 'maxStorageBuffersPerShaderStage 8 < 10']);
  });
});

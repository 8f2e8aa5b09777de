/**
 * Which backend to try, in order, and why. Pure: the capabilities are probed elsewhere
 * (`probeWebGpu`), so the decision is testable without a GPU.
 */
import type { BackendKind, BackendPreference, ModelSource } from './protocol.ts';

export interface GpuCapabilities {
  /** No adapter at all (no WebGPU, or the browser refused one). */
  adapter: boolean;
  shaderF16: boolean;
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
  maxComputeWorkgroupStorageSize: number;
  maxStorageBuffersPerShaderStage: number;
  /** A software adapter such as SwiftShader. */
  fallbackAdapter: boolean;
  /** What the adapter says it is (vendor, architecture or description), for the badge; '' when unknown. */
  description: string;
  /** WebGPU was found unusable earlier in this page session (its device was lost): auto never picks it again. */
  lostThisSession?: boolean;
}

export interface BackendPlan {
  /** Backends to try, first choice first. Empty when nothing can run. */
  order: BackendKind[];
  /** Why the first choice was made (the backend itself says how it runs), for the badge. */
  why: string;
}

/**
 * The adapter limits web-llm 0.2.86 requires before it creates a device (`detectGPUDevice`,
 * node_modules/@mlc-ai/web-llm/lib/index.js around lines 4775–4818). It asks for 1 GiB buffers and falls back to
 * these minimums; below any of them it throws after the model library was already downloaded.
 */
export const WEBLLM_REQUIRED_LIMITS = {
  maxBufferSize: 1 << 28, // 256 MiB (index.js ~4777–4790)
  maxStorageBufferBindingSize: 1 << 27, // 128 MiB (~4792–4806)
  maxComputeWorkgroupStorageSize: 32 << 10, // 32 KiB (~4807–4812)
  maxStorageBuffersPerShaderStage: 10, // (~4813–4818)
} as const;

/** Each web-llm requirement this adapter misses, in words; empty when web-llm can create its device. */
export function webLlmShortfalls(gpu: GpuCapabilities): string[] {
  if (!gpu.adapter) return ['no WebGPU adapter'];
  const short: string[] = [];
  for (const [name, need] of Object.entries(WEBLLM_REQUIRED_LIMITS) as Array<[keyof typeof WEBLLM_REQUIRED_LIMITS, number]>) {
    if (!(gpu[name] >= need)) short.push(`${name} ${formatLimit(gpu[name])} < ${formatLimit(need)}`);
  }
  return short;
}

function formatLimit(value: number): string {
  if (value >= 1 << 20) return `${Math.round(value / (1 << 20))} MiB`;
  if (value >= 1 << 10) return `${Math.round(value / (1 << 10))} KiB`;
  return String(value);
}

/** web-llm can run on this adapter (it may be a software one: see `describeGpu` and `planBackends`). */
export function gpuIsEnough(gpu: GpuCapabilities): boolean {
  return webLlmShortfalls(gpu).length === 0;
}

export function describeGpu(gpu: GpuCapabilities): string {
  if (!gpu.adapter) return 'no WebGPU adapter';
  const short = webLlmShortfalls(gpu);
  // No parentheses: the widget's status line splits the engine's reason at its last parenthesis.
  if (short.length > 0) return `WebGPU adapter limits too small for web-llm: ${short.join(', ')}`;
  const variant = gpu.shaderF16 ? 'q4f16' : 'q4f32 — no shader-f16';
  return `WebGPU, ${variant}${gpu.fallbackAdapter ? ' (software adapter)' : ''}`;
}

export interface PlanOptions {
  /** A software adapter counts as a GPU (LoadPayload.softwareGpu). */
  softwareGpu?: boolean;
}

/** Why the automatic choice does not take WebGPU on this adapter; null when it does. */
function whyNotAutoWebGpu(gpu: GpuCapabilities, options: PlanOptions): string | null {
  if (gpu.lostThisSession === true) return 'the WebGPU device was lost earlier in this session';
  if (!gpuIsEnough(gpu)) return describeGpu(gpu);
  // A software adapter (SwiftShader, WARP) runs a 0.5B model slower than wllama on the CPU, after a download of
  // the MLC weights: only a user who forces WebGPU gets it.
  if (gpu.fallbackAdapter && options.softwareGpu !== true) return 'only a software WebGPU adapter';
  return null;
}

export function planBackends(preference: BackendPreference, gpu: GpuCapabilities, source: ModelSource, options: PlanOptions = {}): BackendPlan {
  const canWebLlm = source.mlc !== undefined;
  const canWllama = source.ggufUrl !== undefined;
  if (preference === 'wasm') {
    return canWllama
      ? { order: ['wllama'], why: 'chosen in settings' }
      : { order: [], why: 'WASM CPU was chosen, but the model source has no GGUF file' };
  }
  if (preference === 'webgpu') {
    // A GPU that lost its device in this session is not tried again, even when chosen: the CPU carries on.
    if (gpu.lostThisSession === true && canWllama) return { order: ['wllama'], why: 'the WebGPU device was lost earlier in this session' };
    return canWebLlm
      ? { order: ['webllm'], why: 'chosen in settings' }
      : { order: [], why: 'WebGPU was chosen, but the model source has no MLC model' };
  }
  const notWebGpu = whyNotAutoWebGpu(gpu, options);
  if (canWebLlm && notWebGpu === null) {
    return { order: canWllama ? ['webllm', 'wllama'] : ['webllm'], why: 'WebGPU adapter available' };
  }
  if (canWllama) {
    return { order: ['wllama'], why: canWebLlm ? notWebGpu! : 'the model source is a GGUF file' };
  }
  return { order: [], why: `${notWebGpu ?? describeGpu(gpu)}, and the model source has no GGUF file for the CPU` };
}

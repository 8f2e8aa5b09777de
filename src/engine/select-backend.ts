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
  /** A software adapter such as SwiftShader. */
  fallbackAdapter: boolean;
}

export interface BackendPlan {
  /** Backends to try, first choice first. Empty when nothing can run. */
  order: BackendKind[];
  /** Why the first choice was made (the backend itself says how it runs), for the badge. */
  why: string;
}

/** web-llm's small models need 128 MiB storage-buffer bindings (its `low_resource_required`). */
export const MIN_GPU_BUFFER_BYTES = 128 * 1024 * 1024;

export function gpuIsEnough(gpu: GpuCapabilities): boolean {
  return (
    gpu.adapter &&
    gpu.maxStorageBufferBindingSize >= MIN_GPU_BUFFER_BYTES &&
    gpu.maxBufferSize >= MIN_GPU_BUFFER_BYTES
  );
}

export function describeGpu(gpu: GpuCapabilities): string {
  if (!gpu.adapter) return 'no WebGPU adapter';
  if (!gpuIsEnough(gpu)) return 'WebGPU adapter limits too small';
  const variant = gpu.shaderF16 ? 'q4f16' : 'q4f32 — no shader-f16';
  return `WebGPU, ${variant}${gpu.fallbackAdapter ? ' (software adapter)' : ''}`;
}

export function planBackends(preference: BackendPreference, gpu: GpuCapabilities, source: ModelSource): BackendPlan {
  const canWebLlm = source.mlc !== undefined;
  const canWllama = source.ggufUrl !== undefined;
  if (preference === 'wasm') {
    return canWllama
      ? { order: ['wllama'], why: 'chosen in settings' }
      : { order: [], why: 'WASM CPU was chosen, but the model source has no GGUF file' };
  }
  if (preference === 'webgpu') {
    return canWebLlm
      ? { order: ['webllm'], why: 'chosen in settings' }
      : { order: [], why: 'WebGPU was chosen, but the model source has no MLC model' };
  }
  if (canWebLlm && gpuIsEnough(gpu)) {
    return { order: canWllama ? ['webllm', 'wllama'] : ['webllm'], why: 'WebGPU adapter available' };
  }
  if (canWllama) {
    return { order: ['wllama'], why: canWebLlm ? describeGpu(gpu) : 'the model source is a GGUF file' };
  }
  return { order: [], why: `${describeGpu(gpu)}, and the model source has no GGUF file for the CPU` };
}

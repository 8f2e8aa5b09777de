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
  /** Why the first choice was made, for the badge. */
  reason: string;
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
      ? { order: ['wllama'], reason: 'WASM CPU — chosen in settings' }
      : { order: [], reason: 'WASM CPU was chosen, but the model source has no GGUF file' };
  }
  if (preference === 'webgpu') {
    if (!canWebLlm) return { order: [], reason: 'WebGPU was chosen, but the model source has no MLC model' };
    return { order: ['webllm'], reason: `${describeGpu(gpu)} — chosen in settings` };
  }
  if (canWebLlm && gpuIsEnough(gpu)) {
    return { order: canWllama ? ['webllm', 'wllama'] : ['webllm'], reason: describeGpu(gpu) };
  }
  if (canWllama) {
    const why = canWebLlm ? describeGpu(gpu) : 'the model source is a GGUF file';
    return { order: ['wllama'], reason: `WASM CPU — ${why}` };
  }
  return { order: [], reason: `${describeGpu(gpu)}, and the model source has no GGUF file for the CPU` };
}

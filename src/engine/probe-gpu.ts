/** Reads what the WebGPU adapter offers, in the worker (navigator.gpu exists in workers too). */
import type { GpuCapabilities } from './select-backend.ts';

const NO_GPU: GpuCapabilities = {
  adapter: false,
  shaderF16: false,
  maxStorageBufferBindingSize: 0,
  maxBufferSize: 0,
  fallbackAdapter: false,
};

interface MinimalAdapter {
  features: { has(name: string): boolean };
  limits: { maxStorageBufferBindingSize: number; maxBufferSize: number };
  info?: { isFallbackAdapter?: boolean };
}

export async function probeWebGpu(): Promise<GpuCapabilities> {
  const gpu = (globalThis.navigator as { gpu?: { requestAdapter(o?: object): Promise<MinimalAdapter | null> } } | undefined)?.gpu;
  if (gpu === undefined) return NO_GPU;
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (adapter === null) return NO_GPU;
    return {
      adapter: true,
      shaderF16: adapter.features.has('shader-f16'),
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxBufferSize: adapter.limits.maxBufferSize,
      fallbackAdapter: adapter.info?.isFallbackAdapter === true,
    };
  } catch {
    return NO_GPU;
  }
}

/** Reads what the WebGPU adapter offers, in the worker (navigator.gpu exists in workers too). */
import type { GpuCapabilities } from './select-backend.ts';

export const NO_GPU: GpuCapabilities = {
  adapter: false,
  shaderF16: false,
  maxStorageBufferBindingSize: 0,
  maxBufferSize: 0,
  maxComputeWorkgroupStorageSize: 0,
  maxStorageBuffersPerShaderStage: 0,
  fallbackAdapter: false,
  description: '',
};

interface MinimalAdapter {
  features: { has(name: string): boolean };
  limits: {
    maxStorageBufferBindingSize: number;
    maxBufferSize: number;
    maxComputeWorkgroupStorageSize: number;
    maxStorageBuffersPerShaderStage: number;
  };
  info?: { isFallbackAdapter?: boolean; vendor?: string; architecture?: string; description?: string };
  /** Chromium before `info` was a property. */
  isFallbackAdapter?: boolean;
}

/** The adapter web-llm itself would get: it asks for `powerPreference: 'high-performance'` (index.js ~4764). */
export async function probeWebGpu(): Promise<GpuCapabilities> {
  const gpu = (globalThis.navigator as { gpu?: { requestAdapter(o?: object): Promise<MinimalAdapter | null> } } | undefined)?.gpu;
  if (gpu === undefined) return NO_GPU;
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (adapter === null) return NO_GPU;
    return capabilitiesOf(adapter);
  } catch {
    return NO_GPU;
  }
}

export function capabilitiesOf(adapter: MinimalAdapter): GpuCapabilities {
  const info = adapter.info ?? {};
  return {
    adapter: true,
    shaderF16: adapter.features.has('shader-f16'),
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
    maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize,
    maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
    fallbackAdapter: info.isFallbackAdapter === true || adapter.isFallbackAdapter === true,
    description: [info.vendor, info.architecture, info.description].filter((part) => part !== undefined && part !== '').join(' · '),
  };
}

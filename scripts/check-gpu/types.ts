/**
 * What the check:gpu page (page.ts, in Chromium) reports to the Node side (check-gpu.ts). Plain data: it crosses
 * Playwright's `jsonValue()`.
 */
import type { BackendKind, ChatResult, LoadResult } from '../../src/engine/protocol.ts';
import type { GpuCapabilities } from '../../src/engine/select-backend.ts';

/** The query the Node side opens the page with. */
export interface PageParams {
  /** `adapter`: only the WebGPU adapter section (used to choose Chromium flags); `all`: every section. */
  steps: 'adapter' | 'all';
  ggufUrl: string;
  /** Base URL of the folder holding the MLC model folders, and of web-llm's model libraries. */
  mlcBase: string;
  mlcLibBase: string;
  turns: number;
  maxTokens: number;
  contextWindow: number;
  /** Each engine load and each chat turn is cancelled after this long. */
  stepTimeoutMs: number;
}

export interface AdapterSection {
  /** `navigator.gpu` exists (WebGPU is exposed at all). */
  navigatorGpu: boolean;
  /** `requestAdapter({ powerPreference: 'high-performance' })`; null when it returned null or threw. */
  adapter: {
    vendor: string;
    architecture: string;
    device: string;
    description: string;
    isFallbackAdapter: boolean;
    features: string[];
    limits: Record<string, number>;
  } | null;
  /** What requestAdapter threw, if it threw. */
  adapterError?: string;
  /** `probeWebGpu()` (src/engine/probe-gpu.ts): what the app's worker sees. */
  capabilities: GpuCapabilities;
  /** `webLlmShortfalls()`: empty when web-llm 0.2.86 can create its device. */
  shortfalls: string[];
  /** `describeGpu()`. */
  describe: string;
  /** `planBackends('auto', …)` with both a GGUF and an MLC source: what the app would pick by itself. */
  autoPlan: { order: BackendKind[]; why: string };
  /** `requestDevice()` with web-llm's minimum limits (and shader-f16 when offered); null without an adapter. */
  device: { ok: boolean; ms: number; error?: string } | null;
}

export type TurnReport =
  | ({ ok: true; turn: number; reply: string } & ChatResult)
  | { ok: false; turn: number; code: string; message: string; ms: number };

export interface EngineSection {
  engine: BackendKind;
  /** The backend preference the load asked for. */
  requested: 'wasm' | 'webgpu';
  /** The GGUF URL, or the MLC base and library base. */
  source: string;
  load:
    | { ok: true; ms: number; result: LoadResult; progressEvents: number; lastProgress: string }
    | { ok: false; ms: number; code: string; message: string; progressEvents: number; lastProgress: string };
  turns: TurnReport[];
}

export interface PageReport {
  userAgent: string;
  hardwareConcurrency: number;
  crossOriginIsolated: boolean;
  adapter?: AdapterSection;
  wllama?: EngineSection;
  webllm?: EngineSection;
}

/** `window.__checkGpu`, polled by the Node side: partial results as they come, so a timeout still reports. */
export interface PageState {
  done: boolean;
  stage: string;
  report: PageReport;
  /** The page itself failed (not an engine: those are reported in their sections). */
  error?: string;
}

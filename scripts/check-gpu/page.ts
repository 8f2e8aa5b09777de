/**
 * Runs in Chromium for `npm run check:gpu` (scripts/check-gpu/check-gpu.ts opens it): the WebGPU adapter and its
 * limits, then the real engine worker on wllama (a GGUF) and on web-llm forced to WebGPU (an MLC folder), timed.
 * Results go to `window.__checkGpu` as they come, so the Node side can report a run it had to cut short.
 */
import { EngineClient, createEngineWorker } from '../../src/engine/client.ts';
import { mlcSourceAt } from '../../src/engine/model-sources.ts';
import { capabilitiesOf, probeWebGpu } from '../../src/engine/probe-gpu.ts';
import type { ChatMessage, LoadPayload, LoadResult } from '../../src/engine/protocol.ts';
import { WEBLLM_REQUIRED_LIMITS, describeGpu, planBackends, webLlmShortfalls } from '../../src/engine/select-backend.ts';
import { toAssistantError } from '../../src/shared/errors.ts';
import type { AdapterSection, EngineSection, PageParams, PageState, TurnReport } from './types.ts';

interface WebGpuAdapter {
  features: Iterable<string> & { has(name: string): boolean };
  limits: Record<string, number> & {
    maxStorageBufferBindingSize: number;
    maxBufferSize: number;
    maxComputeWorkgroupStorageSize: number;
    maxStorageBuffersPerShaderStage: number;
  };
  info?: { vendor?: string; architecture?: string; device?: string; description?: string; isFallbackAdapter?: boolean };
  isFallbackAdapter?: boolean;
  requestDevice(descriptor?: { requiredFeatures?: string[]; requiredLimits?: Record<string, number> }): Promise<{ destroy(): void }>;
}
type WebGpu = { requestAdapter(options?: { powerPreference?: string }): Promise<WebGpuAdapter | null> };

const query = new URLSearchParams(location.search);
const params: PageParams = {
  steps: query.get('steps') === 'adapter' ? 'adapter' : 'all',
  ggufUrl: query.get('gguf') ?? '/models/test/qwen2-tiny-loop.gguf',
  mlcBase: query.get('mlc') ?? '/models/check-gpu-no-weights',
  mlcLibBase: query.get('mlcLibs') ?? '/models/check-gpu-no-weights/libs',
  turns: Number(query.get('turns') ?? 3),
  maxTokens: Number(query.get('maxTokens') ?? 64),
  contextWindow: Number(query.get('context') ?? 2048),
  stepTimeoutMs: Number(query.get('stepTimeoutMs') ?? 240_000),
};

const state: PageState = {
  done: false,
  stage: 'starting',
  report: {
    userAgent: navigator.userAgent,
    hardwareConcurrency: navigator.hardwareConcurrency,
    crossOriginIsolated: globalThis.crossOriginIsolated,
  },
};
(window as unknown as { __checkGpu: PageState }).__checkGpu = state;
const logElement = document.querySelector('#log')!;

function stage(text: string): void {
  state.stage = text;
  logElement.textContent += `\n${text}`;
}

const message = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** The three user turns of the timed conversation; each request carries the whole conversation so far. */
const USER_TURNS = [
  'Write two sentences about the sea.',
  'Now say the same in one short sentence.',
  'Give the sentence a title of three words.',
  'Add one more sentence about boats.',
  'Summarise everything in five words.',
];

async function adapterSection(): Promise<AdapterSection> {
  const gpu = (navigator as unknown as { gpu?: WebGpu }).gpu;
  const capabilities = await probeWebGpu();
  const source = { ggufUrl: params.ggufUrl, mlc: mlcSourceAt(params.mlcBase, params.mlcLibBase) };
  const section: AdapterSection = {
    navigatorGpu: gpu !== undefined,
    adapter: null,
    capabilities,
    shortfalls: webLlmShortfalls(capabilities),
    describe: describeGpu(capabilities),
    autoPlan: planBackends('auto', capabilities, source),
    device: null,
  };
  if (gpu === undefined) return section;
  let adapter: WebGpuAdapter | null = null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (error) {
    section.adapterError = message(error);
  }
  if (adapter === null) return section;
  const info = adapter.info ?? {};
  const limits: Record<string, number> = {};
  // GPUSupportedLimits keeps its values as prototype getters: copy them one by one.
  for (const key in adapter.limits) {
    const value = adapter.limits[key];
    if (typeof value === 'number') limits[key] = value;
  }
  section.adapter = {
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    device: info.device ?? '',
    description: info.description ?? '',
    isFallbackAdapter: capabilitiesOf(adapter).fallbackAdapter,
    features: [...adapter.features].sort(),
    limits,
  };
  // A device with the limits web-llm insists on: an adapter can offer them and still fail to create it.
  const started = performance.now();
  try {
    const requiredLimits: Record<string, number> = { ...WEBLLM_REQUIRED_LIMITS };
    for (const [name, need] of Object.entries(WEBLLM_REQUIRED_LIMITS)) requiredLimits[name] = Math.min(need, adapter.limits[name] ?? need);
    const device = await adapter.requestDevice({
      requiredFeatures: adapter.features.has('shader-f16') ? ['shader-f16'] : [],
      requiredLimits,
    });
    section.device = { ok: true, ms: performance.now() - started };
    device.destroy();
  } catch (error) {
    section.device = { ok: false, ms: performance.now() - started, error: message(error) };
  }
  return section;
}

/** Loads through the real engine worker, then times a short conversation, each turn extending the last. */
async function engineSection(engine: EngineSection['engine'], payload: LoadPayload, source: string): Promise<EngineSection> {
  const requested = payload.backend === 'wasm' ? 'wasm' : 'webgpu';
  const section: EngineSection = {
    engine,
    requested,
    source,
    load: { ok: false, ms: 0, code: 'internal', message: 'not started', progressEvents: 0, lastProgress: '' },
    turns: [],
  };
  const client = new EngineClient({ createWorker: createEngineWorker });
  let progressEvents = 0;
  let lastProgress = '';
  const started = performance.now();
  let loaded: LoadResult;
  try {
    loaded = await client.load(payload, {
      signal: AbortSignal.timeout(params.stepTimeoutMs),
      onProgress: (p) => {
        progressEvents++;
        lastProgress = p.text;
      },
    });
  } catch (error) {
    const coded = toAssistantError(error, 'load_failed');
    const timedOut = coded.code === 'aborted';
    section.load = {
      ok: false,
      ms: performance.now() - started,
      code: timedOut ? 'timeout' : coded.code,
      message: timedOut ? `no answer within ${params.stepTimeoutMs / 1000} s (--step-timeout); the load was cancelled` : coded.message,
      progressEvents,
      lastProgress,
    };
    client.terminate();
    return section;
  }
  section.load = { ok: true, ms: performance.now() - started, result: loaded, progressEvents, lastProgress };
  const messages: ChatMessage[] = [{ role: 'system', content: 'You are a helpful assistant.' }];
  for (let turn = 1; turn <= params.turns; turn++) {
    messages.push({ role: 'user', content: USER_TURNS[(turn - 1) % USER_TURNS.length]! });
    stage(`${engine}: turn ${turn} of ${params.turns}`);
    const turnStarted = performance.now();
    let reply = '';
    let report: TurnReport | undefined;
    try {
      for await (const event of client.chat(messages, { maxTokens: params.maxTokens, temperature: 0, signal: AbortSignal.timeout(params.stepTimeoutMs) })) {
        if (event.type === 'delta') reply += event.text;
        else report = { ok: true, turn, reply, ...event.result };
      }
      if (report === undefined) throw new Error('the stream ended without a final record');
    } catch (error) {
      const coded = toAssistantError(error, 'inference_failed');
      const timedOut = coded.code === 'aborted';
      report = {
        ok: false,
        turn,
        code: timedOut ? 'timeout' : coded.code,
        message: timedOut ? `no answer within ${params.stepTimeoutMs / 1000} s (--step-timeout)` : coded.message,
        ms: performance.now() - turnStarted,
      };
    }
    section.turns.push(report);
    if (!report.ok) break;
    messages.push({ role: 'assistant', content: reply });
  }
  await client.unload().catch(() => {});
  client.terminate();
  return section;
}

async function main(): Promise<void> {
  stage('WebGPU adapter');
  state.report.adapter = await adapterSection();
  if (params.steps === 'adapter') return;

  stage('wllama: loading');
  state.report.wllama = await engineSection(
    'wllama',
    { backend: 'wasm', source: { ggufUrl: params.ggufUrl }, contextWindow: params.contextWindow },
    params.ggufUrl,
  );

  stage('web-llm: loading');
  state.report.webllm = await engineSection(
    'webllm',
    { backend: 'webgpu', source: { mlc: mlcSourceAt(params.mlcBase, params.mlcLibBase) }, contextWindow: params.contextWindow },
    `${params.mlcBase} (libraries: ${params.mlcLibBase})`,
  );
}

main().then(
  () => {
    stage('done');
    state.done = true;
  },
  (error: unknown) => {
    state.error = error instanceof Error ? (error.stack ?? message(error)) : String(error);
    state.done = true;
  },
);

/**
 * The steps of starting the assistant, each timed, so the model panel and `bench:start` can say where a start
 * went. Times cross the worker boundary as wall-clock milliseconds (`performance.timeOrigin + performance.now()`)
 * and are shown relative to the page's own navigation start. Each thread reads the wall clock once, when it starts,
 * for its `timeOrigin`, so a worker started after the system clock was set (an NTP step) is off the page by that
 * much: `alignEngineSteps` takes such an offset out.
 */

/** Engine steps, timed in the engine worker (or the thread that loads the engine). */
export type EngineStepName =
  /** From the page asking for a load to the engine worker taking the request: its script fetched and run. */
  | 'worker'
  /** The engine's own code (wllama's or web-llm's module) imported. */
  | 'engine-code'
  /** Asking the browser for a WebGPU adapter (decides the backend). */
  | 'gpu-probe'
  /** Finding the weights in the engine's cache and opening them (or downloading them). */
  | 'weights-open'
  /** The engine's wasm: its worker started, the module compiled (or taken from the browser's code cache), threads. */
  | 'wasm'
  /** llama.cpp reads the weights into its memory and builds the model and its context (`readMs`: the reading). */
  | 'model-load';

/** Page steps, timed on the page. */
export type PageStepName =
  /** Which weights are on the device (the app asks before downloading anything else). */
  | 'model-check'
  /** The service worker, which serves the engine's files from its cache. */
  | 'service-worker'
  /** The exact Qwen tokenizer (4 MB of vocabulary). */
  | 'tokenizer'
  /** The memory pipeline's code. */
  | 'memory-code'
  /** The app's IndexedDB store opened (for the memory). */
  | 'memory-open'
  /** The retrieval index restored from its saved snapshot (or built from the store). */
  | 'index-restore'
  /** The docs widget: its docs index read (from the site or this device) and searchable. */
  | 'docs-index';

export type StartStepName = EngineStepName | PageStepName;

/** One timed step: wall-clock ms at its start and end. */
export interface TimedStep<N extends StartStepName = StartStepName> {
  name: N;
  start: number;
  end: number;
  /** `model-load`: bytes of weights read and the ms spent waiting for those reads. */
  readBytes?: number;
  readMs?: number;
}

export type EngineStep = TimedStep<EngineStepName>;

/** A step as shown: ms since the page's navigation start. */
export interface StartStep {
  name: StartStepName;
  startMs: number;
  endMs: number;
  readBytes?: number;
  readMs?: number;
}

/**
 * Whether a load's progress says the engine is now reading its weights into memory (wllama's `model-load`; web-llm,
 * which names no steps, once its files are fetched): the last and longest step, the moment for the page's own loads
 * (tokenizer, memory) to start beside it without slowing the engine's start.
 */
export function readingWeights(progress: { phase: string; step?: EngineStepName }): boolean {
  return progress.step === 'model-load' || (progress.step === undefined && progress.phase === 'init');
}

/** Wall-clock ms with sub-ms precision, comparable across the page and its workers. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

/** What the page knows of one load's round trip, for `alignEngineSteps`. */
export interface LoadRoundTrip {
  /** Page clock: when the page asked for the load (the `worker` step's start). */
  requestedAt?: number;
  /** Worker clock: when the worker made its result. */
  sentAt?: number;
  /** Page clock: when the page received that result. */
  receivedAt: number;
}

/**
 * The engine's steps on the page's clock. The worker's clock may differ from the page's by a wall-clock step taken
 * between their starts (14 s once, in CI: the memory seemed to load before the engine read its weights). Causality
 * bounds the difference: the worker took the request (the `worker` step's end) after the page sent it, and made its
 * result before the page received it. Clocks within those bounds are taken to agree, the usual case, left exact;
 * outside them the nearest bound is taken, off by no more than a message's latency.
 */
export function alignEngineSteps(steps: readonly EngineStep[], trip: LoadRoundTrip): EngineStep[] {
  if (trip.sentAt === undefined) return [...steps];
  const took = steps.find((s) => s.name === 'worker');
  const earliest = trip.sentAt - trip.receivedAt;
  const latest = took !== undefined && trip.requestedAt !== undefined ? took.end - trip.requestedAt : Number.POSITIVE_INFINITY;
  const offset = Math.max(earliest, Math.min(0, latest));
  if (offset === 0) return [...steps];
  // The `worker` step starts on the page's clock (the request); every other time is the worker's.
  return steps.map((step) => ({ ...step, start: step.name === 'worker' ? step.start : step.start - offset, end: step.end - offset }));
}

/** A wall-clock step as this page shows it (ms since its navigation start), rounded to 0.1 ms. */
export function pageStep(step: TimedStep): StartStep {
  const at = (wall: number): number => Math.round((wall - performance.timeOrigin) * 10) / 10;
  const { name, start, end, ...detail } = step;
  return { name, startMs: at(start), endMs: at(end), ...detail };
}

/** Times `run` as the step `name` and records it in `steps`, also when it throws. */
export async function timed<N extends StartStepName, T>(steps: TimedStep<N>[], name: N, run: () => Promise<T>): Promise<T> {
  const start = wallNow();
  try {
    return await run();
  } finally {
    steps.push({ name, start, end: wallNow() });
  }
}

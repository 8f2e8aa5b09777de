import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_GPU } from '../../../src/engine/probe-gpu.ts';
import { EngineClient, HEARTBEAT_INTERVAL_MS, HEARTBEAT_TIMEOUT_MS, LOAD_STALL_MS } from '../../../src/engine/client.ts';
import { EngineHandler } from '../../../src/engine/handler.ts';
import type { ClientMessage, LoadResult, WorkerMessage } from '../../../src/engine/protocol.ts';
import { alignEngineSteps, wallNow } from '../../../src/engine/start-steps.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import { ScriptedBackend, type Script } from './scripted-backend.ts';

/** Runs the real handler in-process behind the Worker interface, with structured cloning as postMessage does. */
class InProcessWorker extends EventTarget {
  terminated = false;
  /** Simulates a hang: the worker stops answering anything. */
  frozen = false;
  /** Simulates a thread busy until then (Date.now()): messages both ways wait, as they queue behind a long task. */
  busyUntil = 0;
  /**
   * Simulates a worker started after the system clock was set forward (or back) by this many ms: its
   * `timeOrigin`, so every wall-clock time it reports, is off the page's by that much.
   */
  clockAheadMs = 0;
  private readonly _handler: EngineHandler;
  constructor(script: Script) {
    super();
    this._handler = new EngineHandler({
      createBackend: async (kind) => new ScriptedBackend(kind, script),
      probeGpu: async () => NO_GPU,
      post: (message: WorkerMessage) => {
        if (this.terminated || this.frozen) return;
        const data = this._onWorkerClock(structuredClone(message));
        setTimeout(() => this.dispatchEvent(new MessageEvent('message', { data })), Math.max(0, this.busyUntil - Date.now()));
      },
    });
  }
  postMessage(message: ClientMessage): void {
    if (this.terminated || this.frozen) return;
    const data = structuredClone(message);
    setTimeout(() => this._handler.handle(data), Math.max(0, this.busyUntil - Date.now()));
  }
  terminate(): void {
    this.terminated = true;
  }
  private _onWorkerClock(message: WorkerMessage): WorkerMessage {
    if (this.clockAheadMs === 0 || message.type !== 'result' || message.method !== 'load') return message;
    const result = message.result as LoadResult;
    const ahead = (t: number) => t + this.clockAheadMs;
    // The `worker` step starts at the page's own `requestedAt`; every other time was read on the worker's clock.
    const steps = result.steps.map((s) => ({ ...s, start: s.name === 'worker' ? s.start : ahead(s.start), end: ahead(s.end) }));
    return { ...message, result: { ...result, steps, sentAt: ahead(result.sentAt!) } };
  }
}

/** A client over in-process workers running the real handler; `heartbeatTimeoutMs` null keeps the shipped heartbeat. */
function makeClient(script: Script = {}, heartbeatTimeoutMs: number | null = 10_000) {
  const workers: InProcessWorker[] = [];
  const client = new EngineClient({
    createWorker: () => {
      const w = new InProcessWorker(script);
      workers.push(w);
      return w as unknown as Worker;
    },
    ...(heartbeatTimeoutMs === null ? {} : { heartbeatTimeoutMs, heartbeatIntervalMs: 10 }),
  });
  return { client, workers };
}

const LOAD = { backend: 'wasm' as const, source: { ggufUrl: '/m.gguf' }, contextWindow: 1024 };

async function collect(stream: AsyncIterable<{ type: string; text?: string }>) {
  const texts: string[] = [];
  for await (const e of stream) if (e.type === 'delta') texts.push(e.text!);
  return texts;
}

describe('EngineClient', () => {
  it('streams deltas then a final record', async () => {
    const { client } = makeClient({ deltas: ['a', 'b'] });
    const progress: number[] = [];
    await client.load(LOAD, { onProgress: (p) => progress.push(p.fraction) });
    expect(progress).toContain(0.5);
    const events = [];
    for await (const e of client.chat([{ role: 'user', content: 'hi' }])) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['delta', 'delta', 'final']);
    expect(events.at(-1)).toMatchObject({ type: 'final', result: { cachedTokens: 4 } });
  });

  it('rebuilds worker errors as AssistantError with their code', async () => {
    const { client } = makeClient({ chatError: new AssistantError('context_overflow', 'too long') });
    await client.load(LOAD);
    const error = await collect(client.chat([{ role: 'user', content: 'x' }])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssistantError);
    expect(error).toMatchObject({ code: 'context_overflow', message: 'too long' });
  });

  it('an abort settles the stream at once with an AbortError and the next request works', async () => {
    const { client } = makeClient({ deltas: Array.from({ length: 50 }, (_, i) => `${i} `), delayMs: 5 });
    await client.load(LOAD);
    const abort = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const e of client.chat([{ role: 'user', content: 'x' }], { signal: abort.signal })) {
        if (e.type === 'delta') seen.push(e.text);
        if (seen.length === 3) abort.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError', code: 'aborted' });
    expect(seen).toHaveLength(3);
    expect((await collect(client.chat([{ role: 'user', content: 'y' }]))).length).toBe(50);
  });

  it('rejects every pending request with worker_crashed when the worker errors, then starts a new worker', async () => {
    const { client, workers } = makeClient({ deltas: ['a', 'b', 'c'], delayMs: 20 });
    await client.load(LOAD);
    const crashes: string[] = [];
    client.onCrash = (e) => crashes.push(e.code);
    const pending = collect(client.chat([{ role: 'user', content: 'x' }])).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 5));
    workers[0]!.dispatchEvent(new Event('error'));
    expect(await pending).toMatchObject({ code: 'worker_crashed' });
    expect(crashes).toEqual(['worker_crashed']);
    expect(workers[0]!.terminated).toBe(true);
    await client.load(LOAD);
    expect(workers).toHaveLength(2);
  });

  it('puts a load\'s steps on the page\'s clock when the worker\'s clock was set 14 s off the page\'s, either way', async () => {
    for (const clockAheadMs of [14_000, -14_000]) {
      const { client, workers } = makeClient({}, null);
      const requestedAt = wallNow();
      const loading = client.load({ ...LOAD, requestedAt });
      workers[0]!.clockAheadMs = clockAheadMs;
      const { steps } = await loading;
      const returnedAt = wallNow();
      expect(steps.map((s) => s.name)).toEqual(['worker', 'engine-code', 'model-load']);
      // Every step between the request and the result, in order, as the memory's own steps are timed beside them.
      expect(steps[0]!.start).toBe(requestedAt);
      for (const [i, step] of steps.entries()) {
        expect(step.end, step.name).toBeGreaterThanOrEqual(step.start);
        expect(step.end, step.name).toBeLessThanOrEqual(returnedAt);
        // (The scripted backend's model-load began 5 ms before it ended, whatever ran before it.)
        if (i > 0 && step.name !== 'model-load') expect(step.start, step.name).toBeGreaterThanOrEqual(steps[i - 1]!.end - 0.001);
        if (i > 0) expect(step.end, step.name).toBeGreaterThanOrEqual(steps[i - 1]!.end - 0.001);
      }
      client.terminate('done');
    }
  });

  it('declares a silent worker dead through the heartbeat, so nothing waits forever', async () => {
    const { client, workers } = makeClient({ deltas: ['a'], delayMs: 1_000 }, 100);
    await client.load(LOAD);
    const pending = collect(client.chat([{ role: 'user', content: 'x' }])).catch((e: unknown) => e);
    workers[0]!.frozen = true;
    const started = Date.now();
    expect(await pending).toMatchObject({ code: 'worker_crashed' });
    expect(Date.now() - started).toBeLessThan(900);
  });
});

/** A client with the default heartbeat and stall limit, over the real handler; time is fake, so a minute costs nothing. */
function defaultClient(script: Script) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
  const { client, workers } = makeClient(script, null);
  const crashes: string[] = [];
  client.onCrash = (e) => crashes.push(e.code);
  return { client, workers, crashes };
}

describe('EngineClient liveness with the shipped heartbeat (fake time)', () => {
  afterEach(() => vi.useRealTimers());

  async function loaded(client: EngineClient): Promise<void> {
    const load = client.load(LOAD);
    await vi.advanceTimersByTimeAsync(10);
    await load;
  }

  it('a 60 s prefill with no output is not a crash: the worker answers pings meanwhile, and the reply arrives', async () => {
    const { client, crashes } = defaultClient({ deltas: ['after a minute'], delayMs: 60_000 });
    await loaded(client);
    const reply = collect(client.chat([{ role: 'user', content: 'a long prompt' }]));
    await vi.advanceTimersByTimeAsync(60_100);
    expect(await reply).toEqual(['after a minute']);
    expect(crashes).toEqual([]);
  });

  it('a load may keep the worker\'s own thread busy for 10 s (an engine module evaluated, wasm compiled) without a false alarm', async () => {
    const { client, workers, crashes } = defaultClient({});
    const load = client.load(LOAD);
    workers[0]!.busyUntil = Date.now() + 10_000;
    await vi.advanceTimersByTimeAsync(10_100);
    await expect(load).resolves.toMatchObject({ backend: 'wllama' });
    expect(crashes).toEqual([]);
  });

  it('a worker that goes silent (closed, killed or stuck) is declared dead within 5 s, and the next request starts a new one', async () => {
    const { client, workers, crashes } = defaultClient({ deltas: ['a', 'b'], delayMs: 60_000 });
    await loaded(client);
    const reply = collect(client.chat([{ role: 'user', content: 'x' }])).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_000);
    workers[0]!.frozen = true;
    const silentAt = Date.now();
    let failedAt = 0;
    void reply.then(() => (failedAt = Date.now()));
    await vi.advanceTimersByTimeAsync(6_000);
    expect(await reply).toMatchObject({ code: 'worker_crashed' });
    expect(crashes).toEqual(['worker_crashed']);
    expect(failedAt - silentAt).toBeGreaterThanOrEqual(HEARTBEAT_TIMEOUT_MS - HEARTBEAT_INTERVAL_MS);
    expect(failedAt - silentAt).toBeLessThanOrEqual(5_000);
    await loaded(client);
    expect(workers).toHaveLength(2);
  });
});


describe('EngineClient and a model load that stops making progress (fake time)', () => {
  afterEach(() => vi.useRealTimers());

  it('a load that reports every 20 s for two minutes is slow, not stalled: it finishes', async () => {
    const { client, crashes } = defaultClient({ loadSteps: 6, loadStepMs: 20_000 });
    const load = client.load(LOAD);
    await vi.advanceTimersByTimeAsync(121_000);
    await expect(load).resolves.toMatchObject({ backend: 'wllama' });
    expect(crashes).toEqual([]);
  });

  it('a load whose worker answers pings but reports nothing more fails with load_stalled after 30 s, and the next load starts a new worker', async () => {
    const { client, workers, crashes } = defaultClient({ loadSteps: Infinity, loadStepMs: 1e9 });
    const load = client.load(LOAD).catch((e: unknown) => e);
    let failedAt = 0;
    void load.then(() => (failedAt = Date.now()));
    const startedAt = Date.now();
    await vi.advanceTimersByTimeAsync(LOAD_STALL_MS - 2_000);
    expect(failedAt).toBe(0);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(await load).toMatchObject({ code: 'load_stalled' });
    expect(failedAt - startedAt).toBeGreaterThanOrEqual(LOAD_STALL_MS);
    expect(workers[0]!.terminated).toBe(true);
    // Not a crash: the controller decides what to do (start it again once), and the page is not told the engine died.
    expect(crashes).toEqual([]);
    const again = client.load(LOAD).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    expect(workers).toHaveLength(2);
    void again;
  });
});

describe('alignEngineSteps', () => {
  const steps = [
    { name: 'worker' as const, start: 1_000, end: 1_120 },
    { name: 'engine-code' as const, start: 1_120, end: 1_300 },
    { name: 'model-load' as const, start: 1_300, end: 2_000, readBytes: 10, readMs: 3 },
  ];

  it('leaves the times exact when the two clocks agree, even over a slow message', () => {
    expect(alignEngineSteps(steps, { requestedAt: 1_000, sentAt: 2_001, receivedAt: 2_250 })).toEqual(steps);
  });

  it('takes out the offset of a worker clock set ahead, to within the message latency, and keeps the step details', () => {
    const ahead = steps.map((s) => ({ ...s, start: s.name === 'worker' ? s.start : s.start + 14_000, end: s.end + 14_000 }));
    const aligned = alignEngineSteps(ahead, { requestedAt: 1_000, sentAt: 16_001, receivedAt: 2_003 });
    expect(aligned.map((s) => [s.start, s.end])).toEqual([
      [1_000, 1_122],
      [1_122, 1_302],
      [1_302, 2_002],
    ]);
    expect(aligned[2]).toMatchObject({ readBytes: 10, readMs: 3 });
  });
});

/**
 * A real web-llm load (the real engine worker, forced to WebGPU, on this browser's SwiftShader adapter) of a
 * synthetic self-hosted MLC folder (mlc-layout-fixture.ts, served inside the worker by mlc-layout-intercept.ts): the
 * files it asks for, in order, are the list src/engine/mlc-layout.ts derives from web-llm's source, up to where the
 * load stops, and the stop is a coded AssistantError, not a hang.
 *
 * Where it stops: web-llm fetches the model library before the tokenizer and the weights (`reloadInternal`,
 * node_modules/@mlc-ai/web-llm/lib/index.js:18239 config, 18266 library, 18271 `instantiate`, 18312 tokenizer, 18313
 * tensor cache). A model library is a TVM build with its runtime (`FFILibrary` needs the module's memory and the
 * `TVMWasmAllocSpace`/`TVMWasmFreeSpace` exports, 7090–7153, then the whole TVM FFI), which only MLC's compiler makes
 * and no test can ship. The stand-in (the smallest valid WebAssembly module) compiles and instantiates
 * (`WebAssembly.instantiate`, 9254), then `new Instance` starts it (7782 → `Environment.start`, 4522–4526 → the
 * Emscripten glue of `createPolyfillWASI`, 7026/7064: `receiveInstance` takes `exports.memory`, which it lacks, and
 * reads its `.buffer`): "Cannot read properties of undefined (reading 'buffer')". The load stops after the library,
 * before `detectGPUDevice` (18276), so the tokenizer, `tensor-cache.json` and the shards are never asked for here;
 * test/unit/mlc-layout.test.ts holds that part of the order against web-llm's source, and
 * test/unit/fetch-model.test.ts the files on disk.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pickMlcVariant } from '../../../src/engine/backends/webllm.ts';
import type { EngineClient } from '../../../src/engine/client.ts';
import { mlcLoadUrls, parseTensorCache } from '../../../src/engine/mlc-layout.ts';
import { mlcSourceAt } from '../../../src/engine/model-sources.ts';
import { probeWebGpu } from '../../../src/engine/probe-gpu.ts';
import type { GpuCapabilities } from '../../../src/engine/select-backend.ts';
import { TINY_MODEL_URL, clientWithWorkers } from '../helpers.ts';
import { CONFIG, FIXTURE_ORIGIN, REQUEST_CHANNEL, TENSOR_CACHE_INDEX, type ServedRequest } from './mlc-layout-fixture.ts';

/** The tests' timeout: a whole load, worker start included, takes 2–9 s here on a shared 2-core machine. */
const LOAD_BOUND_MS = 30_000;

const createLayoutWorker = (): Worker => new Worker(new URL('./mlc-layout-worker.ts', import.meta.url), { type: 'module', name: 'mlc-layout-engine' });

const served: ServedRequest[] = [];
const channel = new BroadcastChannel(REQUEST_CHANNEL);
channel.onmessage = (event: MessageEvent<ServedRequest>) => served.push(event.data);

let gpu: GpuCapabilities;
let client: EngineClient | null = null;

beforeAll(async () => {
  gpu = await probeWebGpu();
});

afterEach(async () => {
  client?.terminate();
  client = null;
  // web-llm keeps what it fetched in the Cache API (scopes webllm/config, webllm/wasm, webllm/model): drop the fixture's.
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) if (request.url.startsWith(`${FIXTURE_ORIGIN}/`)) await cache.delete(request);
  }
});

/**
 * Loads the fixture folder `<case>-<random>` on forced WebGPU; returns the error, the requests web-llm made (in
 * order) and the load-error probe's (index.js asks nothing after the failure; the backend then probes the config
 * URL with a one-byte Range request, src/engine/backends/load-errors.ts), and the URLs the layout derives.
 */
async function loadFixture(kind: 'standin' | 'page' | 'empty') {
  expect(gpu.adapter, 'the test browser runs with --enable-unsafe-webgpu').toBe(true);
  const base = `${FIXTURE_ORIGIN}/${kind}-${crypto.randomUUID()}/mlc`;
  const source = mlcSourceAt(base, `${base}/libs`);
  const variant = pickMlcVariant(source, gpu.shaderF16);
  const expected = mlcLoadUrls(variant.url, variant.lib, CONFIG, parseTensorCache(TENSOR_CACHE_INDEX));
  ({ client } = clientWithWorkers(undefined, createLayoutWorker));
  const error = await client.load({ backend: 'webgpu', source: { ggufUrl: TINY_MODEL_URL, mlc: source }, contextWindow: 1024 }).then(
    () => null,
    (e: unknown) => e,
  );
  const ours = (): ServedRequest[] => served.filter((r) => r.url.startsWith(`${base}/`));
  // The channel's messages and the worker's answer travel separately: wait for the last request, the probe.
  await expect.poll(() => ours().some((r) => r.range !== null)).toBe(true);
  const requests = ours();
  return { error, expected, load: requests.filter((r) => r.range === null), probes: requests.filter((r) => r.range !== null) };
}

describe('a self-hosted MLC folder, loaded by the real web-llm on SwiftShader', { timeout: LOAD_BOUND_MS + 5_000 }, () => {
  it('is asked for the config, then the model library, as the layout lists them; a stand-in library stops the load with a coded error', async () => {
    const { error, expected, load, probes } = await loadFixture('standin');
    // Up to where the load reaches: every file it reached, in the derived order, through the Cache API as on a real host.
    expect(load.map(({ at: _, ...request }) => request)).toEqual([
      { url: expected[0], via: 'cache.add', range: null, status: 200 }, // mlc-chat-config.json (index.js:18239)
      { url: expected[1], via: 'cache.add', range: null, status: 200 }, // the model library (18266)
    ]);
    // What it would ask for next, had the library been a real one: never asked for here.
    expect(expected.slice(2).map((url) => url.split('/').at(-1))).toEqual(['tokenizer.json', 'tensor-cache.json', 'params_shard_0.bin', 'params_shard_1.bin']);
    expect(probes.map((r) => [r.url, r.range])).toEqual([[expected[0], 'bytes=0-0']]);
    expect(error).toMatchObject({ name: 'AssistantError', code: 'load_failed' });
    expect((error as Error).message).toContain(expected[0]);
    expect((error as Error).message).toContain("Cannot read properties of undefined (reading 'buffer')");
    // Not a hang: the load settled with that error within the test's timeout. (No wall-time bound here: on a loaded CI
    // machine the worker's start and web-llm's import take seconds; web-llm's own part takes tens of milliseconds.)
  });

  it('takes an HTML page served for the library to instantiate, and stops there with a coded error', async () => {
    const { error, expected, load } = await loadFixture('page');
    expect(load.map((r) => [r.url, r.status])).toEqual([
      [expected[0], 200],
      [expected[1], 200],
    ]);
    expect(error).toMatchObject({ code: 'load_failed' });
    expect((error as Error).message).toMatch(/CompileError|magic/i);
  });

  it('stops at the config when the folder is not there, as model_not_found naming it', async () => {
    const { error, expected, load } = await loadFixture('empty');
    expect(load.map((r) => [r.url, r.via, r.status])).toEqual([[expected[0], 'cache.add', 404]]);
    expect(error).toMatchObject({ code: 'model_not_found' });
    expect((error as Error).message).toContain(expected[0]);
  });
});

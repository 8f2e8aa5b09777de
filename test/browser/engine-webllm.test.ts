import { describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { mlcSourceAt } from '../../src/engine/model-sources.ts';
import { probeWebGpu } from '../../src/engine/probe-gpu.ts';
import { TINY_MODEL_URL, clientWithWorkers, collectChat } from './helpers.ts';

// The test browser runs with --enable-unsafe-webgpu (SwiftShader, a fallback adapter), so an adapter exists; no model
// host is reachable.
describe('web-llm on WebGPU', () => {
  const source = { ggufUrl: TINY_MODEL_URL, mlc: mlcSourceAt('http://127.0.0.1:9/mlc', 'http://127.0.0.1:9/libs') };

  it('is not chosen automatically on a software adapter (SwiftShader here): the CPU runs, and the reason says why', async () => {
    const gpu = await probeWebGpu();
    expect(gpu.adapter).toBe(true);
    expect(gpu.fallbackAdapter).toBe(true);
    const { client } = clientWithWorkers();
    const loaded = await client.load({ backend: 'auto', source, contextWindow: 1024 });
    expect(loaded.backend).toBe('wllama');
    expect(loaded.reason).toContain('(only a software WebGPU adapter)');
    expect(loaded.fallbackNotice).toBeUndefined();
    client.terminate();
  });

  it('softwareGpu (the widget\'s backend="webgpu") tries web-llm there, and its offline load failure falls back to wllama with a notice', async () => {
    const { client } = clientWithWorkers();
    const loaded = await client.load({ backend: 'auto', softwareGpu: true, source, contextWindow: 1024 });
    expect(loaded.backend).toBe('wllama');
    expect(loaded.fallbackNotice).toMatch(/WebGPU \(web-llm\) could not load the model/);
    expect(loaded.fallbackNotice).toContain('127.0.0.1:9');
    const { deltas } = await collectChat(client.chat([{ role: 'user', content: 'hi' }]));
    expect(deltas.join('')).toBe(TEST_MODEL_REPLY);
    client.terminate();
  });

  it('forced WebGPU with an unreachable model reports a network error instead of falling back', async () => {
    const { client } = clientWithWorkers();
    const error = await client
      .load({ backend: 'webgpu', source: { ggufUrl: TINY_MODEL_URL, mlc: mlcSourceAt('http://127.0.0.1:9/mlc', 'http://127.0.0.1:9/libs') }, contextWindow: 1024 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network' });
    client.terminate();
  });
});

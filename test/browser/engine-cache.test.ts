import { describe, expect, it } from 'vitest';
import { TINY_MODEL_URL, clientWithWorkers, wasmLoad } from './helpers.ts';

describe("the engines' model cache", () => {
  it('lists the downloaded GGUF with its size, and deletes it', async () => {
    const { client } = clientWithWorkers();
    const source = { ggufUrl: TINY_MODEL_URL };
    await client.deleteCache(source, true);
    expect((await client.cacheInfo(source)).models).toEqual([]);
    await client.load(wasmLoad());
    const url = new URL(TINY_MODEL_URL, location.href).href;
    const sizes = (await fetch(TINY_MODEL_URL, { method: 'HEAD' })).headers.get('content-length') ?? '';
    expect((await client.cacheInfo(source)).models).toEqual([{ backend: 'wllama', id: url, bytes: Number(sizes) }]);
    await client.deleteCache(source);
    expect((await client.cacheInfo(source)).models).toEqual([]);
    // The model was unloaded before its files went away: chatting now says so.
    const error = await client.embed(['x']).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not_loaded' });
    client.terminate();
  });
});

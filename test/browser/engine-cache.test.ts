import { describe, expect, it } from 'vitest';
import { TINY_MODEL_URL, clientWithWorkers, wasmLoad } from './helpers.ts';

/**
 * The model under a URL of its own (the dev server ignores the query), so its cache entry is this file's alone: an
 * engine worker that an earlier file left running may still hold the shared tiny model's OPFS file open, and a
 * download or a delete of a file another worker holds open does not finish.
 */
const MODEL_URL = `${TINY_MODEL_URL}?engine-cache-test`;

describe("the engines' model cache", () => {
  it('lists the downloaded GGUF with its size, and deletes it', async () => {
    const { client } = clientWithWorkers();
    const source = { ggufUrl: MODEL_URL };
    const url = new URL(MODEL_URL, location.href).href;
    const mine = async () => (await client.cacheInfo(source)).models.filter((m) => m.id === url);
    await client.deleteCache(source);
    expect(await mine()).toEqual([]);
    await client.load(wasmLoad(MODEL_URL));
    const sizes = (await fetch(MODEL_URL, { method: 'HEAD' })).headers.get('content-length') ?? '';
    expect(await mine()).toEqual([{ backend: 'wllama', id: url, bytes: Number(sizes) }]);
    await client.deleteCache(source);
    expect(await mine()).toEqual([]);
    // The model was unloaded before its files went away: chatting now says so.
    const error = await client.embed(['x']).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not_loaded' });
    client.terminate();
  });
});

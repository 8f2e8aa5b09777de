import { describe, expect, it } from 'vitest';
import { clientWithWorkers, wasmLoad } from './helpers.ts';

describe('a model URL that is not a model', () => {
  it('an HTML page served as the model gives load_failed naming the URL, not a broken chat later', async () => {
    const { client } = clientWithWorkers();
    const error = await client.load(wasmLoad('/index.html')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'load_failed' });
    expect((error as Error).message).toContain('/index.html');
    client.terminate();
  });
});

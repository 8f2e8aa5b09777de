import { describe, expect, it } from 'vitest';
import { EngineEmbedder } from '../../../src/memory/embedders/engine-embedder.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { GOLDEN_FINGERPRINTS, GOLDEN_TEXTS, fingerprint } from '../../fixtures/embedder-golden.ts';

describe('embedders in the browser', () => {
  it('the built-in embedder gives bit-identical vectors to Node (same golden fingerprints as the unit test)', () => {
    const embedder = new HashedNgramEmbedder();
    expect(GOLDEN_TEXTS.map((t) => fingerprint(embedder.embedOne(t)))).toEqual(GOLDEN_FINGERPRINTS);
  });

  it("wraps the engine's embeddings: batches, unit length, query prefix, and a clear error on a wrong width", async () => {
    const seen: string[][] = [];
    const source = {
      embed: async (texts: string[]) => {
        seen.push(texts);
        return texts.map((t) => Float32Array.from([t.length, 3, 4]));
      },
    };
    const embedder = await EngineEmbedder.create(source, { id: 'engine:test', batchSize: 2, queryPrefix: 'query: ' });
    expect(embedder.dimensions).toBe(3);
    const vectors = await embedder.embed(['a', 'bb', 'ccc']);
    expect(seen.slice(1)).toEqual([['a', 'bb'], ['ccc']]);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    await embedder.embed(['x'], { purpose: 'query' });
    expect(seen.at(-1)).toEqual(['query: x']);
    const wrong = new EngineEmbedder({ embed: async (texts) => texts.map(() => new Float32Array(5)) }, { id: 'engine:bad', dimensions: 3 });
    await expect(wrong.embed(['x'])).rejects.toMatchObject({ code: 'inference_failed' });
  });
});

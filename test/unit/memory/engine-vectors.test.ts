import { describe, expect, it } from 'vitest';
import { EngineVectors, HashedNgramEmbedder, embedderKey } from '../../../src/memory/embedders/index.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/index.ts';

/** An engine stand-in: 3 dimensions, a direction per topic word, and a record of what it was asked. */
function engine(fail = false) {
  const asked: Array<{ texts: string[]; purpose: string }> = [];
  const vectorOf = (text: string): Float32Array => new Float32Array([/apple|苹果/.test(text) ? 1 : 0, /bike|自行车/.test(text) ? 1 : 0, 0.1]);
  return {
    asked,
    source: {
      async embed(texts: string[], options: { purpose: string }) {
        asked.push({ texts, purpose: options.purpose });
        if (fail) throw new Error('the engine worker crashed');
        return texts.map(vectorOf);
      },
    },
    vectorOf,
  };
}

const turn = (id: string, text: string, seq: number): TurnEntry =>
  ({ id, userId: 'u', sessionId: 's', role: 'user', text, time: seq * 1000, seq, entities: [], dates: [], tags: [] });

describe('EngineVectors: the engine model as the memory’s embedder, through a cache', () => {
  it('answers from the cache only, giving no vector for a text it does not hold; queries apart from documents', async () => {
    const e = engine();
    const vectors = new EngineVectors(e.source, { modelId: 'm', dimensions: 3 });
    expect(vectors.id).toBe('engine:m');
    vectors.putDocument('apple pie', e.vectorOf('apple pie'));
    const [held, unknown] = vectors.embedSync(['apple pie', 'no such text'], { purpose: 'document' });
    expect(held).toBeInstanceOf(Float32Array);
    expect(unknown).toBeUndefined();
    expect(vectors.embedSync(['apple pie'], { purpose: 'query' })[0]).toBeUndefined();
    expect(await vectors.prepareQuery('苹果')).toBe(true);
    expect(e.asked.at(-1)).toEqual({ texts: ['苹果'], purpose: 'query' });
    expect(vectors.embedSync(['苹果'], { purpose: 'query' })[0]).toBeInstanceOf(Float32Array);
    // Asked again: from the cache.
    await vectors.prepareQuery('苹果');
    expect(e.asked).toHaveLength(1);
    // A vector of another width is refused.
    expect(vectors.putDocument('x', new Float32Array(4))).toBe(false);
  });

  it('a failed query embedding leaves the query without a vector, and does not throw', async () => {
    const vectors = new EngineVectors(engine(true).source, { modelId: 'm', dimensions: 3 });
    expect(await vectors.prepareQuery('anything')).toBe(false);
    expect(vectors.embedSync(['anything'], { purpose: 'query' })[0]).toBeUndefined();
  });

  it('in the index: a turn added before its vector has keyword scores only, and joins the vector search once its vector comes', async () => {
    const e = engine();
    const vectors = new EngineVectors(e.source, { modelId: 'm', dimensions: 3 });
    const index = new RetrievalIndex({ createEmbedder: () => vectors });
    index.addTurn(turn('a', 'We bought an apple tree', 1));
    index.addTurn(turn('b', 'The bike needs air', 2));
    const shard = index.user('u').shard;
    expect(shard.vectorCount).toBe(0);
    await vectors.prepareQuery('苹果');
    expect(shard.vectorSearch('苹果', 5, undefined, undefined).size).toBe(0);
    for (const text of ['We bought an apple tree', 'The bike needs air']) vectors.putDocument(text, e.vectorOf(text));
    expect(shard.fillVectors()).toBe(2);
    const hits = [...shard.vectorSearch('苹果', 5, undefined, undefined)];
    expect(hits[0]![0]).toBe('a');
    expect(hits[0]![1]).toBeGreaterThan(0.9);
  });

  it("two models' vectors are never mixed: a saved index of one embedder is refused for another", () => {
    const vectors = new EngineVectors(engine().source, { modelId: 'm', dimensions: 3 });
    vectors.putDocument('We bought an apple tree', new Float32Array([1, 0, 0.1]));
    const index = new RetrievalIndex({ createEmbedder: () => vectors });
    index.addTurn(turn('a', 'We bought an apple tree', 1));
    const state = index.exportState();
    expect(state.users[0]![1].shard.vectors?.embedder).toBe(embedderKey(vectors));
    expect(() => RetrievalIndex.fromState(state, { createEmbedder: () => new HashedNgramEmbedder() })).toThrow(/another embedder/);
    const other = new EngineVectors(engine().source, { modelId: 'other', dimensions: 3 });
    expect(() => RetrievalIndex.fromState(state, { createEmbedder: () => other })).toThrow(/another embedder/);
    expect(RetrievalIndex.fromState(state, { createEmbedder: () => vectors }).user('u').shard.vectorCount).toBe(1);
  });

  it('a model that crowds every cosine high is read against its own background: unrelated texts near 0, related ones high', async () => {
    // Every vector shares a large common part, as neural models' do: unrelated texts meet at ~0.8.
    const crowded = (topic: number): Float32Array => {
      const v = new Float32Array(8).fill(0.3);
      v[topic] = 0.8;
      return v;
    };
    const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * b[i]!, 0) / (Math.hypot(...a) * Math.hypot(...b));
    const source = { embed: async (texts: string[]) => texts.map(() => crowded(0)) };
    const vectors = new EngineVectors(source, { modelId: 'crowded', dimensions: 8 });
    const texts = Array.from({ length: 8 }, (_, topic) => `text about topic ${topic}`);
    texts.forEach((text, topic) => vectors.putDocument(text, crowded(topic)));
    const unrelated = cosine(crowded(0), crowded(1));
    expect(unrelated).toBeGreaterThan(0.75);
    expect(vectors.calibrate(unrelated)).toBe(unrelated); // not measured yet: as it is
    expect(vectors.measureBackground()).toBeGreaterThan(0.7);
    expect(vectors.calibrate(unrelated)).toBeLessThan(0.1);
    expect(vectors.calibrate(1)).toBe(1);
    // The shard's vector search reports the calibrated scores: its own topic near 1, the others near 0.
    const index = new RetrievalIndex({ createEmbedder: () => vectors });
    texts.forEach((text, topic) => index.addTurn(turn(`t${topic}`, text, topic + 1)));
    await vectors.prepareQuery('what about topic 0?');
    const hits = [...index.user('u').shard.vectorSearch('what about topic 0?', 8, undefined, undefined)];
    expect(hits[0]).toEqual(['t0', expect.closeTo(1, 5)]);
    for (const [, score] of hits.slice(1)) expect(score).toBeLessThan(0.1);
  });
});

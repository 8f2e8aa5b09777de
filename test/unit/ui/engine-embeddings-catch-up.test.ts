/**
 * The engine-embeddings controller with doubles of the engine, the store and the planner: a reply indexed while the
 * first pass embeds the stored texts gets its vector once the vectors are in use, without waiting for the next
 * message. (Found by the browser test under load: one of four vectors was missing.)
 */
import { describe, expect, it } from 'vitest';
import type { EngineClient } from '../../../src/engine/client.ts';
import type { MemoryStore, MemoryVectorRecord } from '../../../src/memory/store/index.ts';
import { EngineEmbeddingsController } from '../../../src/ui/controllers/engine-embeddings-controller.ts';
import type { MemoryPlanner } from '../../../src/ui/controllers/memory-planner.ts';

const DIMS = 4;

function vectorFor(text: string): Float32Array {
  const v = new Float32Array(DIMS);
  for (let i = 0; i < text.length; i++) v[i % DIMS]! += text.charCodeAt(i);
  return v;
}

describe('engine embeddings: texts indexed during the first pass', () => {
  it('are embedded and kept once the vectors are ready, with no further message', async () => {
    const texts = [
      { id: 'u1', scope: 's', text: 'the first question' },
      { id: 'a1', scope: 's', text: 'the first answer' },
      { id: 'u2', scope: 's', text: 'a second question' },
    ];
    const kept = new Map<string, MemoryVectorRecord>();
    const embedded: string[][] = [];
    let releaseFirstBatch!: () => void;
    const firstBatch = new Promise<void>((resolve) => (releaseFirstBatch = resolve));

    const planner = {
      onIndexed: null as (() => void) | null,
      warm: async () => {},
      indexedTexts: async () => texts.map((t) => ({ ...t })),
      useEngineVectors: () => {},
      fillVectors: () => 0,
      indexes: (id: string) => texts.some((t) => t.id === id),
    };
    const store = {
      memoryVectors: async () => new Map<string, MemoryVectorRecord>(),
      putMemoryVectors: async (records: MemoryVectorRecord[]) => {
        for (const r of records) kept.set(r.id, r);
      },
      sweepMemoryVectors: async () => 0,
    };
    const client = {
      loadEmbedder: async () => ({ modelId: 'double', dimensions: DIMS }),
      embed: async (batch: string[]) => {
        embedded.push(batch);
        if (embedded.length === 1) await firstBatch;
        return batch.map(vectorFor);
      },
    };
    const host = { addController: () => {}, requestUpdate: () => {} };
    const controller = new EngineEmbeddingsController(host as never, {
      client: () => client as unknown as EngineClient,
      source: () => ({ url: 'double.gguf' }) as never,
      store: async () => store as unknown as MemoryStore,
      planner: planner as unknown as MemoryPlanner,
      engineLoad: () => planner,
      wanted: () => true,
      cancelled: () => {},
    });

    controller.sync();
    await expect.poll(() => embedded.length).toBe(1);
    // A reply is stored and indexed while the first batch is with the engine: it asks for a catch-up, too early.
    texts.push({ id: 'a2', scope: 's', text: 'a second answer' });
    planner.onIndexed?.();
    releaseFirstBatch();

    await expect.poll(() => controller.state.phase).toBe('ready');
    await expect.poll(() => [...kept.keys()].sort()).toEqual(['a1', 'a2', 'u1', 'u2']);
    expect(embedded.flat()).toContain('a second answer');
  });
});

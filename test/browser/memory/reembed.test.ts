import { afterEach, describe, expect, it } from 'vitest';
import { EngineEmbedder } from '../../../src/memory/embedders/engine-embedder.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import type { ReembedProgress } from '../../../src/memory/store/reembed.ts';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import { dbName, dropDB, openStore, rawDB, sleep } from './helpers.ts';

const names: string[] = [];
const stores: MemoryStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const name of names.splice(0)) await dropDB(name);
});

/** Stands in for the engine worker: asynchronous, slow-ish, 64-dimensional, and counts its calls. */
function fakeEngine(): { embedder: EngineEmbedder; calls: () => number } {
  const inner = new HashedNgramEmbedder({ dimensions: 64 });
  let calls = 0;
  const source = {
    async embed(texts: string[]): Promise<Float32Array[]> {
      calls++;
      await sleep(2);
      return texts.map((t) => inner.embedOne(t));
    },
  };
  return { embedder: new EngineEmbedder(source, { id: 'engine:fake', dimensions: 64, batchSize: 8 }), calls: () => calls };
}

/** The embedders of the vectors stored in chunks, and how many vectors are still staged. */
async function storedEmbedders(name: string): Promise<{ embedders: string[]; staged: number }> {
  const db = await rawDB(name);
  const chunks = [...(await db.getAll('chunks')), ...(await db.getAll('docChunks'))] as Array<{ embedding: { embedder: string } | null }>;
  const staged = await db.count('vectors');
  db.close();
  return { embedders: [...new Set(chunks.map((c) => c.embedding?.embedder ?? 'none'))], staged };
}

describe('changing the embedder', () => {
  it('re-embeds everything in the background with progress, then switches; two embedders are never mixed', async () => {
    const name = dbName('reembed');
    names.push(name);
    const { embedder: engine } = fakeEngine();
    const store = await openStore(name, { embedders: [new HashedNgramEmbedder(), engine] });
    stores.push(store);
    const other = await openStore(name, { embedders: [new HashedNgramEmbedder(), engine] });
    stores.push(other);
    const session = await store.createSession();
    for (let i = 0; i < 30; i++) {
      await store.appendTurn({ sessionId: session.id, role: 'user', content: `server ${i} ${i % 3 === 0 ? 'disk is full' : 'cpu is idle'}` });
    }
    await store.putDoc({ docId: 'guide', source: 'guide.md', texts: ['how to free disk space', 'how to tune the cpu governor'] });

    const progress: ReembedProgress[] = [];
    const switching = store.setEmbedder(engine, { onProgress: (p) => progress.push(p) });
    // Meanwhile: searches use the old embedder, and new turns keep arriving.
    const during = await store.search('disk is full', { k: 3 });
    expect(store.embedder.id).toBe('hashed-ngram');
    expect(during[0]?.chunk.text).toContain('disk is full');
    await store.appendTurn({ sessionId: session.id, role: 'user', content: 'late arrival: the disk is full again' });
    await switching;

    expect(store.embedder.id).toBe('engine:fake');
    expect(await store.embedderStatus()).toEqual({ active: 'engine:fake@1', pending: null });
    const fractions = progress.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ phase: 'done', fraction: 1, total: 33 });

    await store.whenIdle();
    expect(await storedEmbedders(name)).toEqual({ embedders: ['engine:fake@1'], staged: 0 });
    const hits = await store.search('the disk is full again', { k: 1, wait: true });
    expect(hits[0]?.chunk.text).toContain('late arrival');
    expect(store.index.size('conversation')).toBe(31);
    expect(store.index.size('docs')).toBe(2);

    // The other tab followed the switch and searches the new vectors.
    await other.whenIdle();
    expect(other.embedder.id).toBe('engine:fake');
    expect((await other.search('free disk space', { namespace: 'docs', k: 1, wait: true }))[0]?.chunk.text).toBe('how to free disk space');

    // With an engine embedder (no embedSync) a turn is stored at once and embedded just after.
    const turn = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'kubernetes node drained' });
    expect(await store.getTurn(turn.id)).toBeDefined();
    await store.whenIdle();
    expect((await store.search('kubernetes drained', { k: 1 }))[0]?.chunk.turnIds).toEqual([turn.id]);
  });

  it('an aborted switch keeps the old embedder active', async () => {
    const name = dbName('reembed-abort');
    names.push(name);
    const { embedder: engine, calls } = fakeEngine();
    const store = await openStore(name, { embedders: [new HashedNgramEmbedder(), engine] });
    stores.push(store);
    const session = await store.createSession();
    for (let i = 0; i < 40; i++) await store.appendTurn({ sessionId: session.id, role: 'user', content: `note ${i}` });
    const controller = new AbortController();
    const switching = store.setEmbedder(engine, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done >= 8) controller.abort();
      },
    });
    await expect(switching).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls()).toBeGreaterThan(0);
    expect(await store.embedderStatus()).toEqual({ active: 'hashed-ngram@1', pending: null });
    expect(store.embedder.id).toBe('hashed-ngram');
    expect((await store.search('note 7', { k: 1 })).length).toBe(1);
    expect(await storedEmbedders(name)).toEqual({ embedders: ['hashed-ngram@1'], staged: 0 });
  });
});

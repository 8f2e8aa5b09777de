/**
 * Engine embeddings in the app (issue 22), with the real engine worker: the tiny chat model and the generated tiny
 * embedding model (scripts/test-model/embedding-model.ts), whose vectors put 水果 and "apple" in one direction and
 * share nothing with the hashed n-grams. Switching the memory's search to the engine model mid-conversation: chat
 * keeps answering throughout, every indexed message gets a vector in the background (stored under that model
 * only), the search uses them once complete and then finds an English message for a Chinese question; switching
 * back searches with the hashed vectors again. And the embedding model's download never holds a reply back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { openDB } from 'idb';
import { TEST_MODEL_REPLY } from '../../../scripts/test-model/reply.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import { EMBED_MODEL_URL } from '../helpers.ts';
import { freshStart, messageItems, messageTexts, mountApp, resetAppStorage, sendAndWait, shadow, unmountApp } from './app-helpers.ts';

beforeEach(() => freshStart());

afterEach(async () => {
  await commands.releaseDownloads();
  await unmountApp();
  await resetAppStorage();
});

const APPLE = 'I keep a bowl of apple slices in the fridge for the kids.';
const FILLERS = [
  'The printer on the third floor jams whenever someone sends a long report to it.',
  'Our team meeting moved from Tuesday morning to Thursday after lunch this week.',
  'The parking garage closes at nine, so leave before then if you drove in today.',
  'My neighbour is learning to play the trumpet and practises every evening at seven.',
  'The library extended its opening hours for the exam season until the end of June.',
];
const QUESTION = '冰箱里有什么水果？';

/** The candidate the last prompt's retrieval found for a message, if any. */
function candidateFor(app: QwenChatApp, messageId: string) {
  return app.chat.lastSnapshot!.report.memory.retrieval.candidates.find((c) => c.id === messageId);
}

/** What the store keeps of the engine model's vectors: each record's embedder. */
async function storedVectorEmbedders(dbName: string): Promise<string[]> {
  const db = await openDB(dbName);
  try {
    return ((await db.getAll('memoryVectors')) as Array<{ embedder: string }>).map((r) => r.embedder);
  } finally {
    db.close();
  }
}

const save = (app: QwenChatApp, embedder: 'hashed' | 'engine'): void => void app.settings.save({ ...app.settings.value, embedder });

describe('engine embeddings in the memory', () => {
  it('switching embedders mid-conversation keeps answering, never mixes two models’ vectors, and finds meaning across languages once complete', async () => {
    const { app, dbName } = mountApp({ embeddingUrl: EMBED_MODEL_URL });
    await app.updateComplete;
    // A short window and one recent exchange: the message about apples is old enough to be found only by search.
    app.settings.save({ ...app.settings.value, window: 512, recentExchanges: 1, budgets: { system: 64, working: 48, retrieval: 160, input: 112, reserve: 128 } });
    await sendAndWait(app, APPLE);
    const appleId = messageItems(app, 'user')[0]!.dataset.id!;
    for (const filler of FILLERS) await sendAndWait(app, filler);

    // The hashed vectors share nothing between 水果 and "apple".
    await sendAndWait(app, QUESTION);
    expect(app.planner.searchEmbedder).toBe('hashed');
    expect(candidateFor(app, appleId)?.features.vector ?? 0).toBeLessThan(0.3);

    save(app, 'engine');
    await expect.poll(() => app.embeddings.state.phase, { timeout: 60_000 }).toBe('ready');
    const model = new URL(EMBED_MODEL_URL, location.href).href;
    expect(app.planner.searchEmbedder).toBe(`engine:${model}`);
    // Every message the memory indexes has its vector, on the disk, from this model only.
    const state = app.embeddings.state;
    expect(state.done).toBe(state.total);
    expect(state.total).toBeGreaterThanOrEqual(2 * (FILLERS.length + 2));
    expect(state.secondsPer1000).not.toBeNull();
    const embedders = await storedVectorEmbedders(dbName);
    expect(embedders.length).toBe(state.total);
    expect(new Set(embedders)).toEqual(new Set([`engine:${model}@1`]));

    // The same question now finds the English message by its meaning, through the vector search.
    await sendAndWait(app, QUESTION);
    const found = candidateFor(app, appleId);
    expect(found?.sources).toContain('vector');
    expect(found!.features.vector).toBeGreaterThan(0.6);
    expect(app.chat.lastSnapshot!.messages.map((m) => m.content).join('\n')).toContain('apple slices');
    // A message sent now is embedded in the background and joins the search.
    await sendAndWait(app, 'We also bought a new bicycle for the school run.');
    const indexed = (await app.planner.indexedTexts()).length;
    expect(indexed).toBe(state.total + 4);
    await expect.poll(async () => (await storedVectorEmbedders(dbName)).length, { timeout: 30_000 }).toBe(indexed);

    // Back to the built-in vectors: answers go on, and the search is hashed again (the engine vectors stay on the
    // disk for a switch back, and are not searched).
    save(app, 'hashed');
    await sendAndWait(app, QUESTION);
    expect(app.planner.searchEmbedder).toBe('hashed');
    expect(app.embeddings.state.phase).toBe('off');
    expect(candidateFor(app, appleId)?.features.vector ?? 0).toBeLessThan(0.3);
    expect(messageTexts(app, 'assistant').every((text) => text === TEST_MODEL_REPLY)).toBe(true);
  });

  it('the embedding model’s download never delays a chat reply (measured), and Cancel stops it and goes back to the built-in vectors', async () => {
    const { app } = mountApp({ embeddingUrl: EMBED_MODEL_URL });
    await app.updateComplete;
    await sendAndWait(app, 'Good morning, the engine is warm now.');
    const timed = async (text: string): Promise<number> => {
      const started = performance.now();
      await sendAndWait(app, text);
      return performance.now() - started;
    };
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const without: number[] = [];
    for (let i = 0; i < 3; i++) without.push(await timed(`Question ${i} with no download under way.`));

    await commands.holdDownloads('qwen2-embed-tiny.gguf');
    save(app, 'engine');
    await expect.poll(() => commands.heldDownloads(), { timeout: 30_000 }).toBeGreaterThan(0);
    const during: number[] = [];
    for (let i = 0; i < 3; i++) during.push(await timed(`Question ${i} while the embedding model downloads.`));
    // Every reply came while the download was still held: none waited for it.
    expect(app.embeddings.state.phase).toBe('model');
    console.log(`[measured] chat reply, median of 3: without a download ${median(without).toFixed(0)} ms; during the embedding model's download ${median(during).toFixed(0)} ms`);

    // The settings panel states the cost and the download, with Cancel.
    app.panel = 'settings';
    await app.updateComplete;
    const status = shadow(app).querySelector('qwen-embedding-status')!;
    await expect.poll(() => shadow(status).textContent ?? '').toMatch(/The embedding model costs a download of about \d+ MB once/);
    expect(shadow(status).textContent).toMatch(/embedding model/);
    const cancel = [...shadow(status).querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Cancel')!;
    cancel.click();
    await expect.poll(() => app.settings.value.embedder).toBe('hashed');
    expect(app.embeddings.state.phase).toBe('off');
    app.panel = null;
    await app.updateComplete;
    await sendAndWait(app, 'And a question after the cancel.');
    expect(app.planner.searchEmbedder).toBe('hashed');
  });

  it('the vectors survive a reload (nothing is embedded again), and a forgotten message or deleted conversation takes its vectors off the disk', async () => {
    let { app, dbName } = mountApp({ embeddingUrl: EMBED_MODEL_URL });
    await app.updateComplete;
    save(app, 'engine');
    await sendAndWait(app, APPLE);
    await sendAndWait(app, FILLERS[0]!);
    await expect.poll(() => app.embeddings.state.phase, { timeout: 60_000 }).toBe('ready');
    await expect.poll(async () => (await storedVectorEmbedders(dbName)).length, { timeout: 30_000 }).toBe(4);

    await unmountApp();
    ({ app } = mountApp({ embeddingUrl: EMBED_MODEL_URL, dbName }));
    await app.updateComplete;
    await expect.poll(() => app.embeddings.state.phase, { timeout: 60_000 }).toBe('ready');
    // Read back from IndexedDB: no batch went to the engine (a batch is what the time per 1,000 is measured on).
    expect(app.embeddings.state).toMatchObject({ done: 4, total: 4, secondsPer1000: null });
    expect(app.planner.searchEmbedder).toMatch(/^engine:/);

    // Forget the message about apples: its vector goes; deleting the conversation takes the rest.
    await expect.poll(() => messageItems(app, 'user').length).toBe(2);
    messageItems(app, 'user')[0]!.querySelector<HTMLButtonElement>('button[data-action="forget"]')!.click();
    await expect.poll(async () => (await storedVectorEmbedders(dbName)).length).toBe(3);
    await app.conversations.remove(app.chat.sessionId!);
    await expect.poll(async () => (await storedVectorEmbedders(dbName)).length).toBe(0);
  });
});

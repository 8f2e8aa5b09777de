/**
 * The eval's engine embedder, in real Chromium (scripts/eval/engine-embedder.ts drives it through Playwright): the
 * app's own engine client and worker, wllama on the CPU, with the tiny chat model loaded first (the CPU engine's
 * embedding model goes beside a chat model) and then the embedding GGUF the eval was given. The Node side calls
 * `window.__evalEmbedder.load(…)` once, then `embed(texts, purpose)` per batch; vectors come back as plain number
 * lists. `stats()` counts what the engine was asked, by purpose.
 */
import { EngineClient } from '../src/engine/client.ts';
import type { EmbedderInfo, EmbedPurpose, EmbeddingGgufSource } from '../src/engine/protocol.ts';

export interface EvalEmbedderLoad {
  /** The chat model that must be loaded first (the generated tiny one). */
  chatUrl: string;
  embedding: EmbeddingGgufSource;
}

export interface EvalEmbedderStats {
  /** Engine requests and texts, per purpose. */
  calls: Record<EmbedPurpose, number>;
  texts: Record<EmbedPurpose, number>;
}

export interface EvalEmbedderApi {
  load(options: EvalEmbedderLoad): Promise<EmbedderInfo>;
  embed(texts: string[], purpose: EmbedPurpose): Promise<number[][]>;
  stats(): EvalEmbedderStats;
}

const client = new EngineClient();
const counts: EvalEmbedderStats = { calls: { document: 0, query: 0 }, texts: { document: 0, query: 0 } };
let lastProgress = -1;

const api: EvalEmbedderApi = {
  async load({ chatUrl, embedding }) {
    await client.load({ backend: 'wasm', source: { ggufUrl: chatUrl }, contextWindow: 1024 });
    return client.loadEmbedder(
      { source: { embeddingGguf: embedding } },
      {
        onProgress: (p) => {
          // A tenth at a time: a big model's download would otherwise print thousands of lines.
          const tenth = Math.floor(p.fraction * 10);
          if (p.phase !== 'download' || tenth === lastProgress) return;
          lastProgress = tenth;
          console.log(`[embedder] ${p.text}: ${(p.loadedBytes / 1e6).toFixed(0)} of ${(p.totalBytes / 1e6).toFixed(0)} MB`);
        },
      },
    );
  },
  async embed(texts, purpose) {
    counts.calls[purpose] += 1;
    counts.texts[purpose] += texts.length;
    const vectors = await client.embed(texts, { purpose, background: purpose === 'document' });
    return vectors.map((v) => Array.from(v));
  },
  stats: () => structuredClone(counts),
};

(window as unknown as { __evalEmbedder: EvalEmbedderApi }).__evalEmbedder = api;

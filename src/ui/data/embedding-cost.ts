/**
 * What the engine embeddings cost, as the settings state it before anything is measured here. Sizes are the
 * default models' published weights; times are estimates from their size, scaled from what this project measured
 * for the chat model (README, "Prefill"): Qwen2.5-0.5B's ~360M non-embedding parameters prefill 15–20 tokens/s on
 * a 2-core laptop CPU; multilingual-e5-small has ~21M (about 17 times less work per token), so ~300 tokens/s, and
 * 1,000 messages of ~60 tokens take ~200 s. `npm run bench:embed` measured a model of e5-small's exact graph (random weights)
 * through the app's engine on a 2-vCPU machine: 224–236 s per 1,000 messages, so the settings say about 4 min.
 * Once a batch has run, the settings show the time measured on the device.
 */
import type { BackendKind } from '../../engine/protocol.ts';

export interface EmbeddingCost {
  /** The download, in MB. */
  mb: number;
  /** Minutes per 1,000 messages (CPU only; a GPU takes seconds). */
  minutes: number;
}

export const EMBEDDING_COST: Readonly<Record<BackendKind, EmbeddingCost>> = Object.freeze({
  // multilingual-e5-small, Q8_0: 118M parameters at ~1.06 bytes each.
  wllama: { mb: 125, minutes: 4 },
  // snowflake-arctic-embed-s, q0f32: 33M parameters at 4 bytes each.
  webllm: { mb: 133, minutes: 0 },
});

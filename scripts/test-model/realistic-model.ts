/**
 * A model with the exact shape of Qwen2.5-0.5B-Instruct (Q8_0 matrices, F32 norms and biases,
 * tied embeddings) and seeded random weights: ~530 MB, for manual load/speed benchmarks only.
 * Its output is gibberish.
 */
import { GGML_TYPE } from './ggml-types.ts';
import type { GgufFile } from './gguf-writer.ts';
import { Prng } from './prng.ts';
import { qwen2Metadata, qwen2Tensors, type Qwen2Hparams } from './qwen2-model.ts';
import { loadQwenVocab, QWEN2_N_VOCAB, qwenTokenizerMetadata } from './qwen-vocab.ts';

export const QWEN25_05B_HPARAMS: Qwen2Hparams = {
  name: 'Qwen2.5 0.5B Instruct shaped (random weights)',
  nVocab: QWEN2_N_VOCAB,
  nEmbd: 896,
  nLayer: 24,
  nHead: 14,
  nHeadKv: 2,
  nFf: 4864,
  contextLength: 32768,
  ropeFreqBase: 1_000_000,
  rmsEps: 1e-6,
  tiedEmbeddings: true,
  matrixType: GGML_TYPE.Q8_0,
};

export function realisticModelGguf(seed = 1234, hp = QWEN25_05B_HPARAMS): GgufFile {
  const rng = new Prng(seed);
  const tensors = qwen2Tensors(hp, (slot, _row, out) => {
    if (slot.role === 'attn_norm' || slot.role === 'ffn_norm' || slot.role === 'output_norm') out.fill(1);
    else rng.fillUniform(out, 0.02);
  });
  return { metadata: [...qwen2Metadata(hp), ...qwenTokenizerMetadata(loadQwenVocab())], tensors };
}

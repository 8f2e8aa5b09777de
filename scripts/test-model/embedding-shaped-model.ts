/**
 * A random-weight model with multilingual-e5-small's per-token compute, for measuring what the CPU engine's
 * embeddings cost (`npm run bench:embed`) where the real weights cannot be downloaded. Its vectors mean nothing.
 *
 *   npm run test-model -- --embedding-shaped          # public/models/test/e5-small-shaped-q8_0.gguf (bert, ~92 MB)
 *   npm run test-model -- --embedding-shaped-qwen2    # public/models/test/e5-small-shaped-qwen2-q8_0.gguf (~92 MB)
 *
 * multilingual-e5-small is a 12-layer BERT: hidden 384, 12 heads of 32, FFN 1536 (GELU, up → down), post-LayerNorm,
 * learned absolute positions, bidirectional attention, mean pooling, an XLM-R SentencePiece vocabulary of 250,037
 * and no output head. Per token and layer that is 4·384² (Q, K, V, O) + 2·384·1536 (FFN) = 1,769,472
 * multiply-adds, ~21.2M over 12 layers, plus attention over the text's own tokens (2·n·384 per layer).
 *
 * The default file (`bert`) is written in llama.cpp's own `bert` architecture, the one the real e5-small GGUF
 * loads as, so the engine runs the same graph: same matrices, biases, LayerNorms, GELU, positions, bidirectional
 * attention without a KV cache, mean pooling (`bert.pooling_type` = 1), and no output head. One difference in the
 * heads: 6 of 64 here against e5's 12 of 32 — the same 384-wide Q/K/V/O matrices and the same n²·384 score and
 * value work, only fewer, bigger attention tiles.
 *
 * The `qwen2` variant is the same work in the architecture the other test models use: 12 layers, n_embd 384,
 * 6 heads of 64, 6 KV heads (BERT has no grouped-query attention), n_ff 1024 — qwen2's FFN is gated (gate, up,
 * down: 3·384·n_ff), so 1024 gives 3·384·1024 = 2·384·1536 exactly, e5's FFN work and parameter count; n_ff 1536
 * would be 1.5 times e5's FFN work. Causal attention costs llama.cpp the same as bidirectional (it computes the
 * full n×n scores and masks them); RMSNorm, RoPE and SiLU against LayerNorm, positions and GELU are element-wise
 * and cheap next to the matrices. qwen2's graph also ends in an output projection (the tied 151,936 × 384 table,
 * 58.3M multiply-adds a token, 2.75 times the layers), but in the wllama build the app ships it costs nothing
 * measurable for pooled embeddings: a 1-layer copy embeds 2,317 tokens/s against the 12-layer one's 271, so the
 * time goes with the layers. Measured on a 2-vCPU box, the two variants embed at the same speed within the noise
 * (bert 266–287 tokens/s over four 1,000-message rounds, qwen2 271 over 200 messages); the bert one is the
 * default because it is the graph a real e5-small runs, with nothing to explain away.
 *
 * What is not the same as e5-small, in both variants:
 * - The vocabulary and tokenizer are Qwen2.5's (byte-level BPE, 151,936 rows), not XLM-R's SentencePiece
 *   (250,037 rows). The embedding table is a lookup: it costs download and memory (58.3M parameters here against
 *   e5's 96.0M), not compute, but the two tokenizers cut the same text into different numbers of tokens, and the
 *   compute is per token. The bench reports tokens per message as Qwen counts them.
 * - No `<s>`/`</s>` around each text (XLM-R adds them): 2 tokens a text fewer.
 * - Random weights (uniform ±0.02, norms 1, biases 0): the work of a dense matrix does not depend on its values.
 * - Q8_0 for every matrix and the token table; the position and token-type tables, norms and biases are F32.
 *
 * Parameters (bert): 79.84M in all; 21.49M outside the token table (21.29M in the 12 layers, 0.20M in the position
 * table). e5-small: ~118M in all, 96.0M of it the 250,037 × 384 token table. The qwen2 variant: 79.60M, 21.26M.
 */
import { GGML_TYPE } from './ggml-types.ts';
import { gguf, type GgufFile, type GgufTensor, type GgufValue } from './gguf-writer.ts';
import { Prng } from './prng.ts';
import { LLAMA_FTYPE, qwen2Metadata, qwen2Tensors, type Qwen2Hparams } from './qwen2-model.ts';
import { loadQwenVocab, QWEN2_N_VOCAB, qwenTokenizerMetadata } from './qwen-vocab.ts';
import { encodeRows } from './tensor-data.ts';

export type EmbeddingShapedArch = 'bert' | 'qwen2';

/** llama.cpp's LLAMA_POOLING_TYPE_MEAN (the tiny embedding model writes it too). */
const POOLING_MEAN = 1;
/** Weights are uniform in ±this. */
const WEIGHT_AMPLITUDE = 0.02;

/** multilingual-e5-small as published (config.json), for the comparison. */
export const E5_SMALL = {
  nVocab: 250_037,
  nEmbd: 384,
  nLayer: 12,
  nHead: 12,
  nFf: 1536,
  contextLength: 512,
  tokenTypes: 2,
} as const;

export interface BertHparams {
  name: string;
  nVocab: number;
  nEmbd: number;
  nLayer: number;
  nHead: number;
  nFf: number;
  contextLength: number;
  tokenTypes: number;
  layerNormEps: number;
}

export const EMBEDDING_SHAPED_BERT_HPARAMS: BertHparams = {
  name: 'multilingual-e5-small shaped (bert, Qwen vocabulary, random weights)',
  nVocab: QWEN2_N_VOCAB,
  nEmbd: 384,
  nLayer: 12,
  nHead: 6,
  nFf: 1536,
  contextLength: 512,
  tokenTypes: 2,
  layerNormEps: 1e-12,
};

export const EMBEDDING_SHAPED_QWEN2_HPARAMS: Qwen2Hparams = {
  name: 'multilingual-e5-small shaped (qwen2, random weights)',
  nVocab: QWEN2_N_VOCAB,
  nEmbd: 384,
  nLayer: 12,
  nHead: 6,
  nHeadKv: 6,
  nFf: 1024,
  contextLength: 512,
  ropeFreqBase: 1_000_000,
  rmsEps: 1e-6,
  tiedEmbeddings: true,
  matrixType: GGML_TYPE.Q8_0,
};

/** Bump when the generated bytes change. */
export const EMBEDDING_SHAPED_VERSION = 1;

/** What decides whether a generated file is current (the sidecar keeps it). */
export function embeddingShapedDesign(arch: EmbeddingShapedArch): string {
  const hp = arch === 'bert' ? EMBEDDING_SHAPED_BERT_HPARAMS : EMBEDDING_SHAPED_QWEN2_HPARAMS;
  return JSON.stringify({ version: EMBEDDING_SHAPED_VERSION, arch, hp, amplitude: WEIGHT_AMPLITUDE });
}

interface TensorSpec {
  name: string;
  /** [rowLength, nRows] or [length]. */
  shape: [number] | [number, number];
  type: typeof GGML_TYPE.F32 | typeof GGML_TYPE.Q8_0;
  /** 'random' (±WEIGHT_AMPLITUDE), 'one' (a norm's weight) or 'zero' (a bias). */
  fill: 'random' | 'one' | 'zero';
}

/** The tensors llama.cpp's `bert` loader asks for, in convert_hf_to_gguf.py's order. */
export function bertTensorSpecs(hp: BertHparams): TensorSpec[] {
  const { F32, Q8_0 } = GGML_TYPE;
  const specs: TensorSpec[] = [
    { name: 'token_embd.weight', shape: [hp.nEmbd, hp.nVocab], type: Q8_0, fill: 'random' },
    { name: 'position_embd.weight', shape: [hp.nEmbd, hp.contextLength], type: F32, fill: 'random' },
    { name: 'token_types.weight', shape: [hp.nEmbd, hp.tokenTypes], type: F32, fill: 'random' },
    { name: 'token_embd_norm.weight', shape: [hp.nEmbd], type: F32, fill: 'one' },
    { name: 'token_embd_norm.bias', shape: [hp.nEmbd], type: F32, fill: 'zero' },
  ];
  for (let l = 0; l < hp.nLayer; l++) {
    const b = `blk.${l}`;
    for (const m of ['attn_q', 'attn_k', 'attn_v', 'attn_output']) {
      specs.push({ name: `${b}.${m}.weight`, shape: [hp.nEmbd, hp.nEmbd], type: Q8_0, fill: 'random' });
      specs.push({ name: `${b}.${m}.bias`, shape: [hp.nEmbd], type: F32, fill: 'zero' });
    }
    specs.push(
      { name: `${b}.attn_output_norm.weight`, shape: [hp.nEmbd], type: F32, fill: 'one' },
      { name: `${b}.attn_output_norm.bias`, shape: [hp.nEmbd], type: F32, fill: 'zero' },
      { name: `${b}.ffn_up.weight`, shape: [hp.nEmbd, hp.nFf], type: Q8_0, fill: 'random' },
      { name: `${b}.ffn_up.bias`, shape: [hp.nFf], type: F32, fill: 'zero' },
      { name: `${b}.ffn_down.weight`, shape: [hp.nFf, hp.nEmbd], type: Q8_0, fill: 'random' },
      { name: `${b}.ffn_down.bias`, shape: [hp.nEmbd], type: F32, fill: 'zero' },
      { name: `${b}.layer_output_norm.weight`, shape: [hp.nEmbd], type: F32, fill: 'one' },
      { name: `${b}.layer_output_norm.bias`, shape: [hp.nEmbd], type: F32, fill: 'zero' },
    );
  }
  return specs;
}

export function bertMetadata(hp: BertHparams): Array<[string, GgufValue]> {
  return [
    ['general.architecture', gguf.str('bert')],
    ['general.type', gguf.str('model')],
    ['general.name', gguf.str(hp.name)],
    ['general.file_type', gguf.u32(LLAMA_FTYPE.MOSTLY_Q8_0)],
    ['general.quantization_version', gguf.u32(2)],
    ['bert.block_count', gguf.u32(hp.nLayer)],
    ['bert.context_length', gguf.u32(hp.contextLength)],
    ['bert.embedding_length', gguf.u32(hp.nEmbd)],
    ['bert.feed_forward_length', gguf.u32(hp.nFf)],
    ['bert.attention.head_count', gguf.u32(hp.nHead)],
    ['bert.attention.layer_norm_epsilon', gguf.f32(hp.layerNormEps)],
    ['bert.attention.causal', gguf.bool(false)],
    ['bert.pooling_type', gguf.u32(POOLING_MEAN)],
    ['tokenizer.ggml.token_type_count', gguf.u32(hp.tokenTypes)],
  ];
}

/** Parameter counts: all, and outside the token table (the token-type and position tables count as outside). */
export function parameterCounts(shapes: ReadonlyArray<{ name: string; shape: readonly number[] }>): { total: number; nonEmbedding: number } {
  let total = 0;
  let embedding = 0;
  for (const t of shapes) {
    const n = t.shape.reduce((a, b) => a * b, 1);
    total += n;
    if (t.name === 'token_embd.weight') embedding += n;
  }
  return { total, nonEmbedding: total - embedding };
}

export function embeddingShapedGguf(arch: EmbeddingShapedArch = 'bert', seed = 0xe5e5): GgufFile {
  const rng = new Prng(seed);
  const tokenizer = qwenTokenizerMetadata(loadQwenVocab());
  if (arch === 'qwen2') {
    const hp = EMBEDDING_SHAPED_QWEN2_HPARAMS;
    const tensors = qwen2Tensors(hp, (slot, _row, out) => {
      if (slot.role === 'attn_norm' || slot.role === 'ffn_norm' || slot.role === 'output_norm') out.fill(1);
      else if (!slot.role.endsWith('.bias')) rng.fillUniform(out, WEIGHT_AMPLITUDE);
    });
    return { metadata: [...qwen2Metadata(hp), ['qwen2.pooling_type', gguf.u32(POOLING_MEAN)], ...tokenizer], tensors };
  }
  const hp = EMBEDDING_SHAPED_BERT_HPARAMS;
  const tensors: GgufTensor[] = bertTensorSpecs(hp).map((spec) => {
    const [rowLength, nRows = 1] = spec.shape;
    return {
      name: spec.name,
      shape: spec.shape,
      type: spec.type,
      data: () =>
        encodeRows(spec.type, rowLength, nRows, (_row, out) => {
          if (spec.fill === 'one') out.fill(1);
          else if (spec.fill === 'random') rng.fillUniform(out, WEIGHT_AMPLITUDE);
        }),
    };
  });
  return { metadata: [...bertMetadata(hp), ...tokenizer], tensors };
}

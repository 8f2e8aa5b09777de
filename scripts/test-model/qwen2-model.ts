/**
 * What llama.cpp's qwen2 loader wants: the `qwen2.*` / `general.*` metadata and the tensor list
 * (names and ggml shapes). Weight values come from the caller, one fill function per tensor.
 */
import { GGML_TYPE, type GgmlType } from './ggml-types.ts';
import { gguf, type GgufTensor, type GgufValue } from './gguf-writer.ts';
import { encodeRows } from './tensor-data.ts';

export interface Qwen2Hparams {
  name: string;
  nVocab: number;
  nEmbd: number;
  nLayer: number;
  nHead: number;
  nHeadKv: number;
  nFf: number;
  contextLength: number;
  ropeFreqBase: number;
  rmsEps: number;
  /** No `output.weight`: llama.cpp then reuses `token_embd.weight` for the output projection. */
  tiedEmbeddings: boolean;
  /** Type of the 2-D weights (embedding, output, attention and FFN matrices). Norms and biases are F32. */
  matrixType: GgmlType;
}

/** llama_ftype for general.file_type. */
export const LLAMA_FTYPE = { ALL_F32: 0, MOSTLY_F16: 1, MOSTLY_Q8_0: 7 } as const;

export type Qwen2TensorRole =
  | 'token_embd'
  | 'output_norm'
  | 'output'
  | 'attn_norm'
  | 'attn_q'
  | 'attn_k'
  | 'attn_v'
  | 'attn_q.bias'
  | 'attn_k.bias'
  | 'attn_v.bias'
  | 'attn_output'
  | 'ffn_norm'
  | 'ffn_gate'
  | 'ffn_up'
  | 'ffn_down';

export interface Qwen2TensorSlot {
  name: string;
  role: Qwen2TensorRole;
  /** Block index; -1 for the non-block tensors. */
  layer: number;
  /** [rowLength, nRows] or [length]. */
  shape: [number] | [number, number];
  type: GgmlType;
}

export function headDim(hp: Qwen2Hparams): number {
  if (hp.nEmbd % hp.nHead !== 0) throw new Error('n_embd must be a multiple of n_head');
  return hp.nEmbd / hp.nHead;
}

/** The tensors of a qwen2 GGUF, in file order (the order convert_hf_to_gguf.py writes). */
export function qwen2TensorSlots(hp: Qwen2Hparams): Qwen2TensorSlot[] {
  const nKv = headDim(hp) * hp.nHeadKv;
  const m = hp.matrixType;
  const F32 = GGML_TYPE.F32;
  const slots: Qwen2TensorSlot[] = [
    { name: 'token_embd.weight', role: 'token_embd', layer: -1, shape: [hp.nEmbd, hp.nVocab], type: m },
  ];
  for (let l = 0; l < hp.nLayer; l++) {
    const b = (role: Qwen2TensorRole, suffix: string, shape: [number] | [number, number], type: GgmlType): void => {
      slots.push({ name: `blk.${l}.${role.replace('.bias', '')}.${suffix}`, role, layer: l, shape, type });
    };
    b('attn_norm', 'weight', [hp.nEmbd], F32);
    b('attn_q', 'weight', [hp.nEmbd, hp.nEmbd], m);
    b('attn_q.bias', 'bias', [hp.nEmbd], F32);
    b('attn_k', 'weight', [hp.nEmbd, nKv], m);
    b('attn_k.bias', 'bias', [nKv], F32);
    b('attn_v', 'weight', [hp.nEmbd, nKv], m);
    b('attn_v.bias', 'bias', [nKv], F32);
    b('attn_output', 'weight', [hp.nEmbd, hp.nEmbd], m);
    b('ffn_norm', 'weight', [hp.nEmbd], F32);
    b('ffn_gate', 'weight', [hp.nEmbd, hp.nFf], m);
    b('ffn_up', 'weight', [hp.nEmbd, hp.nFf], m);
    b('ffn_down', 'weight', [hp.nFf, hp.nEmbd], m);
  }
  slots.push({ name: 'output_norm.weight', role: 'output_norm', layer: -1, shape: [hp.nEmbd], type: F32 });
  if (!hp.tiedEmbeddings) {
    slots.push({ name: 'output.weight', role: 'output', layer: -1, shape: [hp.nEmbd, hp.nVocab], type: m });
  }
  return slots;
}

/** Fills row `row` of a tensor (zeroed on entry). 1-D tensors have a single row 0. */
export type RowFill = (slot: Qwen2TensorSlot, row: number, out: Float32Array) => void;

export function qwen2Tensors(hp: Qwen2Hparams, fill: RowFill): GgufTensor[] {
  return qwen2TensorSlots(hp).map((slot) => {
    const [rowLength, nRows = 1] = slot.shape;
    return {
      name: slot.name,
      shape: slot.shape,
      type: slot.type,
      data: () => encodeRows(slot.type, rowLength, nRows, (row, out) => fill(slot, row, out)),
    };
  });
}

export function qwen2Metadata(hp: Qwen2Hparams): Array<[string, GgufValue]> {
  const fileType =
    hp.matrixType === GGML_TYPE.Q8_0
      ? LLAMA_FTYPE.MOSTLY_Q8_0
      : hp.matrixType === GGML_TYPE.F16
        ? LLAMA_FTYPE.MOSTLY_F16
        : LLAMA_FTYPE.ALL_F32;
  const meta: Array<[string, GgufValue]> = [
    ['general.architecture', gguf.str('qwen2')],
    ['general.type', gguf.str('model')],
    ['general.name', gguf.str(hp.name)],
    ['general.file_type', gguf.u32(fileType)],
  ];
  if (hp.matrixType === GGML_TYPE.Q8_0) meta.push(['general.quantization_version', gguf.u32(2)]);
  meta.push(
    ['qwen2.block_count', gguf.u32(hp.nLayer)],
    ['qwen2.context_length', gguf.u32(hp.contextLength)],
    ['qwen2.embedding_length', gguf.u32(hp.nEmbd)],
    ['qwen2.feed_forward_length', gguf.u32(hp.nFf)],
    ['qwen2.attention.head_count', gguf.u32(hp.nHead)],
    ['qwen2.attention.head_count_kv', gguf.u32(hp.nHeadKv)],
    ['qwen2.rope.freq_base', gguf.f32(hp.ropeFreqBase)],
    ['qwen2.attention.layer_norm_rms_epsilon', gguf.f32(hp.rmsEps)],
  );
  return meta;
}

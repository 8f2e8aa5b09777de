import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GGML_TYPE, f16ToF32, f32ToF16, quantizeQ8_0, decodeTensor } from '../../scripts/test-model/ggml-types.ts';
import { readGgufFile, readTensor, type GgufFileContents } from '../../scripts/test-model/gguf-reader.ts';
import { gguf, writeGguf } from '../../scripts/test-model/gguf-writer.ts';
import { writeTinyTestModel } from '../../scripts/test-model/make-test-model.ts';
import { QWEN2_N_VOCAB, QWEN_TOKEN, TOKEN_TYPE } from '../../scripts/test-model/qwen-vocab.ts';
import { TEST_MODEL_REPLY } from '../../scripts/test-model/reply.ts';
import { encodeQwen } from '../../scripts/test-model/reply-tokens.ts';
import { TINY_HPARAMS } from '../../scripts/test-model/tiny-model.ts';

/** GPT-2 byte-level BPE: the printable character standing for each byte. */
function byteDecoder(): Map<string, number> {
  const bytes: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) bytes.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bytes.push(b);
  for (let b = 0xae; b <= 0xff; b++) bytes.push(b);
  const chars = [...bytes];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bytes.includes(b)) {
      bytes.push(b);
      chars.push(256 + n++);
    }
  }
  return new Map(bytes.map((b, i) => [String.fromCodePoint(chars[i]!), b]));
}

function detokenize(tokens: string[], ids: number[]): string {
  const dec = byteDecoder();
  const bytes = ids.flatMap((id) => [...tokens[id]!].map((ch) => dec.get(ch)!));
  return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
}

describe('gguf writer/reader', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gguf-rt-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips every metadata type and F32/F16/Q8_0 tensors', () => {
    const path = join(dir, 'rt.gguf');
    const f32 = Float32Array.from({ length: 64 }, (_, i) => (i - 32) / 7);
    const written = writeGguf(path, {
      metadata: [
        ['a.u32', gguf.u32(4_000_000_000)],
        ['a.i32', gguf.i32(-5)],
        ['a.f32', gguf.f32(0.25)],
        ['a.bool', gguf.bool(true)],
        ['a.str', gguf.str('héllo 𝄞')],
        ['a.strs', gguf.strs(['x', '', 'ü'])],
        ['a.i32s', gguf.i32s([1, -2, 3])],
      ],
      tensors: [
        { name: 'f32', shape: [3], type: GGML_TYPE.F32, data: () => [new Uint8Array(Float32Array.of(1, 2, 3).buffer)] },
        { name: 'f16', shape: [32, 2], type: GGML_TYPE.F16, data: () => [new Uint8Array(64), new Uint8Array(64)] },
        { name: 'q8', shape: [32, 2], type: GGML_TYPE.Q8_0, data: () => [quantizeQ8_0(f32)] },
      ],
    });
    expect(statSync(path).size).toBe(written.bytes);
    const file = readGgufFile(path);
    expect(file.version).toBe(3);
    expect(Object.fromEntries(file.metadata)).toEqual({
      'a.u32': 4_000_000_000,
      'a.i32': -5,
      'a.f32': 0.25,
      'a.bool': true,
      'a.str': 'héllo 𝄞',
      'a.strs': ['x', '', 'ü'],
      'a.i32s': [1, -2, 3],
    });
    for (const t of file.tensors) expect(t.offset % 32).toBe(0);
    expect(file.dataOffset % 32).toBe(0);
    expect([...readTensor(file, 'f32')]).toEqual([1, 2, 3]);
    expect(readTensor(file, 'f16').every((x) => x === 0)).toBe(true);
    const q = readTensor(file, 'q8');
    for (let i = 0; i < f32.length; i++) expect(q[i]).toBeCloseTo(f32[i]!, 1);
  });

  it('rejects tensor data of the wrong size and leaves no file behind', () => {
    const path = join(dir, 'bad.gguf');
    expect(() =>
      writeGguf(path, {
        metadata: [],
        tensors: [{ name: 't', shape: [4], type: GGML_TYPE.F32, data: () => [new Uint8Array(12)] }],
      }),
    ).toThrow(/expected 16/);
    expect(() => statSync(path)).toThrow();
    expect(() => statSync(`${path}.partial`)).toThrow();
  });

  it('converts f16 like ggml', () => {
    for (const x of [1, -2, 0.5, 65504, 0.1, 3.14159, 1e-4]) {
      expect(Math.abs(f16ToF32(f32ToF16(x)) - x) / Math.abs(x)).toBeLessThanOrEqual(2 ** -11);
    }
    for (const x of [1e-5, -3e-7]) expect(Math.abs(f16ToF32(f32ToF16(x)) - x)).toBeLessThanOrEqual(2 ** -25); // subnormals
    expect(f16ToF32(f32ToF16(0))).toBe(0);
    expect(f16ToF32(f32ToF16(1e-9))).toBe(0);
    expect(f32ToF16(1)).toBe(0x3c00);
    expect(f32ToF16(-2)).toBe(0xc000);
    expect(f32ToF16(1e9)).toBe(0x7c00);
    const block = Float32Array.from({ length: 32 }, (_, i) => (i === 3 ? 40 : 0));
    expect([...decodeTensor(GGML_TYPE.Q8_0, quantizeQ8_0(block), 32)].map((v) => Math.round(v))).toEqual([...block]);
  });
});

describe('tiny qwen2 test model', () => {
  let dir: string;
  let file: GgufFileContents;
  let written: ReturnType<typeof writeTinyTestModel>;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tiny-model-'));
    written = writeTinyTestModel(join(dir, 'qwen2-tiny.gguf'));
    file = readGgufFile(join(dir, 'qwen2-tiny.gguf'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is a small qwen2 GGUF v3 with the hparams llama.cpp needs', () => {
    expect(written.bytes).toBeLessThanOrEqual(25_000_000);
    expect(file.version).toBe(3);
    const m = file.metadata;
    expect(m.get('general.architecture')).toBe('qwen2');
    expect(m.get('general.file_type')).toBe(7);
    expect(m.get('qwen2.block_count')).toBe(TINY_HPARAMS.nLayer);
    expect(m.get('qwen2.embedding_length')).toBe(TINY_HPARAMS.nEmbd);
    expect(m.get('qwen2.feed_forward_length')).toBe(TINY_HPARAMS.nFf);
    expect(m.get('qwen2.attention.head_count')).toBe(TINY_HPARAMS.nHead);
    expect(m.get('qwen2.attention.head_count_kv')).toBe(TINY_HPARAMS.nHeadKv);
    expect(m.get('qwen2.context_length')).toBe(4096);
    expect(m.get('qwen2.rope.freq_base')).toBe(1_000_000);
    expect(m.get('qwen2.attention.layer_norm_rms_epsilon')).toBeCloseTo(1e-6, 12);
  });

  it('carries the Qwen2.5 vocabulary and special tokens', () => {
    const m = file.metadata;
    const tokens = m.get('tokenizer.ggml.tokens') as string[];
    const types = m.get('tokenizer.ggml.token_type') as number[];
    expect(tokens).toHaveLength(QWEN2_N_VOCAB);
    expect(types).toHaveLength(QWEN2_N_VOCAB);
    expect((m.get('tokenizer.ggml.merges') as string[]).length).toBeGreaterThan(150_000);
    expect(m.get('tokenizer.ggml.model')).toBe('gpt2');
    expect(m.get('tokenizer.ggml.pre')).toBe('qwen2');
    expect(tokens[QWEN_TOKEN.endOfText]).toBe('<|endoftext|>');
    expect(tokens[QWEN_TOKEN.imStart]).toBe('<|im_start|>');
    expect(tokens[QWEN_TOKEN.imEnd]).toBe('<|im_end|>');
    expect(tokens[QWEN_TOKEN.newline]).toBe('Ċ');
    expect(types[QWEN_TOKEN.imEnd]).toBe(TOKEN_TYPE.CONTROL);
    expect(types[151657]).toBe(TOKEN_TYPE.USER_DEFINED); // <tool_call>
    expect(tokens[151665]).toBe('[PAD151665]');
    expect(types[151665]).toBe(TOKEN_TYPE.UNUSED);
    expect(tokens).not.toContain('<think>');
    expect(m.get('tokenizer.ggml.eos_token_id')).toBe(151645);
    expect(m.get('tokenizer.ggml.bos_token_id')).toBe(151643);
    expect(m.get('tokenizer.ggml.padding_token_id')).toBe(151643);
    expect(m.get('tokenizer.ggml.add_bos_token')).toBe(false);
    expect(m.get('tokenizer.chat_template')).toContain("{{- '<|im_start|>assistant\\n' }}");
  });

  it('has every tensor the qwen2 loader requires, inside the file', () => {
    const { nEmbd, nVocab, nFf, nHead, nHeadKv } = TINY_HPARAMS;
    const nKv = (nEmbd / nHead) * nHeadKv;
    const shapes = Object.fromEntries(file.tensors.map((t) => [t.name, t.shape]));
    const expected: Record<string, number[]> = {
      'token_embd.weight': [nEmbd, nVocab],
      'output_norm.weight': [nEmbd],
      'output.weight': [nEmbd, nVocab],
    };
    for (let l = 0; l < TINY_HPARAMS.nLayer; l++) {
      Object.assign(expected, {
        [`blk.${l}.attn_norm.weight`]: [nEmbd],
        [`blk.${l}.attn_q.weight`]: [nEmbd, nEmbd],
        [`blk.${l}.attn_q.bias`]: [nEmbd],
        [`blk.${l}.attn_k.weight`]: [nEmbd, nKv],
        [`blk.${l}.attn_k.bias`]: [nKv],
        [`blk.${l}.attn_v.weight`]: [nEmbd, nKv],
        [`blk.${l}.attn_v.bias`]: [nKv],
        [`blk.${l}.attn_output.weight`]: [nEmbd, nEmbd],
        [`blk.${l}.ffn_norm.weight`]: [nEmbd],
        [`blk.${l}.ffn_gate.weight`]: [nEmbd, nFf],
        [`blk.${l}.ffn_up.weight`]: [nEmbd, nFf],
        [`blk.${l}.ffn_down.weight`]: [nFf, nEmbd],
      });
    }
    expect(shapes).toEqual(expected);
    for (const t of file.tensors) {
      expect(t.offset % file.alignment).toBe(0);
      expect(file.dataOffset + t.offset + t.size).toBeLessThanOrEqual(file.bytes.length);
    }
  });

  it('decodes TEST_MODEL_REPLY then <|im_end|> after "\\n", with a wide margin', () => {
    const { nEmbd, nVocab } = TINY_HPARAMS;
    // The blocks add nothing to the residual stream, so the last hidden state is the token's embedding.
    for (let l = 0; l < TINY_HPARAMS.nLayer; l++) {
      expect(readTensor(file, `blk.${l}.attn_output.weight`).every((x) => x === 0)).toBe(true);
      expect(readTensor(file, `blk.${l}.ffn_down.weight`).every((x) => x === 0)).toBe(true);
    }
    const embd = readTensor(file, 'token_embd.weight');
    const out = readTensor(file, 'output.weight');
    const norm = readTensor(file, 'output_norm.weight');
    const eps = file.metadata.get('qwen2.attention.layer_norm_rms_epsilon') as number;

    /** Greedy next token after `token`, and its lead over the runner-up. */
    const next = (token: number): { id: number; margin: number } => {
      const x = embd.subarray(token * nEmbd, (token + 1) * nEmbd);
      let ss = 0;
      for (const v of x) ss += v * v;
      const scale = 1 / Math.sqrt(ss / nEmbd + eps);
      const h = x.map((v, i) => v * scale * norm[i]!);
      let best = -Infinity;
      let second = -Infinity;
      let id = -1;
      for (let v = 0; v < nVocab; v++) {
        let logit = 0;
        for (let i = 0; i < nEmbd; i++) logit += out[v * nEmbd + i]! * h[i]!;
        if (logit > best) {
          second = best;
          best = logit;
          id = v;
        } else if (logit > second) second = logit;
      }
      return { id, margin: best - second };
    };

    const chain: number[] = [];
    let token: number = QWEN_TOKEN.newline;
    while (chain.length < 64) {
      const step = next(token);
      expect(step.margin).toBeGreaterThan(30);
      chain.push(step.id);
      if (step.id === QWEN_TOKEN.imEnd) break;
      token = step.id;
    }
    const replyIds = encodeQwen(TEST_MODEL_REPLY);
    expect(chain).toEqual([...replyIds, QWEN_TOKEN.imEnd]);
    expect(written.replyTokenIds).toEqual(replyIds);
    expect(replyIds.length).toBeGreaterThanOrEqual(12);
    expect(replyIds.length).toBeLessThanOrEqual(25);
    // and the GGUF's own vocabulary spells the reply
    expect(detokenize(file.metadata.get('tokenizer.ggml.tokens') as string[], replyIds)).toBe(TEST_MODEL_REPLY);
    // any other last token ends the turn at once
    for (const other of [0, QWEN_TOKEN.imStart, QWEN_TOKEN.imEnd, 77091 /* assistant */, 151935]) {
      expect(next(other).id).toBe(QWEN_TOKEN.imEnd);
    }
  });
});

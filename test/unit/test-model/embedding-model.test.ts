/**
 * The tiny embedding test model (scripts/test-model/embedding-model.ts), checked from the GGUF it writes: the
 * embedding llama.cpp computes for it (mean over the tokens of output_norm(token_embd[token]), then L2-normalised,
 * as the block adds nothing) is computed here from the file's tensors, and the search winners the model promises
 * must hold, across languages. The same check run on a model with no concepts must fail, so it tests something.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMBEDDING_CONCEPTS,
  EMBEDDING_HPARAMS,
  conceptOf,
  embeddingTokenRow,
  outputNormWeights,
  planEmbeddingModel,
  type EmbeddingConcept,
} from '../../../scripts/test-model/embedding-model.ts';
import { findTensor, readGgufFile, readTensor, type GgufFileContents } from '../../../scripts/test-model/gguf-reader.ts';
import { writeEmbeddingTestModel } from '../../../scripts/test-model/make-test-model.ts';
import { encodeQwen } from '../../../scripts/test-model/reply-tokens.ts';
import { EMBEDDING_EXAMPLES } from '../../../scripts/test-model/embedding-concepts.ts';

type Embed = (text: string) => Float64Array;

/** llama.cpp's mean pooling over the block-less model, then wllama's L2 normalisation. */
function embedder(row: (id: number) => Float32Array, norm: Float32Array, eps: number): Embed {
  return (text) => {
    const ids = encodeQwen(text);
    const sum = new Float64Array(norm.length);
    for (const id of ids) {
      const x = row(id);
      const rms = Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length + eps);
      for (let d = 0; d < x.length; d++) sum[d]! += (x[d]! / rms) * norm[d]!;
    }
    const length = Math.hypot(...sum);
    return sum.map((v) => v / length);
  };
}

const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, v, i) => s + v * b[i]!, 0);

const DOCS = EMBEDDING_EXAMPLES;

/** A query per concept word, and a sentence or two around some. */
const QUERIES: Array<{ text: string; concept: EmbeddingConcept }> = [
  ...Object.values(EMBEDDING_CONCEPTS).flatMap((words) => words.map((w) => ({ text: w, concept: conceptOf(w)! }))),
  { text: 'Where can I park my bike?', concept: 'bicycle' },
  { text: '苹果好吃吗？', concept: 'fruit' },
  { text: 'Is it going to storm tonight?', concept: 'rain' },
];

/** Every way the search misses: each query's two documents (English, Chinese) must lead, clearly. */
function searchFailures(embed: Embed): string[] {
  const docs = DOCS.map((d) => ({ ...d, vector: embed(d.text) }));
  const failures: string[] = [];
  for (const q of QUERIES) {
    const v = embed(q.text);
    const scored = docs.map((d) => ({ ...d, score: dot(v, d.vector) })).sort((a, b) => b.score - a.score);
    const hits = scored.filter((d) => d.concept === q.concept);
    const others = scored.filter((d) => d.concept !== q.concept);
    const show = (d: (typeof scored)[number]): string => `${JSON.stringify(d.text)} ${d.score.toFixed(3)}`;
    if (scored[0]!.concept !== q.concept || scored[1]!.concept !== q.concept) {
      failures.push(`${JSON.stringify(q.text)}: top two are ${show(scored[0]!)}, ${show(scored[1]!)}`);
    }
    const weakest = hits.at(-1)!;
    const strongestOther = others[0]!;
    if (weakest.score < 0.8) failures.push(`${JSON.stringify(q.text)}: its document ${show(weakest)} is not close`);
    if (strongestOther.score > 0.15) failures.push(`${JSON.stringify(q.text)}: unrelated ${show(strongestOther)} is not far`);
  }
  return failures;
}

describe('tiny embedding test model', () => {
  let dir: string;
  let file: GgufFileContents;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'embed-model-'));
    const path = join(dir, 'qwen2-embed-tiny.gguf');
    writeEmbeddingTestModel(path);
    file = readGgufFile(path);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is a qwen2 GGUF with mean pooling, a 512-token context and a block that adds nothing', () => {
    expect(file.metadata.get('general.architecture')).toBe('qwen2');
    expect(file.metadata.get('qwen2.pooling_type')).toBe(1);
    expect(file.metadata.get('qwen2.context_length')).toBe(512);
    expect(file.metadata.get('qwen2.embedding_length')).toBe(32);
    expect(file.metadata.get('qwen2.block_count')).toBe(1);
    expect(findTensor(file, 'token_embd.weight').shape).toEqual([32, EMBEDDING_HPARAMS.nVocab]);
    expect(file.tensors.some((t) => t.name === 'output.weight')).toBe(false);
    for (const name of ['blk.0.attn_output.weight', 'blk.0.ffn_down.weight']) {
      expect(readTensor(file, name).every((v) => v === 0)).toBe(true);
    }
  });

  it('finds the document of the query concept first, in English and in Chinese, and the others far behind', () => {
    const embd = readTensor(file, 'token_embd.weight');
    const n = EMBEDDING_HPARAMS.nEmbd;
    const eps = file.metadata.get('qwen2.attention.layer_norm_rms_epsilon') as number;
    const embed = embedder((id) => embd.subarray(id * n, (id + 1) * n), readTensor(file, 'output_norm.weight'), eps);
    expect(searchFailures(embed)).toEqual([]);
    // a concept word in a sentence of the other language
    const cos = dot(embed('苹果'), embed('An apple a day keeps the doctor away.'));
    expect(cos).toBeGreaterThan(0.9);
  });

  it('fails that check without its concept table (the winners come from the table, not by chance)', () => {
    const plan = planEmbeddingModel({});
    const embed = embedder(
      (id) => {
        const row = new Float32Array(EMBEDDING_HPARAMS.nEmbd);
        embeddingTokenRow(plan, id, row);
        return row;
      },
      outputNormWeights(plan),
      EMBEDDING_HPARAMS.rmsEps,
    );
    expect(searchFailures(embed).length).toBeGreaterThan(QUERIES.length);
  });

  it('keeps each Chinese concept word whole: one Qwen token when not after a space', () => {
    expect(encodeQwen('苹果')).toEqual([104167]);
    expect(encodeQwen('自行车')).toEqual([106043]);
    expect(encodeQwen('下雨')).toEqual([111926]);
    expect(encodeQwen('数据库')).toEqual([74393]);
    const plan = planEmbeddingModel();
    // after a space they split; the whole characters among the pieces still carry the concept
    expect(encodeQwen(' 苹果')).toEqual([83226, 117, 27773]);
    expect(plan.conceptTokens.fruit).toContain(27773);
    expect(plan.conceptDim.has(83226)).toBe(false);
  });

  it('refuses a token shared by two concepts, naming it', () => {
    expect(() => planEmbeddingModel({ fruit: ['apple'], company: ['Apple'] })).toThrow(
      /^token 8162 " Apple" is in two concepts: fruit \("apple"\) and company \("Apple"\)$/,
    );
  });

  it('says which concept a word belongs to', () => {
    expect(conceptOf('苹果')).toBe('fruit');
    expect(conceptOf(' Bike ')).toBe('bicycle');
    expect(conceptOf('sql')).toBe('database');
    expect(conceptOf('Thursday')).toBeNull();
  });
});

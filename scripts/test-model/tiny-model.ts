/**
 * The tiny qwen2 test model: one block, n_embd 32, the real Qwen2.5 vocabulary, and weights set so
 * that it always answers TEST_MODEL_REPLY after a prompt ending in "\n" (so after any ChatML prompt
 * ending with `<|im_start|>assistant\n`), then `<|im_end|>`.
 *
 * How: attn_output and ffn_down are zero, so the residual stream at the last position is just that
 * token's embedding and the model is a bigram table. "\n" and each reply token get their own
 * one-hot embedding direction; every other token shares direction 0. output_norm scales the
 * one-hot back to length 1, and the output row of each chain token's successor has LOGIT in the
 * predecessor's direction, so the successor wins by LOGIT (every other logit is 0). The last reply
 * token and direction 0 lead to `<|im_end|>`. The `loop` variant sends the last reply token back to the
 * first instead, so it streams until max_tokens or an abort (for tests of Stop and of crashes mid-stream).
 */
import { GGML_TYPE } from './ggml-types.ts';
import type { GgufFile } from './gguf-writer.ts';
import { Prng } from './prng.ts';
import { qwen2Metadata, qwen2Tensors, type Qwen2Hparams } from './qwen2-model.ts';
import { loadQwenVocab, QWEN2_N_VOCAB, QWEN_TOKEN, qwenTokenizerMetadata } from './qwen-vocab.ts';
import { TEST_MODEL_REPLY } from './reply.ts';
import { replyTokenIds } from './reply-tokens.ts';

export const TINY_HPARAMS: Qwen2Hparams = {
  name: 'Qwen2 tiny test model (fixed reply)',
  nVocab: QWEN2_N_VOCAB,
  nEmbd: 32,
  nLayer: 1,
  nHead: 4,
  nHeadKv: 2,
  nFf: 64,
  contextLength: 4096,
  ropeFreqBase: 1_000_000,
  rmsEps: 1e-6,
  tiedEmbeddings: false,
  matrixType: GGML_TYPE.Q8_0,
};

/** The winning logit; all others are 0. Big enough for any usual temperature / top-p. */
export const TINY_LOGIT = 40;

export interface TinyModelPlan {
  /** "\n", then the reply tokens. Each one's successor is the next; the last one's is `<|im_end|>`. */
  chain: number[];
  replyIds: number[];
  /** Token id → embedding direction (1…); absent means direction 0. */
  direction: Map<number, number>;
}

export function planTinyModel(reply = TEST_MODEL_REPLY, hp = TINY_HPARAMS): TinyModelPlan {
  const replyIds = replyTokenIds(reply);
  const chain = [QWEN_TOKEN.newline, ...replyIds];
  if (chain.length + 1 > hp.nEmbd) throw new Error(`reply too long: ${replyIds.length} tokens, at most ${hp.nEmbd - 2}`);
  const direction = new Map(chain.map((id, i) => [id, i + 1]));
  return { chain, replyIds, direction };
}

export interface TinyModelOptions {
  /** Never end: the last reply token leads back to the first, so the reply repeats until max_tokens or an abort. */
  loop?: boolean;
}

export function tinyModelGguf(reply = TEST_MODEL_REPLY, hp = TINY_HPARAMS, options: TinyModelOptions = {}): GgufFile & { plan: TinyModelPlan } {
  const plan = planTinyModel(reply, hp);
  const vocab = loadQwenVocab();
  // output row → the direction whose token it follows
  const predecessorDir = new Map<number, number[]>();
  const link = (successor: number, dir: number): void => {
    predecessorDir.set(successor, [...(predecessorDir.get(successor) ?? []), dir]);
  };
  const afterLast = options.loop === true ? plan.replyIds[0]! : QWEN_TOKEN.imEnd;
  plan.chain.forEach((_id, i) => link(plan.chain[i + 1] ?? afterLast, i + 1));
  link(QWEN_TOKEN.imEnd, 0);

  const rng = new Prng(0x5eed);
  const tensors = qwen2Tensors(hp, (slot, row, out) => {
    switch (slot.role) {
      case 'token_embd':
        out[plan.direction.get(row) ?? 0] = 1;
        return;
      case 'output':
        for (const dir of predecessorDir.get(row) ?? []) out[dir] = TINY_LOGIT;
        return;
      case 'output_norm':
        // rms_norm(one-hot) = sqrt(n_embd) · one-hot; bring it back to length 1
        out.fill(1 / Math.sqrt(hp.nEmbd));
        return;
      case 'attn_norm':
      case 'ffn_norm':
        out.fill(1);
        return;
      case 'attn_output':
      case 'ffn_down':
        return; // zero: the block adds nothing to the residual stream
      default:
        // attention and FFN inputs: small random values, so those paths still compute something
        rng.fillUniform(out, 0.1);
    }
  });
  return {
    metadata: [...qwen2Metadata(hp), ...qwenTokenizerMetadata(vocab)],
    tensors,
    plan,
  };
}

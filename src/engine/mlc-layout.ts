/**
 * What an MLC model folder must hold, as the installed web-llm (0.2.86) reads it: the files `MLCEngine.reload` asks
 * for, in the order it asks, derived from node_modules/@mlc-ai/web-llm/lib/index.js (line numbers below are that
 * file's). Pure, so `fetch-model` checks the folder it wrote against the same list the tests check web-llm against.
 *
 * `reloadInternal` (index.js:18212) on a model record with `model` = the folder and `model_lib` = the library:
 * 1. the folder URL is `cleanModelUrl(model)` (11280–11287): a trailing `/`, then `resolve/main/` unless the URL
 *    already has a `/resolve/<rev>/` part;
 * 2. `mlc-chat-config.json` (18236–18239, via `resolveModelPackageResourceURLs`, 3534–3543): no `model_manifest` is
 *    asked for, because our records name none (18233);
 * 3. the model library, `model_lib` verbatim (`fetchWasmSource`, 18251–18266), then `instantiate` (18271),
 *    `detectGPUDevice` (18276) and `initWebGPU` (18311): a library that is not a real TVM build stops here;
 * 4. one tokenizer file (`asyncLoadTokenizer`, 18312; 14914–14936): `tokenizer.json` when the config's
 *    `tokenizer_files` lists it, else `tokenizer.model`, else the load fails; other tokenizer files are never read;
 * 5. `tensor-cache.json` (`tvm.fetchTensorCache`, 18313; the name is hard-coded at 8123, whatever the older MLC
 *    conversions called it), then every record's `dataPath` relative to the folder (`fetchTensorCacheInternal`,
 *    8183–8256): four downloads at a time (8246–8255), so the shards arrive in no fixed order; each record's
 *    `nbytes` is its shard's size (summed as the total to download, 8189).
 */

export const MLC_CHAT_CONFIG = 'mlc-chat-config.json';
/** The weights index; `ndarray-cache.json` is its older name, which web-llm 0.2.86 never asks for. */
export const TENSOR_CACHE = 'tensor-cache.json';
export const LEGACY_TENSOR_CACHE = 'ndarray-cache.json';

/** The part of `mlc-chat-config.json` that decides which files are read. */
export interface MlcChatConfig {
  tokenizer_files?: unknown;
}

export interface TensorCacheShard {
  dataPath: string;
  /** The shard file's size in bytes. */
  nbytes?: number;
}

export interface TensorCache {
  records: TensorCacheShard[];
}

/** One file web-llm reads: `path` is relative to the model folder, except the library's (an absolute URL). */
export interface MlcRequest {
  step: 'config' | 'library' | 'tokenizer' | 'tensor-cache' | 'shard';
  path: string;
  /** For a shard: the size the tensor cache gives it. */
  nbytes?: number;
}

export class MlcLayoutError extends Error {
  override name = 'MlcLayoutError';
}

/** The folder URL web-llm resolves every file against (`cleanModelUrl`, index.js:11280–11287). */
export function mlcFolderUrl(modelUrl: string): string {
  let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

/** The tokenizer file web-llm reads for this config (`asyncLoadTokenizer`, index.js:14917–14934). */
export function tokenizerFileOf(config: MlcChatConfig): string {
  const files = config.tokenizer_files;
  if (!Array.isArray(files)) throw new MlcLayoutError(`${MLC_CHAT_CONFIG} has no tokenizer_files list.`);
  if (files.includes('tokenizer.json')) return 'tokenizer.json';
  if (files.includes('tokenizer.model')) return 'tokenizer.model';
  throw new MlcLayoutError(`${MLC_CHAT_CONFIG} lists neither tokenizer.json nor tokenizer.model in tokenizer_files (${JSON.stringify(files)}).`);
}

/** A parsed weights index, checked: a `records` list, each with a relative `dataPath` and, if any, a byte size. */
export function parseTensorCache(value: unknown): TensorCache {
  const records = (value as { records?: unknown } | null)?.records;
  if (!Array.isArray(records)) throw new MlcLayoutError(`${TENSOR_CACHE} has no records list.`);
  return {
    records: records.map((record: unknown, i) => {
      const { dataPath, nbytes } = (record ?? {}) as { dataPath?: unknown; nbytes?: unknown };
      if (typeof dataPath !== 'string' || dataPath === '') throw new MlcLayoutError(`${TENSOR_CACHE} record ${i} has no dataPath.`);
      if (!isRelativeInside(dataPath)) throw new MlcLayoutError(`${TENSOR_CACHE} record ${i} points outside the folder (${dataPath}).`);
      if (nbytes !== undefined && !(Number.isSafeInteger(nbytes) && (nbytes as number) >= 0)) {
        throw new MlcLayoutError(`${TENSOR_CACHE} record ${i} (${dataPath}) has an invalid nbytes (${String(nbytes)}).`);
      }
      return nbytes === undefined ? { dataPath } : { dataPath, nbytes: nbytes as number };
    }),
  };
}

/** A relative path that stays inside the folder (no scheme, no leading slash, no `..`). */
export function isRelativeInside(path: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:|^[/\\]/i.test(path) && !path.split(/[/\\]/).includes('..');
}

/**
 * Every request web-llm 0.2.86 makes to load a model, in order: the config, the library (`libUrl`, as given), the
 * tokenizer file, the weights index, then the shards (in the index's order here; web-llm fetches them four at a time).
 */
export function mlcLoadRequests(config: MlcChatConfig, tensorCache: TensorCache, libUrl: string): MlcRequest[] {
  return [
    { step: 'config', path: MLC_CHAT_CONFIG },
    { step: 'library', path: libUrl },
    { step: 'tokenizer', path: tokenizerFileOf(config) },
    { step: 'tensor-cache', path: TENSOR_CACHE },
    ...tensorCache.records.map((r): MlcRequest => (r.nbytes === undefined ? { step: 'shard', path: r.dataPath } : { step: 'shard', path: r.dataPath, nbytes: r.nbytes })),
  ];
}

/** The files a model folder must hold for web-llm: `mlcLoadRequests` less the library, relative to the folder. */
export function mlcFolderFiles(config: MlcChatConfig, tensorCache: TensorCache): MlcRequest[] {
  return mlcLoadRequests(config, tensorCache, '').filter((r) => r.step !== 'library');
}

/** The absolute URLs of `mlcLoadRequests` for a model record (`model` = `modelUrl`, `model_lib` = `libUrl`). */
export function mlcLoadUrls(modelUrl: string, libUrl: string, config: MlcChatConfig, tensorCache: TensorCache): string[] {
  const folder = mlcFolderUrl(modelUrl);
  return mlcLoadRequests(config, tensorCache, libUrl).map((r) => (r.step === 'library' ? r.path : new URL(r.path, folder).href));
}

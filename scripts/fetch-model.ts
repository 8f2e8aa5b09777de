/**
 * Self-hosts the model: downloads Qwen2.5-0.5B-Instruct (GGUF for the CPU engine, MLC q4f16_1 and q4f32_1
 * for WebGPU, the small MLC embedding model, and web-llm's model libraries) and the CPU engine's embedding GGUF
 * (multilingual-e5-small) into public/models/, and writes public/models/manifest.json so the app uses them instead
 * of Hugging Face. Needs the internet; files already complete are skipped.
 *
 *   npm run fetch-model                      # everything (~1.6 GB)
 *   npm run fetch-model -- --only gguf       # just the chat GGUF (~490 MB)
 *   npm run fetch-model -- --only embedding  # just the embedding GGUF (~125 MB), for the engine embeddings setting
 *   HF_ENDPOINT=https://mirror.example npm run fetch-model
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import { LEGACY_TENSOR_CACHE, MLC_CHAT_CONFIG, MlcLayoutError, TENSOR_CACHE, isRelativeInside, mlcFolderFiles, parseTensorCache, type MlcRequest } from '../src/engine/mlc-layout.ts';
import { DEFAULT_EMBEDDING_GGUF_FILE, DEFAULT_EMBEDDING_GGUF_PATH, DEFAULT_GGUF_FILE, mlcSourceAt, type SelfHostedManifest } from '../src/engine/model-sources.ts';

const HF = (process.env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/$/, '');
const MLC_LIBS = 'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_86/base';
const OUT = join(process.cwd(), 'public', 'models');

export class DownloadError extends Error {}

async function download(url: string, path: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    throw new DownloadError(`Could not reach ${new URL(url).host} (${cause}) while fetching ${url}.`);
  }
  if (!response.ok || response.body === null) throw new DownloadError(`${url} answered HTTP ${response.status}.`);
  const expected = Number(response.headers.get('content-length') ?? -1);
  const existing = await stat(path).catch(() => null);
  if (existing !== null && expected > 0 && existing.size === expected) {
    await response.body.cancel();
    console.log(`  ✓ ${path} (already complete)`);
    return;
  }
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.part`;
  await pipeline(Readable.fromWeb(response.body as unknown as WebReadableStream), createWriteStream(partial));
  await rename(partial, path);
  console.log(`  ↓ ${path} (${((await stat(path)).size / 1e6).toFixed(1)} MB)`);
}

async function fetchJson<T>(url: string, path: string): Promise<T> {
  await download(url, path);
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    throw new DownloadError(`${url} is not JSON (does the host answer unknown paths with a page?).`);
  }
}

/**
 * A model folder's weights index. web-llm 0.2.86 asks only for `tensor-cache.json` (`TENSOR_CACHE_MANIFEST_FILENAME`,
 * node_modules/@mlc-ai/web-llm/lib/index.js:3238, used at 3537); older MLC conversions publish the same file as
 * `ndarray-cache.json`. Either way it is saved under the name web-llm asks for, or the self-hosted folder 404s on it.
 */
export async function fetchTensorCache(folderUrl: string, local: string): Promise<{ records: { dataPath: string }[] }> {
  const path = join(local, TENSOR_CACHE);
  let index: { records?: unknown };
  try {
    index = await fetchJson(`${folderUrl}/resolve/main/${TENSOR_CACHE}`, path);
  } catch (error) {
    if (!(error instanceof DownloadError && error.message.endsWith('answered HTTP 404.'))) throw error;
    console.log(`  (no ${TENSOR_CACHE} in this folder: taking its older name, ${LEGACY_TENSOR_CACHE})`);
    index = await fetchJson(`${folderUrl}/resolve/main/${LEGACY_TENSOR_CACHE}`, path);
  }
  const records = Array.isArray(index.records) ? index.records : null;
  if (records === null || !records.every((r) => typeof (r as { dataPath?: unknown })?.dataPath === 'string')) {
    throw new DownloadError(`${folderUrl}'s weights index has no list of records with a dataPath each.`);
  }
  return { records: records as { dataPath: string }[] };
}

async function fetchGguf(): Promise<string> {
  const url = `${HF}/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/${DEFAULT_GGUF_FILE}`;
  console.log(`GGUF for the CPU engine: ${url}`);
  await download(url, join(OUT, 'qwen2.5-0.5b-instruct', DEFAULT_GGUF_FILE));
  return `/models/qwen2.5-0.5b-instruct/${DEFAULT_GGUF_FILE}`;
}

/** Every GGUF file starts with these four bytes. */
const GGUF_MAGIC = Buffer.from('GGUF', 'latin1');

/**
 * The CPU engine's embedding model, from `hf` (a Hugging Face host or mirror) into `out`; checked to be a GGUF file
 * (a host answering unknown paths with a page is refused by name). Returns the page-relative URL for the manifest.
 */
export async function fetchEmbeddingGguf(hf: string = HF, out: string = OUT): Promise<string> {
  const url = `${hf}/${DEFAULT_EMBEDDING_GGUF_PATH}`;
  console.log(`Embedding GGUF for the CPU engine: ${url}`);
  const path = join(out, 'embedding', DEFAULT_EMBEDDING_GGUF_FILE);
  await download(url, path);
  const start = await head(path);
  if (!start.subarray(0, 4).equals(GGUF_MAGIC)) {
    throw new DownloadError(`${path} is ${looksLikeHtml(start) ? 'an HTML page' : 'not a GGUF file'}: the engine cannot load it as the embedding model.`);
  }
  return `/models/embedding/${DEFAULT_EMBEDDING_GGUF_FILE}`;
}

/** Where fetch-model writes an MLC model folder below `out`: `mlc/<model id>/resolve/main/`, the folder web-llm reads (`mlcFolderUrl`). */
export function mlcFolderDir(out: string, folderUrl: string): string {
  return join(out, 'mlc', folderUrl.split('/').at(-1)!, 'resolve', 'main');
}

/** Where fetch-model writes a model library below `out`: `mlc/libs/<file>` (the widget's `mlc-model` reads `libs/`). */
export function mlcLibPath(out: string, libUrl: string): string {
  return join(out, 'mlc', 'libs', libUrl.split('/').at(-1)!);
}

/** `run`, with a layout error reported as a DownloadError about `where`. */
function asDownloadError<T>(where: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw error instanceof MlcLayoutError ? new DownloadError(`${where}: ${error.message}`) : error;
  }
}

/** Downloads one MLC model folder and its library, then checks them as web-llm will read them (`checkMlcFolder`). */
export async function fetchMlcFolder(folderUrl: string, libUrl: string, out: string = OUT): Promise<MlcRequest[]> {
  const local = mlcFolderDir(out, folderUrl);
  const config = await fetchJson<{ tokenizer_files?: unknown }>(`${folderUrl}/resolve/main/${MLC_CHAT_CONFIG}`, join(local, MLC_CHAT_CONFIG));
  const index = await fetchTensorCache(folderUrl, local);
  const cache = asDownloadError(`${folderUrl}/resolve/main`, () => parseTensorCache(index));
  // Every tokenizer file the config lists (web-llm reads one of them), then every shard.
  const tokenizerFiles = Array.isArray(config.tokenizer_files) ? config.tokenizer_files.filter((f): f is string => typeof f === 'string' && isRelativeInside(f)) : [];
  for (const file of [...tokenizerFiles, ...cache.records.map((r) => r.dataPath)]) await download(`${folderUrl}/resolve/main/${file}`, join(local, file));
  const lib = mlcLibPath(out, libUrl);
  await download(libUrl, lib);
  return checkMlcFolder(local, lib);
}

/** The first bytes of a file: an HTML page where a model file belongs is a host answering unknown paths with a page. */
async function head(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

const looksLikeHtml = (bytes: Buffer): boolean => /^\s*<(!doctype\s+html|html[\s>])/i.test(bytes.toString('latin1'));

async function readJson(path: string, what: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    throw new DownloadError(`${path} is not JSON: web-llm cannot read it as the ${what}.`);
  }
}

/**
 * Checks a finished model folder (`local`, the `resolve/main/` folder) and its library (`libPath`) against the files
 * web-llm 0.2.86 reads (src/engine/mlc-layout.ts): each present and not empty, no HTML page in place of a file,
 * the config and the weights index JSON, every shard exactly the size its record gives. Returns that list; throws a
 * DownloadError naming the first file that is wrong.
 */
export async function checkMlcFolder(local: string, libPath: string): Promise<MlcRequest[]> {
  const present = async (path: string, what: string): Promise<number> => {
    const info = await stat(path).catch(() => null);
    if (info === null || !info.isFile()) throw new DownloadError(`${path} is missing: web-llm asks for it (${what}).`);
    if (info.size === 0) throw new DownloadError(`${path} is empty: web-llm asks for it (${what}).`);
    if (looksLikeHtml(await head(path))) throw new DownloadError(`${path} is an HTML page, not ${what} (does the host answer unknown paths with a page?).`);
    return info.size;
  };
  await present(join(local, MLC_CHAT_CONFIG), 'the model config');
  await present(join(local, TENSOR_CACHE), 'the weights index');
  const config = (await readJson(join(local, MLC_CHAT_CONFIG), 'model config')) as { tokenizer_files?: unknown };
  const index = await readJson(join(local, TENSOR_CACHE), 'weights index');
  const files = asDownloadError(local, () => mlcFolderFiles(config, parseTensorCache(index)));
  for (const file of files) {
    const path = join(local, file.path);
    const size = await present(path, file.step === 'shard' ? 'a weights shard' : `the ${file.step}`);
    if (file.step === 'shard' && file.nbytes !== undefined && size !== file.nbytes) {
      throw new DownloadError(`${path} is ${size} bytes, but ${TENSOR_CACHE} gives it ${file.nbytes}: an incomplete or wrong download.`);
    }
    if (file.path.endsWith('.json')) await readJson(path, file.step);
  }
  await present(libPath, 'the model library');
  if (!(await head(libPath)).subarray(0, 4).equals(Buffer.from([0x00, 0x61, 0x73, 0x6d]))) {
    throw new DownloadError(`${libPath} is not a WebAssembly module: web-llm cannot instantiate it as the model library.`);
  }
  return files;
}

/** The MLC models for WebGPU (both variants and the embedding model), from `hf`'s mlc-ai folders and `libs`. */
export async function fetchMlc(hf: string = HF, libs: string = MLC_LIBS, out: string = OUT): Promise<void> {
  const source = mlcSourceAt(`${hf}/mlc-ai`, libs);
  const pairs: [string, string][] = [
    [source.urlF16, source.libF16],
    [source.urlF32, source.libF32],
  ];
  if (source.embedding) pairs.push([source.embedding.url, source.embedding.lib]);
  for (const [folderUrl, libUrl] of pairs) {
    console.log(`MLC model for WebGPU: ${folderUrl.split('/').at(-1)!}`);
    const files = await fetchMlcFolder(folderUrl, libUrl, out);
    console.log(`  ✓ checked: the ${files.length} files web-llm reads, and its library`);
  }
}

async function main(): Promise<void> {
  const onlyIndex = process.argv.indexOf('--only');
  const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : undefined;
  if (only !== undefined && only !== 'gguf' && only !== 'mlc' && only !== 'embedding') throw new DownloadError(`--only takes gguf, mlc or embedding, not ${only}.`);
  // What an earlier run self-hosted stays announced: `--only embedding` after `--only gguf` keeps the chat GGUF.
  const earlier = (await readFile(join(OUT, 'manifest.json'), 'utf8').then((text) => JSON.parse(text) as SelfHostedManifest).catch(() => ({}))) as SelfHostedManifest;
  const manifest: SelfHostedManifest = { ...earlier };
  if (only === undefined || only === 'gguf') manifest.ggufUrl = await fetchGguf();
  if (only === undefined || only === 'embedding') manifest.embeddingGgufUrl = await fetchEmbeddingGguf();
  if (only === undefined || only === 'mlc') {
    await fetchMlc();
    manifest.mlcBase = '/models/mlc';
    manifest.mlcLibBase = '/models/mlc/libs';
  }
  await writeFile(join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`Wrote ${join(OUT, 'manifest.json')}: the app now loads the model from this server.`);
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) main().catch((error: unknown) => {
  if (error instanceof DownloadError) {
    console.error(`fetch-model: ${error.message}`);
    console.error('Nothing was changed in the app. Run this where the internet is reachable (or set HF_ENDPOINT to a mirror), or copy the files into public/models/ by hand.');
  } else {
    console.error(error);
  }
  process.exit(1);
});

/**
 * Self-hosts the model: downloads Qwen2.5-0.5B-Instruct (GGUF for the CPU engine, MLC q4f16_1 and q4f32_1
 * for WebGPU, the small MLC embedding model, and web-llm's model libraries) into public/models/, and writes public/models/manifest.json so
 * the app uses them instead of Hugging Face. Needs the internet; files already complete are skipped.
 *
 *   npm run fetch-model                 # everything (~1.5 GB)
 *   npm run fetch-model -- --only gguf  # just the GGUF (~490 MB)
 *   HF_ENDPOINT=https://mirror.example npm run fetch-model
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import { DEFAULT_GGUF_FILE, mlcSourceAt, type SelfHostedManifest } from '../src/engine/model-sources.ts';

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
  const { readFile } = await import('node:fs/promises');
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
  const path = join(local, 'tensor-cache.json');
  let index: { records?: unknown };
  try {
    index = await fetchJson(`${folderUrl}/resolve/main/tensor-cache.json`, path);
  } catch (error) {
    if (!(error instanceof DownloadError && error.message.endsWith('answered HTTP 404.'))) throw error;
    console.log('  (no tensor-cache.json in this folder: taking its older name, ndarray-cache.json)');
    index = await fetchJson(`${folderUrl}/resolve/main/ndarray-cache.json`, path);
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

/** web-llm reads `<model>/resolve/main/<file>`, so the folder layout mirrors Hugging Face's. */
async function fetchMlc(): Promise<void> {
  const source = mlcSourceAt(`${HF}/mlc-ai`, MLC_LIBS);
  const pairs: [string, string][] = [
    [source.urlF16, source.libF16],
    [source.urlF32, source.libF32],
  ];
  if (source.embedding) pairs.push([source.embedding.url, source.embedding.lib]);
  for (const [folderUrl, libUrl] of pairs) {
    const id = folderUrl.split('/').at(-1)!;
    console.log(`MLC model for WebGPU: ${id}`);
    const local = join(OUT, 'mlc', id, 'resolve', 'main');
    const config = await fetchJson<{ tokenizer_files?: string[] }>(`${folderUrl}/resolve/main/mlc-chat-config.json`, join(local, 'mlc-chat-config.json'));
    const cache = await fetchTensorCache(folderUrl, local);
    const files = [...(config.tokenizer_files ?? []), ...cache.records.map((r) => r.dataPath)];
    for (const file of files) await download(`${folderUrl}/resolve/main/${file}`, join(local, file));
    const lib = libUrl.split('/').at(-1)!;
    await download(libUrl, join(OUT, 'mlc', 'libs', lib));
  }
}

async function main(): Promise<void> {
  const onlyIndex = process.argv.indexOf('--only');
  const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : undefined;
  if (only !== undefined && only !== 'gguf' && only !== 'mlc') throw new DownloadError(`--only takes gguf or mlc, not ${only}.`);
  const manifest: SelfHostedManifest = {};
  if (only !== 'mlc') manifest.ggufUrl = await fetchGguf();
  if (only !== 'gguf') {
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

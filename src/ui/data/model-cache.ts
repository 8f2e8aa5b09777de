/**
 * The downloaded weights, seen from the page: wllama keeps GGUF files in the origin-private file system
 * (`cache/`, each file next to a `__metadata__` twin naming its URL), web-llm in Cache Storage (`webllm/*`).
 * Both are same-origin, so the page can size and delete them without the engine worker (which holds the model).
 */
import type { ModelSource } from '../../engine/protocol.ts';

export interface CachedFile {
  store: 'opfs' | 'cache-storage';
  /** The file name (OPFS) or the cache's name (Cache Storage). */
  name: string;
  /** Where it was downloaded from, when known. */
  url: string;
  bytes: number;
}

export interface ModelCacheInfo {
  files: CachedFile[];
  totalBytes: number;
}

const WLLAMA_DIR = 'cache';
const WLLAMA_METADATA = '__metadata__';
const WEBLLM_CACHES = ['webllm/model', 'webllm/config', 'webllm/wasm'];

async function wllamaDir(create: boolean): Promise<FileSystemDirectoryHandle | null> {
  if (typeof globalThis.navigator?.storage?.getDirectory !== 'function') return null;
  try {
    const root = await navigator.storage.getDirectory();
    return await root.getDirectoryHandle(WLLAMA_DIR, { create });
  } catch {
    return null;
  }
}

async function readJson(handle: FileSystemFileHandle): Promise<{ originalURL?: unknown; originalSize?: unknown } | null> {
  try {
    return JSON.parse(await (await handle.getFile()).text()) as { originalURL?: unknown; originalSize?: unknown };
  } catch {
    return null;
  }
}

/** wllama's files with their URL (from the metadata) and size. */
async function wllamaFiles(): Promise<CachedFile[]> {
  const dir = await wllamaDir(false);
  if (dir === null) return [];
  const files = new Map<string, FileSystemFileHandle>();
  // entries() is missing from TypeScript's DOM lib for directory handles; values() is enough.
  for await (const handle of (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
    if (handle.kind === 'file') files.set(handle.name, handle as FileSystemFileHandle);
  }
  const out: CachedFile[] = [];
  for (const [name, handle] of files) {
    if (name.startsWith(WLLAMA_METADATA)) continue;
    const meta = files.get(`${WLLAMA_METADATA}${name}`);
    const info = meta ? await readJson(meta) : null;
    const bytes = (await handle.getFile()).size;
    out.push({ store: 'opfs', name, url: typeof info?.originalURL === 'string' ? info.originalURL : '', bytes });
  }
  return out;
}

async function webllmFiles(): Promise<CachedFile[]> {
  if (!globalThis.caches) return [];
  const out: CachedFile[] = [];
  for (const name of WEBLLM_CACHES) {
    if (!(await caches.has(name))) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      const length = Number(response?.headers.get('content-length') ?? NaN);
      const bytes = Number.isFinite(length) ? length : ((await response?.blob())?.size ?? 0);
      out.push({ store: 'cache-storage', name, url: request.url, bytes });
    }
  }
  return out;
}

export async function readModelCache(): Promise<ModelCacheInfo> {
  const files = [...(await wllamaFiles()), ...(await webllmFiles())];
  return { files, totalBytes: files.reduce((sum, f) => sum + f.bytes, 0) };
}

const absolute = (url: string): string => new URL(url, globalThis.location?.href).href;

/** Whether the weights of `source` are already on this device (then the app loads without asking). */
export async function isModelCached(source: ModelSource): Promise<boolean> {
  const info = await readModelCache().catch(() => ({ files: [] as CachedFile[], totalBytes: 0 }));
  if (source.ggufUrl !== undefined) {
    const url = absolute(source.ggufUrl);
    if (info.files.some((f) => f.store === 'opfs' && f.url === url && f.bytes > 0)) return true;
  }
  const mlc = source.mlc;
  if (mlc !== undefined) {
    const bases = [mlc.urlF16, mlc.urlF32].map((u) => absolute(u));
    if (info.files.some((f) => f.name === 'webllm/model' && bases.some((b) => f.url.startsWith(b)))) return true;
  }
  return false;
}

/** Deletes every downloaded model file of both engines. */
export async function deleteModelCache(): Promise<void> {
  const dir = await wllamaDir(false);
  if (dir !== null) {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry(WLLAMA_DIR, { recursive: true });
  }
  if (globalThis.caches) for (const name of WEBLLM_CACHES) await caches.delete(name);
}

/** Clears the whole origin-private file system and every cache (for "delete all my data"). */
export async function clearAllFilesAndCaches(): Promise<void> {
  if (typeof globalThis.navigator?.storage?.getDirectory === 'function') {
    const root = await navigator.storage.getDirectory();
    const names: string[] = [];
    for await (const handle of (root as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) names.push(handle.name);
    for (const name of names) await root.removeEntry(name, { recursive: true });
  }
  if (globalThis.caches) for (const name of await caches.keys()) await caches.delete(name);
}

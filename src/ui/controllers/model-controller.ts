/**
 * What the model manager shows besides the engine's state: the downloaded weights on this device, the origin's
 * storage estimate and whether it is persistent, and the size of a download before the user agrees to it.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { EngineClient } from '../../engine/client.ts';
import type { ModelSource } from '../../engine/protocol.ts';
import { pageAllowsConnect } from '../../shared/csp.ts';
import { deleteModelCache, isModelCached, readModelCache, type ModelCacheInfo } from '../data/model-cache.ts';

export interface StorageState {
  usage: number;
  quota: number;
  /** null where the browser cannot say. */
  persisted: boolean | null;
}

/** The CPU download when nothing better is known (Qwen2.5-0.5B-Instruct q4_k_m). */
export const DEFAULT_GGUF_BYTES = 491_400_032;
/** An MLC q4 build of the same model, weights only (about). */
export const DEFAULT_MLC_BYTES = 289_000_000;

export class ModelController implements ReactiveController {
  cache: ModelCacheInfo | null = null;
  storage: StorageState | null = null;
  /** Size of the GGUF download, from a HEAD request (null until known). */
  downloadBytes: number | null = null;
  /** Whether the current source's weights are on this device (null until checked). */
  cached: boolean | null = null;
  busy = false;

  constructor(private readonly _host: ReactiveControllerHost) {
    _host.addController(this);
  }

  hostConnected(): void {}

  async refresh(source: ModelSource): Promise<void> {
    const [cache, storage, cached] = await Promise.all([readModelCache().catch(() => null), readStorage(), isModelCached(source)]);
    this.cache = cache;
    this.storage = storage;
    this.cached = cached;
    this._host.requestUpdate();
  }

  /** Asks the model host for the file's size (headers only); leaves the estimate when it cannot. */
  async probeSize(source: ModelSource): Promise<void> {
    if (source.ggufUrl === undefined || this.downloadBytes !== null) return;
    // A host the page's CSP blocks: no request (it would only log a violation); loading says why.
    if (!pageAllowsConnect(source.ggufUrl)) return;
    try {
      const response = await fetch(source.ggufUrl, { method: 'HEAD', cache: 'no-store' });
      const length = Number(response.headers.get('content-length'));
      if (response.ok && length > 0) {
        this.downloadBytes = length;
        this._host.requestUpdate();
      }
    } catch {
      // Offline or no CORS for HEAD: the estimate stands.
    }
  }

  async requestPersistence(): Promise<void> {
    await navigator.storage?.persist?.().catch(() => false);
    this.storage = await readStorage();
    this._host.requestUpdate();
  }

  /** The engine deletes what it cached (it unloads first); the page then clears what is left of both engines' caches. */
  async deleteCache(source: ModelSource, engine: EngineClient): Promise<void> {
    this.busy = true;
    this._host.requestUpdate();
    try {
      await engine.deleteCache(source, true).catch(() => {});
      await deleteModelCache();
    } finally {
      this.busy = false;
      await this.refresh(source);
    }
  }
}

export async function readStorage(): Promise<StorageState | null> {
  const storage = globalThis.navigator?.storage;
  if (!storage?.estimate) return null;
  try {
    const { usage = 0, quota = 0 } = await storage.estimate();
    const persisted = storage.persisted ? await storage.persisted() : null;
    return { usage, quota, persisted };
  } catch {
    return null;
  }
}

/**
 * voy-search (a k-d tree in wasm) behind `VectorIndex`. Kept as an option and for the benchmark: the flat SIMD
 * index is what the product uses, because it measured faster at every size we care about (bench/store).
 *
 * What voy needs from us, all found the hard way:
 * - it pads every vector to 768 dimensions and silently truncates longer ones, so wider vectors are refused here
 *   (searches then use the exact scan);
 * - its tree panics ("Too many items with the same position on one axis") once more than 32 vectors share a value
 *   on a split axis — zeros in sparse vectors, or repeated texts. Each stored component gets a tiny deterministic
 *   jitter (±1e-6), far below any score difference that matters, and the scores we return are exact, from our copy;
 * - `search` returns no distances, so scores come from our copy of the vectors;
 * - a wasm panic poisons the instance: after one, this index serves exact scans and says so once.
 */
import type { Neighbor, Resource } from 'voy-search';
import { hashString } from '../embedders/index.ts';
import { dot, exactSearch, type IndexEntry, type IndexSearchOptions, type SearchHit, type VectorIndex } from './vector-index.ts';

export interface VoyInstance {
  add(resource: Resource): void;
  remove(resource: Resource): void;
  clear(): void;
  size(): number;
  search(query: Float32Array, k: number): { neighbors: Neighbor[] };
  free(): void;
}

export interface VoyModule {
  Voy: new (resource?: Resource) => VoyInstance;
}

export const VOY_MAX_DIMENSIONS = 768;
const JITTER = 1e-6;
/** Extra neighbours asked of voy and re-scored exactly, so the jitter can never swap the k-th and (k+1)-th. */
const MARGIN = 8;

export interface VoyIndexOptions {
  onWarning?: (message: string, error?: unknown) => void;
}

export class VoyIndex implements VectorIndex {
  readonly kind = 'voy' as const;
  readonly dimensions: number;
  private readonly _voy: VoyInstance;
  private readonly _entries = new Map<string, IndexEntry>();
  private _broken: string | null = null;
  private readonly _warn: (message: string, error?: unknown) => void;

  constructor(module: VoyModule, dimensions: number, options: VoyIndexOptions = {}) {
    this.dimensions = dimensions;
    this._warn = options.onWarning ?? ((message, error) => console.warn(message, error));
    this._voy = new module.Voy();
    if (dimensions > VOY_MAX_DIMENSIONS) {
      this._broken = `voy pads to ${VOY_MAX_DIMENSIONS} dimensions and cannot hold ${dimensions}`;
    }
  }

  /** Why this index fell back to exact scans, or null while voy serves. */
  get fallbackReason(): string | null {
    return this._broken;
  }

  get size(): number {
    return this._entries.size;
  }

  has(id: string): boolean {
    return this._entries.has(id);
  }

  add(entries: readonly IndexEntry[]): void {
    for (const entry of entries) {
      if (entry.vector.length !== this.dimensions) {
        throw new RangeError(`vector ${entry.id} has ${entry.vector.length} dimensions, the index ${this.dimensions}`);
      }
    }
    const replaced = entries.map((e) => this._entries.get(e.id)).filter((e): e is IndexEntry => e !== undefined);
    this._guard(() => {
      if (replaced.length > 0) this._voy.remove(this._resource(replaced));
    });
    for (const entry of entries) this._entries.set(entry.id, { id: entry.id, scope: entry.scope, vector: entry.vector });
    this._guard(() => this._voy.add(this._resource(entries)));
  }

  remove(ids: readonly string[]): void {
    const gone = ids.map((id) => this._entries.get(id)).filter((e): e is IndexEntry => e !== undefined);
    if (gone.length === 0) return;
    for (const entry of gone) this._entries.delete(entry.id);
    this._guard(() => this._voy.remove(this._resource(gone)));
  }

  removeScope(scope: string): void {
    this.remove([...this._entries.values()].filter((e) => e.scope === scope).map((e) => e.id));
  }

  clear(): void {
    this._entries.clear();
    this._guard(() => this._voy.clear());
  }

  search(query: Float32Array, k: number, options: IndexSearchOptions = {}): SearchHit[] {
    if (query.length !== this.dimensions) {
      throw new RangeError(`query has ${query.length} dimensions, the index ${this.dimensions}`);
    }
    if (k <= 0 || this._entries.size === 0) return [];
    if (this._broken !== null) return exactSearch(this._entries.values(), query, k, options);
    const scopes = options.scopes === undefined ? null : new Set(options.scopes);
    // voy cannot filter: ask for more neighbours until enough pass the scope filter (or all were seen).
    let want = Math.min(k + MARGIN, this._entries.size);
    for (;;) {
      let neighbors: Neighbor[];
      try {
        neighbors = this._voy.search(query, want).neighbors;
      } catch (error) {
        this._fail(error);
        return exactSearch(this._entries.values(), query, k, options);
      }
      const hits: SearchHit[] = [];
      for (const neighbor of neighbors) {
        const entry = this._entries.get(neighbor.id);
        if (entry === undefined || (scopes !== null && !scopes.has(entry.scope))) continue;
        hits.push({ id: entry.id, scope: entry.scope, score: dot(entry.vector, query) });
      }
      if (hits.length >= k + MARGIN || want >= this._entries.size) {
        return hits.sort((a, b) => b.score - a.score).slice(0, k);
      }
      want = Math.min(this._entries.size, want * 4);
    }
  }

  dispose(): void {
    this._entries.clear();
    try {
      this._voy.free();
    } catch {
      // Already poisoned by a panic: nothing left to free.
    }
  }

  private _resource(entries: readonly IndexEntry[]): Resource {
    return {
      embeddings: entries.map((entry) => ({ id: entry.id, title: entry.scope, url: '', embeddings: jittered(entry) })),
    };
  }

  private _guard(action: () => void): void {
    if (this._broken !== null) return;
    try {
      action();
    } catch (error) {
      this._fail(error);
    }
  }

  private _fail(error: unknown): void {
    this._broken = `voy failed (${error instanceof Error ? error.message : String(error)}); exact scans from now on`;
    this._warn(`[memory] ${this._broken}`, error);
  }
}

/** The vector voy stores: ours plus a deterministic jitter per (id, component), so no two values coincide. */
function jittered(entry: IndexEntry): number[] {
  const out = new Array<number>(entry.vector.length);
  let h = hashString(entry.id);
  for (let i = 0; i < entry.vector.length; i++) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) + i;
    out[i] = entry.vector[i]! + JITTER * (((h >>> 8) & 0xffff) / 0x8000 - 1 || 0.5);
  }
  return out;
}

/**
 * The exact vector index the product uses: every vector in one contiguous block of wasm memory, scored by the
 * SIMD dot kernel in one pass, then a top-k selection. Exact by construction, O(n·d) per search, and faster than
 * voy's k-d tree at our sizes (see bench/store and scripts/bench/store.ts). No DOM: runs in Node too.
 *
 * Layout of the kernel's memory: [query | rows × paddedDims floats | scores]. Deletes move the last row into the
 * hole, so the rows stay contiguous.
 */
import { createDotKernel, type DotKernel } from './dot-kernel.ts';
import { TopK, type IndexEntry, type IndexSearchOptions, type SearchHit, type VectorIndex } from './vector-index.ts';

const PAGE = 65_536;

export interface FlatIndexOptions {
  /** Force the plain-JS kernel (tests compare it with SIMD). */
  kernel?: 'auto' | 'js';
  /** Rows to reserve up front. */
  capacity?: number;
}

export class FlatIndex implements VectorIndex {
  readonly kind = 'flat' as const;
  readonly dimensions: number;
  private readonly _padded: number;
  private readonly _kernel: DotKernel;
  private readonly _dataOffset: number;
  private _capacity = 0;
  private _ids: string[] = [];
  private _slots = new Map<string, number>();
  private _scopeOfSlot = new Int32Array(0);
  private readonly _scopeCodes = new Map<string, number>();
  private readonly _scopeNames: string[] = [];

  constructor(dimensions: number, options: FlatIndexOptions = {}) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new RangeError(`bad dimensions: ${dimensions}`);
    this.dimensions = dimensions;
    // The kernel takes 8 floats per step; padding with zeros leaves dot products unchanged.
    this._padded = Math.ceil(dimensions / 8) * 8;
    this._kernel = createDotKernel(options.kernel ?? 'auto');
    this._dataOffset = this._padded * 4;
    this._reserve(Math.max(16, options.capacity ?? 0));
  }

  /** 'simd' or 'js': which kernel scans. */
  get kernelKind(): 'simd' | 'js' {
    return this._kernel.kind;
  }

  get size(): number {
    return this._ids.length;
  }

  has(id: string): boolean {
    return this._slots.has(id);
  }

  add(entries: readonly IndexEntry[]): void {
    for (const entry of entries) {
      if (entry.vector.length !== this.dimensions) {
        throw new RangeError(`vector ${entry.id} has ${entry.vector.length} dimensions, the index ${this.dimensions}`);
      }
    }
    this._reserve(this._ids.length + entries.length);
    let floats = new Float32Array(this._kernel.memory.buffer);
    for (const entry of entries) {
      let slot = this._slots.get(entry.id);
      if (slot === undefined) {
        slot = this._ids.length;
        this._ids.push(entry.id);
        this._slots.set(entry.id, slot);
      }
      if (floats.buffer !== this._kernel.memory.buffer) floats = new Float32Array(this._kernel.memory.buffer);
      const base = (this._dataOffset >> 2) + slot * this._padded;
      floats.set(entry.vector, base);
      if (this._padded !== this.dimensions) floats.fill(0, base + this.dimensions, base + this._padded);
      this._scopeOfSlot[slot] = this._scopeCode(entry.scope);
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const slot = this._slots.get(id);
      if (slot !== undefined) this._removeSlot(slot);
    }
  }

  removeScope(scope: string): void {
    const code = this._scopeCodes.get(scope);
    if (code === undefined) return;
    // Backwards, so that the row moved into a hole has already been checked.
    for (let slot = this._ids.length - 1; slot >= 0; slot--) {
      if (this._scopeOfSlot[slot] === code) this._removeSlot(slot);
    }
  }

  clear(): void {
    this._ids = [];
    this._slots = new Map();
  }

  search(query: Float32Array, k: number, options: IndexSearchOptions = {}): SearchHit[] {
    if (query.length !== this.dimensions) {
      throw new RangeError(`query has ${query.length} dimensions, the index ${this.dimensions}`);
    }
    const rows = this._ids.length;
    if (rows === 0 || k <= 0) return [];
    const scoresOffset = this._dataOffset + this._capacity * this._padded * 4;
    const floats = new Float32Array(this._kernel.memory.buffer);
    floats.set(query, 0);
    if (this._padded !== this.dimensions) floats.fill(0, this.dimensions, this._padded);
    this._kernel.scores(this._dataOffset, 0, scoresOffset, rows, this._padded);
    const scores = new Float32Array(this._kernel.memory.buffer, scoresOffset, rows);
    const allowed = this._scopeMask(options.scopes);
    const top = new TopK<number>(k);
    for (let slot = 0; slot < rows; slot++) {
      const score = scores[slot]!;
      if (score <= top.threshold) continue;
      if (allowed !== null && allowed[this._scopeOfSlot[slot]!] !== 1) continue;
      top.push(score, slot);
    }
    return top.result().map(({ score, item }) => ({
      id: this._ids[item]!,
      scope: this._scopeNames[this._scopeOfSlot[item]!]!,
      score,
    }));
  }

  /** A copy of one stored vector (for tests and for the exact fallback). */
  vector(id: string): Float32Array | undefined {
    const slot = this._slots.get(id);
    if (slot === undefined) return undefined;
    const base = this._dataOffset + slot * this._padded * 4;
    return new Float32Array(this._kernel.memory.buffer.slice(base, base + this.dimensions * 4));
  }

  dispose(): void {
    this.clear();
    // Wasm memory cannot shrink; dropping the last reference to the kernel lets it be collected.
  }

  private _scopeCode(scope: string): number {
    let code = this._scopeCodes.get(scope);
    if (code === undefined) {
      code = this._scopeNames.length;
      this._scopeNames.push(scope);
      this._scopeCodes.set(scope, code);
    }
    return code;
  }

  private _scopeMask(scopes: readonly string[] | undefined): Uint8Array | null {
    if (scopes === undefined) return null;
    const mask = new Uint8Array(this._scopeNames.length);
    for (const scope of scopes) {
      const code = this._scopeCodes.get(scope);
      if (code !== undefined) mask[code] = 1;
    }
    return mask;
  }

  private _removeSlot(slot: number): void {
    const last = this._ids.length - 1;
    const id = this._ids[slot]!;
    if (slot !== last) {
      const movedId = this._ids[last]!;
      const rowBytes = this._padded * 4;
      const bytes = new Uint8Array(this._kernel.memory.buffer);
      bytes.copyWithin(this._dataOffset + slot * rowBytes, this._dataOffset + last * rowBytes, this._dataOffset + (last + 1) * rowBytes);
      this._ids[slot] = movedId;
      this._slots.set(movedId, slot);
      this._scopeOfSlot[slot] = this._scopeOfSlot[last]!;
    }
    this._ids.pop();
    this._slots.delete(id);
  }

  /** Grows the memory (doubling) so `rows` rows plus their scores fit. */
  private _reserve(rows: number): void {
    if (rows <= this._capacity) return;
    const capacity = Math.max(rows, this._capacity * 2);
    const needed = this._dataOffset + capacity * this._padded * 4 + capacity * 4;
    const have = this._kernel.memory.buffer.byteLength;
    if (needed > have) this._kernel.memory.grow(Math.ceil((needed - have) / PAGE));
    const scopes = new Int32Array(capacity);
    scopes.set(this._scopeOfSlot.subarray(0, this._ids.length));
    this._scopeOfSlot = scopes;
    this._capacity = capacity;
  }
}

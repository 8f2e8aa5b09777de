/**
 * The exact vector index the product uses. Every vector is kept twice: in float32 (the truth) and quantised to
 * int8 with a per-vector scale, contiguous in wasm memory (in blocks by pair of dimensions, see dot-kernel.ts). A
 * search scans the int8 rows with the SIMD kernel (a quarter of the memory traffic of float32, less again for a
 * sparse query: only the pairs it sets are read), bounds each row's error, and re-scores in float only the rows
 * whose bound could still reach the top k. The result is the exact top k, not an approximation:
 *
 *   v ≈ s·a (int8 a, error ≤ s/2 per component), q ≈ t·b (int16 b, error ≤ t/2), so
 *   |v·q − s·t·(a·b)| ≤ s·(‖q‖₁ + t·‖a‖₁)/2 =: ε. With L the k-th largest lower bound (approx − ε), every true
 *   top-k row has approx + ε ≥ L; those rows are re-scored exactly.
 *
 * Measured (bench/store): 100k × 256 in a few ms where a float32 SIMD scan took ~10–17 ms and voy's k-d tree
 * ~190 ms. Without wasm SIMD the index scans the float32 rows in plain JS. Deletes move the last row into the
 * hole, so rows stay contiguous. No DOM: runs in Node too.
 */
import { BLOCK_ROWS, createInt8DotKernel, KERNEL_STEP, rowByte, type Int8DotKernel } from './dot-kernel.ts';
import { TopK, type IndexEntry, type IndexSearchOptions, type SearchHit, type VectorIndex } from './vector-index.ts';
import { Interner } from '../../shared/interner.ts';
import { kthLargest } from './kth-largest.ts';

const PAGE = 65_536;

export interface FlatIndexOptions {
  /** `js`: skip the SIMD pre-scan (tests compare both). */
  kernel?: 'auto' | 'js';
  /** Rows to reserve up front. */
  capacity?: number;
}

/** A row's float vector worked out again (a row restored from its int8 form only): the same bits as was added. */
export type FloatSource = (id: string) => Float32Array | undefined;

/**
 * The rows in their int8 form, as a snapshot keeps them (a quarter of the float rows' bytes): in the SIMD kernel's
 * block layout (dot-kernel.ts's `rowByte`; whole blocks, `padded` bytes a row), so that a restore is one copy into
 * the kernel's memory, with each row's scale, L1 norm and finiteness; `keep` lists the rows whose floats cannot be worked
 * out again (given, not computed), with those floats.
 */
export interface QuantizedRows {
  ids: string[];
  scopes: string[];
  padded: number;
  rows: Int8Array;
  scale: Float32Array;
  l1: Float32Array;
  finite: Uint8Array;
  keep: { rows: Int32Array; vectors: Float32Array };
}

export class FlatIndex implements VectorIndex {
  readonly kind = 'flat' as const;
  readonly dimensions: number;
  private readonly _padded: number;
  private readonly _kernel: Int8DotKernel | null;
  /** Largest |b| of the int16 query that keeps a row's int32 sum from overflowing. */
  private readonly _queryMax: number;
  private _capacity = 0;
  private _ids: string[] = [];
  private _slots = new Map<string, number>();
  private _vectors = new Float32Array(0);
  private _scale = new Float32Array(0);
  private _l1 = new Float32Array(0);
  private _scopeOfSlot = new Int32Array(0);
  /** 1 where every value of the row is finite: only such a row may skip the query's zeros (see `_exact`). */
  private _finite = new Uint8Array(0);
  /** 1 where the float row is not held yet: `_source` works it out on first use (`importQuantized`). */
  private _lazy = new Uint8Array(0);
  private _source: FloatSource | null = null;
  /** Writes so far (adds, removes): the last scan's dots describe the rows only while this is unchanged. */
  private _writes = 0;
  /** The last int8 scan: its query and what its bounds need; its dots stay in the kernel's memory until the next. */
  private _scan: { query: Float32Array; writes: number; t: number; q1: number } | null = null;
  /** Scratch for a search's lower bounds, and for the rows pass 1 keeps with their upper bounds, kept between searches. */
  private _lows = new Float64Array(0);
  private _kept = new Int32Array(0);
  private _highs = new Float64Array(0);
  private readonly _scopes = new Interner();

  constructor(dimensions: number, options: FlatIndexOptions = {}) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new RangeError(`bad dimensions: ${dimensions}`);
    this.dimensions = dimensions;
    this._padded = Math.ceil(dimensions / KERNEL_STEP) * KERNEL_STEP;
    this._kernel = options.kernel === 'js' ? null : createInt8DotKernel();
    this._queryMax = Math.min(32_767, Math.floor(0x7fffffff / (this._padded * 127)) - 1);
    this._reserve(Math.max(16, options.capacity ?? 0));
  }

  /** `simd-int8`: the int8 pre-scan; `js`: plain float32 scan. */
  get kernelKind(): 'simd-int8' | 'js' {
    return this._kernel === null ? 'js' : 'simd-int8';
  }

  get size(): number {
    return this._ids.length;
  }

  has(id: string): boolean {
    return this._slots.has(id);
  }

  add(entries: readonly IndexEntry[]): void {
    this._writes += 1;
    for (const entry of entries) {
      if (entry.vector.length !== this.dimensions) {
        throw new RangeError(`vector ${entry.id} has ${entry.vector.length} dimensions, the index ${this.dimensions}`);
      }
    }
    this._reserve(this._ids.length + entries.length);
    const rows = this._kernel === null ? null : new Int8Array(this._kernel.memory.buffer, this._rowsOffset, this._capacity * this._padded);
    for (const entry of entries) {
      let slot = this._slots.get(entry.id);
      if (slot === undefined) {
        slot = this._ids.length;
        this._ids.push(entry.id);
        this._slots.set(entry.id, slot);
      }
      const v = entry.vector;
      this._vectors.set(v, slot * this.dimensions);
      this._lazy[slot] = 0;
      this._scopeOfSlot[slot] = this._scopes.code(entry.scope);
      let finite = 1;
      for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i]!)) finite = 0;
      this._finite[slot] = finite;
      if (rows === null) continue;
      const blockBytes = this._blockBytes;
      const at = slot;
      const { scale, l1 } = this._quantize(slot, (i, a) => (rows[rowByte(at, i, blockBytes)] = a));
      this._scale[slot] = scale;
      this._l1[slot] = l1;
    }
  }

  /** Quantises a row's floats to int8, each value handed to `put` (padding as 0); its scale and L1 norm. */
  private _quantize(slot: number, put: (i: number, a: number) => void): { scale: number; l1: number } {
    const base = slot * this.dimensions;
    const v = this._vectors;
    let max = 0;
    for (let i = 0; i < this.dimensions; i++) max = Math.max(max, Math.abs(v[base + i]!));
    const scale = max > 0 && Number.isFinite(max) ? max / 127 : 0;
    const inverse = scale > 0 ? 1 / scale : 0;
    let l1 = 0;
    for (let i = 0; i < this._padded; i++) {
      // |v[i]·inverse| ≤ 127 up to rounding; the clamp keeps a last-bit excess from wrapping around. Padding is 0.
      const a = i < this.dimensions ? Math.max(-127, Math.min(127, Math.round(v[base + i]! * inverse))) : 0;
      put(i, a);
      l1 += Math.abs(a);
    }
    return { scale: Math.fround(scale), l1 };
  }

  /** Works out a row's floats when it was restored without them. */
  private _ensureFloat(slot: number): void {
    if (this._lazy[slot] !== 1) return;
    const vector = this._source?.(this._ids[slot]!);
    if (vector === undefined || vector.length !== this.dimensions) throw new RangeError(`no float row for ${this._ids[slot]}`);
    this._vectors.set(vector, slot * this.dimensions);
    this._lazy[slot] = 0;
  }

  /**
   * The rows in their int8 form (`QuantizedRows`); `keepFloat(id)`: whether a row's floats must be kept because
   * they cannot be worked out again from what the caller holds.
   */
  exportQuantized(keepFloat: (id: string) => boolean): QuantizedRows {
    const n = this._ids.length;
    const padded = this._padded;
    const blockBytes = this._blockBytes;
    // The rows in the kernel's own block layout (whole blocks), so a restore is one copy into its memory.
    const rows = new Int8Array(Math.ceil(n / BLOCK_ROWS) * blockBytes);
    const scale = new Float32Array(n);
    const l1 = new Float32Array(n);
    if (this._kernel !== null) {
      rows.set(new Int8Array(this._kernel.memory.buffer, this._rowsOffset, rows.length));
      // A removed row's bytes may linger past the last row: the export holds zeros there.
      for (let slot = n; slot < Math.ceil(n / BLOCK_ROWS) * BLOCK_ROWS; slot++) for (let i = 0; i < padded; i++) rows[rowByte(slot, i, blockBytes)] = 0;
      scale.set(this._scale.subarray(0, n));
      l1.set(this._l1.subarray(0, n));
    } else {
      for (let slot = 0; slot < n; slot++) {
        const { scale: sc, l1: norm } = this._quantize(slot, (i, a) => (rows[rowByte(slot, i, blockBytes)] = a));
        scale[slot] = sc;
        l1[slot] = norm;
      }
    }
    const kept = this._ids.flatMap((id, slot) => (keepFloat(id) ? [slot] : []));
    const vectors = new Float32Array(kept.length * this.dimensions);
    kept.forEach((slot, j) => {
      this._ensureFloat(slot);
      vectors.set(this._vectors.subarray(slot * this.dimensions, (slot + 1) * this.dimensions), j * this.dimensions);
    });
    return {
      ids: [...this._ids],
      scopes: this._ids.map((_, slot) => this._scopes.name(this._scopeOfSlot[slot]!)),
      padded,
      rows,
      scale,
      l1,
      finite: this._finite.slice(0, n),
      keep: { rows: Int32Array.from(kept), vectors },
    };
  }

  /**
   * Fills an empty index from `exportQuantized` rows: the int8 rows as they were, the kept floats, and `source` for
   * the other floats, worked out when a search first re-scores the row (without the SIMD kernel, at once: its scan
   * reads floats). Throws a RangeError for rows that do not fit this index.
   */
  importQuantized(data: QuantizedRows, source: FloatSource): void {
    const n = data.ids.length;
    const padded = this._padded;
    if (this._ids.length !== 0) throw new RangeError('importQuantized needs an empty index');
    if (data.padded !== padded || data.rows.length !== Math.ceil(n / BLOCK_ROWS) * this._blockBytes || data.scopes.length !== n) throw new RangeError('quantized rows of another shape');
    if (data.scale.length !== n || data.l1.length !== n || data.finite.length !== n) throw new RangeError('quantized row arrays');
    if (data.keep.vectors.length !== data.keep.rows.length * this.dimensions) throw new RangeError('kept float rows');
    this._writes += 1;
    // Room for the turns a restored index takes in next: the first of them must not double every array (10,000
    // rows: a 20 MB float array allocated and 10 MB copied, ~70 ms of a page load's first prompt).
    this._reserve(n + Math.max(BLOCK_ROWS, n >> 3));
    this._source = source;
    data.ids.forEach((id, slot) => {
      this._ids.push(id);
      this._slots.set(id, slot);
      this._scopeOfSlot[slot] = this._scopes.code(data.scopes[slot]!);
    });
    if (this._slots.size !== n) throw new RangeError('duplicate row ids');
    this._finite.set(data.finite);
    this._lazy.fill(1, 0, n);
    // Kept rows are copied a run of consecutive slots at a time (a docs index keeps every row: one copy).
    const kept = data.keep.rows;
    const d = this.dimensions;
    for (let j = 0; j < kept.length; ) {
      let k = j + 1;
      while (k < kept.length && kept[k] === kept[k - 1]! + 1) k++;
      const first = kept[j]!;
      if (!(first >= 0 && kept[k - 1]! < n)) throw new RangeError('kept row out of range');
      this._vectors.set(data.keep.vectors.subarray(j * d, k * d), first * d);
      this._lazy.fill(0, first, first + (k - j));
      j = k;
    }
    if (this._kernel === null) {
      for (let slot = 0; slot < n; slot++) this._ensureFloat(slot);
      return;
    }
    new Int8Array(this._kernel.memory.buffer, this._rowsOffset, this._capacity * padded).set(data.rows);
    this._scale.set(data.scale);
    this._l1.set(data.l1);
  }

  remove(ids: readonly string[]): void {
    this._writes += 1;
    for (const id of ids) {
      const slot = this._slots.get(id);
      if (slot !== undefined) this._removeSlot(slot);
    }
  }

  removeScope(scope: string): void {
    this._writes += 1;
    const code = this._scopes.codeOf(scope);
    if (code === undefined) return;
    // Backwards, so that the row moved into a hole has already been checked.
    for (let slot = this._ids.length - 1; slot >= 0; slot--) {
      if (this._scopeOfSlot[slot] === code) this._removeSlot(slot);
    }
  }

  clear(): void {
    this._writes += 1;
    this._ids = [];
    this._slots = new Map();
  }

  search(query: Float32Array, k: number, options: IndexSearchOptions = {}): SearchHit[] {
    if (query.length !== this.dimensions) {
      throw new RangeError(`query has ${query.length} dimensions, the index ${this.dimensions}`);
    }
    const n = this._ids.length;
    if (n === 0 || k <= 0) return [];
    const allowed = this._scopeMask(options.scopes);
    const ok = (slot: number): boolean => allowed === null || allowed[this._scopeOfSlot[slot]!] === 1;
    // (The SIMD path below inlines `ok`: it runs 200,000 times per search at 100k.)
    const top = new TopK<number>(k);
    const nz = nonZeros(query, this.dimensions);
    if (this._kernel === null) {
      for (let slot = 0; slot < n; slot++) if (ok(slot)) top.push(this._exact(slot, query, nz), slot);
      return this._hits(top);
    }

    // Quantise the query, scan int8, bound the error of each row.
    let qMax = 0;
    let q1 = 0;
    for (let i = 0; i < query.length; i++) {
      const x = Math.abs(query[i]!);
      qMax = Math.max(qMax, x);
      q1 += x;
    }
    if (qMax === 0) {
      // Against a zero query every row scores +0 (NaN where it holds a non-finite value, which TopK drops), so the
      // first k allowed rows with a score are the top k (ties keep the earlier): the rest need not be scored.
      let scored = 0;
      for (let slot = 0; slot < n && scored < k; slot++) {
        if (!ok(slot)) continue;
        const score = this._exact(slot, query, nz);
        top.push(score, slot);
        if (!Number.isNaN(score)) scored++;
      }
      return this._hits(top);
    }
    if (!Number.isFinite(qMax)) {
      for (let slot = 0; slot < n; slot++) if (ok(slot)) top.push(this._exact(slot, query, nz), slot);
      return this._hits(top);
    }
    const t = qMax / this._queryMax;
    // The query as int16, by pair of dimensions: the pairs it sets, and each one's lanes (qa, qb) × 4.
    const pairCount = this._padded / 2;
    const pairs = new Int32Array(this._kernel.memory.buffer, 0, pairCount);
    const lanes = new Int16Array(this._kernel.memory.buffer, pairCount * 4, pairCount * 8);
    let listed = 0;
    for (let p = 0; p < pairCount; p++) {
      const qa = 2 * p < query.length ? Math.round(query[2 * p]! / t) : 0;
      const qb = 2 * p + 1 < query.length ? Math.round(query[2 * p + 1]! / t) : 0;
      if (qa === 0 && qb === 0) continue;
      pairs[listed] = p;
      for (let l = listed * 8; l < listed * 8 + 8; l += 2) {
        lanes[l] = qa;
        lanes[l + 1] = qb;
      }
      listed++;
    }
    const outOffset = this._scoresOffset;
    this._kernel.scores(this._rowsOffset, 0, listed * 4, pairCount * 4, outOffset, Math.ceil(n / BLOCK_ROWS), this._blockBytes);
    const dots = new Int32Array(this._kernel.memory.buffer, outOffset, n);
    this._scan = { query, writes: this._writes, t, q1 };
    const scale = this._scale;
    const l1 = this._l1;
    const scopeOf = this._scopeOfSlot;
    // Pass 1: the floor, the k-th largest lower bound among the allowed rows (-Infinity while there are fewer).
    // Bounds above the floor so far go to a buffer; once it holds 2k, its k-th largest becomes the floor and only
    // its k largest stay. O(1) a row amortised, even when every row raises the floor (rows stored in ascending
    // order of score); a running top k costs O(k) for each row that enters it (most of a search at k = 120).
    // The floor only rises, so a row whose upper bound is below it already is out: the others are kept, in
    // order, for pass 2 (a few hundred of 10,000), with their upper bounds.
    const room = Math.min(2 * k, n);
    if (this._lows.length < room) this._lows = new Float64Array(room);
    if (this._kept.length < n) [this._kept, this._highs] = [new Int32Array(this._capacity), new Float64Array(this._capacity)];
    const lows = this._lows;
    const kept = this._kept;
    const highs = this._highs;
    let count = 0;
    let keptCount = 0;
    let floor = -Infinity;
    for (let slot = 0; slot < n; slot++) {
      if (allowed !== null && allowed[scopeOf[slot]!] !== 1) continue;
      const sc = scale[slot]!;
      // approx ± ε, with a sliver of slack for float rounding in these products.
      const approx = dots[slot]! * sc * t;
      const error = (sc * (q1 + t * l1[slot]!)) / 2;
      const high = approx + error + 1e-6;
      if (high < floor) continue;
      kept[keptCount] = slot;
      highs[keptCount++] = high;
      const low = approx - error - 1e-6;
      // A NaN bound (a stored non-finite value) bounds nothing; pass 2 re-scores its row anyway.
      if (!(low > floor)) continue;
      lows[count++] = low;
      if (count === 2 * k) {
        floor = kthLargest(lows, count, k);
        lows.copyWithin(0, count - k, count); // where kthLargest left the k largest
        count = k;
      }
    }
    if (count >= k) floor = kthLargest(lows, count, k);
    // Pass 2: only rows whose upper bound reaches the floor can be in the top k; score them exactly.
    for (let i = 0; i < keptCount; i++) {
      if (highs[i]! < floor) continue;
      const slot = kept[i]!;
      top.push(this._exact(slot, query, nz), slot);
    }
    return this._hits(top);
  }

  /** dot(query, the stored vector of `id`), bit for bit, without copying the vector. */
  dotWith(id: string, query: Float32Array): number | undefined {
    const slot = this._slots.get(id);
    return slot === undefined ? undefined : this._exact(slot, query, nonZeros(query, this.dimensions));
  }

  /**
   * max(0, `dotWith`) of each id, bit for bit, in order (undefined for an id not stored). When the last scan was of
   * this query (the same array, unchanged) and nothing was written since, a row whose upper bound there is below 0
   * answers +0 without its floats being read: a search's candidates found otherwise often point away from its query
   * (half of a docs search's), and their floats are the cost of a dot product (a cold kilobyte each).
   */
  positiveDotsWith(ids: readonly string[], query: Float32Array): Array<number | undefined> {
    const scan = this._scan !== null && this._scan.query === query && this._scan.writes === this._writes && this._kernel !== null ? this._scan : null;
    const dots = scan === null ? null : new Int32Array(this._kernel!.memory.buffer, this._scoresOffset, this._ids.length);
    const nz = nonZeros(query, this.dimensions);
    return ids.map((id) => {
      const slot = this._slots.get(id);
      if (slot === undefined) return undefined;
      if (scan !== null) {
        const sc = this._scale[slot]!;
        // The scan's upper bound (see `search`): below 0, so is the dot.
        if (dots![slot]! * sc * scan.t + (sc * (scan.q1 + scan.t * this._l1[slot]!)) / 2 + 1e-6 < 0) return 0;
      }
      return Math.max(0, this._exact(slot, query, nz));
    });
  }

  /** A copy of one stored vector. */
  vector(id: string): Float32Array | undefined {
    const slot = this._slots.get(id);
    if (slot === undefined) return undefined;
    this._ensureFloat(slot);
    return this._vectors.slice(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  dispose(): void {
    this.clear();
    // Wasm memory cannot shrink; dropping the last reference to the kernel lets it be collected.
  }

  /** Byte offset of the int8 rows: after the query's pair list (int32 each) and lanes (16 bytes each), 16-byte aligned. */
  private get _rowsOffset(): number {
    return Math.ceil(((this._padded / 2) * 20) / 16) * 16;
  }

  /** Byte offset of the scan's int32 scores: after the rows (scratch, kept until the next scan). */
  private get _scoresOffset(): number {
    return this._rowsOffset + this._capacity * this._padded;
  }

  /** Bytes of a block of rows (see dot-kernel.ts). */
  private get _blockBytes(): number {
    return this._padded * BLOCK_ROWS;
  }

  /**
   * The float dot product of a stored row with `query`, summed in index order exactly as `dot()` does (so the
   * same bits). With `nz` (the query's non-zero positions) a finite row sums only those: each product skipped is
   * ±0, and adding ±0 to the sum changes nothing (the sum starts at +0 and so is never −0). A hashed-n-gram
   * query has a fifth or less of its dimensions set. Else unrolled by four, still one sum in that order: about a
   * quarter faster than the plain loop.
   */
  private _exact(slot: number, query: Float32Array, nz: Int32Array | null): number {
    if (this._lazy[slot] === 1) this._ensureFloat(slot);
    const base = slot * this.dimensions;
    const v = this._vectors;
    let sum = 0;
    if (nz !== null && this._finite[slot] === 1) {
      for (let j = 0; j < nz.length; j++) sum += v[base + nz[j]!]! * query[nz[j]!]!;
      return sum;
    }
    const n = Math.min(query.length, this.dimensions);
    let i = 0;
    for (; i + 3 < n; i += 4) {
      sum += v[base + i]! * query[i]!;
      sum += v[base + i + 1]! * query[i + 1]!;
      sum += v[base + i + 2]! * query[i + 2]!;
      sum += v[base + i + 3]! * query[i + 3]!;
    }
    for (; i < n; i++) sum += v[base + i]! * query[i]!;
    return sum;
  }

  private _hits(top: TopK<number>): SearchHit[] {
    return top.result().map(({ score, item }) => ({ id: this._ids[item]!, scope: this._scopes.name(this._scopeOfSlot[item]!), score }));
  }

  private _scopeMask(scopes: readonly string[] | undefined): Uint8Array | null {
    if (scopes === undefined) return null;
    const mask = new Uint8Array(this._scopes.size);
    for (const scope of scopes) {
      const code = this._scopes.codeOf(scope);
      if (code !== undefined) mask[code] = 1;
    }
    return mask;
  }

  private _removeSlot(slot: number): void {
    const last = this._ids.length - 1;
    const id = this._ids[slot]!;
    if (slot !== last) {
      const movedId = this._ids[last]!;
      this._vectors.copyWithin(slot * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      if (this._kernel !== null) {
        const rows = new Int8Array(this._kernel.memory.buffer, this._rowsOffset);
        const blockBytes = this._blockBytes;
        for (let i = 0; i < this._padded; i++) rows[rowByte(slot, i, blockBytes)] = rows[rowByte(last, i, blockBytes)]!;
      }
      this._scale[slot] = this._scale[last]!;
      this._l1[slot] = this._l1[last]!;
      this._scopeOfSlot[slot] = this._scopeOfSlot[last]!;
      this._finite[slot] = this._finite[last]!;
      this._lazy[slot] = this._lazy[last]!;
      this._ids[slot] = movedId;
      this._slots.set(movedId, slot);
    }
    this._ids.pop();
    this._slots.delete(id);
  }

  /** Grows every per-row array (doubling) so `rows` rows fit, and the kernel's memory with them. */
  private _reserve(rows: number): void {
    if (rows <= this._capacity) return;
    // Whole blocks of rows: the kernel scans a block at a time.
    const capacity = Math.ceil(Math.max(rows, this._capacity * 2) / BLOCK_ROWS) * BLOCK_ROWS;
    const used = this._ids.length;
    const grow = <T extends Float32Array | Int32Array | Uint8Array>(old: T, make: (n: number) => T, width = 1): T => {
      const next = make(capacity * width);
      next.set(old.subarray(0, used * width));
      return next;
    };
    this._vectors = grow(this._vectors, (n) => new Float32Array(n), this.dimensions);
    this._scale = grow(this._scale, (n) => new Float32Array(n));
    this._l1 = grow(this._l1, (n) => new Float32Array(n));
    this._scopeOfSlot = grow(this._scopeOfSlot, (n) => new Int32Array(n));
    this._finite = grow(this._finite, (n) => new Uint8Array(n));
    this._lazy = grow(this._lazy, (n) => new Uint8Array(n));
    if (this._kernel !== null) {
      // [query pairs and lanes | int8 rows, in blocks | int32 scores]: the rows grow in place, the scores are scratch.
      const needed = this._rowsOffset + capacity * this._padded + capacity * 4;
      const have = this._kernel.memory.buffer.byteLength;
      if (needed > have) this._kernel.memory.grow(Math.ceil((needed - have) / PAGE));
    }
    this._capacity = capacity;
  }
}

/**
 * The positions of `query`'s non-zero values (among the first `dimensions`), in order, when they are at most half
 * of them (the sparse sum then pays); else null (`_exact` sums every position).
 */
function nonZeros(query: Float32Array, dimensions: number): Int32Array | null {
  const n = Math.min(query.length, dimensions); // what `_exact` sums
  let count = 0;
  for (let i = 0; i < n; i++) if (query[i] !== 0) count++;
  if (count * 2 > n) return null;
  const nz = new Int32Array(count);
  for (let i = 0, j = 0; i < n; i++) if (query[i] !== 0) nz[j++] = i;
  return nz;
}

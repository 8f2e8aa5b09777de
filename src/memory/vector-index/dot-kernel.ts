/**
 * The inner loop of the flat vector index: integer dot products of one query (int16) against N rows (int8), in
 * WebAssembly SIMD (`i32x4.dot_i16x8_s`). The module is assembled here from bytes (about 250 of them), so it
 * needs no build step, no fetch and no file: the same code runs in Node and the browser.
 *
 * Why int8: a scan is bound by memory bandwidth. 100k × 256 float32 rows are 100 MB per search (~10–17 ms
 * measured here); as int8 they are 25 MB. The index then re-scores the few candidates exactly in float (see
 * flat-index.ts), so results stay exact.
 *
 * Why blocks of dimension pairs: the built-in embedder's queries are sparse (a fifth of their dimensions or
 * fewer), and a scan need only read the dimensions a query sets. Rows are stored in blocks of `BLOCK_ROWS`; a
 * block holds, for each pair of dimensions, those two values of each of its rows, side by side (64 bytes: one
 * cache line). The kernel reads only the pairs the query lists, so a sparse query reads a fraction of the rows'
 * bytes, and a dense one all of them at the same cost per byte as a row-by-row scan.
 */

/**
 * `scores` computes, for each row r of `blocks` blocks at `dataOffset` (each `blockBytes` long):
 * `out[r] = Σ_listed pairs p (data[r, 2p] * qa_p + data[r, 2p + 1] * qb_p)` (int8 × int16 → int32), where the
 * pairs are the int32 pair indexes at `pairsOffset` up to `pairsEnd` and, for each, `queryOffset` holds a v128 of
 * eight int16 lanes `qa_p, qb_p, qa_p, qb_p, …`. Offsets in bytes; `out` gets BLOCK_ROWS int32 per block.
 */
export interface Int8DotKernel {
  readonly memory: WebAssembly.Memory;
  scores(dataOffset: number, pairsOffset: number, pairsEnd: number, queryOffset: number, outOffset: number, blocks: number, blockBytes: number): void;
}

/** Rows are padded to a multiple of this many dimensions. */
export const KERNEL_STEP = 16;

/** Rows per block: a pair of dimensions of a block's rows is 64 bytes. */
export const BLOCK_ROWS = 32;

/** Where the value of dimension `dim` of row `row` lies in the rows' bytes (blocks of `blockBytes`). */
export function rowByte(row: number, dim: number, blockBytes: number): number {
  return Math.floor(row / BLOCK_ROWS) * blockBytes + (dim >> 1) * (2 * BLOCK_ROWS) + (row % BLOCK_ROWS) * 2 + (dim & 1);
}

/** Unsigned LEB128. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (i32.const takes its operand so: 64 and up need two bytes). */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const name = (text: string): number[] => [...leb(text.length), ...[...text].map((c) => c.charCodeAt(0))];

// Opcodes used below.
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const I32_CONST = 0x41;
const I32_LOAD = 0x28;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_SHL = 0x74;
const I32_LT_U = 0x49;
const I32_EQZ = 0x45;
const BR_IF = 0x0d;
const LOOP = 0x03;
const IF = 0x04;
const RETURN = 0x0f;
const END = 0x0b;
const VOID = 0x40;
const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_LOAD8X8_S = [SIMD, 0x01];
const V128_STORE = [SIMD, 0x0b];
const V128_CONST = [SIMD, 0x0c];
const I32X4_ADD = [SIMD, ...leb(0xae)];
const I32X4_DOT_I16X8_S = [SIMD, ...leb(0xba)];

/**
 * (func $scores (param $data $pairs $pairsEnd $query $out $blocks $blockBytes i32)
 *   (local $p $q $base i32) (local $qv $acc0 … $acc7 v128))
 * Per block: per listed pair, its v128 of query lanes and the pair's 64 bytes (8 loads of 4 rows × 2 dims,
 * widened to int16), one dot product each into the accumulator of those 4 rows; then the 32 sums are stored.
 */
function kernelBody(): number[] {
  const [data, pairs, pairsEnd, query, out, blocks, blockBytes, p, q, base, qv] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const acc = (m: number): number => 11 + m;
  const quads = BLOCK_ROWS / 4;
  const zero = [...V128_CONST, ...new Array<number>(16).fill(0)];
  const code = [
    LOCAL_GET, blocks, I32_EQZ, IF, VOID, RETURN, END,
    LOCAL_GET, pairs, LOCAL_GET, pairsEnd, I32_LT_U, I32_EQZ, IF, VOID, RETURN, END,
    LOOP, VOID,
    ...Array.from({ length: quads }, (_, m) => [...zero, LOCAL_SET, acc(m)]).flat(),
    LOCAL_GET, pairs, LOCAL_SET, p,
    LOCAL_GET, query, LOCAL_SET, q,
    LOOP, VOID,
    // base = data + pair * 64
    LOCAL_GET, data, LOCAL_GET, p, I32_LOAD, 2, 0, I32_CONST, ...sleb(6), I32_SHL, I32_ADD, LOCAL_SET, base,
    LOCAL_GET, q, ...V128_LOAD, 4, 0, LOCAL_SET, qv,
    ...Array.from({ length: quads }, (_, m) => [
      LOCAL_GET, acc(m),
      LOCAL_GET, base, ...V128_LOAD8X8_S, 0, ...leb(m * 8),
      LOCAL_GET, qv, ...I32X4_DOT_I16X8_S, ...I32X4_ADD, LOCAL_SET, acc(m),
    ]).flat(),
    LOCAL_GET, q, I32_CONST, ...sleb(16), I32_ADD, LOCAL_SET, q,
    LOCAL_GET, p, I32_CONST, ...sleb(4), I32_ADD, LOCAL_SET, p,
    LOCAL_GET, p, LOCAL_GET, pairsEnd, I32_LT_U, BR_IF, 0,
    END,
    ...Array.from({ length: quads }, (_, m) => [LOCAL_GET, out, LOCAL_GET, acc(m), ...V128_STORE, 4, ...leb(m * 16)]).flat(),
    LOCAL_GET, out, I32_CONST, ...sleb(BLOCK_ROWS * 4), I32_ADD, LOCAL_SET, out,
    LOCAL_GET, data, LOCAL_GET, blockBytes, I32_ADD, LOCAL_SET, data,
    LOCAL_GET, blocks, I32_CONST, ...sleb(1), I32_SUB, LOCAL_SET, blocks,
    LOCAL_GET, blocks, BR_IF, 0,
    END,
    END,
  ];
  const locals = [2, 3, 0x7f, 1 + quads, 0x7b]; // 3 × i32; qv and the accumulators, v128
  const body = [...locals, ...code];
  return [...leb(body.length), ...body];
}

/** The module's bytes: one function `scores`, one exported memory. */
export function dotKernelBytes(): Uint8Array<ArrayBuffer> {
  const I32 = 0x7f;
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 7, I32, I32, I32, I32, I32, I32, I32, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]), // memory: 1 page to start, no maximum
    ...section(7, [2, ...name('memory'), 2, 0, ...name('scores'), 0, 0]),
    ...section(10, [1, ...kernelBody()]),
  ]);
}

let compiled: WebAssembly.Module | null | undefined;

/** A kernel with its own memory, or null where the runtime lacks wasm SIMD (the index then scans in plain JS). */
export function createInt8DotKernel(): Int8DotKernel | null {
  if (compiled === undefined) {
    try {
      const bytes = dotKernelBytes();
      compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      compiled = null;
    }
  }
  if (compiled === null) return null;
  const instance = new WebAssembly.Instance(compiled, {});
  const scores = instance.exports['scores'] as Int8DotKernel['scores'];
  return { memory: instance.exports['memory'] as WebAssembly.Memory, scores };
}

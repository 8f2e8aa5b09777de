/**
 * The inner loop of the flat vector index: integer dot products of one query (int16) against N rows (int8), in
 * WebAssembly SIMD (`i32x4.dot_i16x8_s`). The module is assembled here from bytes (about 200 of them), so it
 * needs no build step, no fetch and no file: the same code runs in Node and the browser.
 *
 * Why int8: a scan is bound by memory bandwidth. 100k × 256 float32 rows are 100 MB per search (~10–17 ms
 * measured here); as int8 they are 25 MB. The index then re-scores the few candidates exactly in float (see
 * flat-index.ts), so results stay exact.
 */

/** Computes `out[i] = Σ_j data[i*dims + j] * query[j]` (int8 × int16 → int32) for `rows` rows; offsets in bytes. */
export interface Int8DotKernel {
  readonly memory: WebAssembly.Memory;
  scores(dataOffset: number, queryOffset: number, outOffset: number, rows: number, dims: number): void;
}

/** Rows are padded to a multiple of this many dimensions (the kernel's step). */
export const KERNEL_STEP = 16;

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

const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const name = (text: string): number[] => [...leb(text.length), ...[...text].map((c) => c.charCodeAt(0))];

// Opcodes used below.
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_CONST = 0x41;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_LT_U = 0x49;
const I32_EQZ = 0x45;
const I32_STORE = 0x36;
const BR_IF = 0x0d;
const LOOP = 0x03;
const IF = 0x04;
const RETURN = 0x0f;
const END = 0x0b;
const VOID = 0x40;
const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_LOAD8X8_S = [SIMD, 0x01];
const V128_CONST = [SIMD, 0x0c];
const I32X4_EXTRACT = [SIMD, 0x1b];
const I32X4_ADD = [SIMD, ...leb(0xae)];
const I32X4_DOT_I16X8_S = [SIMD, ...leb(0xba)];

/**
 * (func $scores (param $data i32) (param $query i32) (param $out i32) (param $rows i32) (param $dims i32)
 *   (local $j i32) (local $jq i32) (local $acc0 v128) (local $acc1 v128))
 * 16 dimensions per step: two int8×8 loads widened to int16, two dot products with the int16 query.
 */
function kernelBody(): number[] {
  const [data, query, out, rows, dims, j, jq, acc0, acc1] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const zero = [...V128_CONST, ...new Array<number>(16).fill(0)];
  const dot = (acc: number, dataOffset: number, queryOffset: number): number[] => [
    LOCAL_GET, acc,
    LOCAL_GET, data, LOCAL_GET, j, I32_ADD, ...V128_LOAD8X8_S, 0, ...leb(dataOffset),
    LOCAL_GET, query, LOCAL_GET, jq, I32_ADD, ...V128_LOAD, 0, ...leb(queryOffset),
    ...I32X4_DOT_I16X8_S, ...I32X4_ADD, LOCAL_SET, acc,
  ];
  const lane = (i: number): number[] => [LOCAL_GET, acc0, ...I32X4_EXTRACT, i];
  const code = [
    LOCAL_GET, rows, I32_EQZ, IF, VOID, RETURN, END,
    LOOP, VOID,
    ...zero, LOCAL_SET, acc0,
    ...zero, LOCAL_SET, acc1,
    I32_CONST, 0, LOCAL_SET, j,
    I32_CONST, 0, LOCAL_SET, jq,
    LOOP, VOID,
    ...dot(acc0, 0, 0),
    ...dot(acc1, 8, 16),
    LOCAL_GET, jq, I32_CONST, 32, I32_ADD, LOCAL_SET, jq,
    LOCAL_GET, j, I32_CONST, 16, I32_ADD, LOCAL_TEE, j,
    LOCAL_GET, dims, I32_LT_U, BR_IF, 0,
    END,
    LOCAL_GET, acc0, LOCAL_GET, acc1, ...I32X4_ADD, LOCAL_SET, acc0,
    LOCAL_GET, out,
    ...lane(0), ...lane(1), I32_ADD, ...lane(2), I32_ADD, ...lane(3), I32_ADD,
    I32_STORE, 2, 0,
    LOCAL_GET, out, I32_CONST, 4, I32_ADD, LOCAL_SET, out,
    LOCAL_GET, data, LOCAL_GET, dims, I32_ADD, LOCAL_SET, data,
    LOCAL_GET, rows, I32_CONST, 1, I32_SUB, LOCAL_TEE, rows,
    BR_IF, 0,
    END,
    END,
  ];
  const locals = [2, 2, 0x7f, 2, 0x7b]; // 2 × i32, 2 × v128
  const body = [...locals, ...code];
  return [...leb(body.length), ...body];
}

/** The module's bytes: one function `scores`, one exported memory. */
export function dotKernelBytes(): Uint8Array<ArrayBuffer> {
  const I32 = 0x7f;
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
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
  const scores = instance.exports['scores'] as (d: number, q: number, o: number, r: number, dims: number) => void;
  return { memory: instance.exports['memory'] as WebAssembly.Memory, scores };
}

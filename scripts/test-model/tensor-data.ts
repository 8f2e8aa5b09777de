/**
 * Streams tensor bytes chunk by chunk from a per-row fill function, so big tensors never exist
 * whole in memory as floats.
 */
import { encodeF16, encodeF32, GGML_TYPE, quantizeQ8_0, type GgmlType } from './ggml-types.ts';

/** Rows per chunk are chosen so a chunk holds about this many values. */
const CHUNK_VALUES = 1 << 20;

/**
 * Yields the encoded rows of an `nRows` × `rowLength` tensor (ggml shape [rowLength, nRows]).
 * `fill(row, out)` writes row `row` into `out`, which arrives zeroed.
 */
export function* encodeRows(
  type: GgmlType,
  rowLength: number,
  nRows: number,
  fill: (row: number, out: Float32Array) => void,
): Generator<Uint8Array> {
  const rowsPerChunk = Math.max(1, Math.floor(CHUNK_VALUES / rowLength));
  const buf = new Float32Array(rowsPerChunk * rowLength);
  for (let first = 0; first < nRows; first += rowsPerChunk) {
    const rows = Math.min(rowsPerChunk, nRows - first);
    const values = buf.subarray(0, rows * rowLength);
    values.fill(0);
    for (let r = 0; r < rows; r++) fill(first + r, values.subarray(r * rowLength, (r + 1) * rowLength));
    yield encode(type, values);
  }
}

export function encode(type: GgmlType, values: Float32Array): Uint8Array {
  switch (type) {
    case GGML_TYPE.F32:
      return encodeF32(values).slice(); // a copy: callers reuse their buffers
    case GGML_TYPE.F16:
      return encodeF16(values);
    case GGML_TYPE.Q8_0:
      return quantizeQ8_0(values);
  }
}

/** A tensor whose values are all `value`. */
export function constantRows(type: GgmlType, rowLength: number, nRows: number, value: number): () => Iterable<Uint8Array> {
  return () => encodeRows(type, rowLength, nRows, (_row, out) => out.fill(value));
}

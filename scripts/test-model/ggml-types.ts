/**
 * The ggml tensor types the test-model scripts use (F32, F16, Q8_0): their ids, sizes, and
 * encoders/decoders that match ggml's reference implementations.
 */

export const GGML_TYPE = { F32: 0, F16: 1, Q8_0: 8 } as const;
export type GgmlType = (typeof GGML_TYPE)[keyof typeof GGML_TYPE];

/** Q8_0: blocks of 32 values, each an f16 scale followed by 32 int8. */
export const Q8_0_BLOCK = 32;
export const Q8_0_BLOCK_BYTES = 2 + Q8_0_BLOCK;

export function ggmlTypeName(type: number): string {
  switch (type) {
    case GGML_TYPE.F32:
      return 'F32';
    case GGML_TYPE.F16:
      return 'F16';
    case GGML_TYPE.Q8_0:
      return 'Q8_0';
    default:
      return `type ${type}`;
  }
}

/** Bytes taken by `count` values of `type`; Q8_0 needs a multiple of 32. */
export function ggmlByteSize(type: GgmlType, count: number): number {
  switch (type) {
    case GGML_TYPE.F32:
      return count * 4;
    case GGML_TYPE.F16:
      return count * 2;
    case GGML_TYPE.Q8_0:
      if (count % Q8_0_BLOCK !== 0) throw new Error(`Q8_0 needs a multiple of ${Q8_0_BLOCK} values, got ${count}`);
      return (count / Q8_0_BLOCK) * Q8_0_BLOCK_BYTES;
  }
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half from a float, rounding to nearest even (like ggml's FP32_TO_FP16). */
export function f32ToF16(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0); // inf / nan
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow
  if (e <= 0) {
    if (e < -10) return sign; // underflow to zero
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && (half & 1) !== 0)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (half & 1) !== 0)) half++; // a carry into the exponent is still right
  return sign | half;
}

export function f16ToF32(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant !== 0 ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

export function encodeF32(values: Float32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

export function encodeF16(values: Float32Array): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setUint16(i * 2, f32ToF16(values[i]!), true);
  return out;
}

/** ggml's quantize_row_q8_0_ref: d = amax/127 stored as f16, q = round(x/d) with the unrounded d. */
export function quantizeQ8_0(values: Float32Array): Uint8Array {
  const out = new Uint8Array(ggmlByteSize(GGML_TYPE.Q8_0, values.length));
  const view = new DataView(out.buffer);
  const q = new Int8Array(out.buffer);
  for (let b = 0, src = 0, dst = 0; src < values.length; b++, src += Q8_0_BLOCK, dst += Q8_0_BLOCK_BYTES) {
    let amax = 0;
    for (let j = 0; j < Q8_0_BLOCK; j++) amax = Math.max(amax, Math.abs(values[src + j]!));
    const d = Math.fround(amax / 127);
    const id = d !== 0 ? Math.fround(1 / d) : 0;
    view.setUint16(dst, f32ToF16(d), true);
    for (let j = 0; j < Q8_0_BLOCK; j++) {
      const x = Math.fround(values[src + j]! * id);
      q[dst + 2 + j] = Math.sign(x) * Math.round(Math.abs(x)); // roundf: half away from zero
    }
  }
  return out;
}

/** Decodes `count` values of `type` from `bytes` (little-endian). */
export function decodeTensor(type: number, bytes: Uint8Array, count: number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(count);
  switch (type) {
    case GGML_TYPE.F32:
      for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
      return out;
    case GGML_TYPE.F16:
      for (let i = 0; i < count; i++) out[i] = f16ToF32(view.getUint16(i * 2, true));
      return out;
    case GGML_TYPE.Q8_0:
      for (let src = 0, i = 0; i < count; src += Q8_0_BLOCK_BYTES) {
        const d = f16ToF32(view.getUint16(src, true));
        for (let j = 0; j < Q8_0_BLOCK; j++, i++) out[i] = d * view.getInt8(src + 2 + j);
      }
      return out;
    default:
      throw new Error(`cannot decode ggml ${ggmlTypeName(type)}`);
  }
}

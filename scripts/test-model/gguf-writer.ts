/**
 * A minimal GGUF v3 writer. The header (metadata and tensor infos) is built in memory; tensor
 * data is streamed to the file in the chunks each tensor's `data()` yields, so a large model
 * is never held in memory whole (let alone twice).
 *
 * Layout: magic, version, tensor count, KV count, KVs, tensor infos, padding to the alignment,
 * then each tensor's bytes at an aligned offset (relative to the start of the data section).
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { ggmlByteSize, type GgmlType } from './ggml-types.ts';

export const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian uint32
export const GGUF_VERSION = 3;
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** GGUF metadata value type ids. */
export const GGUF_VALUE_TYPE = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;

export type GgufValue =
  | { type: 'uint32'; value: number }
  | { type: 'int32'; value: number }
  | { type: 'float32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'int32[]'; value: ArrayLike<number> };

export const gguf = {
  u32: (value: number): GgufValue => ({ type: 'uint32', value }),
  i32: (value: number): GgufValue => ({ type: 'int32', value }),
  f32: (value: number): GgufValue => ({ type: 'float32', value }),
  bool: (value: boolean): GgufValue => ({ type: 'bool', value }),
  str: (value: string): GgufValue => ({ type: 'string', value }),
  strs: (value: readonly string[]): GgufValue => ({ type: 'string[]', value }),
  i32s: (value: ArrayLike<number>): GgufValue => ({ type: 'int32[]', value }),
};

export interface GgufTensor {
  name: string;
  /** ggml order: ne[0] (the row length) first. */
  shape: readonly number[];
  type: GgmlType;
  /** Yields the tensor's bytes, in any number of chunks; they must add up to its exact size. */
  data: () => Iterable<Uint8Array>;
}

export interface GgufFile {
  /** Written in this order. Keys must be unique. */
  metadata: ReadonlyArray<readonly [string, GgufValue]>;
  tensors: readonly GgufTensor[];
  alignment?: number;
}

export interface WrittenGguf {
  bytes: number;
  sha256: string;
}

/** A little-endian byte buffer that grows as it is written. */
class ByteSink {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  length = 0;
  private static readonly utf8 = new TextEncoder();

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.reserve(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
  }
  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  i32(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }
  f32(v: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }
  u64(v: number | bigint): void {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt(v), true);
    this.length += 8;
  }
  /** A GGUF string: uint64 byte length, then UTF-8 without a terminator. */
  str(s: string): void {
    const bytes = ByteSink.utf8.encode(s);
    this.u64(bytes.length);
    this.bytes(bytes);
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  zeros(n: number): void {
    this.reserve(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
  }
  result(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

function writeValue(sink: ByteSink, v: GgufValue): void {
  const T = GGUF_VALUE_TYPE;
  switch (v.type) {
    case 'uint32':
      sink.u32(T.UINT32);
      sink.u32(v.value);
      return;
    case 'int32':
      sink.u32(T.INT32);
      sink.i32(v.value);
      return;
    case 'float32':
      sink.u32(T.FLOAT32);
      sink.f32(v.value);
      return;
    case 'bool':
      sink.u32(T.BOOL);
      sink.u8(v.value ? 1 : 0);
      return;
    case 'string':
      sink.u32(T.STRING);
      sink.str(v.value);
      return;
    case 'string[]':
      sink.u32(T.ARRAY);
      sink.u32(T.STRING);
      sink.u64(v.value.length);
      for (const s of v.value) sink.str(s);
      return;
    case 'int32[]':
      sink.u32(T.ARRAY);
      sink.u32(T.INT32);
      sink.u64(v.value.length);
      for (let i = 0; i < v.value.length; i++) sink.i32(v.value[i]!);
      return;
  }
}

const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;

export function tensorByteSize(t: Pick<GgufTensor, 'shape' | 'type'>): number {
  return ggmlByteSize(
    t.type,
    t.shape.reduce((a, b) => a * b, 1),
  );
}

/** The header bytes (up to and including the padding before the data section) and each tensor's data offset. */
export function encodeGgufHeader(file: GgufFile): { header: Uint8Array; offsets: number[] } {
  const alignment = file.alignment ?? GGUF_DEFAULT_ALIGNMENT;
  const keys = new Set<string>();
  for (const [key] of file.metadata) {
    if (keys.has(key)) throw new Error(`duplicate GGUF key ${key}`);
    keys.add(key);
  }
  const names = new Set<string>();
  for (const t of file.tensors) {
    if (names.has(t.name)) throw new Error(`duplicate tensor ${t.name}`);
    names.add(t.name);
  }

  const metadata: Array<readonly [string, GgufValue]> = [...file.metadata];
  if (alignment !== GGUF_DEFAULT_ALIGNMENT && !keys.has('general.alignment')) {
    metadata.push(['general.alignment', gguf.u32(alignment)]);
  }

  const sink = new ByteSink();
  sink.u32(GGUF_MAGIC);
  sink.u32(GGUF_VERSION);
  sink.u64(file.tensors.length);
  sink.u64(metadata.length);
  for (const [key, value] of metadata) {
    sink.str(key);
    writeValue(sink, value);
  }
  const offsets: number[] = [];
  let offset = 0;
  for (const t of file.tensors) {
    sink.str(t.name);
    sink.u32(t.shape.length);
    for (const n of t.shape) sink.u64(n);
    sink.u32(t.type);
    sink.u64(offset);
    offsets.push(offset);
    offset = alignUp(offset + tensorByteSize(t), alignment);
  }
  sink.zeros(alignUp(sink.length, alignment) - sink.length);
  return { header: sink.result(), offsets };
}

/**
 * Writes `file` to `path` (through `path + '.partial'`, renamed at the end, so an interrupted run
 * leaves no truncated model behind). Returns the size and SHA-256 of what was written.
 */
export function writeGguf(path: string, file: GgufFile): WrittenGguf {
  const alignment = file.alignment ?? GGUF_DEFAULT_ALIGNMENT;
  const { header } = encodeGgufHeader(file);
  const partial = `${path}.partial`;
  const fd = openSync(partial, 'w');
  const hash = createHash('sha256');
  let bytes = 0;
  const put = (chunk: Uint8Array): void => {
    let done = 0;
    while (done < chunk.length) done += writeSync(fd, chunk, done, chunk.length - done);
    hash.update(chunk);
    bytes += chunk.length;
  };
  try {
    put(header);
    for (const t of file.tensors) {
      const expected = tensorByteSize(t);
      let got = 0;
      for (const chunk of t.data()) {
        got += chunk.length;
        if (got > expected) break;
        put(chunk);
      }
      if (got !== expected) throw new Error(`tensor ${t.name}: data gave ${got} bytes, expected ${expected}`);
      const pad = alignUp(expected, alignment) - expected;
      if (pad > 0) put(new Uint8Array(pad));
    }
  } catch (err) {
    closeSync(fd);
    rmSync(partial, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(partial, path);
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * A tiny GGUF (v2/v3) reader for tests: header, metadata, tensor infos, and tensor data
 * decoded to floats. Reads from an in-memory buffer.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { decodeTensor, ggmlByteSize, type GgmlType } from './ggml-types.ts';
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GGUF_VALUE_TYPE } from './gguf-writer.ts';

export type GgufMetaValue = number | bigint | boolean | string | GgufMetaValue[];

export interface GgufTensorInfo {
  name: string;
  /** ggml order: ne[0] first. */
  shape: number[];
  type: number;
  /** Relative to `dataOffset`. */
  offset: number;
  /** Bytes of data (without padding). */
  size: number;
}

export interface ParsedGguf {
  version: number;
  metadata: Map<string, GgufMetaValue>;
  /** The value type of each key (GGUF_VALUE_TYPE; for arrays, `ARRAY` and the element type). */
  metadataTypes: Map<string, { type: number; elementType?: number }>;
  tensors: GgufTensorInfo[];
  alignment: number;
  /** Absolute file offset of the data section. */
  dataOffset: number;
}

class Cursor {
  private readonly view: DataView;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number): void {
    if (this.pos + n > this.bytes.length) throw new RangeError(`GGUF truncated at byte ${this.pos} (need ${n} more)`);
  }
  u8(): number {
    this.need(1);
    return this.view.getUint8(this.pos++);
  }
  i8(): number {
    this.need(1);
    return this.view.getInt8(this.pos++);
  }
  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }
  i16(): number {
    this.need(2);
    const v = this.view.getInt16(this.pos, true);
    this.pos += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f32(): number {
    this.need(4);
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }
  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }
  i64(): bigint {
    this.need(8);
    const v = this.view.getBigInt64(this.pos, true);
    this.pos += 8;
    return v;
  }
  /** A uint64 that must fit a JS number (counts, sizes, offsets). */
  size(): number {
    const v = this.u64();
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`GGUF size ${v} too large`);
    return Number(v);
  }
  str(): string {
    const n = this.size();
    this.need(n);
    const s = this.utf8.decode(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }
}

function readValue(c: Cursor, type: number): GgufMetaValue {
  const T = GGUF_VALUE_TYPE;
  switch (type) {
    case T.UINT8:
      return c.u8();
    case T.INT8:
      return c.i8();
    case T.UINT16:
      return c.u16();
    case T.INT16:
      return c.i16();
    case T.UINT32:
      return c.u32();
    case T.INT32:
      return c.i32();
    case T.FLOAT32:
      return c.f32();
    case T.BOOL: {
      const b = c.u8();
      if (b > 1) throw new Error(`GGUF bool with value ${b}`);
      return b === 1;
    }
    case T.STRING:
      return c.str();
    case T.UINT64:
      return c.u64();
    case T.INT64:
      return c.i64();
    case T.FLOAT64:
      return c.f64();
    case T.ARRAY: {
      const elementType = c.u32();
      const n = c.size();
      const out: GgufMetaValue[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = readValue(c, elementType);
      return out;
    }
    default:
      throw new Error(`unknown GGUF value type ${type}`);
  }
}

/** Parses everything before the data section. `bytes` may be just the start of the file. */
export function parseGguf(bytes: Uint8Array): ParsedGguf {
  const c = new Cursor(bytes);
  const magic = c.u32();
  if (magic !== GGUF_MAGIC) throw new Error(`not a GGUF file (magic 0x${magic.toString(16)})`);
  const version = c.u32();
  if (version !== 2 && version !== 3) throw new Error(`unsupported GGUF version ${version}`);
  const nTensors = c.size();
  const nKv = c.size();
  const metadata = new Map<string, GgufMetaValue>();
  const metadataTypes = new Map<string, { type: number; elementType?: number }>();
  for (let i = 0; i < nKv; i++) {
    const key = c.str();
    const type = c.u32();
    if (metadata.has(key)) throw new Error(`duplicate GGUF key ${key}`);
    if (type === GGUF_VALUE_TYPE.ARRAY) {
      const at = c.pos;
      const elementType = c.u32();
      c.pos = at;
      metadataTypes.set(key, { type, elementType });
    } else {
      metadataTypes.set(key, { type });
    }
    metadata.set(key, readValue(c, type));
  }
  const alignmentValue = metadata.get('general.alignment');
  const alignment = typeof alignmentValue === 'number' ? alignmentValue : GGUF_DEFAULT_ALIGNMENT;
  const tensors: GgufTensorInfo[] = [];
  for (let i = 0; i < nTensors; i++) {
    const name = c.str();
    const nDims = c.u32();
    const shape: number[] = [];
    for (let d = 0; d < nDims; d++) shape.push(c.size());
    const type = c.u32();
    const offset = c.size();
    if (offset % alignment !== 0) throw new Error(`tensor ${name}: offset ${offset} not aligned to ${alignment}`);
    const size = ggmlByteSize(
      type as GgmlType,
      shape.reduce((a, b) => a * b, 1),
    );
    tensors.push({ name, shape, type, offset, size });
  }
  const dataOffset = Math.ceil(c.pos / alignment) * alignment;
  return { version, metadata, metadataTypes, tensors, alignment, dataOffset };
}

export interface GgufFileContents extends ParsedGguf {
  bytes: Uint8Array;
}

/** Reads and parses a whole GGUF file. */
export function readGgufFile(path: string): GgufFileContents {
  const bytes = new Uint8Array(readFileSync(path));
  return { ...parseGguf(bytes), bytes };
}

/** Parses only the header of a (possibly huge) GGUF file, reading at most `maxBytes` of it. */
export function readGgufHeader(path: string, maxBytes = 64 << 20): ParsedGguf {
  const size = statSync(path).size;
  const bytes = new Uint8Array(Math.min(size, maxBytes));
  const fd = openSync(path, 'r');
  try {
    let done = 0;
    while (done < bytes.length) {
      const n = readSync(fd, bytes, done, bytes.length - done, done);
      if (n === 0) break;
      done += n;
    }
  } finally {
    closeSync(fd);
  }
  return parseGguf(bytes);
}

export function findTensor(file: ParsedGguf, name: string): GgufTensorInfo {
  const t = file.tensors.find((x) => x.name === name);
  if (!t) throw new Error(`no tensor ${name}`);
  return t;
}

/** A tensor's values as floats (dequantized), row-major with rows of length shape[0]. */
export function readTensor(file: GgufFileContents, name: string): Float32Array {
  const t = findTensor(file, name);
  const start = file.dataOffset + t.offset;
  if (start + t.size > file.bytes.length) throw new RangeError(`tensor ${name} runs past the end of the file`);
  const count = t.shape.reduce((a, b) => a * b, 1);
  return decodeTensor(t.type, file.bytes.subarray(start, start + t.size), count);
}

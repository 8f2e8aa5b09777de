/**
 * A saved index's state packed into one Blob, and back. IndexedDB hands a structured-clone value of 40 MB to the
 * page at about 15 ms a megabyte on a laptop-class CPU, and its put serialises it on the page's thread first; a
 * Blob is written by the browser off the page's thread and read back about 2.5× faster (measured in Chromium on
 * the 2-core machine: put 36 ms against 640–890 ms, read 224–497 ms against 533–646 ms for 40 MB).
 *
 * What is packed: plain objects and arrays, strings, booleans, null, finite numbers, and typed arrays. Typed arrays
 * go into the body as they are (8-byte aligned, read back as views of one buffer); long string lists go in as
 * references into one table of distinct strings (a UTF-16 run with their lengths), so a string the state lists
 * several times is stored, and read back, once (a turn's id is in five lists of an index, a conversation's id in
 * two hundred: a fifth of a 10,000-turn index's bytes before); the rest is a JSON header. Anything else (a Map,
 * NaN, a function) throws a TypeError at pack time, so a value that cannot come back the same is never written.
 * Pure: Node and the browser.
 */

const MAGIC = 0x58494c51; // "QLIX"
/** 2: string lists refer to one table of distinct strings. 1 (still read: a docs index built before): each list its own run. */
const VERSION = 2;
/** String lists at least this long go into the body; shorter ones stay in the header. */
const STRING_RUN = 16;

const TYPED = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
} as const;
type TypedName = keyof typeof TYPED;
type Typed = InstanceType<(typeof TYPED)[TypedName]>;

/** Header markers (a packed object never has a key starting with `$`). */
interface TypedRef {
  $t: TypedName;
  o: number;
  n: number;
}
/** A string list: its length, and the offset of its Uint32 references into the table. */
interface StringsRef {
  $s: number;
  o: number;
}
/** The table of distinct strings: how many, the offset of the UTF-16 run and of the Uint32 lengths, code units. */
interface StringTable {
  n: number;
  o: number;
  l: number;
  c: number;
  /** Some string is not well-formed UTF-16 (a lone surrogate): read back code unit by code unit. */
  raw?: true;
}
/** The header: the value, and the table its string lists refer to. */
interface Header {
  v: unknown;
  t: StringTable;
}

const typedName = (value: unknown): TypedName | null => {
  if (!ArrayBuffer.isView(value)) return null;
  const name = value.constructor.name;
  return name in TYPED ? (name as TypedName) : null;
};

const wellFormed = (s: string): boolean =>
  typeof (s as { isWellFormed?: () => boolean }).isWellFormed === 'function'
    ? (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

export function packState(value: unknown): Blob {
  const parts: ArrayBufferView[] = [];
  let size = 0;
  const append = (view: ArrayBufferView): number => {
    const pad = (8 - (size % 8)) % 8;
    if (pad > 0) {
      parts.push(new Uint8Array(pad));
      size += pad;
    }
    const at = size;
    parts.push(view);
    size += view.byteLength;
    return at;
  };
  const walk = (v: unknown, path: string): unknown => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new TypeError(`cannot pack ${v} at ${path}`);
      return v;
    }
    const typed = typedName(v);
    if (typed !== null) {
      const t = v as Typed;
      return { $t: typed, o: append(t), n: t.length } satisfies TypedRef;
    }
    if (Array.isArray(v)) {
      if (v.length >= STRING_RUN && v.every((s) => typeof s === 'string')) return packStrings(v as string[]);
      return v.map((x, i) => walk(x, `${path}[${i}]`));
    }
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [key, x] of Object.entries(v)) {
        if (key.startsWith('$')) throw new TypeError(`cannot pack the key ${key} at ${path}`);
        if (x !== undefined) out[key] = walk(x, `${path}.${key}`);
      }
      return out;
    }
    throw new TypeError(`cannot pack ${Object.prototype.toString.call(v)} at ${path}`);
  };
  const codes = new Map<string, number>();
  const table: string[] = [];
  const packStrings = (list: string[]): StringsRef => {
    const refs = new Uint32Array(list.length);
    list.forEach((s, i) => {
      let code = codes.get(s);
      if (code === undefined) {
        code = table.length;
        codes.set(s, code);
        table.push(s);
      }
      refs[i] = code;
    });
    return { $s: list.length, o: append(refs) };
  };
  const packTable = (): StringTable => {
    const lengths = new Uint32Array(table.length);
    let chars = 0;
    let raw = false;
    table.forEach((s, i) => {
      lengths[i] = s.length;
      chars += s.length;
      if (!raw && !wellFormed(s)) raw = true;
    });
    const units = new Uint16Array(chars);
    let k = 0;
    for (const s of table) for (let i = 0; i < s.length; i++) units[k++] = s.charCodeAt(i);
    return { n: table.length, o: append(units), l: append(lengths), c: chars, ...(raw ? { raw: true as const } : {}) };
  };
  const packed = walk(value, '$');
  const header = new TextEncoder().encode(JSON.stringify({ v: packed, t: packTable() } satisfies Header));
  const head = new Uint32Array([MAGIC, VERSION, header.byteLength, 0]);
  const headerPad = new Uint8Array((8 - (header.byteLength % 8)) % 8);
  return new Blob([head, header, headerPad, ...parts] as BlobPart[]);
}

/** The value a packed buffer holds; typed arrays are views of `buffer`. Throws a RangeError for a damaged one. */
export function unpackState(buffer: ArrayBuffer): unknown {
  const bad = (what: string): never => {
    throw new RangeError(`damaged packed state: ${what}`);
  };
  if (buffer.byteLength < 16) bad('too short');
  const [magic, version, headerBytes] = new Uint32Array(buffer, 0, 3);
  if (magic !== MAGIC || (version !== VERSION && version !== 1)) bad('not a packed state');
  if (16 + headerBytes! > buffer.byteLength) bad('header length');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 16, headerBytes)));
  } catch {
    bad('header');
  }
  // Version 1: the header is the value, and each string list carries its own run (a table of its own).
  const header = (version === 1 ? { v: parsed, t: null } : parsed) as { v: unknown; t: StringTable | null };
  if (typeof header !== 'object' || header === null || (version !== 1 && (typeof header.t !== 'object' || header.t === null))) bad('header');
  const body = 16 + headerBytes! + ((8 - (headerBytes! % 8)) % 8);
  const view = <T extends Typed>(make: new (b: ArrayBuffer, o: number, n: number) => T, offset: unknown, count: unknown): T => {
    const bytes = (make as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    if (!Number.isInteger(offset) || !Number.isInteger(count) || (offset as number) < 0 || (count as number) < 0) bad('reference');
    const at = body + (offset as number);
    if (at % bytes !== 0 || at + (count as number) * bytes > buffer.byteLength) bad('reference out of range');
    return new make(buffer, at, count as number);
  };
  const readTable = (ref: StringTable): string[] => {
    const units = view(Uint16Array, ref.o, ref.c);
    const lengths = view(Uint32Array, ref.l, ref.n);
    let all: string;
    if (ref.raw === true) {
      all = '';
      for (let i = 0; i < units.length; i += 8192) all += String.fromCharCode(...units.subarray(i, i + 8192));
    } else all = new TextDecoder('utf-16le', { ignoreBOM: true }).decode(units);
    if (all.length !== ref.c) bad('strings');
    const out = new Array<string>(ref.n);
    let at = 0;
    for (let i = 0; i < ref.n; i++) {
      out[i] = all.slice(at, at + lengths[i]!);
      at += lengths[i]!;
    }
    if (at !== ref.c) bad('string lengths');
    return out;
  };
  const table = header.t === null ? [] : readTable(header.t);
  const strings = (ref: StringsRef): string[] => {
    if (version === 1) {
      const own = ref as unknown as StringTable & { $s: number };
      return readTable({ ...own, n: own.$s });
    }
    const refs = view(Uint32Array, ref.o, ref.$s);
    const out = new Array<string>(ref.$s);
    for (let i = 0; i < ref.$s; i++) {
      const s = table[refs[i]!];
      if (s === undefined) bad('string reference');
      out[i] = s!;
    }
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if ('$t' in o) {
      const make = TYPED[o['$t'] as TypedName] as unknown as (new (b: ArrayBuffer, o: number, n: number) => Typed) | undefined;
      if (make === undefined || !Object.hasOwn(TYPED, o['$t'] as string)) bad('typed array kind');
      return view(make!, o['o'], o['n']);
    }
    if ('$s' in o) return strings(o as unknown as StringsRef);
    const out: Record<string, unknown> = {};
    for (const [key, x] of Object.entries(o)) out[key] = walk(x);
    return out;
  };
  return walk(header.v);
}

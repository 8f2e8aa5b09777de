import { describe, expect, it } from 'vitest';
import { packState, unpackState } from '../../../src/memory/store/state-codec.ts';

const roundTrip = async (value: unknown): Promise<unknown> => unpackState(await packState(value).arrayBuffer());

const words = (n: number, f: (i: number) => string): string[] => Array.from({ length: n }, (_, i) => f(i));

/**
 * A value packed by the codec's version 1 (each string list its own run), as a docs index built by an earlier
 * `index-docs` holds it: `{ ids: turn-0…turn-15, texts: ['服务器证书', 'cut \uD83D', 'nginx 0'…'nginx 13'], short: ['a', 'b'],
 * v: Int32Array [1, -2, 3], f: 0.5, none: null }`.
 */
const VERSION_1 = [
  'UUxJWAEAAACoAAAAAAAAAHsiaWRzIjp7IiRzIjoxNiwibyI6MCwibCI6MjA4LCJjIjoxMDJ9LCJ0ZXh0cyI6eyIkcyI6MTYsIm8i',
  'OjI3MiwibCI6NDk2LCJjIjoxMTIsInJhdyI6dHJ1ZX0sInNob3J0IjpbImEiLCJiIl0sInYiOnsiJHQiOiJJbnQzMkFycmF5Iiwi',
  'byI6NTYwLCJuIjozfSwiZiI6MC41LCJub25lIjpudWxsfXQAdQByAG4ALQAwAHQAdQByAG4ALQAxAHQAdQByAG4ALQAyAHQAdQBy',
  'AG4ALQAzAHQAdQByAG4ALQA0AHQAdQByAG4ALQA1AHQAdQByAG4ALQA2AHQAdQByAG4ALQA3AHQAdQByAG4ALQA4AHQAdQByAG4A',
  'LQA5AHQAdQByAG4ALQAxADAAdAB1AHIAbgAtADEAMQB0AHUAcgBuAC0AMQAyAHQAdQByAG4ALQAxADMAdAB1AHIAbgAtADEANAB0',
  'AHUAcgBuAC0AMQA1AAAAAAAGAAAABgAAAAYAAAAGAAAABgAAAAYAAAAGAAAABgAAAAYAAAAGAAAABwAAAAcAAAAHAAAABwAAAAcA',
  'AAAHAAAADWehUmhWwYtmTmMAdQB0ACAAPdhuAGcAaQBuAHgAIAAwAG4AZwBpAG4AeAAgADEAbgBnAGkAbgB4ACAAMgBuAGcAaQBu',
  'AHgAIAAzAG4AZwBpAG4AeAAgADQAbgBnAGkAbgB4ACAANQBuAGcAaQBuAHgAIAA2AG4AZwBpAG4AeAAgADcAbgBnAGkAbgB4ACAA',
  'OABuAGcAaQBuAHgAIAA5AG4AZwBpAG4AeAAgADEAMABuAGcAaQBuAHgAIAAxADEAbgBnAGkAbgB4ACAAMQAyAG4AZwBpAG4AeAAg',
  'ADEAMwAFAAAABQAAAAcAAAAHAAAABwAAAAcAAAAHAAAABwAAAAcAAAAHAAAABwAAAAcAAAAIAAAACAAAAAgAAAAIAAAAAQAAAP7/',
  '//8DAAAA',
].join('');

describe('the saved index codec (one Blob)', () => {
  it('gives back the same value: nested objects, typed arrays of every kind, long and short string lists', async () => {
    const value = {
      k1: 1.2,
      flag: true,
      none: null,
      users: [['me', { ids: words(40, (i) => `turn-${i}`), scopes: ['ops', 'trip'] }]],
      texts: words(20, (i) => (i % 3 === 0 ? `服务器证书第${i}次续费` : i % 3 === 1 ? '' : `nginx listens on 8443 (${i}) — ok ✓ 😀`)),
      typed: {
        i8: Int8Array.from([-128, 0, 127]),
        u8: Uint8Array.from([0, 255]),
        i16: Int16Array.from([-32768, 32767]),
        u16: Uint16Array.from([65535]),
        i32: Int32Array.from([-1, 2 ** 31 - 1]),
        u32: Uint32Array.from([2 ** 32 - 1]),
        f32: Float32Array.from([0.1, -3.5]),
        f64: Float64Array.from([Number.NaN, Math.PI, -0]),
        empty: new Int32Array(0),
      },
    };
    const back = (await roundTrip(value)) as typeof value;
    expect(back).toEqual(value);
    expect(back.typed.f64[0]).toBeNaN();
    expect(back.typed.i32).toBeInstanceOf(Int32Array);
  });

  it('keeps strings that are not well-formed UTF-16, and a leading byte-order mark, exactly', async () => {
    const odd = words(20, (i) => (i === 3 ? 'cut \uD83D' : i === 5 ? '\uDE00 tail' : i === 0 ? '\uFEFFstarts with a BOM' : `w${i}`));
    expect(await roundTrip({ odd })).toEqual({ odd });
    const bom = words(20, (i) => (i === 0 ? '\uFEFFfirst' : `w${i}`));
    expect(await roundTrip({ bom })).toEqual({ bom });
  });

  it('stores a string that several lists hold once: five lists of the same ids cost about one list of them and four of references', async () => {
    const ids = words(1000, (i) => `3f2a9c1e-58b7-4d0a-9e6f-${String(i).padStart(12, '0')}`);
    const once = (await packState({ a: ids }).arrayBuffer()).byteLength;
    const five = await packState({ a: ids, b: [...ids].reverse(), c: ids.slice(0, 500), d: ids, e: ids }).arrayBuffer();
    // 1,000 ids of 36 characters are 72 KB as UTF-16; each further list of them is 4 bytes an entry.
    expect(five.byteLength).toBeLessThan(once + 4 * 4 * 1000 + 1024);
    const back = unpackState(five) as Record<string, string[]>;
    expect(back['b']).toEqual([...ids].reverse());
    expect(back['c']).toEqual(ids.slice(0, 500));
  });

  it('still reads a value packed by its first version (a docs index built before), lone surrogate included', () => {
    const buffer = Uint8Array.from(atob(VERSION_1), (c) => c.charCodeAt(0)).buffer;
    expect(unpackState(buffer)).toEqual({
      ids: words(16, (i) => `turn-${i}`),
      texts: ['服务器证书', 'cut \uD83D', ...words(14, (i) => `nginx ${i}`)],
      short: ['a', 'b'],
      v: Int32Array.from([1, -2, 3]),
      f: 0.5,
      none: null,
    });
  });

  it('refuses at pack time what would not come back the same', () => {
    expect(() => packState({ m: new Map() })).toThrow(TypeError);
    expect(() => packState({ n: Number.NaN })).toThrow(TypeError);
    expect(() => packState({ $t: 'x' })).toThrow(TypeError);
    expect(() => packState({ d: new Date(0) })).toThrow(TypeError);
  });

  it('refuses a damaged buffer with a RangeError', async () => {
    const buffer = await packState({ ids: words(30, (i) => `id-${i}`), v: new Float64Array(64) }).arrayBuffer();
    expect(() => unpackState(buffer.slice(0, buffer.byteLength - 8))).toThrow(RangeError);
    expect(() => unpackState(buffer.slice(0, 12))).toThrow(RangeError);
    const wrongMagic = buffer.slice(0);
    new Uint32Array(wrongMagic, 0, 1)[0] = 7;
    expect(() => unpackState(wrongMagic)).toThrow(RangeError);
    // A list's reference past the end of the string table.
    const badReference = await packState({ ids: words(30, (i) => `id-${i}`) }).arrayBuffer();
    const references = new Uint32Array(badReference, 0, 4);
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(badReference, 16, references[2]!))) as { v: { ids: { o: number } } };
    const body = 16 + references[2]! + ((8 - (references[2]! % 8)) % 8);
    new Uint32Array(badReference, body + header.v.ids.o, 1)[0] = 999;
    expect(() => unpackState(badReference)).toThrow(RangeError);
    const badHeader = buffer.slice(0);
    new Uint8Array(badHeader)[16] = 0x7b + 1;
    expect(() => unpackState(badHeader)).toThrow(RangeError);
  });
});

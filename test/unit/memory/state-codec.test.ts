import { describe, expect, it } from 'vitest';
import { packState, unpackState } from '../../../src/memory/store/state-codec.ts';

const roundTrip = async (value: unknown): Promise<unknown> => unpackState(await packState(value).arrayBuffer());

const words = (n: number, f: (i: number) => string): string[] => Array.from({ length: n }, (_, i) => f(i));

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
    const badHeader = buffer.slice(0);
    new Uint8Array(badHeader)[16] = 0x7b + 1;
    expect(() => unpackState(badHeader)).toThrow(RangeError);
  });
});

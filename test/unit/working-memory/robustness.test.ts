import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createExtractor, extract } from '../../../src/memory/working-memory/extract.ts';
import { ENTITY_TYPES } from '../../../src/memory/working-memory/types.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import { NOW } from './helpers.ts';
import { cpuMs } from '../cpu-time.ts';

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const PIECES = [
  '明天',
  '下周三',
  '10.0.0.1',
  ':8080',
  '用 Redis',
  '不用了',
  '作废',
  '？',
  '。',
  '，',
  'forget the',
  'idea',
  '¥3,999',
  '3千元',
  'v1.2',
  '/etc/x',
  '#123',
  '下午3点',
  '2:30pm',
  '\uD800',
  '\uDFFF',
  '😀',
  'e\u0301',
  '  ',
  '\n',
];

function wellFormed(x: ReturnType<typeof extract>): void {
  for (const e of x.entities) {
    expect(ENTITY_TYPES).toContain(e.type);
    expect(e.value.trim()).not.toBe('');
    expect(LONE.test(e.value)).toBe(false);
  }
  for (const f of x.facts) {
    expect(['set', 'unset']).toContain(f.op);
    expect(f.subject.trim()).not.toBe('');
    expect(f.value.trim()).not.toBe('');
  }
  for (const d of x.deprecate) expect(d.trim()).not.toBe('');
}

describe('robustness', () => {
  it('gives nothing for empty and blank text', () => {
    for (const text of ['', '   ', '\n\t', '。。。', '???']) {
      expect(extract(text, NOW)).toEqual({ entities: [], facts: [], deprecate: [] });
    }
  });

  it('survives lone surrogates and still reads around them', () => {
    const x = extract('\uD800明天 10.0.0.1\uDC00 用 Redis\uD83D', NOW);
    expect(x.entities).toEqual([
      { type: 'date', value: '2026-03-05' },
      { type: 'ipv4', value: '10.0.0.1' },
    ]);
    expect(x.facts).toEqual([{ subject: 'cache', value: 'Redis', op: 'set' }]);
    expect(JSON.parse(JSON.stringify(x))).toEqual(x);
  });

  it('reads 100k characters in bounded time, and only the first maxChars by default', () => {
    const text = ('服务器 10.0.0.1 上的 Redis 不用了，明天改用 Memcached。'.repeat(40) + 'x'.repeat(500) + '\n')
      .repeat(60)
      .slice(0, 100_000);
    extract(text, NOW); // warm up
    let start = cpuMs();
    const capped = extract(text, NOW);
    expect(cpuMs() - start).toBeLessThan(1_000);
    wellFormed(capped);
    const full = createExtractor({ maxChars: 100_000 });
    start = cpuMs();
    wellFormed(full.extract(text + ' 最后 192.168.9.9', NOW));
    expect(cpuMs() - start).toBeLessThan(5_000);
    expect(full.extract(`${'a'.repeat(99_000)} 192.168.9.9`, NOW).entities).toEqual([
      { type: 'ipv4', value: '192.168.9.9' },
    ]);
    for (const worst of [
      '0'.repeat(100_000),
      ':'.repeat(100_000),
      '\uD800'.repeat(100_000),
      '1.'.repeat(50_000),
      '/a'.repeat(50_000),
    ]) {
      start = cpuMs();
      full.extract(worst, NOW);
      expect(cpuMs() - start).toBeLessThan(2_000);
    }
  });

  it('never throws on arbitrary text, and returns well-formed items', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.array(fc.constantFrom(...PIECES), { maxLength: 20 }).map((p) => p.join('')),
    );
    fc.assert(
      fc.property(text, (t) => {
        wellFormed(extract(t, NOW));
      }),
      { numRuns: 200 },
    );
  });

  it('rejects a bad now and a bad configuration with an AssistantError', () => {
    expect(() => extract('明天', 'not a time')).toThrow(AssistantError);
    expect(() => extract('明天', new Date(Number.NaN))).toThrow(/finite/);
    expect(() => createExtractor({ maxChars: 0 })).toThrow(AssistantError);
    expect(() => createExtractor({ vocabulary: { subjects: { regionPattern: '(' } } })).toThrow(/regionPattern/);
    expect(() => createExtractor({ vocabulary: { triggers: { set: [1 as unknown as string] } } })).toThrow(
      /triggers\.set/,
    );
    try {
      createExtractor({ vocabulary: { products: [{ subject: '', names: [] }] } });
    } catch (error) {
      expect((error as AssistantError).code).toBe('invalid_config');
    }
  });

  it('accepts a Date or epoch milliseconds for now (read as UTC)', () => {
    expect(extract('tomorrow', new Date('2026-03-04T23:00:00Z')).entities).toEqual([
      { type: 'date', value: '2026-03-05' },
    ]);
    expect(extract('tomorrow', Date.parse('2026-03-04T23:00:00Z')).entities).toEqual([
      { type: 'date', value: '2026-03-05' },
    ]);
  });
});

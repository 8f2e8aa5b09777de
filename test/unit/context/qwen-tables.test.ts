/**
 * The prebuilt tokenizer tables (issue 21) must tokenize exactly as tokenizer.json does: a count that differs by one
 * token breaks the token-exact budget. The reference is the library's own build from the package's files.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createQwenTokenizer, createQwenTokenizerFromTables, type QwenTokenizer } from '../../../src/context/qwen.ts';
import { QWEN_TABLES_FORMAT, asBpeTables, tablesToJson, tokenizerFromTables, type QwenBpeTables } from '../../../src/context/qwen-tables.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import { prepareQwen25Files, prepareQwen25Tables } from '../../../scripts/prepare-tokenizer.ts';

let reference: QwenTokenizer;
let tables: QwenBpeTables;
let prebuilt: QwenTokenizer;
let files: Awaited<ReturnType<typeof prepareQwen25Files>>;

beforeAll(async () => {
  files = await prepareQwen25Files();
  reference = createQwenTokenizer(files.tokenizer, files.config);
  tables = await prepareQwen25Tables();
  // Through JSON, as the browser gets them.
  prebuilt = createQwenTokenizerFromTables(JSON.parse(JSON.stringify(tables)));
});

/** Our own texts: merges many levels deep, scripts, code, numbers, whitespace runs, special tokens inline. */
const TEXTS = [
  'internationalization and counterrevolutionaries',
  '我们明天下午三点在会议室讨论预算，记得带上笔记本电脑。',
  '東京の天気は晴れです。기분이 좋아요.',
  'const total = items.reduce((sum, x) => sum + x.price, 0); // 合计\n\n\treturn total;',
  '   leading spaces, trailing spaces   \n\n\n  \r\n',
  'Numbers 1234567890, 3.14159, -0.5e-10 and 1,000,000.',
  '<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n',
  'emoji 🧑‍🚀🚀✨ and flags 🇫🇷🇯🇵 and ZWJ 👨‍👩‍👧‍👦',
  "He said \"don't\" — it's 'quoted' and `backticked` \\ backslash",
  'e\u0301 combining, ﬁ ligature, Ａ fullwidth, \u0000 nul and \u001b escape',
];

describe('prebuilt tokenizer tables', () => {
  it('are taken by the installed @huggingface/tokenizers, not rebuilt the slow way', () => {
    expect(prebuilt.build).toBe('prebuilt');
    expect(reference.build).toBe('json');
  });

  it('encode our texts to the same ids as tokenizer.json, and decode them back', () => {
    for (const text of TEXTS) {
      expect(prebuilt.encode(text)).toEqual(reference.encode(text));
      expect(prebuilt.decode(prebuilt.encode(text))).toBe(reference.decode(reference.encode(text)));
    }
  });

  it('encode any text to the same ids as tokenizer.json', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }), (a, b) => {
        expect(prebuilt.encode(a)).toEqual(reference.encode(a));
        expect(prebuilt.encode(a + b)).toEqual(reference.encode(a + b));
      }),
      { numRuns: 300 },
    );
  });

  it('hold the whole vocabulary: every id decodes to the same text', () => {
    for (let id = 0; id < 151_665; id += 97) expect(prebuilt.decode([id])).toBe(reference.decode([id]));
    expect(prebuilt.decode([151_664])).toBe(reference.decode([151_664]));
  });

  it('rebuild tokenizer.json exactly', () => {
    const rebuilt = tablesToJson(tables);
    const model = files.tokenizer['model'] as { vocab: object; merges: unknown[] };
    expect((rebuilt['model'] as { vocab: object }).vocab).toEqual(model.vocab);
    expect((rebuilt['model'] as { merges: unknown[] }).merges).toEqual(model.merges);
  });

  it('fall back to the library’s own build when it does not take them, with the same ids', () => {
    const refused = tokenizerFromTables(tables, () => false);
    expect(refused.build).toBe('rebuilt');
    // A library that takes the maps but keys its ranks otherwise: no merge is found and the probe tells.
    const ignored = tokenizerFromTables(tables, (tokenizer) => {
      (tokenizer.model as unknown as { bpe_ranks: Map<string, number> }).bpe_ranks = new Map();
      return true;
    });
    expect(ignored.build).toBe('rebuilt');
    for (const { tokenizer } of [refused, ignored]) {
      for (const text of TEXTS) expect(tokenizer.encode(text, { add_special_tokens: false }).ids).toEqual(reference.encode(text));
    }
  });

  it('are refused with load_failed when they are not tables or disagree with their probe', () => {
    const load = (value: unknown) => () => createQwenTokenizerFromTables(value);
    expect(load({ model: {} })).toThrow(AssistantError);
    expect(load({ ...tables, format: 'qwen-bpe-tables/0' })).toThrow(/format/);
    expect(load({ ...tables, merges: tables.merges.slice(1) })).toThrow(/merges/);
    expect(load({ ...tables, probe: { ...tables.probe, ids: [...tables.probe.ids, 0] } })).toThrow(/probe/);
    expect(() => asBpeTables('<!doctype html>')).toThrow(QWEN_TABLES_FORMAT);
  });
});

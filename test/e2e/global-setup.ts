/**
 * The production builds the e2e files serve, made once per run instead of once per file: the app (as `npm run
 * build`), the widget (as `npm run build:widget`) and the npm package around that widget, packed by `npm pack`
 * (as `npm run build:package`, then `npm pack` in its folder). Every build is the same, so each file serves these folders
 * (read-only) from its own preview server; a site built around the widget still goes into the file's own folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildPackage } from '../../scripts/package/build-package.ts';
import { buildApp, buildWidget } from '../../scripts/site/build.ts';

export const SHARED_APP_DIR = '.cache/e2e-app';
export const SHARED_WIDGET_DIR = '.cache/e2e-widget';
export const SHARED_PACKAGE_DIR = '.cache/e2e-package';
/** The tarball `npm pack` made of SHARED_PACKAGE_DIR. */
export const SHARED_PACKAGE_TARBALL = '.cache/e2e-package.tgz';

/** `npm pack` of a package folder into `tarball`. */
export function packInto(packageDir: string, tarball: string): void {
  const out = resolve(packageDir, '..');
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: packageDir, encoding: 'utf8' })) as Array<{ filename: string }>;
  renameSync(join(out, packed!.filename), tarball);
}

/** What the tests fetch of public/ (not the 500 MB benchmark model that may sit in public/models). */
const PUBLIC_FILES = ['sw.js', 'tokenizer', 'models/test/qwen2-tiny.gguf', 'models/test/qwen2-tiny-loop.gguf'];

export default async function setup(): Promise<() => void> {
  if (!existsSync('public/models/test/qwen2-tiny.gguf')) {
    throw new Error('public/models/test/qwen2-tiny.gguf is missing: run `npm run test-model` first (npm test does it for you).');
  }
  await buildApp(SHARED_APP_DIR, PUBLIC_FILES);
  await buildWidget(SHARED_WIDGET_DIR);
  await buildPackage(SHARED_PACKAGE_DIR, { widgetDir: SHARED_WIDGET_DIR, log: () => {} });
  packInto(SHARED_PACKAGE_DIR, SHARED_PACKAGE_TARBALL);
  return () => {
    rmSync(SHARED_APP_DIR, { recursive: true, force: true });
    rmSync(SHARED_WIDGET_DIR, { recursive: true, force: true });
    rmSync(SHARED_PACKAGE_DIR, { recursive: true, force: true });
    rmSync(SHARED_PACKAGE_TARBALL, { force: true });
  };
}

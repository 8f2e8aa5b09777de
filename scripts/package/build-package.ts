/**
 * `npm run build:package [-- --out dist/package]`: the npm package `qwen-assistant`, ready for `npm pack` /
 * `npm publish` from its folder:
 *   widget/                 the built widget (as `npm run build:widget`): qwen-assistant.js and all it fetches
 *   lib/cli.js, bin/…       `npx qwen-assistant index-docs|copy-widget` (Node ≥ 20, no dependencies: bundled)
 *   lib/vitepress.js        `qwen-assistant/vitepress` (scripts/package/vitepress.ts)
 *   types/                  the element's and the plugin's types (hand-written, checked by types-check.ts)
 *   custom-elements.json    the element's attributes, events, parts and CSS properties (custom-elements.ts)
 *   README.md, THIRD_PARTY_LICENSES.md, package.json
 */
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { buildWidget } from '../site/build.ts';
import { buildCustomElementsManifest } from './custom-elements.ts';
import { thirdPartyLicenses } from './licenses.ts';
import { PACKAGE_NAME } from './package-files.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');

/** The package's manifest: what npm installs, runs and resolves. */
export function packageJson(version: string): Record<string, unknown> {
  return {
    name: PACKAGE_NAME,
    version,
    description: 'A docs assistant that runs in the reader’s browser: search as you type, and a small Qwen model that answers from your docs with links, no server.',
    keywords: ['documentation', 'search', 'assistant', 'llm', 'qwen', 'web-component', 'custom-element', 'vitepress', 'offline'],
    license: 'MIT',
    type: 'module',
    engines: { node: '>=20.19' },
    bin: { [PACKAGE_NAME]: 'bin/qwen-assistant.js' },
    exports: {
      '.': { types: './types/qwen-assistant.d.ts', default: './widget/qwen-assistant.js' },
      './vitepress': { types: './types/vitepress.d.ts', default: './lib/vitepress.js' },
      './widget/*': './widget/*',
      './custom-elements.json': './custom-elements.json',
      './package.json': './package.json',
    },
    types: './types/qwen-assistant.d.ts',
    customElements: 'custom-elements.json',
    files: ['widget/', 'lib/', 'bin/', 'types/', 'custom-elements.json', 'THIRD_PARTY_LICENSES.md'],
    // The widget defines its element when loaded; the Node modules have none.
    sideEffects: ['./widget/*'],
    peerDependencies: { vitepress: '^1.0.0' },
    peerDependenciesMeta: { vitepress: { optional: true } },
  };
}

/** The Node side (the CLI and the VitePress plugin), bundled with its dependencies into `lib/`. */
async function buildNode(outDir: string): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: false,
      root: ROOT,
      logLevel: 'warn',
      ssr: { noExternal: true, target: 'node' },
      build: {
        ssr: true,
        outDir: join(outDir, 'lib'),
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        sourcemap: false,
        copyPublicDir: false,
        rolldownOptions: {
          input: { cli: join(HERE, 'cli.ts'), vitepress: join(HERE, 'vitepress.ts') },
          external: [...builtinModules, /^node:/, 'vitepress'],
          output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
        },
      },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

export interface BuildPackageOptions {
  /** A widget already built by `buildWidget` (the e2e run's shared one) to copy instead of building it again. */
  widgetDir?: string;
  log?: (line: string) => void;
}

export async function buildPackage(outDir: string, options: BuildPackageOptions = {}): Promise<void> {
  const log = options.log ?? console.log;
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  if (options.widgetDir === undefined) await buildWidget(join(outDir, 'widget'));
  else cpSync(options.widgetDir, join(outDir, 'widget'), { recursive: true });
  await buildNode(outDir);
  mkdirSync(join(outDir, 'bin'));
  const bin = join(outDir, 'bin', 'qwen-assistant.js');
  writeFileSync(bin, "#!/usr/bin/env node\nimport { main } from '../lib/cli.js';\n\nprocess.exitCode = await main(process.argv.slice(2));\n");
  chmodSync(bin, 0o755);
  mkdirSync(join(outDir, 'types'));
  for (const name of ['qwen-assistant.d.ts', 'vitepress.d.ts']) copyFileSync(join(HERE, 'types', name), join(outDir, 'types', name));
  writeFileSync(join(outDir, 'custom-elements.json'), `${JSON.stringify(buildCustomElementsManifest(), null, 2)}\n`);
  copyFileSync(join(HERE, 'README.md'), join(outDir, 'README.md'));
  writeFileSync(join(outDir, 'THIRD_PARTY_LICENSES.md'), thirdPartyLicenses(ROOT));
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(packageJson(version), null, 2)}\n`);
  log(`wrote the ${PACKAGE_NAME}@${version} package to ${outDir} (\`npm pack\` there makes the tarball)`);
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const at = process.argv.indexOf('--out');
  const out = resolve(at === -1 ? 'dist/package' : (process.argv[at + 1] ?? ''));
  if (!existsSync(join(ROOT, 'public/tokenizer/qwen2.5'))) console.warn('public/tokenizer/qwen2.5 is missing: run `npm run prepare-tokenizer` first');
  await buildPackage(out);
}

/**
 * The npm package as `npm pack` makes it (global-setup.ts): what the tarball holds and leaves out, and the package
 * installed into an empty folder outside this repository — its `index-docs` and `copy-widget` commands, its
 * custom-elements manifest and its types — with nothing from this repository's node_modules to lean on.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDocsFolder } from '../../scripts/index-docs/index-folder.ts';
import type { DocsManifest } from '../../src/docs-index/format.ts';
import { ATTRIBUTES } from '../../src/widget/attributes.ts';
import { SHARED_PACKAGE_TARBALL, SHARED_WIDGET_DIR } from './global-setup.ts';
import { installPackage, npx } from './package-install.ts';

const ROOT_VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(dir, path)).isFile())
    .map((path) => path.split('\\').join('/'))
    .sort();
}

/** Paths in the tarball, without npm's `package/` prefix. */
const tarball = (): string[] =>
  execFileSync('tar', ['-tzf', SHARED_PACKAGE_TARBALL], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''))
    .sort();

let site = '';

beforeAll(() => {
  // Outside the repository: nothing resolves from its node_modules.
  site = mkdtempSync(join(tmpdir(), 'qwen-assistant-install-'));
  installPackage(site);
}, 120_000);

afterAll(() => {
  if (site !== '') rmSync(site, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the widget folder whole and the package files, and no test files, models, datasets, sources or source maps', () => {
    const files = tarball();
    const widget = filesUnder(SHARED_WIDGET_DIR);
    expect(files.filter((f) => f.startsWith('widget/')).map((f) => f.slice('widget/'.length))).toEqual(widget);
    // Every file the widget may fetch from its folder (the list its service worker keeps) is in it.
    const sw = readFileSync(join(SHARED_WIDGET_DIR, 'qwen-assistant-sw.js'), 'utf8');
    const fetched = JSON.parse(/const WIDGET_FILES = (\[[^\]]*\]);/.exec(sw)![1]!) as string[];
    expect(fetched).toContain('qwen-assistant.js');
    expect(fetched).toContain('tokenizer/qwen2.5/tokenizer.tables-v1.json');
    expect(fetched.some((f) => f.endsWith('.wasm'))).toBe(true);
    for (const file of fetched) expect(files).toContain(`widget/${file}`);

    const rest = files.filter((f) => !f.startsWith('widget/'));
    expect(rest.filter((f) => !f.startsWith('lib/chunks/'))).toEqual([
      'README.md',
      'THIRD_PARTY_LICENSES.md',
      'bin/qwen-assistant.js',
      'custom-elements.json',
      'lib/cli.js',
      'lib/vitepress.js',
      'package.json',
      'types/qwen-assistant.d.ts',
      'types/vitepress.d.ts',
    ]);
    for (const file of files) {
      expect(file, file).not.toMatch(/\.(map|gguf|bin|safetensors|onnx)$|(^|\/)(test|tests|fixtures|node_modules|src|scripts)\/|\.test\.|(?<!\.d)\.ts$|locomo/i);
    }
  });

  it('is built without touching this repository’s own package.json (the manifest analyzer would write to it)', () => {
    expect((JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>).customElements).toBeUndefined();
  });

  it('declares a bin, typed exports and the manifest, each a file it holds, and needs no dependencies', () => {
    const files = new Set(tarball());
    const manifest = JSON.parse(readFileSync(join(site, 'node_modules/qwen-assistant/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.name).toBe('qwen-assistant');
    expect(manifest.version).toBe(ROOT_VERSION);
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toEqual({ 'qwen-assistant': 'bin/qwen-assistant.js' });
    expect(manifest.customElements).toBe('custom-elements.json');
    const exports = manifest.exports as Record<string, string | Record<string, string>>;
    const targets = Object.values(exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e))).filter((t) => !t.includes('*'));
    for (const target of targets) expect(files.has(target.replace(/^\.\//, '')), target).toBe(true);
    expect(exports['.']).toEqual({ types: './types/qwen-assistant.d.ts', default: './widget/qwen-assistant.js' });
  });

  it('installs into an empty folder, and `npx qwen-assistant index-docs` there indexes as the repository’s index-docs does', async () => {
    const docs = join(site, 'docs');
    mkdirSync(join(docs, 'guide'), { recursive: true });
    mkdirSync(join(docs, 'drafts'), { recursive: true });
    writeFileSync(join(docs, 'index.md'), '# Tallow\n\nTallow renders candles as SVG.\n\n## Colours\n\nEvery wax colour is a hex code.\n');
    writeFileSync(join(docs, 'guide/cli.md'), '# The CLI\n\n## Flags\n\n`tallow --wick 3` sets the wick count; the default is one.\n');
    writeFileSync(join(docs, 'drafts/later.md'), '# Not yet\n\nUnfinished.\n');

    const run = npx(site, ['index-docs', 'docs', '--out', 'public/docs-index', '--exclude', 'drafts/']);
    expect(run.output).toMatch(/indexed 2 pages/);
    expect(run.status).toBe(0);
    const manifest = JSON.parse(readFileSync(join(site, 'public/docs-index/manifest.json'), 'utf8')) as DocsManifest;
    expect(manifest.pages.map((p) => p.url).sort()).toEqual(['guide/cli.html', 'index.html']);
    // The same page files (hashes cover every chunk, its tokens and its vector) as the repository's own core.
    const ours = await indexDocsFolder(docs, { include: (path) => !path.startsWith('drafts/') });
    expect(manifest.pages.map((p) => p.hash).sort()).toEqual(ours.manifest.pages.map((p) => p.hash).sort());

    expect(npx(site, ['--version']).output.trim()).toBe(ROOT_VERSION);
    const bad = npx(site, ['index-docs', 'docs']);
    expect(bad.status).toBe(2);
    expect(bad.output).toContain('usage: npx qwen-assistant index-docs');
    const missing = npx(site, ['index-docs', 'nowhere', '--out', 'x']);
    expect(missing.status).toBe(1);
    expect(missing.output).toContain('does not exist');
  });

  it('`npx qwen-assistant copy-widget` copies the whole widget folder', () => {
    const run = npx(site, ['copy-widget', 'public/qwen-assistant']);
    expect(run.status).toBe(0);
    expect(filesUnder(join(site, 'public/qwen-assistant'))).toEqual(filesUnder(SHARED_WIDGET_DIR));
  });

  it('ships a custom-elements manifest naming every attribute, event, part and CSS property of the element', () => {
    const manifest = JSON.parse(readFileSync(join(site, 'node_modules/qwen-assistant/custom-elements.json'), 'utf8')) as {
      modules: Array<{ path: string; exports: Array<{ kind: string; name: string }>; declarations: Array<Record<string, Array<{ name: string }>> & { tagName?: string }> }>;
    };
    const [module] = manifest.modules;
    expect(module!.path).toBe('widget/qwen-assistant.js');
    expect(module!.exports).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'custom-element-definition', name: 'qwen-assistant' })]));
    const element = module!.declarations[0]!;
    expect(element.tagName).toBe('qwen-assistant');
    const names = (key: string): string[] => (element[key] ?? []).map((x) => x.name).sort();
    expect(names('attributes')).toEqual([...Object.values(ATTRIBUTES), 'open'].sort());
    expect(names('members')).toEqual(['hide', 'language', 'open', 'show']);

    // Against the source: every part the widget renders, every custom property its styles read, every event in the types.
    const widgetSources = readdirSync('src/widget').filter((f) => f.endsWith('.ts')).map((f) => readFileSync(join('src/widget', f), 'utf8')).join('\n');
    const parts = new Set([...widgetSources.matchAll(/part="([a-z-]+)/g)].map((m) => m[1]!));
    parts.add('user').add('assistant'); // `part="message ${message.role}"`
    expect(names('cssParts')).toEqual([...parts].sort());
    const styles = readFileSync('src/widget/styles.ts', 'utf8');
    expect(names('cssProperties')).toEqual([...new Set([...styles.matchAll(/var\((--qwen-assistant-[a-z-]+)/g)].map((m) => m[1]!))].sort());
    const types = readFileSync(join(site, 'node_modules/qwen-assistant/types/qwen-assistant.d.ts'), 'utf8');
    expect(names('events')).toEqual([...types.matchAll(/^ {2}'(qwen-assistant[^']*)':/gm)].map((m) => m[1]!).sort());
  });

  it('types the element for a TypeScript site: the tag, its methods and its events', () => {
    const project = join(site, 'ts-check');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], types: [] }, files: ['page.ts'] }),
    );
    writeFileSync(
      join(project, 'page.ts'),
      [
        "import type { QwenAssistant, QwenAssistantEventDetails } from 'qwen-assistant';",
        "const element = document.querySelector('qwen-assistant');",
        'if (element !== null) {',
        '  const typed: QwenAssistant = element;',
        '  typed.show();',
        "  typed.addEventListener('qwen-assistant:answer', (event) => console.log(event.detail.sources[0]?.href.length, event.detail.notInDocs));",
        '  // @ts-expect-error `open` is a boolean',
        "  typed.open = 'yes';",
        '}',
        "export const toggle: QwenAssistantEventDetails['qwen-assistant-toggle'] = { open: true };",
        '',
      ].join('\n'),
    );
    const tsc = resolve('node_modules/typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = `${(error as { stdout?: string }).stdout ?? ''}${String(error)}`;
    }
    expect(output, relative(process.cwd(), project)).toBe('');
  });
});

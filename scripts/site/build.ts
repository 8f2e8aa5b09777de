/**
 * The widget build and the demo docs site, as functions: `npm run build:widget` / `npm run build:site` call them
 * from the command line and the e2e harness (test/e2e/site-harness.ts) calls them into its own folders.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'vite';
import { parseDoc, publishedUrl } from '../../src/docs-index/page.ts';
import { indexDocsFolder } from '../index-docs/index-folder.ts';
import { listDocFiles } from '../index-docs/walk.ts';
import { renderLayout, type NavEntry } from './layout.ts';
import { renderMarkdownPage } from './render-page.ts';

export const TEST_MODEL_FILE = 'public/models/test/qwen2-tiny.gguf';
/** The test model's `model` attribute: relative URLs resolve against the widget's folder. */
export const TEST_MODEL_ATTRIBUTE = 'models/test/qwen2-tiny.gguf';

/**
 * Builds the chat app into `outDir` as `npm run build` does (a production build: the service worker, no Lit dev
 * mode), copying only `publicFiles` of public/ (the 500 MB benchmark model that may sit there is left out unless
 * named; a file that large is linked rather than copied).
 */
export async function buildApp(outDir: string, publicFiles: readonly string[]): Promise<void> {
  // Vitest runs with NODE_ENV=test, which would make a development build (no service worker, Lit's dev mode).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: 'vite.config.ts', mode: 'production', logLevel: 'error', build: { outDir, emptyOutDir: true, copyPublicDir: false } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  for (const file of publicFiles) {
    const from = join('public', file);
    if (!existsSync(from)) continue;
    const to = join(outDir, file);
    mkdirSync(dirname(to), { recursive: true });
    if (statSync(from).size > 64 << 20) symlinkSync(resolve(from), to);
    else cpSync(from, to, { recursive: true });
  }
}

/** Builds `<qwen-assistant>` into `outDir` (vite.widget.config.ts), as a production build. */
export async function buildWidget(outDir = 'dist/widget'): Promise<void> {
  // Under Vitest NODE_ENV is `test`, which would make a development build (Lit's dev mode, larger chunks).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: 'vite.widget.config.ts', mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

export interface SiteOptions {
  /** Folder of Markdown pages (default docs/site). */
  docsDir?: string;
  /** Where the site is written (default dist-site); emptied first. */
  outDir?: string;
  /** A built widget folder to copy to `<outDir>/widget/` (default dist/widget). */
  widgetDir?: string;
  /** The widget's `model` attribute ('' = the default model, from Hugging Face). */
  model?: string;
  /** Copies the generated test model to `<outDir>/widget/models/test/` and, unless `model` is given, uses it. */
  testModel?: boolean;
  siteTitle?: string;
  /** Writes the docs index; the default runs the index-docs core. Returns the number of pages indexed. */
  indexDocs?: (docsDir: string, outDir: string, baseUrl: string, log: (line: string) => void) => Promise<number>;
  log?: (line: string) => void;
}

export interface SiteResult {
  pages: NavEntry[];
  skipped: Array<{ path: string; reason: string }>;
  model: string;
}

/** The index-docs core into `out`, page links prefixed by `baseUrl`; skipped files are logged as it skips them. */
async function defaultIndexDocs(docsDir: string, out: string, baseUrl: string, log: (line: string) => void): Promise<number> {
  const result = await indexDocsFolder(docsDir, { out, baseUrl, onSkip: (skip) => log(`index-docs: skipped ${skip.path}: ${skip.reason}`) });
  return result.stats.pages;
}

function pageOrder(url: string): string {
  // index first, then the rest in path order.
  return url === 'index.html' ? '' : url;
}

export async function buildSite(options: SiteOptions = {}): Promise<SiteResult> {
  const docsDir = options.docsDir ?? 'docs/site';
  const outDir = options.outDir ?? 'dist-site';
  const widgetDir = options.widgetDir ?? 'dist/widget';
  const log = options.log ?? ((line: string) => console.log(line));
  if (!existsSync(join(widgetDir, 'qwen-assistant.js'))) throw new Error(`${widgetDir}/qwen-assistant.js is missing: run \`npm run build:widget\` first`);
  if (!existsSync(docsDir)) throw new Error(`${docsDir} does not exist: no docs to build a site from`);

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  cpSync(widgetDir, join(outDir, 'widget'), { recursive: true });
  // A service worker controls only pages below its own folder: the site's copy sits at the root.
  cpSync(join(widgetDir, 'qwen-assistant-sw.js'), join(outDir, 'qwen-assistant-sw.js'));

  let model = options.model ?? '';
  if (options.testModel === true) {
    if (!existsSync(TEST_MODEL_FILE)) throw new Error(`${TEST_MODEL_FILE} is missing: run \`npm run test-model\` first`);
    mkdirSync(join(outDir, 'widget/models/test'), { recursive: true });
    cpSync(TEST_MODEL_FILE, join(outDir, 'widget', TEST_MODEL_ATTRIBUTE));
    if (options.model === undefined) model = TEST_MODEL_ATTRIBUTE;
  }

  const skipped: SiteResult['skipped'] = [];
  const sources: Array<{ path: string; entry: NavEntry; text: string }> = [];
  for (const path of await listDocFiles(docsDir)) {
    const text = readFileSync(join(docsDir, path), 'utf8');
    const url = publishedUrl(path);
    if (!/\.(md|markdown)$/i.test(path)) {
      // HTML pages are published as they are.
      mkdirSync(dirname(join(outDir, url)), { recursive: true });
      writeFileSync(join(outDir, url), text);
      continue;
    }
    try {
      sources.push({ path, entry: { url, title: parseDoc(path, text).title }, text });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      skipped.push({ path, reason });
      log(`build-site: skipped ${path}: ${reason}`);
    }
  }
  sources.sort((a, b) => (pageOrder(a.entry.url) < pageOrder(b.entry.url) ? -1 : 1));
  const nav = sources.map((s) => s.entry);
  const home = sources.find((s) => s.entry.url === 'index.html');
  const siteTitle = options.siteTitle ?? home?.entry.title ?? 'Docs';
  const lang = /[\u4e00-\u9fff]/.test(home?.text ?? '') ? 'zh' : 'en';
  for (const source of sources) {
    const html = renderLayout({ siteTitle, page: source.entry, nav, content: renderMarkdownPage(source.text), model, lang });
    mkdirSync(dirname(join(outDir, source.entry.url)), { recursive: true });
    writeFileSync(join(outDir, source.entry.url), html);
  }
  // Page links in the index are relative to its manifest (docs-index/manifest.json): `../` is the site root.
  const out = join(outDir, 'docs-index');
  const indexed = await (options.indexDocs ?? defaultIndexDocs)(docsDir, out, '../', log);
  log(`build-site: ${sources.length} pages, ${indexed} indexed, model ${model === '' ? '(default)' : model} → ${outDir}`);
  return { pages: nav, skipped, model };
}

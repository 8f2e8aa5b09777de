/**
 * `qwen-assistant/vitepress`: the docs assistant on a VitePress site, with one line in its config:
 *
 *   import { withQwenAssistant } from 'qwen-assistant/vitepress';
 *   export default withQwenAssistant(defineConfig({ … }), { lang: 'en' });
 *
 * At `vitepress build` it indexes the site's Markdown pages (the ones VitePress built, with their published URLs
 * and heading ids) with index-docs' own splitter into `<outDir>/docs-index/`, copies the widget into
 * `<outDir>/qwen-assistant/`, and adds the script and the `<qwen-assistant>` element to every page. VitePress runs
 * `transformHtml` and `buildEnd` from its config, not from Vite plugins, so this wraps the config. Under
 * `vitepress dev` a Vite plugin adds the tags and serves the widget and an index kept in VitePress's cache folder,
 * made again when a page changes.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenCount } from '../../src/memory/store/chunking.ts';
import type { SiteConfig, UserConfig } from 'vitepress';
import { ATTRIBUTES } from '../../src/widget/attributes.ts';
import { indexDocsFolder } from '../index-docs/index-folder.ts';
import { packagedWidgetDir, tablesPathIn } from './package-files.ts';
import { loadTablesCounter } from './tables-counter.ts';
import { serveFolder } from './serve-folder.ts';
import type { QwenAssistantAttributes, QwenAssistantVitePressOptions } from './types/vitepress.d.ts';
import { headingIds, vitepressHtmlFile, vitepressPageUrl, vitepressSlug } from './vitepress-pages.ts';

// The options' types are the package's published ones (types/vitepress.d.ts): one copy, read by both.
export type { QwenAssistantAttributes, QwenAssistantVitePressOptions };

/** A Vite plugin of the Vite that VitePress runs (its own major version, not this repository's). */
type VitePlugin = Extract<NonNullable<NonNullable<UserConfig['vite']>['plugins']>[number], { name: string }>;

/**
 * The element's attributes the plugin writes, from the element's own table: every one but `docs-index`, which is the
 * plugin's (types-check.ts checks that the options name exactly these).
 */
const { docsIndex: _docsIndex, ...ATTRIBUTE_NAMES } = ATTRIBUTES;

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** `a/b` → `a/b/`: folder paths below the site's base. */
function folder(path: string, option: string): string {
  const clean = path.replace(/^\.?\/+/, '').replace(/\/*$/, '/');
  if (clean === '/' || clean.split('/').includes('..')) throw new Error(`qwen-assistant: ${option} "${path}" is not a folder below the site`);
  return clean;
}

/** The tags added to a page: the module script and the element, with the validated options as attributes. */
export function assistantTags(base: string, options: QwenAssistantVitePressOptions): { script: string; element: string } {
  const widgetPath = folder(options.widgetPath ?? 'qwen-assistant/', 'widgetPath');
  const indexPath = folder(options.indexPath ?? 'docs-index/', 'indexPath');
  const attributes = [`docs-index="${escapeAttribute(`${base}${indexPath}manifest.json`)}"`];
  for (const [key, name] of Object.entries(ATTRIBUTE_NAMES) as Array<[keyof QwenAssistantAttributes, string]>) {
    const value = options[key];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(' | ') : String(value);
    attributes.push(`${name}="${escapeAttribute(text)}"`);
  }
  return {
    script: `<script type="module" src="${escapeAttribute(`${base}${widgetPath}qwen-assistant.js`)}"></script>`,
    element: `<qwen-assistant ${attributes.join(' ')}></qwen-assistant>`,
  };
}

const excludedBy = (exclude: readonly string[]) => (page: string): boolean =>
  exclude.some((x) => {
    const path = x.replace(/^\.?\/+/, '');
    return page === path || (path.endsWith('/') && page.startsWith(path));
  });

interface IndexRun {
  /** The index folder. */
  out: string;
  /** Check each anchor against the built page (a build; a dev server has no built pages). */
  builtPages: boolean;
  counter: TokenCount;
}

/** Indexes the site's Markdown pages into `run.out`; returns the number of pages indexed. */
async function indexPages(siteConfig: SiteConfig, options: QwenAssistantVitePressOptions, run: IndexRun): Promise<number> {
  const excluded = excludedBy(options.exclude ?? []);
  const urls = new Map<string, string>();
  const anchors = new Map<string, Set<string>>();
  for (const page of siteConfig.pages) {
    // Dynamic routes have no file of their own; their pages are left to search engines.
    if (excluded(page) || !existsSync(join(siteConfig.srcDir, page))) continue;
    const url = vitepressPageUrl(page, siteConfig);
    urls.set(page, url);
    const built = join(siteConfig.outDir, vitepressHtmlFile(page, siteConfig));
    if (run.builtPages && existsSync(built)) anchors.set(url, headingIds(readFileSync(built, 'utf8')));
  }
  const log = (line: string): void => siteConfig.logger.info(line);
  const { stats } = await indexDocsFolder(siteConfig.srcDir, {
    out: run.out,
    baseUrl: siteConfig.site.base,
    counter: run.counter,
    include: (path) => urls.has(path),
    pageUrl: (path) => urls.get(path)!,
    slugify: siteConfig.markdown?.anchor?.slugify ?? vitepressSlug,
    ...(run.builtPages ? { anchorsOf: (url: string) => anchors.get(url) } : {}),
    onSkip: (skip) => log(`qwen-assistant: not indexed ${skip.path}: ${skip.reason}`),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  });
  log(`qwen-assistant: indexed ${stats.pages} pages (${stats.chunks} chunks, ${stats.skipped.length} skipped)`);
  return stats.pages;
}

/** Indexes the built site's pages and copies the widget: what `buildEnd` runs. */
export async function indexVitePressSite(siteConfig: SiteConfig, options: QwenAssistantVitePressOptions): Promise<void> {
  const widgetDir = options.widgetDir ?? packagedWidgetDir();
  const counter = await loadTablesCounter(tablesPathIn(widgetDir));
  const pages = await indexPages(siteConfig, options, { out: join(siteConfig.outDir, folder(options.indexPath ?? 'docs-index/', 'indexPath')), builtPages: true, counter });
  // Without an index every page would carry a widget that fails to load it: the build says so instead.
  if (pages === 0) throw new Error('qwen-assistant: no page of the site could be indexed (the lines above say why), so no docs index was written');
  cpSync(widgetDir, join(siteConfig.outDir, folder(options.widgetPath ?? 'qwen-assistant/', 'widgetPath')), { recursive: true });
}

/** `vitepress dev`: the tags on each page, the widget and a docs index served (VitePress attaches its config as `vitepress`). */
function devPlugin(base: string, options: QwenAssistantVitePressOptions, tags: { script: string; element: string }): VitePlugin {
  return {
    name: 'qwen-assistant:dev',
    apply: 'serve',
    configureServer(server) {
      const widgetDir = options.widgetDir ?? packagedWidgetDir();
      const siteConfig = (server.config as unknown as { vitepress: SiteConfig }).vitepress;
      const out = join(siteConfig.cacheDir, 'qwen-assistant-docs-index');
      const counter = loadTablesCounter(tablesPathIn(widgetDir));
      // A failure is logged, never thrown: a dev server must keep serving the docs while a page is half-written.
      const index = async (): Promise<string> => {
        try {
          await indexPages(siteConfig, options, { out, builtPages: false, counter: await counter });
        } catch (error) {
          siteConfig.logger.error(`qwen-assistant: the docs index was not made: ${error instanceof Error ? error.message : String(error)}`);
        }
        return out;
      };
      let indexed = index();
      const reindex = (file: string): void => {
        if (file.endsWith('.md')) indexed = indexed.then(index);
      };
      server.watcher.on('change', reindex).on('add', reindex).on('unlink', reindex);
      server.middlewares.use(serveFolder(`${base}${folder(options.widgetPath ?? 'qwen-assistant/', 'widgetPath')}`, () => widgetDir));
      server.middlewares.use(serveFolder(`${base}${folder(options.indexPath ?? 'docs-index/', 'indexPath')}`, () => indexed));
    },
    transformIndexHtml(html) {
      return insertTags(html, tags);
    },
  };
}

/** The script at the end of `<head>`, the element at the end of `<body>`. */
function insertTags(html: string, tags: { script: string; element: string }): string {
  const withScript = html.replace('</head>', `${tags.script}</head>`);
  const body = withScript.lastIndexOf('</body>');
  return body === -1 ? withScript + tags.element : `${withScript.slice(0, body)}${tags.element}${withScript.slice(body)}`;
}

/** The config with the assistant added to every page built (the config's own hooks still run, first). */
// `any`: a config of any theme (UserConfig's own default).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withQwenAssistant<T extends UserConfig<any>>(config: T, options: QwenAssistantVitePressOptions = {}): T {
  const base = (config.base ?? '/').replace(/\/*$/, '/');
  const tags = assistantTags(base, options); // validates the options now, not after the build
  const { transformHtml, buildEnd } = config;
  return {
    ...config,
    vite: { ...config.vite, plugins: [...(config.vite?.plugins ?? []), devPlugin(base, options, tags)] },
    async transformHtml(code, id, ctx) {
      return insertTags((await transformHtml?.(code, id, ctx)) ?? code, tags);
    },
    async buildEnd(siteConfig) {
      await indexVitePressSite(siteConfig, options);
      await buildEnd?.(siteConfig);
    },
  };
}

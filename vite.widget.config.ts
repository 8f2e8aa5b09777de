/**
 * `npm run build:widget`: the embeddable `<qwen-assistant>` into dist/widget/. A normal build (not library mode,
 * which inlines assets as base64) with one JS entry named `qwen-assistant.js`; chunks, wllama's wasm and the engine
 * worker sit next to it, and `base: './'` makes every asset URL relative to `import.meta.url`, so the folder works
 * wherever a site puts it. The prepared tokenizer and the service worker are copied in.
 *
 * Lit writes four globals when it loads (its version arrays and `litPropertyMetadata`); the widget promises a
 * host page no globals but its element, so `litWithoutGlobals` keeps those inside the bundle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { memoryTreeshake } from './scripts/pure-modules.ts';
import { QWEN_TABLES_FILE } from './src/context/qwen-tables.ts';

export const WIDGET_ENTRY = 'qwen-assistant.js';
export const WIDGET_SW = 'qwen-assistant-sw.js';
const TOKENIZER = 'public/tokenizer/qwen2.5';
const SW_SOURCE = 'src/widget/sw/qwen-assistant-sw.js';
const LIT_META = '\0qwen-lit-metadata';

export function litWithoutGlobals(): Plugin {
  return {
    name: 'qwen-lit-without-globals',
    resolveId: (id) => (id === LIT_META ? LIT_META : null),
    load: (id) => (id === LIT_META ? 'export const litPropertyMetadata = new WeakMap();' : null),
    transform(code, id) {
      if (!/[\\/]node_modules[\\/](lit-html|lit-element|@lit[\\/]reactive-element)[\\/]/.test(id)) return null;
      let out = code.replace(/\(\s*\w+\.(litHtmlVersions|litElementVersions|reactiveElementVersions)\s*\?\?=\s*\[\]\s*\)\.push\(\s*"[^"]*"\s*\)/g, 'void 0');
      if (out.includes('litPropertyMetadata')) {
        out = out
          .replace(/,?\s*\w+\.litPropertyMetadata\s*\?\?=\s*new WeakMap(\(\))?/g, '')
          .replace(/globalThis\.litPropertyMetadata/g, 'litPropertyMetadata');
        out = `import { litPropertyMetadata } from ${JSON.stringify(LIT_META)};\n${out}`;
      }
      return out === code ? null : { code: out, map: null };
    },
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Tokenizer files and the service worker (given the list of widget files to keep offline). */
function widgetExtras(): Plugin {
  return {
    name: 'qwen-widget-extras',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (!existsSync(join(TOKENIZER, QWEN_TABLES_FILE))) {
        this.error(`${TOKENIZER}/${QWEN_TABLES_FILE} is missing: run \`npm run prepare-tokenizer\` first`);
      }
      const tokenizerFiles = filesUnder(TOKENIZER).map((path) => `tokenizer/qwen2.5/${relative(TOKENIZER, path).split('\\').join('/')}`);
      for (const file of tokenizerFiles) {
        this.emitFile({ type: 'asset', fileName: file, source: readFileSync(join(TOKENIZER, file.slice('tokenizer/qwen2.5/'.length))) });
      }
      // Everything the widget may fetch from its folder except models: kept by the service worker once seen.
      const files = [...Object.keys(bundle), ...tokenizerFiles].filter((name) => !name.endsWith('.map')).sort();
      // The entry and its static imports: what a page loads before the widget is opened, precached at install so
      // an offline reload after one visit finds them all (the rest are cached when first fetched).
      const eager = new Set<string>();
      const visit = (name: string): void => {
        const chunk = bundle[name];
        if (eager.has(name) || chunk === undefined || chunk.type !== 'chunk') return;
        eager.add(name);
        for (const imported of chunk.imports) visit(imported);
      };
      visit(WIDGET_ENTRY);
      const source = readFileSync(SW_SOURCE, 'utf8')
        .replace('self.__QWEN_WIDGET_FILES__', JSON.stringify(files))
        .replace('self.__QWEN_WIDGET_EAGER__', JSON.stringify([...eager].sort()));
      this.emitFile({ type: 'asset', fileName: WIDGET_SW, source });
    },
  };
}

export default defineConfig({
  appType: 'mpa',
  base: './',
  publicDir: false,
  plugins: [litWithoutGlobals(), widgetExtras()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: '',
    // Vite's preload helper would add <link rel=modulepreload> to the host's <head>: the widget touches nothing there.
    modulePreload: false,
    sourcemap: false,
    rolldownOptions: {
      input: 'src/widget/index.ts',
      output: {
        entryFileNames: WIDGET_ENTRY,
        chunkFileNames: '[name]-[hash].js',
        assetFileNames: '[name]-[hash][extname]',
      },
      // The entry exports the element class: keep the export (nothing else reads it, but it is the public type).
      preserveEntrySignatures: 'exports-only',
      treeshake: memoryTreeshake,
    },
  },
  // `npm run site`: the demo site as a typical docs host serves it — no COOP/COEP.
  preview: { headers: {} },
});

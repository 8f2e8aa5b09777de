/**
 * `qwen-assistant/vitepress`: `withQwenAssistant(config, options)` adds the docs assistant to a VitePress site at
 * build time (the docs index of its Markdown, the widget, the tag on every page). scripts/package/types-check.ts
 * checks this against the implementation.
 */
import type { UserConfig } from 'vitepress';

/** The element's attributes (README, "Docs widget"), camel-cased; `docs-index` is set by the plugin. */
export interface QwenAssistantAttributes {
  /** GGUF URL of the model; relative URLs resolve against the widget's folder (default: Qwen2.5-0.5B from Hugging Face). */
  model?: string;
  /** A self-hosted MLC model folder for WebGPU, relative to the widget's folder. */
  mlcModel?: string;
  backend?: 'auto' | 'webgpu' | 'wasm';
  lang?: 'zh' | 'en' | 'auto';
  position?: 'bottom-right' | 'bottom-left';
  /** Context window in tokens, 512–32768 (default 1024). */
  window?: number;
  /** One key that opens the panel outside text fields, or `none` (default `/`). */
  shortcut?: string;
  mode?: 'auto' | 'search' | 'assistant';
  /** A path prefix such as `/guide/`: only those pages are searched and cited. */
  scope?: string;
  /** Questions an empty panel suggests (at most 6). */
  suggestions?: readonly string[];
}

export interface QwenAssistantVitePressOptions extends QwenAssistantAttributes {
  /** Folder of the widget below the site's output (default `qwen-assistant/`). */
  widgetPath?: string;
  /** Folder of the docs index below the site's output (default `docs-index/`). */
  indexPath?: string;
  /** Source pages (below `srcDir`, e.g. `changelog.md`, or a folder `drafts/`) left out of the index. */
  exclude?: readonly string[];
  /** Chunk size limit in Qwen tokens (default 400). */
  maxTokens?: number;
  /** A built widget folder to copy instead of this package's own. */
  widgetDir?: string;
}

/** The config with the assistant added to every page `vitepress build` writes (the config's own hooks run first). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export declare function withQwenAssistant<T extends UserConfig<any>>(config: T, options?: QwenAssistantVitePressOptions): T;

/**
 * The widget's runtime, `import()`ed by the `<qwen-assistant>` shell on first open: engine, tokenizer, store,
 * docs index and layered memory (see runtime.ts). `syncDocsIndex` is exported on its own for benchmarks and for
 * the app.
 */
import { WidgetRuntimeImpl, type WidgetRuntimeOptions } from './runtime.ts';
import type { CreateWidgetRuntime, WidgetRuntime, WidgetRuntimeConfig } from './types.ts';

export const createWidgetRuntime: CreateWidgetRuntime = (config: WidgetRuntimeConfig): WidgetRuntime => new WidgetRuntimeImpl(config);

/** As `createWidgetRuntime`, with the concrete class (its `lastSync`) and options for tests. */
export function createWidgetRuntimeWith(config: WidgetRuntimeConfig, options: WidgetRuntimeOptions = {}): WidgetRuntimeImpl {
  return new WidgetRuntimeImpl(config, options);
}

export { WidgetRuntimeImpl, type WidgetRuntimeOptions } from './runtime.ts';
export { syncDocsIndex, pageDocId, type DocsSyncFailure, type DocsSyncOptions, type DocsSyncProgress, type DocsSyncResult } from './docs-sync.ts';
export { chunkSource, type DocsMemory } from './docs-memory.ts';
export { loadWidgetDocs, type DocsLoad, type DocsOrigin } from './docs-load.ts';
export { MAX_SOURCES, sourcesOf } from './sources.ts';
export { baseUrlOf, modelUrlOf, tokenizerBaseOf } from './parts.ts';
export { statusOf, type StatusFacts } from './status.ts';
export type * from './types.ts';

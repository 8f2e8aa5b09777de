/**
 * The widget runtime's loadable parts, each on its own: the engine (wllama on the CPU, and web-llm on WebGPU when a
 * self-hosted MLC model is configured; engine files from the widget's base URL, weights from the model sources — see
 * engine-source.ts), the Qwen tokenizer (from the widget's base URL) and the memory store (its own IndexedDB, never
 * the host app's). A part that loaded is kept; a failed one is loaded again on the next `ready()`.
 */
import { wallNow } from '../../engine/start-steps.ts';
import type { TokenCounter } from '../../context/tokens.ts';
import { EngineClient } from '../../engine/client.ts';
import { assertModelAllowed } from '../../engine/model-urls.ts';
import type { LoadProgress, LoadResult } from '../../engine/protocol.ts';
import { AssistantError } from '../../shared/errors.ts';
import { estimateTokens, MemoryStore, type TokenCount } from '../../memory/store/index.ts';
import { qwenCounter } from '../../ui/controllers/context-planner.ts';
import { baseUrlOf, loadPayloadOf } from './engine-source.ts';
import type { WidgetRuntimeConfig } from './types.ts';

export { baseUrlOf, loadPayloadOf, mlcSourceOf, modelOfferOf, modelUrlOf, MLC_LIBS_FOLDER } from './engine-source.ts';

export function tokenizerBaseOf(config: Pick<WidgetRuntimeConfig, 'base'>): string {
  return `${baseUrlOf(config)}tokenizer/qwen2.5/`;
}

export function loadTokenizer(config: WidgetRuntimeConfig): Promise<TokenCounter> {
  return qwenCounter(tokenizerBaseOf(config));
}

/**
 * The store's token counts: the Qwen tokenizer's once it is loaded (`exact`), an estimate before. The store opens
 * before the tokenizer — a reader searches the docs without one — and what it counts before then is nothing that a
 * prompt reads: doc chunks come with the docs index's own counts, and a question is stored only after the assistant
 * (tokenizer included) is ready.
 */
export class LateTokenCount implements TokenCount {
  exact: TokenCount | null = null;

  count(text: string): number {
    return (this.exact ?? estimateTokens).count(text);
  }

  atLeast(text: string): number {
    return this.exact?.atLeast?.(text) ?? 0;
  }
}

/** Opens the widget's own IndexedDB database (`qwen-widget:<storeName>`). */
export function openWidgetStore(config: WidgetRuntimeConfig, counter: TokenCount): Promise<MemoryStore> {
  return MemoryStore.open({ name: `qwen-widget:${config.storeName}`, tokenCounter: counter });
}

/** What a site owner does about a model host that the page's Content-Security-Policy leaves out. */
export const allowWidgetModelHint = (origin: string): string =>
  `The site that embeds the widget must add ${origin} to connect-src in this page's Content-Security-Policy (its <meta http-equiv> and the header, if it sends one).`;

/**
 * Loads the model (see `loadPayloadOf` for which engine). The engines' code and wasm (wllama's, web-llm's runtime)
 * come from the widget's base URL, the weights and web-llm's model library from the model sources.
 */
export async function loadEngine(
  client: EngineClient,
  config: WidgetRuntimeConfig,
  onProgress: (p: LoadProgress) => void,
  signal: AbortSignal | undefined,
  webgpuLost = false,
): Promise<LoadResult> {
  const payload = { ...loadPayloadOf(config, webgpuLost), requestedAt: wallNow() };
  // A `model`/`mlc-model` host outside the page's connect-src fails here, by name, not as a blocked download.
  assertModelAllowed(payload.source, allowWidgetModelHint);
  const load = (): Promise<LoadResult> => client.load(payload, signal === undefined ? { onProgress } : { onProgress, signal });
  // A load that stopped making progress (LOAD_STALL_MS) starts again once in a fresh worker, as in the app.
  return load().catch((error: unknown) => {
    if (error instanceof AssistantError && error.code === 'load_stalled') return load();
    throw error;
  });
}

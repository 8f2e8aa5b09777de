import type { StartStep } from '../../engine/start-steps.ts';
/**
 * The contract between the widget's eager shell (`<qwen-assistant>`, a few KB: launcher, panel, attributes) and its
 * runtime (engine, tokenizer, docs index, memory), which the shell `import()`s on first open. Types only.
 */

export type WidgetLang = 'zh' | 'en';
/** The widget's `backend` attribute (see attributes.ts). */
export type WidgetBackend = 'auto' | 'webgpu' | 'wasm';

export interface WidgetRuntimeConfig {
  /** The widget's base URL (where its script was loaded from): every engine file, the tokenizer and the test
   * model are fetched below it, never from a third-party CDN. */
  readonly base: string;
  /** Model source: a GGUF URL (relative URLs resolve against `base`), or '' for the default (Hugging Face). */
  readonly model: string;
  /** A self-hosted MLC model folder for WebGPU (web-llm), laid out as `npm run fetch-model` writes
   * `public/models/mlc/`: `<folder>/<model id>/resolve/main/…` and the model libraries in `<folder>/libs/`.
   * Relative URLs resolve against `base`. Absent or '' = none: the widget runs wllama (WASM CPU) only, since
   * web-llm's default model libraries live on a third-party host. */
  readonly mlcModel?: string;
  /** Which engine (the `backend` attribute); absent = `auto`. `webgpu` needs `mlcModel`. */
  readonly backend?: WidgetBackend;
  /** The docs index manifest URL (`manifest.json` written by `npm run index-docs`), or '' for none. */
  readonly docsIndex: string;
  readonly lang: WidgetLang;
  /** The model's whole context window, prompt and answer (512–32,768). */
  readonly window: number;
  /** Namespaces the widget's IndexedDB per site/index, so two widgets on one origin never mix. */
  readonly storeName: string;
  /** A path prefix (the `scope` attribute): only those pages are searched, put in prompts and cited. */
  readonly scope?: string;
}

export type WidgetPhase = 'idle' | 'loading' | 'ready' | 'answering' | 'error';

export interface WidgetStatus {
  readonly phase: WidgetPhase;
  /** One line for the status bar, in the widget's language, e.g. "WASM CPU, single thread (the page is not
   * cross-origin isolated) · 42 doc pages". */
  readonly text: string;
  /** 0–1 while loading, null otherwise. */
  readonly progress: number | null;
  /** Engine threads once loaded (1 on hosts without COOP/COEP). */
  readonly threads: number | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** A doc chunk an answer drew on: shown as a link under the reply. Conversation records never appear here. */
export interface DocSource {
  /** Absolute link to the page and heading (`…/guide/install.html#from-npm`). */
  readonly href: string;
  readonly title: string;
  /** Heading path, '' for the page's top. */
  readonly heading: string;
}

/** How much of a long question the model got: characters from its start, and the tokens they made. */
export interface SentPart {
  readonly chars: number;
  readonly tokens: number;
}

export interface AskOptions {
  readonly signal?: AbortSignal;
  readonly onDelta?: (text: string) => void;
  /** The reply streamed so far is dropped and starts again (the GPU was lost; the CPU engine answers now). */
  readonly onRestart?: () => void;
  /** Called before the answer streams when the question was too long to send whole. */
  readonly onSent?: (sent: SentPart) => void;
}

export interface AskResult {
  readonly reply: string;
  readonly finishReason: string;
  /**
   * Nothing in the docs passed the memory's relevance gate: the reply says so (the model was not asked) and
   * `sources` are the nearest sections.
   */
  readonly notInDocs: boolean;
  /**
   * Tokens of the prompt and of the reply, as the engine counted them, and those of the prompt its cache already
   * held (all 0 when the model was not asked).
   */
  readonly tokens: { readonly prompt: number; readonly completion: number; readonly cached: number };
  readonly sources: readonly DocSource[];
  /** The prompt as sent (ChatML messages), for the inspector and tests. */
  readonly prompt: ReadonlyArray<{ readonly role: string; readonly content: string }>;
  /** The part of the question the model got; null when it got all of it. */
  readonly sent: SentPart | null;
}

export type { DocSearchHit, DocSearchOptions, SnippetPart } from './docs-search.ts';

/** What the consent step names before the model is fetched: the model file, its host, its size when known. */
export interface ModelOffer {
  readonly file: string;
  readonly host: string;
  /** Megabytes, when the widget knows them (the default model); null for a site's own model. */
  readonly megabytes: number | null;
}
import type { DocSearchHit, DocSearchOptions } from './docs-search.ts';

export interface WidgetRuntime {
  /** Each step of the assistant's last start, timed (engine, docs, tokenizer), and when it was ready. */
  readonly timeline?: { readonly steps: readonly StartStep[]; readonly readyMs: number | null };
  /** What answering would download (named in the consent step); nothing is fetched to say it. */
  readonly modelOffer: ModelOffer;
  /** Whether those weights are on this device already (the engines' own caches, read locally): no download to ask about. */
  modelOnDevice(): Promise<boolean>;
  /** Subscribes to status changes (called at once with the current one); returns the unsubscribe. */
  onStatus(listener: (status: WidgetStatus) => void): () => void;
  /** Opens the store and loads the docs index only: no tokenizer, no engine, nothing of the model (idempotent). */
  docsReady(signal?: AbortSignal): Promise<unknown>;
  /** The docs' sections that match, best first, from the assistant's own retrieval index; [] when none is relevant. */
  search(text: string, options?: DocSearchOptions): Promise<DocSearchHit[]>;
  /** What an empty panel suggests (the docs' pages), once the docs are loaded; [] before. */
  topSections(limit?: number, scope?: string): DocSource[];
  /** Follow-ups after an answer: other sections of the pages it cited; [] before the docs are loaded. */
  relatedSections(cited: readonly DocSource[], limit?: number, scope?: string): DocSource[];
  /** Loads engine, tokenizer and docs index (idempotent; a failed load can be retried). Only after the reader's consent. */
  ready(signal?: AbortSignal): Promise<void>;
  /** Writes the question first, then retrieves, assembles, and streams the answer. */
  ask(text: string, options?: AskOptions): Promise<AskResult>;
  /** Starts a new conversation (the docs stay). */
  reset(): Promise<void>;
  dispose(): Promise<void>;
}

export type CreateWidgetRuntime = (config: WidgetRuntimeConfig) => WidgetRuntime;

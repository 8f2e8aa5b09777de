/**
 * The widget runtime behind `<qwen-assistant>`. `docsReady()` opens the store and loads the docs index alone, and
 * `search()` searches it as the reader types: no tokenizer, no engine, nothing of the model fetched (docs-search.ts).
 * `ready()` — only once the reader chose the assistant — loads the engine and the tokenizer beside the docs index
 * (in parallel; a part that loaded is kept when another fails, and `ready()` again retries the rest), then answers
 * one question at a time through the turn pipeline it shares with the app (`src/turn/turn-pipeline.ts`) — the
 * question is stored first, the prompt planned by the layered memory (doc chunks labelled as docs), the reply
 * streamed and stored as it arrives — and returns the doc chunks the prompt used as links.
 */
import { promptHeadSliced } from '../../context/head.ts';
import type { TokenCounter } from '../../context/tokens.ts';
import { EngineClient } from '../../engine/client.ts';
import type { LoadResult } from '../../engine/protocol.ts';
import type { MemoryStore, SentPart } from '../../memory/store/index.ts';
import { yieldToPage } from '../../shared/yield.ts';
import { storeQuestion, streamReply, type TurnPlan, type TurnPorts } from '../../turn/turn-pipeline.ts';
import { AssistantError, isAbortError, toAssistantError } from '../../shared/errors.ts';
import type { LayeredMemory } from '../../memory/layered/index.ts';
import { loadWidgetDocs, type DocsOrigin } from './docs-load.ts';
import { docsLayeredMemory, type DocsMemory } from './docs-memory.ts';
import { relatedSections, searchDocs, topSections, type DocSearchHit, type DocSearchOptions } from './docs-search.ts';
import { sourcesOf } from './sources.ts';
import type { DocsSyncResult } from './docs-sync.ts';
import { LateTokenCount, loadEngine, loadPayloadOf, loadTokenizer, modelOfferOf, openWidgetStore } from './parts.ts';
import { isModelCached } from '../../ui/data/model-cache.ts';
import { StartTimeline } from '../../ui/controllers/start-timeline.ts';
import { statusOf, type StatusFacts } from './status.ts';
import { notInDocs, notInDocsReply } from './not-in-docs.ts';
import type { AskOptions, AskResult, DocSource, ModelOffer, WidgetRuntime, WidgetRuntimeConfig, WidgetStatus } from './types.ts';

/** Quiet time after the docs are indexed before the index is saved for the next visit. */
const SAVE_DELAY_MS = 2_000;

/** The layered memory's user: a widget has one visitor. */
const VISITOR = 'visitor';
/** Factual answers from docs: little sampling noise. */
const TEMPERATURE = 0.2;

export interface WidgetRuntimeOptions {
  /** How to start the engine worker (tests may count or replace it). */
  readonly createWorker?: () => Worker;
}

export class WidgetRuntimeImpl implements WidgetRuntime {
  /** The last docs sync (null before it, or without a docs index). For tests and the inspector. */
  lastSync: DocsSyncResult | null = null;
  /** Where the docs memory came from: the index an earlier visit saved, the one the docs index ships, or built here. */
  docsOrigin: DocsOrigin | null = null;
  /** Aborted when the widget is removed: stops a background page sync. */
  private readonly _closing = new AbortController();
  private _pendingSave: (() => Promise<void>) | null = null;
  private _saveTimer: ReturnType<typeof setTimeout> | null = null;

  private _cancelSave(): void {
    if (this._saveTimer !== null) clearTimeout(this._saveTimer);
    this._saveTimer = null;
    this._pendingSave = null;
  }
  private readonly _config: WidgetRuntimeConfig;
  private readonly _client: EngineClient;
  private readonly _listeners = new Set<(status: WidgetStatus) => void>();
  private _facts: StatusFacts;
  readonly timeline = new StartTimeline();
  private _engine: LoadResult | null = null;
  private _counter: Promise<TokenCounter> | null = null;
  private _store: Promise<MemoryStore> | null = null;
  /** The store's counts: the tokenizer's once the assistant loaded it (see `LateTokenCount`). */
  private readonly _storeCounter = new LateTokenCount();
  private _docs: DocsMemory | null = null;
  private _docsLoad: Promise<DocsMemory> | null = null;
  /** The layered memory over the docs, made once the tokenizer is in (the assistant's; search needs none). */
  private _memory: LayeredMemory | null = null;
  private _ready: Promise<void> | null = null;
  private _sessionId: string | null = null;
  private _answering = false;
  private _disposed = false;
  private _engineFraction = 0;
  /** The GPU lost its device in this visit: the engine loads on the CPU from now on. */
  private _webgpuLost = false;
  private _docsFraction = 0;

  constructor(config: WidgetRuntimeConfig, options: WidgetRuntimeOptions = {}) {
    this._config = config;
    this._client = new EngineClient(options.createWorker === undefined ? {} : { createWorker: options.createWorker });
    this._client.onCrash = (error) => {
      this._engine = null;
      this._ready = null;
      this._set({ phase: 'error', error: { code: error.code, message: error.message } });
    };
    this._facts = {
      phase: 'idle',
      lang: config.lang,
      progress: null,
      threads: null,
      backend: null,
      reason: null,
      webgpu: (config.mlcModel ?? '').trim() !== '',
      fallback: false,
      isolated: globalThis.crossOriginIsolated === true,
      pages: null,
      docsOffline: false,
      step: null,
      error: null,
    };
  }

  /** Which parts have started loading (tests, the inspector): before consent only the docs may have. */
  get partsStarted(): { engine: boolean; tokenizer: boolean; docs: boolean } {
    return { engine: this._engine !== null || this._engineFraction > 0 || this._ready !== null, tokenizer: this._counter !== null, docs: this._docs !== null || this._docsLoad !== null };
  }

  get modelOffer(): ModelOffer {
    return modelOfferOf(this._config);
  }

  async modelOnDevice(): Promise<boolean> {
    try {
      return await isModelCached(loadPayloadOf(this._config, this._webgpuLost).source);
    } catch {
      return false;
    }
  }

  get status(): WidgetStatus {
    return statusOf(this._facts);
  }

  onStatus(listener: (status: WidgetStatus) => void): () => void {
    this._listeners.add(listener);
    listener(this.status);
    return () => this._listeners.delete(listener);
  }

  ready(signal?: AbortSignal): Promise<void> {
    if (this._disposed) return Promise.reject(new AssistantError('invalid_input', 'The widget runtime was disposed.'));
    this._ready ??= this._load(signal).catch((error: unknown) => {
      this._ready = null;
      const e = toAssistantError(error);
      this._set(isAbortError(e) ? { phase: 'idle', progress: null } : { phase: 'error', error: { code: e.code, message: e.message } });
      throw e;
    });
    return this._ready;
  }

  docsReady(signal?: AbortSignal): Promise<DocsMemory> {
    if (this._disposed) return Promise.reject(new AssistantError('invalid_input', 'The widget runtime was disposed.'));
    if (this._docs !== null) return Promise.resolve(this._docs);
    this._docsLoad ??= this._loadDocs(signal).finally(() => (this._docsLoad = null));
    return this._docsLoad;
  }

  async search(text: string, options: DocSearchOptions = {}): Promise<DocSearchHit[]> {
    const docs = this._docs ?? (await this.docsReady());
    return searchDocs(docs, text, options);
  }

  topSections(limit?: number, scope?: string): DocSource[] {
    return this._docs === null ? [] : topSections(this._docs, limit, scope);
  }

  relatedSections(cited: readonly DocSource[], limit?: number, scope?: string): DocSource[] {
    return this._docs === null ? [] : relatedSections(this._docs, cited, limit, scope);
  }

  async ask(text: string, options: AskOptions = {}): Promise<AskResult> {
    if (typeof text !== 'string' || text.trim() === '') throw new AssistantError('invalid_input', 'The question is empty.');
    await this.ready(options.signal);
    if (this._answering) throw new AssistantError('busy', 'The widget is still answering the previous question.');
    this._answering = true;
    this._set({ phase: 'answering' });
    try {
      return await this._answer(text, options);
    } finally {
      this._answering = false;
      if (this._facts.phase === 'answering') this._set({ phase: 'ready' });
    }
  }

  reset(): Promise<void> {
    // A new session: the next question starts a new conversation (and a fresh prompt); the docs stay.
    this._sessionId = null;
    return Promise.resolve();
  }

  /** Saves the docs index for the next visit now, rather than after the quiet time (tests, benchmarks). */
  async saveDocsIndexNow(): Promise<void> {
    const save = this._pendingSave;
    this._cancelSave();
    await save?.();
  }

  async dispose(): Promise<void> {
    this._disposed = true;
    this._closing.abort();
    this._cancelSave();
    this._listeners.clear();
    this._client.onCrash = null;
    this._client.terminate('The widget was closed.');
    const store = await this._store?.catch(() => null);
    await store?.close();
  }

  // Loading ----------------------------------------------------------------------------------------------------

  private async _load(signal: AbortSignal | undefined): Promise<void> {
    // A retry after a docs failure keeps the loaded engine: only the docs load, and the loading line says so.
    this._set({ phase: 'loading', progress: this._progress(), step: this._engine !== null ? 'docs' : 'model', error: null });
    // Engine, docs and tokenizer load side by side (the tokenizer started after the engine reached its weights was
    // no faster here: bench:start, README "Starting fast").
    const counter = (this._counter ??= this.timeline.time('tokenizer', () => loadTokenizer(this._config)).catch((error: unknown) => {
      this._counter = null;
      throw error;
    }));
    const engine = this._engine !== null ? Promise.resolve(this._engine) : this._loadEngine(signal);
    const docs = this._docs !== null ? Promise.resolve(this._docs) : this.timeline.time('docs-index', () => this.docsReady(signal));
    const [e, d, c] = await Promise.allSettled([engine, docs, counter]);
    // Report the failure a user can act on first: a model or docs error rather than an abort.
    const failures = [e, d, c].filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => toAssistantError(r.reason));
    if (failures.length > 0) throw failures.find((f) => !isAbortError(f)) ?? failures[0]!;
    const tokens = (c as PromiseFulfilledResult<TokenCounter>).value;
    this._storeCounter.exact = tokens;
    this._memory ??= docsLayeredMemory((d as PromiseFulfilledResult<DocsMemory>).value, { counter: tokens, window: this._config.window, lang: this._config.lang, scope: this._config.scope ?? '' });
    this.timeline.markReady();
    this._set({ phase: 'ready', progress: null, step: null });
    this._warm();
  }

  /**
   * While the reader types, the start of the next prompt (the system message, or the conversation so far) goes
   * into the engine's cache, as in the app (src/ui/controllers/prompt-warmer.ts): a question asked meanwhile waits
   * for it in the engine and then prefills only itself. A failure costs only the warm cache.
   */
  private _warm(): void {
    const signal = this._closing.signal;
    this._memory!.nextPrefix(VISITOR, this._sessionId, this._config.lang)
      .then((messages) => this._client.prefill(messages, { signal }))
      .catch(() => {});
  }

  private async _loadEngine(signal: AbortSignal | undefined): Promise<LoadResult> {
    const result = await loadEngine(
      this._client,
      this._config,
      (p) => {
        // The download's share, then reading the weights into memory; the other steps are short.
        if (p.phase === 'download' || p.step === 'model-load') this._engineFraction = p.fraction;
        else if (p.step === undefined) this._engineFraction = 1;
        // Once the model is in, what is left to wait for is the docs (unless they loaded already).
        this._set({ progress: this._progress(), step: this._engineFraction < 1 || this._docs !== null ? 'model' : 'docs' });
      },
      signal,
      this._webgpuLost,
    );
    this._engine = result;
    this._engineFraction = 1;
    for (const step of result.steps ?? []) this.timeline.add(step);
    // The status line says so in a few words; the site owner finds the whole reason on the console.
    if (result.fallbackNotice !== undefined) console.warn(`qwen-assistant: ${result.fallbackNotice}`);
    this._set({
      threads: result.threads ?? 1,
      backend: result.backend,
      reason: result.reason,
      fallback: result.fallbackNotice !== undefined,
      progress: this._progress(),
    });
    return result;
  }

  private async _loadDocs(signal: AbortSignal | undefined): Promise<DocsMemory> {
    // Searching alone: the status line says the docs are loading, and afterwards how many pages there are.
    const alone = this._facts.phase === 'idle' || this._facts.phase === 'error';
    if (alone) this._set({ phase: 'loading', step: 'docs', progress: 0, error: null });
    try {
      const docs = await this._loadDocsParts(signal);
      if (alone && this._facts.phase === 'loading' && this._ready === null) this._set({ phase: 'idle', progress: null, step: null });
      return docs;
    } catch (error) {
      const e = toAssistantError(error);
      if (alone && this._ready === null) this._set(isAbortError(e) ? { phase: 'idle', progress: null, step: null } : { phase: 'error', step: null, error: { code: e.code, message: e.message } });
      throw e;
    }
  }

  private async _loadDocsParts(signal: AbortSignal | undefined): Promise<DocsMemory> {
    const store = await (this._store ??= openWidgetStore(this._config, this._storeCounter).catch((error: unknown) => {
      this._store = null;
      throw error;
    }));
    const load = await loadWidgetDocs(store, this._config.docsIndex, {
      ...(signal === undefined ? {} : { signal }),
      backgroundSignal: this._closing.signal,
      onProgress: ({ done, total }) => {
        this._docsFraction = total === 0 ? 1 : done / total;
        this._set({ progress: this._progress() });
      },
    });
    this.lastSync = load.sync;
    void load.background?.then((sync) => (this.lastSync = sync)).catch(() => undefined);
    if (load.save !== null) {
      // Saved for the next visit once this one is answering (a failed save only costs that visit the indexing).
      const save = load.save;
      this._pendingSave = () =>
        save().catch((error: unknown) => {
          if (!isAbortError(error)) console.warn('[qwen-assistant] saving the docs index failed', error);
        });
      this._saveTimer = setTimeout(() => void this.saveDocsIndexNow(), SAVE_DELAY_MS);
    }
    this.docsOrigin = load.origin;
    this._docs = load.docs;
    this._docsFraction = 1;
    this._set({ pages: this._config.docsIndex === '' ? null : load.docs.pages, docsOffline: load.offline, progress: this._progress() });
    return load.docs;
  }

  private _progress(): number {
    const docsShare = this._config.docsIndex === '' ? 0 : 0.2;
    return (1 - docsShare) * this._engineFraction + docsShare * this._docsFraction;
  }

  // Answering --------------------------------------------------------------------------------------------------

  private async _answer(text: string, options: AskOptions): Promise<AskResult> {
    const store = await this._store!;
    const docs = this._docs!;
    const memory = this._memory!;
    const sessionId = (this._sessionId ??= (await store.createSession({ title: text.slice(0, 80) })).id);
    const question = await storeQuestion(store, sessionId, text);
    const signal = options.signal ?? new AbortController().signal;
    let planned: Promise<TurnPlan> | null = null;
    let made: TurnPlan | null = null;
    let uncovered = false;
    const ports: TurnPorts<TurnPlan> = {
      store,
      // A long question is stored whole, and the model gets the start that fits, as in the app: the memory and the
      // prompt work on the start a window can hold (found a slice at a time), and the reader is told. A second
      // try after a lost GPU has the same tokenizer and window, so the same prompt: it is planned once.
      plan: () =>
        (planned ??= (async () => {
          const head = await promptHeadSliced(text, memory.budgets.window, await this._counter!, yieldToPage);
          made = await memory.handleUserMessage({ userId: VISITOR, sessionId, text: head, time: question.createdAt, id: question.id });
          return made;
        })()),
      // No doc chunk passed the memory's relevance gate for a question on its own: the model is not asked to guess;
      // the reader is told so, in their language, with the nearest sections (decided once, on the plan made).
      chat: (messages, chatOptions) => {
        uncovered = made !== null && notInDocs(text, made, docs.chunks);
        return uncovered ? notInDocsReply(this._config.lang) : this._client.chat(messages, chatOptions);
      },
      record: async (reply) => void (await memory.recordReply({ userId: VISITOR, sessionId, ...reply })),
      // The GPU lost its device: the same prompt on the CPU engine, which the status line then names with the reason.
      recover: async (recoverSignal) => {
        await this._switchToCpu(recoverSignal);
        return true;
      },
    };
    let sent: SentPart | null = null;
    const outcome = await streamReply(
      ports,
      { sessionId, question: { id: question.id, text, time: question.createdAt, sent: null }, again: false, signal, sampling: { temperature: TEMPERATURE } },
      {
        sent: (part) => {
          sent = part;
          if (part !== null) options.onSent?.(part);
        },
        delta: (delta) => options.onDelta?.(delta),
        restart: () => options.onRestart?.(),
      },
    );
    if (outcome.status !== 'complete') throw toAssistantError(outcome.error);
    return {
      reply: outcome.text,
      finishReason: outcome.result.finishReason,
      notInDocs: uncovered,
      tokens: { prompt: outcome.result.promptTokens, completion: outcome.result.completionTokens, cached: outcome.result.cachedTokens },
      sources: uncovered ? searchDocs(docs, text, { nearest: true, limit: 3, scope: this._config.scope ?? '' }).map(({ href, title, heading }) => ({ href, title, heading })) : sourcesOf(outcome.plan.report, docs.links),
      prompt: outcome.plan.messages.map((m) => ({ role: m.role, content: m.content })),
      sent,
    };
  }

  /** After a lost GPU device: the worker dropped web-llm; the CPU engine loads (WebGPU is not tried again). */
  private async _switchToCpu(signal: AbortSignal | undefined): Promise<void> {
    this._webgpuLost = true;
    this._engine = null;
    this._engineFraction = 0;
    this._set({ phase: 'loading', step: 'model', progress: this._progress(), backend: null, reason: null, fallback: false });
    try {
      await this._loadEngine(signal);
      this._set({ phase: 'answering', progress: null, step: null });
    } catch (error) {
      // Not ready any more: the next question loads the engine again (as after a failed first load).
      this._ready = null;
      const e = toAssistantError(error);
      this._set(isAbortError(e) ? { phase: 'idle', progress: null, step: null } : { phase: 'error', step: null, error: { code: e.code, message: e.message } });
      throw e;
    }
  }

  private _set(patch: Partial<StatusFacts>): void {
    this._facts = { ...this._facts, ...patch };
    const status = this.status;
    for (const listener of this._listeners) {
      try {
        listener(status);
      } catch (error) {
        console.warn('[qwen-assistant] a status listener threw', error);
      }
    }
  }
}

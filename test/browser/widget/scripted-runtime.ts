/**
 * A runtime the test scripts, for the shell's own tests (the real one is tested with the real engine): replies are
 * streamed as the test releases them, sources and errors are whatever the test says. Tests only, never in src.
 */
import { modelOfferOf } from '../../../src/widget/runtime/engine-source.ts';
import type { AskOptions, AskResult, DocSearchHit, DocSearchOptions, DocSource, SentPart, WidgetRuntime, WidgetRuntimeConfig, WidgetStatus } from '../../../src/widget/runtime/types.ts';

export interface ScriptedAnswer {
  deltas: string[];
  sources?: DocSource[];
  /** The part of the question "sent to the model" (a long question), reported before the deltas. */
  sent?: SentPart;
  /** The docs do not cover the question (the runtime's "not in the docs"); `sources` are then the nearest. */
  notInDocs?: boolean;
  /** Rejects with this error (an AssistantError-like `{code, message}`) after the deltas. */
  error?: { code: string; message: string };
}

export class ScriptedRuntime implements WidgetRuntime {
  readonly questions: string[] = [];
  /** Searches asked for, with their options. */
  readonly searches: Array<{ text: string; options: DocSearchOptions }> = [];
  /** What a search answers (all of them, whatever the query). */
  hits: DocSearchHit[] = [];
  /** What `topSections` and `relatedSections` give (all of them, whatever is asked). */
  top: DocSource[] = [];
  related: DocSource[] = [];
  /** Calls of `ready()` (the engine and tokenizer load) and of `docsReady()` (the docs index only). */
  readyCalls = 0;
  docsReadyCalls = 0;
  resets = 0;
  disposed = false;
  answers: ScriptedAnswer[] = [];
  private _status: WidgetStatus = { phase: 'idle', text: '', progress: null, threads: null, error: null };
  private readonly _listeners = new Set<(status: WidgetStatus) => void>();
  /** Deltas released by `step()` and not yet emitted. */
  private _permits = 0;
  private _gate: (() => void) | null = null;
  /** When set, `ready()` waits for `finishLoading()`. */
  holdLoading = false;
  private _loaded: (() => void) | null = null;

  constructor(readonly config: WidgetRuntimeConfig) {}

  /** What `modelOnDevice()` says. */
  onDevice = false;

  async modelOnDevice(): Promise<boolean> {
    return this.onDevice;
  }

  /** The real runtime's (a pure function of the configuration). */
  get modelOffer() {
    return modelOfferOf(this.config);
  }

  setStatus(status: Partial<WidgetStatus>): void {
    this._status = { ...this._status, ...status };
    for (const listener of this._listeners) listener(this._status);
  }

  onStatus(listener: (status: WidgetStatus) => void): () => void {
    this._listeners.add(listener);
    listener(this._status);
    return () => this._listeners.delete(listener);
  }

  async docsReady(): Promise<void> {
    this.docsReadyCalls += 1;
  }

  async search(text: string, options: DocSearchOptions = {}): Promise<DocSearchHit[]> {
    this.searches.push({ text, options });
    return this.hits;
  }

  topSections(): DocSource[] {
    return this.top;
  }

  relatedSections(): DocSource[] {
    return this.related;
  }

  async ready(): Promise<void> {
    this.readyCalls += 1;
    if (this._status.phase === 'ready' || this._status.phase === 'answering') return;
    this.setStatus({ phase: 'loading', text: 'Loading the model…', progress: 0.25, error: null });
    if (this.holdLoading) await new Promise<void>((resolve) => (this._loaded = resolve));
    this.setStatus({ phase: 'ready', text: 'WASM CPU, single thread · 2 doc pages', progress: null, threads: 1 });
  }

  finishLoading(): void {
    this._loaded?.();
  }

  /** Lets the current (or next) answer emit its next delta. */
  step(): void {
    this._permits += 1;
    const gate = this._gate;
    this._gate = null;
    gate?.();
  }

  private _permit(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const take = (): void => {
        this._permits -= 1;
        resolve();
      };
      if (this._permits > 0) return take();
      this._gate = take;
      signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), { once: true });
    });
  }

  async ask(text: string, options: AskOptions = {}): Promise<AskResult> {
    this.questions.push(text);
    const answer = this.answers.shift() ?? { deltas: ['(no scripted answer)'] };
    this.setStatus({ phase: 'answering' });
    let reply = '';
    try {
      if (answer.sent !== undefined) options.onSent?.(answer.sent);
      for (const delta of answer.deltas) {
        await this._permit(options.signal);
        reply += delta;
        options.onDelta?.(delta);
      }
      if (answer.error !== undefined) throw Object.assign(new Error(answer.error.message), answer.error);
      return { reply, finishReason: 'stop', notInDocs: answer.notInDocs ?? false, tokens: { prompt: 42, completion: answer.deltas.length, cached: 0 }, sources: answer.sources ?? [], prompt: [{ role: 'user', content: text }], sent: answer.sent ?? null };
    } finally {
      this.setStatus({ phase: 'ready' });
    }
  }

  async reset(): Promise<void> {
    this.resets += 1;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

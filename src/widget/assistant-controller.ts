/**
 * The conversation and the runtime behind it, as a Lit ReactiveController: creates the runtime on first use (its
 * module is `import()`ed, so no engine code is in the eager chunk), follows its status, streams answers into the
 * message list, stops and retries. The element only renders what this holds.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DocSearchHit, DocSearchOptions, DocSource, ModelOffer, SentPart, WidgetRuntime, WidgetRuntimeConfig, WidgetStatus } from './runtime/types.ts';

export type MessageState = 'streaming' | 'complete' | 'stopped' | 'error';

export interface WidgetMessage {
  readonly id: number;
  readonly role: 'user' | 'assistant';
  text: string;
  state: MessageState;
  sources: readonly DocSource[];
  /** For a long question: how much of it the model got (null: all of it, or not asked yet). */
  sent: SentPart | null;
  /** For an assistant message: the question it answers (Retry asks it again). */
  readonly question: string;
  /** The docs do not cover the question: the reply says so, and `sources` are the nearest sections. */
  notInDocs: boolean;
  /** Sections to ask about next (other sections of the pages an answer cited). */
  followUps: readonly DocSource[];
  /** The reader's thumbs on an answer. */
  rating: 'up' | 'down' | null;
  /** The answer was copied (its button says so). */
  copied: boolean;
}

export interface WidgetError {
  readonly code: string;
  readonly message: string;
}

/** Loads the runtime module; replaced only by tests of the element that bring their own runtime. */
export type RuntimeLoader = () => Promise<(config: WidgetRuntimeConfig) => WidgetRuntime>;

export const loadRuntimeModule: RuntimeLoader = async () => (await import('./runtime/index.ts')).createWidgetRuntime;

function asError(error: unknown): WidgetError {
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code: typeof code === 'string' ? code : 'unknown', message: typeof message === 'string' ? message : String(error) };
  }
  return { code: 'unknown', message: String(error) };
}

const isAbort = (error: unknown): boolean => typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';

export class AssistantController implements ReactiveController {
  messages: WidgetMessage[] = [];
  status: WidgetStatus | null = null;
  /** An error of the shell itself (the runtime module failed to load, an answer failed): shown like a status error. */
  localError: WidgetError | null = null;

  private _runtime: WidgetRuntime | null = null;
  private _creating: Promise<WidgetRuntime> | null = null;
  private _unsubscribe: (() => void) | null = null;
  private _answer: AbortController | null = null;
  private _nextId = 1;
  /** The `scope` attribute: follow-ups stay within it. */
  scope = '';
  /** Told of each question and each finished answer (the element fires them as DOM events). */
  onEvent: ((name: 'question' | 'answer', detail: Record<string, unknown>) => void) | null = null;

  constructor(
    private readonly _host: ReactiveControllerHost,
    private readonly _config: () => WidgetRuntimeConfig,
    public loader: RuntimeLoader = loadRuntimeModule,
  ) {
    _host.addController(this);
  }

  /** The assistant's last start, step by step (null before its runtime exists): `bench:start` reads it. */
  get timeline(): WidgetRuntime['timeline'] | null {
    return this._runtime?.timeline ?? null;
  }

  get busy(): boolean {
    return this._answer !== null;
  }

  /** The docs' pages an empty panel suggests, once the docs are loaded. */
  topSections(scope: string): DocSource[] {
    return this._runtime?.topSections(4, scope) ?? [];
  }

  /** Whether the model's weights are on this device already (false when the runtime cannot be made). */
  async modelOnDevice(): Promise<boolean> {
    try {
      return await (await this._ensureRuntime()).modelOnDevice();
    } catch {
      return false;
    }
  }

  /** What answering would download, once the runtime exists (the consent step names it). */
  get modelOffer(): ModelOffer | null {
    return this._runtime?.modelOffer ?? null;
  }

  /** The error to show: the runtime's own, else the shell's. */
  get error(): WidgetError | null {
    return this.status?.error ?? this.localError;
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this._answer?.abort();
  }

  /** Creates the runtime if needed and starts loading it (engine, tokenizer, docs index). */
  async start(): Promise<WidgetRuntime | null> {
    return this._load(async (runtime) => {
      this.localError = null;
      this._host.requestUpdate();
      await runtime.ready();
    });
  }

  /**
   * Creates the runtime if needed and loads the docs index only (no tokenizer, no engine): what search needs.
   * Resolves false when it could not (the error is shown like a status error).
   */
  async startDocs(): Promise<boolean> {
    return (await this._load((runtime) => runtime.docsReady())) !== null;
  }

  /** The runtime once `load` is done with it; null when that (or creating it) failed, the error then shown. */
  private async _load(load: (runtime: WidgetRuntime) => Promise<unknown>): Promise<WidgetRuntime | null> {
    try {
      const runtime = await this._ensureRuntime();
      await load(runtime);
      return runtime;
    } catch (error) {
      // The runtime reports its own load errors through its status; a failure before it exists is ours.
      if (this._runtime === null || this.status?.error == null) this.localError = asError(error);
      this._host.requestUpdate();
      return null;
    }
  }

  /** The docs' sections matching `text` (loads the docs index first); [] when the docs cannot be searched. */
  async search(text: string, options: DocSearchOptions = {}): Promise<DocSearchHit[]> {
    if (!(await this.startDocs())) return [];
    return this._runtime!.search(text, options);
  }

  /** Sends a question and streams the answer. Returns false when it was not sent (empty, or already answering). */
  ask(text: string): boolean {
    const question = text.trim();
    if (question === '' || this.busy) return false;
    this.messages = [...this.messages, this._message('user', question, question)];
    this.onEvent?.('question', { question });
    void this._answerQuestion(question);
    return true;
  }

  stop(): void {
    this._answer?.abort();
  }

  /** Retry: reloads a failed runtime, and asks the last question again if its answer failed. */
  async retry(): Promise<void> {
    this.localError = null;
    this._host.requestUpdate();
    const last = this.messages.at(-1);
    if (last !== undefined && last.role === 'assistant' && last.state === 'error') {
      this.messages = this.messages.slice(0, -1);
      void this._answerQuestion(last.question);
      return;
    }
    await this.start();
  }

  /** A new conversation: the messages go, the runtime forgets them; the docs stay loaded. */
  async reset(): Promise<void> {
    this._answer?.abort();
    this.messages = [];
    this.localError = null;
    this._host.requestUpdate();
    await this._runtime?.reset().catch((error: unknown) => {
      this.localError = asError(error);
      this._host.requestUpdate();
    });
  }

  /** Drops the runtime (its configuration changed); the next open creates a new one. */
  async dispose(): Promise<void> {
    this._answer?.abort();
    this._unsubscribe?.();
    this._unsubscribe = null;
    const runtime = this._runtime;
    this._runtime = null;
    this._creating = null;
    this.status = null;
    this._host.requestUpdate();
    await runtime?.dispose().catch(() => {});
  }

  private _message(role: WidgetMessage['role'], text: string, question: string): WidgetMessage {
    return { id: this._nextId++, role, text, state: role === 'user' ? 'complete' : 'streaming', sources: [], sent: null, question, notInDocs: false, followUps: [], rating: null, copied: false };
  }

  private _ensureRuntime(): Promise<WidgetRuntime> {
    this._creating ??= (async () => {
      const create = await this.loader();
      const runtime = create(this._config());
      this._runtime = runtime;
      this._unsubscribe = runtime.onStatus((status) => {
        this.status = status;
        this._host.requestUpdate();
      });
      return runtime;
    })();
    // A failed import can be retried.
    this._creating.catch(() => (this._creating = null));
    return this._creating;
  }

  private async _answerQuestion(question: string): Promise<void> {
    const controller = new AbortController();
    this._answer = controller;
    const asked = this.messages.findLast((m) => m.role === 'user');
    const reply = this._message('assistant', '', question);
    this.messages = [...this.messages, reply];
    this._host.requestUpdate();
    const started = performance.now();
    try {
      const runtime = await this._ensureRuntime();
      await runtime.ready(controller.signal);
      const result = await runtime.ask(question, {
        signal: controller.signal,
        onSent: (sent) => {
          if (asked !== undefined) asked.sent = sent;
          this._host.requestUpdate();
        },
        onDelta: (delta) => {
          reply.text += delta;
          this._host.requestUpdate();
        },
        onRestart: () => {
          reply.text = '';
          this._host.requestUpdate();
        },
      });
      reply.text = result.reply;
      reply.sources = result.sources;
      reply.notInDocs = result.notInDocs;
      reply.followUps = result.notInDocs ? [] : runtime.relatedSections(result.sources, 3, this.scope);
      reply.state = 'complete';
      this.onEvent?.('answer', { question, answer: result.reply, sources: result.sources, notInDocs: result.notInDocs, ms: Math.round(performance.now() - started), tokens: result.tokens, finishReason: result.finishReason });
    } catch (error) {
      if (isAbort(error) || controller.signal.aborted) reply.state = 'stopped';
      else {
        reply.state = 'error';
        if (this.status?.error == null) this.localError = asError(error);
      }
    } finally {
      if (this._answer === controller) this._answer = null;
      this.messages = [...this.messages];
      this._host.requestUpdate();
    }
  }
}

import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { EngineClient } from '../engine/client.ts';
import type { BackendPreference, ModelSource } from '../engine/protocol.ts';
import { chatAppStyles } from './chat-app-styles.ts';
import { ChatController, type UiMessage } from './controllers/chat-controller.ts';
import { ConversationsController, titleFrom } from './controllers/conversations-controller.ts';
import { DataController } from './controllers/data-controller.ts';
import { EngineController } from './controllers/engine-controller.ts';
import { ForgetController } from './controllers/forget-controller.ts';
import { MemoryPanelController } from './controllers/memory-panel-controller.ts';
import { MemoryPlanner } from './controllers/memory-planner.ts';
import { PromptWarmer } from './controllers/prompt-warmer.ts';
import { ModelController } from './controllers/model-controller.ts';
import { SettingsController } from './controllers/settings-controller.ts';
import { StartTimeline } from './controllers/start-timeline.ts';
import { forgetWeights, rememberWeights, weightsRemembered } from './data/weights-hint.ts';
import { readingWeights } from '../engine/start-steps.ts';
import type { AppSettings, FieldError } from './data/settings.ts';
import { LocaleController, locale, t, type Lang } from './i18n/index.ts';
import './qwen-backend-badge.ts';
import './qwen-composer.ts';
import type { QwenComposer } from './qwen-composer.ts';
import './qwen-conversation-list.ts';
import './qwen-data-panel.ts';
import './qwen-inspector.ts';
import './qwen-load-panel.ts';
import './qwen-memory-panel.ts';
import './qwen-message-list.ts';
import './qwen-model-manager.ts';
import './qwen-settings-panel.ts';
import './qwen-embedding-status.ts';
import { EngineEmbeddingsController } from './controllers/engine-embeddings-controller.ts';
import { plainText } from './markdown.ts';
import { cacheLoadedFiles, whenServiceWorkerReady } from './service-worker.ts';
import { controls, themeTokens } from './styles.ts';

export type PanelName = 'inspector' | 'memory' | 'model' | 'settings' | 'data';
const PANELS: PanelName[] = ['inspector', 'memory', 'model', 'settings', 'data'];
const ICONS: Record<PanelName, string> = { inspector: '◫', memory: '✎', model: '▣', settings: '⚙', data: '⇅' };
export const BACKEND_STORAGE_KEY = 'qwen.backend';
/** Chunks of at least this many tokens are reused from wllama's KV cache even after earlier turns were dropped. */
const KV_CHUNK_REUSE = 32;
/** The exact Qwen token counter: one load per page, shared by the chat, the memory and the docs import. */
const loadTokenCounter = () => import('./controllers/context-planner.ts').then((m) => m.qwenCounter());

/**
 * The chat app: conversations, the chat with the model manager, settings, the context inspector and data control
 * beside it. Give it `source` and `backend` before it connects. It asks before downloading a model, and goes
 * straight in when the model is already on the device (or with `autoload`).
 */
@customElement('qwen-chat-app')
export class QwenChatApp extends LitElement {
  static override styles = [themeTokens, controls, chatAppStyles];

  @property({ attribute: false }) source: ModelSource = {};
  /** Where `source` came from, shown in the model manager. */
  @property() sourceOrigin = '';
  @property() backend: BackendPreference = 'auto';
  @property({ type: Boolean }) autoload = false;
  /** The engine handle; replace it before the first load to use another worker (tests do). */
  @property({ attribute: false }) client = new EngineClient();
  /** IndexedDB database name (tests use their own). */
  @property({ attribute: 'db-name' }) dbName: string | undefined = undefined;
  @state() panel: PanelName | null = null;
  @state() private _sidebar = globalThis.matchMedia?.('(max-width: 900px)').matches !== true;
  @state() private _settingsErrors: FieldError[] = [];
  @state() private _settingsSaved = false;

  @query('qwen-composer') private _composer!: QwenComposer;

  readonly settings = new SettingsController(this);
  readonly conversations = new ConversationsController(this, () => this.dbName);
  readonly model = new ModelController(this);
  readonly planner = new MemoryPlanner(() => {
    const conversations = this.conversations;
    // A getter: the store is opened (or, for a chat removed from the page, refused) only when the planner asks for it.
    return {
      get store() {
        return conversations.store();
      },
      settings: this.settings.value,
    };
  });
  /** The memory panel: the open conversation's working memory, and the user's corrections to it. */
  readonly memory = new MemoryPanelController(this, {
    store: () => this.conversations.store(),
    sessionId: () => this.chat.sessionId,
    changed: (sessionId) => this.planner.workingMemoryChanged(sessionId),
  });
  /** "Forget this message" and its Undo. */
  readonly forgetting = new ForgetController(this, {
    store: () => this.conversations.store(),
    conversationChanged: (sessionId) => this.planner.conversationChanged(sessionId),
    workingMemoryChanged: (sessionId) => this.planner.workingMemoryChanged(sessionId),
    marked: (messageId, forgotten) => this.chat.markForgotten(messageId, forgotten),
    failed: (error) => {
      this.chat.error = error;
      this.requestUpdate();
    },
  });
  /** The engine's embedding model for the memory's search (the `engine` embedder setting). */
  readonly embeddings = new EngineEmbeddingsController(this, {
    client: () => this.client,
    source: () => this.source,
    store: () => this.conversations.store(),
    planner: this.planner,
    engineLoad: () => (this.engine.status === 'ready' ? this.engine.loaded : null),
    wanted: () => this.settings.value.embedder === 'engine',
    cancelled: () => {
      this.settings.save({ ...this.settings.value, embedder: 'hashed' });
    },
  });
  /** Prefills the open conversation's next prompt while the user types (prompt-warmer.ts). */
  readonly warmer = new PromptWarmer({
    engine: () => (this.engine.status === 'ready' ? this.engine.client : null),
    nextPrefix: (sessionId, lang) => this.planner.nextPrefix(sessionId, lang),
    busy: () => this.chat.busy,
    lang: () => locale.lang,
  });
  /** Each step of this page's start, timed: the model panel shows it, `bench:start` reads it. */
  readonly timeline = new StartTimeline();
  private _engine?: EngineController;
  private _chat?: ChatController;
  readonly data = new DataController(this, {
    store: () => this.conversations.store(),
    beforeWipe: async () => {
      this.chat.stop();
      await this.engine.unload();
      await this.conversations.reset();
      this.planner.invalidate();
      this.chat.lastSnapshot = null;
    },
    afterWipe: async () => {
      // Storage is empty now: back to a first visit (defaults, the browser's language, the question before a download).
      this.settings.reset();
      locale.reset();
      await this.model.refresh(this.source);
    },
    imported: async (firstId) => {
      this.planner.invalidate();
      await this.conversations.refresh();
      if (firstId !== null) this.conversations.select(firstId);
    },
    counter: loadTokenCounter,
    docsImported: () => this.planner.invalidate(),
  });

  constructor() {
    super();
    new LocaleController(this);
    this.conversations.onActiveChange = (id) =>
      void this.chat.open(id).then(() => {
        if (this.panel === 'memory') void this.memory.refresh();
        void this.warmer.warm(id);
      });
    this.conversations.onRemoved = (id) => this.planner.forgetConversation(id);
    // Another tab wrote turns: the open conversation shows them (the planner takes them into its memory itself).
    this.conversations.onRemoteTurns = (sessionId) => void this.chat.refresh(sessionId).catch(() => {});
    this.settings.onChange = () => this.planner.invalidate();
    this.planner.timeline = this.timeline;
    this.timeline.onChange = () => this.requestUpdate();
  }

  get engine(): EngineController {
    if (this._engine === undefined) {
      this._engine = new EngineController(
        this,
        this.client,
        () => ({
          source: this.source,
          backend: this.backend,
          contextWindow: this.settings.value.window,
          kvChunkReuse: KV_CHUNK_REUSE,
        }),
        this.timeline,
      );
      this._engine.beforeLoad = () => whenServiceWorkerReady();
      this._engine.onReady = () => void this.warmer.warm(this.chat.sessionId);
      // After a crash the load panel offers Retry when the weights are still here, the download question otherwise.
      this._engine.afterCrash = () => void this.model.refresh(this.source);
      // Evicted weights are not downloaded again without the user's go (the load card asks), unless `autoload`.
      this._engine.mayDownloadUnasked = () => this.autoload;
      this._engine.weightsOnDevice = async () => {
        await this.model.refresh(this.source);
        return this.model.cached === true;
      };
    }
    return this._engine;
  }

  get chat(): ChatController {
    this._chat ??= new ChatController(this, {
      engine: this.engine,
      store: () => this.conversations.store(),
      planner: this.planner,
      settings: (): AppSettings => this.settings.value,
      createSession: (text) => this.conversations.create(titleFrom(text)),
      touched: () => void this.conversations.refresh(),
      warmed: () => this.warmer.take(),
    });
    return this._chat;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.chat; // controllers attach before the first render
    void this.conversations.start();
    void this._start();
    // On the document: Esc must stop a reply even when focus is on nothing (a clicked button that went away).
    document.addEventListener('keydown', this._onKeyDown);
  }

  /** After every render (an engine load, a saved setting): the engine embeddings start, resume or stop to match. */
  protected override updated(): void {
    this.embeddings.sync();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this._onKeyDown);
  }

  /**
   * A returning user whose model is on the device goes straight in, and the memory (tokenizer, pipeline, the saved
   * index) loads beside the engine, so the first message waits for neither; a new one is asked first. Weights loaded
   * here before start the engine at once (the engine loads only what is on the device), the panel's check beside it.
   */
  private async _start(): Promise<void> {
    const known = this.autoload || weightsRemembered(this.source);
    const check = this.timeline.time('model-check', () => this.model.refresh(this.source));
    if (!known) await check;
    if (known || this.model.cached === true) {
      // Known to be here (just looked, or loaded before): the load need not look again.
      this.engine.trustWeightsOnce();
      this._load();
      void this._warmMemoryBesideEngine();
    } else void this.model.probeSize(this.source);
  }

  /**
   * The memory (its code, the 4 MB tokenizer, the saved index) loads while the engine reads its weights: not
   * earlier, when compiling the engine's wasm takes every core this machine has, and not after, when the first
   * message would wait for it. A failure here shows at the first message, which builds the memory again.
   */
  private async _warmMemoryBesideEngine(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.engine.onProgress = (progress) => {
        if (readingWeights(progress)) resolve();
      };
      void this.engine.ensureReady().then(() => resolve(), () => resolve());
    });
    this.engine.onProgress = null;
    if (this.isConnected) await this.planner.warm().catch(() => {});
  }

  private _load(): void {
    void this.engine.ensureReady().then(
      async () => {
        rememberWeights(this.source);
        void this.model.refresh(this.source);
        // The tokenizer comes with the model, through the service worker, which keeps it: one download, the
        // first message does not wait for it, and a user who goes offline now can still chat. A failure here
        // shows at the first message, which loads it again.
        await loadTokenCounter().catch(() => {});
        cacheLoadedFiles();
      },
      () => {
        // Not on the device after all (evicted): the next visit checks first, and the panel asks now.
        if (this.engine.error?.code === 'model_not_downloaded') {
          forgetWeights();
          void this.model.refresh(this.source);
        }
      },
    );
  }

  /** Load (or Retry) from the load panel: a reply that failed with the engine is asked again, which loads it. */
  private _loadOrRetry(): void {
    this.engine.agreeToDownload();
    const last = this.chat.messages.at(-1);
    if (last?.role === 'assistant' && last.status === 'failed' && !this.chat.busy) void this.chat.regenerate();
    else this._load();
  }

  private readonly _onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    if (this.chat.busy) {
      event.preventDefault();
      this.chat.stop();
    } else if (this.panel !== null) {
      event.preventDefault();
      this._togglePanel(this.panel);
    }
  };

  private _togglePanel(name: PanelName): void {
    const opening = this.panel !== name;
    this.panel = opening ? name : null;
    if (name === 'model' && opening) void this.model.refresh(this.source);
    if (name === 'memory') {
      if (opening) void this.memory.open();
      else this.memory.close();
    } else if (opening) this.memory.close();
    void this.updateComplete.then(() => {
      if (opening) this.renderRoot.querySelector<HTMLElement>('.panel-body')?.focus();
      else this.renderRoot.querySelector<HTMLButtonElement>(`button[data-panel="${name}"]`)?.focus();
    });
  }

  private _onSend(event: CustomEvent<{ text: string }>): void {
    void this.chat.send(
      event.detail.text,
      () => (this._composer.value = ''),
      // A waiting message that was stopped: back into the composer, before anything typed since.
      (text) => (this._composer.value = this._composer.value === '' ? text : `${text}\n${this._composer.value}`),
    );
  }

  /** Opens a conversation (null: a new one); on a small screen the list, laid over the chat, closes. */
  private _open(id: string | null): void {
    this.conversations.select(id);
    if (globalThis.matchMedia?.('(max-width: 900px)').matches) this._sidebar = false;
    void this.updateComplete.then(() => this._composer?.focus());
  }

  private _saveSettings(event: CustomEvent<{ settings: AppSettings }>): void {
    this._settingsErrors = this.settings.save(event.detail.settings);
    this._settingsSaved = this._settingsErrors.length === 0;
  }

  private async _switchBackend(event: CustomEvent<{ backend: BackendPreference }>): Promise<void> {
    this.backend = event.detail.backend;
    try {
      localStorage.setItem(BACKEND_STORAGE_KEY, this.backend);
    } catch {
      // Private mode: this visit only.
    }
    if (this.engine.status === 'ready') this._load();
  }

  private async _deleteModel(): Promise<void> {
    this.chat.stop();
    await this.engine.unload();
    forgetWeights();
    await this.model.deleteCache(this.source, this.client);
  }

  /** The open conversation's message texts by id (where a memory item came from), made again only when they change. */
  private _texts: { messages: readonly UiMessage[]; byId: ReadonlyMap<string, string> } | null = null;
  private _messageTexts(): ReadonlyMap<string, string> {
    const messages = this.chat.messages;
    if (this._texts?.messages !== messages) this._texts = { messages, byId: new Map(messages.map((m) => [m.id, m.content])) };
    return this._texts.byId;
  }

  private _panel() {
    const p = this.panel;
    if (p === null) return nothing;
    const engine = this.engine;
    let body;
    if (p === 'inspector') {
      body = html`<qwen-inspector .snapshot=${this.chat.lastSnapshot} .titles=${new Map(this.conversations.list.map((c) => [c.id, c.title]))}></qwen-inspector>`;
    } else if (p === 'model') {
      body = html`<qwen-model-manager
        .loaded=${engine.loaded}
        .status=${engine.status}
        .source=${this.source}
        .progress=${engine.progress}
        .rate=${engine.rate}
        .origin=${this.sourceOrigin}
        .backend=${this.backend}
        .cache=${this.model.cache}
        .storage=${this.model.storage}
        .startSteps=${this.timeline.steps}
        .readyMs=${this.timeline.readyMs}
        ?busy=${this.model.busy}
        @qwen-load=${() => this._load()}
        @qwen-switch-backend=${this._switchBackend}
        @qwen-delete-model=${this._deleteModel}
        @qwen-persist=${() => void this.model.requestPersistence()}
      ></qwen-model-manager>`;
    } else if (p === 'memory') {
      body = html`<qwen-memory-panel
        .items=${this.memory.items}
        .sources=${this._messageTexts()}
        .now=${Date.now()}
        ?loading=${this.memory.loading}
        .error=${this.memory.error}
        @qwen-memory-pin=${(e: CustomEvent<{ id: string; pinned: boolean }>) => void this.memory.pin(e.detail.id, e.detail.pinned)}
        @qwen-memory-edit=${(e: CustomEvent<{ id: string; value: string }>) => void this.memory.edit(e.detail.id, e.detail.value)}
        @qwen-memory-forget=${(e: CustomEvent<{ id: string }>) => void this.memory.forget(e.detail.id)}
      ></qwen-memory-panel>`;
    } else if (p === 'settings') {
      body = html`<qwen-settings-panel
        .settings=${this.settings.value}
        .errors=${this._settingsErrors}
        ?saved=${this._settingsSaved}
        @qwen-save-settings=${this._saveSettings}
      >
        <qwen-embedding-status
          slot="embedder"
          .state=${this.embeddings.state}
          .backend=${this.engine.loaded?.backend ?? null}
          ?active=${this.settings.value.embedder === 'engine'}
          @qwen-embedding-cancel=${() => this.embeddings.cancel()}
          @qwen-embedding-retry=${() => this.embeddings.retry()}
        ></qwen-embedding-status>
      </qwen-settings-panel>`;
    } else {
      const active = this.conversations.list.find((c) => c.id === this.conversations.activeId);
      body = html`<qwen-data-panel
        .notice=${this.data.notice}
        ?busy=${this.data.busy}
        ?has-current=${active !== undefined}
        @qwen-export=${(e: CustomEvent<{ scope: string }>) => void this.data.download(e.detail.scope === 'current' ? active?.id : undefined, e.detail.scope === 'current' ? active?.title : undefined)}
        @qwen-import=${(e: CustomEvent<{ file: File }>) => void this.data.importFile(e.detail.file)}
        .docsProgress=${this.data.docsProgress}
        .docsSkipped=${this.data.docsSkipped}
        @qwen-import-docs=${(e: CustomEvent<{ files: File[] }>) => void this.data.importDocs(e.detail.files)}
        @qwen-delete-all=${() => void this.data.deleteEverything()}
      ></qwen-data-panel>`;
    }
    return html`<section class="panel" id="panel" aria-label=${t(`panel.${p}`)} data-panel=${p}>
      <div class="panel-head"><button class="ghost" aria-label=${t('panel.close')} @click=${() => this._togglePanel(p)}>✕</button></div>
      <div class="panel-body" tabindex="-1">${body}</div>
    </section>`;
  }

  override render() {
    const engine = this.engine;
    const chat = this.chat;
    const conv = this.conversations;
    const last = chat.messages.at(-1);
    const title = conv.list.find((c) => c.id === chat.sessionId)?.title || t('app.newConversation');
    // Polite: once when a reply starts, then the whole reply as text (markdown read aloud is noise).
    const announce = last?.role !== 'assistant' ? '' : last.status === 'complete' ? plainText(last.content) : last.status === 'streaming' ? t('app.replying') : '';
    return html`<div class="layout" data-sidebar=${this._sidebar ? 'open' : 'closed'}>
      <aside aria-label=${t('conversations.title')}>
        <qwen-conversation-list
          .conversations=${conv.list}
          .activeId=${conv.activeId}
          .hits=${conv.matches}
          .query=${conv.query}
          @qwen-new=${() => this._open(null)}
          @qwen-open=${(e: CustomEvent<{ id: string }>) => this._open(e.detail.id)}
          @qwen-rename=${(e: CustomEvent<{ id: string; title: string }>) => void conv.rename(e.detail.id, e.detail.title)}
          @qwen-delete=${(e: CustomEvent<{ id: string }>) => void conv.remove(e.detail.id)}
          @qwen-search=${(e: CustomEvent<{ query: string }>) => void conv.search(e.detail.query)}
        ></qwen-conversation-list>
      </aside>
      <main>
        <header>
          <button class="ghost" aria-label=${t('app.toggleSidebar')} aria-expanded=${String(this._sidebar)} @click=${() => (this._sidebar = !this._sidebar)}>☰</button>
          <h1>${title}</h1>
          <qwen-backend-badge .loaded=${engine.loaded}></qwen-backend-badge>
          <span class="spacer"></span>
          <div class="tools" role="toolbar" aria-label=${t('app.tools')}>
            ${PANELS.map(
              (p) => html`<button data-panel=${p} aria-pressed=${String(this.panel === p)} aria-controls="panel" @click=${() => this._togglePanel(p)}>
                <span class="icon" aria-hidden="true">${ICONS[p]}</span><span class="label">${t(`panel.${p}`)}</span>
              </button>`,
            )}
          </div>
          <select aria-label=${t('app.language')} .value=${locale.lang} @change=${(e: Event) => locale.set((e.target as HTMLSelectElement).value as Lang)}>
            <option value="en" ?selected=${locale.lang === 'en'}>English</option>
            <option value="zh" ?selected=${locale.lang === 'zh'}>中文</option>
          </select>
        </header>
        ${engine.loaded?.fallbackNotice ? html`<div class="notice" role="status">${engine.loaded.fallbackNotice}</div>` : nothing}
        ${engine.webgpuLost ? html`<div class="notice" role="status" data-notice="gpu-lost">${t('model.gpuLost')}</div>` : nothing}
        ${conv.error ?? chat.error ? html`<div class="notice" role="alert">${(chat.error ?? conv.error)!.message}</div>` : nothing}
        <qwen-load-panel
          .status=${engine.status}
          .progress=${engine.progress}
          .rate=${engine.rate}
          .error=${chat.messages.length > 0 && engine.status === 'error' ? null : engine.error}
          .cached=${this.model.cached}
          .source=${this.source}
          .backend=${this.backend}
          .downloadBytes=${this.model.downloadBytes}
          @qwen-load=${() => this._loadOrRetry()}
        ></qwen-load-panel>
        <qwen-message-list
          .messages=${chat.messages}
          .undoable=${this.forgetting.undoable}
          ?busy=${chat.busy}
          @qwen-forget=${(e: CustomEvent<{ id: string }>) => void this.forgetting.forget(e.detail.id)}
          @qwen-unforget=${(e: CustomEvent<{ id: string }>) => void this.forgetting.undo(e.detail.id)}
          @qwen-regenerate=${() => void chat.regenerate()}
          @qwen-edit=${(e: CustomEvent<{ text: string }>) => void chat.editLast(e.detail.text)}
        ></qwen-message-list>
        <div class="sr-only" aria-live="polite" aria-atomic="true">${announce}</div>
        <qwen-composer .busy=${chat.busy} @qwen-send=${this._onSend} @qwen-stop=${() => chat.stop()}></qwen-composer>
      </main>
      ${this._panel()}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-chat-app': QwenChatApp;
  }
}

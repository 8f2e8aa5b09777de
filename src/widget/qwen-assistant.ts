import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { fire } from '../ui/fire.ts';
import { markdownStyles } from '../ui/markdown-styles.ts';
import { AssistantController } from './assistant-controller.ts';
import { ATTRIBUTES, parseAttributes, problemText, resolveLang, type WidgetSettings } from './attributes.ts';
import { STRINGS, type WidgetStrings } from './i18n.ts';
import { ariaShortcuts, isOpenShortcut } from './keyboard.ts';
import { renderMessage } from './render-messages.ts';
import { renderConsent, renderSearch, renderSuggestions } from './render-search.ts';
import { hasModelConsent, rememberModelConsent } from './consent.ts';
import { SearchController } from './search-controller.ts';
import type { DocSearchHit, WidgetLang, WidgetRuntimeConfig } from './runtime/types.ts';
import { widgetStyles } from './styles.ts';

/** Where this script was loaded from: engine files, tokenizer and test model are fetched below it. */
// (Not `new URL('.', import.meta.url)`: Vite would take that for an asset reference and rewrite it.)
const BASE = import.meta.url.slice(0, import.meta.url.lastIndexOf('/') + 1);

const CHAT_ICON = html`<svg viewBox="0 0 24 24" aria-hidden="true">
  <path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm3 6v2h2v-2H7zm4 0v2h2v-2h-2zm4 0v2h2v-2h-2z" />
</svg>`;

/**
 * The docs assistant a site embeds with one script tag and one element: a launcher button that opens a panel
 * where a small model running in the reader's browser answers from the site's docs, with links to its sources.
 * Everything lives in its shadow root; the page's CSS cannot reach in and the widget adds nothing to the page
 * but this element. Attributes are validated: a bad value is reported on the console and replaced by its default.
 *
 * @attr model - GGUF URL of the model ('' = the default model); relative to the widget script's folder
 * @attr mlc-model - self-hosted MLC model folder (`npm run fetch-model`'s public/models/mlc/) for WebGPU; relative to
 *   the widget script's folder ('' = none: the CPU engine only)
 * @attr backend - auto (WebGPU on a real GPU when mlc-model is set, else the CPU) | webgpu (try WebGPU even on a
 *   software adapter, falling back to the CPU) | wasm (the CPU only)
 * @attr docs-index - URL of the docs index manifest (`npm run index-docs`), relative to the page
 * @attr lang - zh | en | auto (the page's language, then the browser's)
 * @attr position - bottom-right | bottom-left
 * @attr window - the model's context window in tokens, 512–32768 (default 1024)
 * @attr shortcut - the key that opens the panel outside text fields (default "/", "none" to turn it off)
 * @attr mode - auto (search; the assistant offered when the reader asks, after consent) | search (never the model) |
 *   assistant (asks for consent on first open)
 * @attr scope - a path prefix such as "/guide/": only those pages are searched and cited
 * @fires qwen-assistant-toggle - the panel opened or closed; detail: { open }
 * @fires qwen-assistant:search - results shown for a query; detail: { query, results, ms }
 * @fires qwen-assistant:question - a question sent to the assistant; detail: { question }
 * @fires qwen-assistant:answer - an answer finished; detail: { question, answer, sources, notInDocs, ms, tokens, finishReason }
 * @fires qwen-assistant:source-click - a search result or an answer's source opened; detail: { href, title, heading, from }
 * @fires qwen-assistant:consent - the reader chose about the model download; detail: { granted }
 * @fires qwen-assistant:feedback - thumbs up or down on an answer; detail: { question, answer, rating, sources }
 * @attr suggestions - questions an empty panel suggests, "a | b | c" (default: the docs' pages)
 * @csspart launcher - the button that opens the panel
 * @csspart panel - the dialog
 * @csspart header - the panel's title bar
 * @csspart messages - the message list
 * @csspart message - one message
 * @csspart user - a question (with `message`)
 * @csspart assistant - an answer (with `message`)
 * @csspart sources - the list of source links under an answer
 * @csspart input - the question field
 * @csspart send - the send / stop button
 * @csspart status - the status line (loading progress, engine, errors)
 * @csspart search - the search results area
 * @csspart results - the list of search results
 * @csspart result - one search result
 * @csspart ask-assistant - the button under the results that asks the assistant
 * @csspart consent - the consent step
 * @csspart consent-accept - the consent step's button that downloads the model
 * @csspart consent-decline - the consent step's button that keeps to search
 * @csspart suggestions - suggested questions on an empty panel
 * @csspart answer-actions - thumbs up/down and copy under an answer
 * @csspart follow-ups - the questions an answer suggests
 * @cssprop --qwen-assistant-accent - the launcher's and buttons' colour (default #3056d3)
 * @cssprop --qwen-assistant-accent-fg - text on the accent colour (default #fff)
 * @cssprop --qwen-assistant-bg - the panel's background
 * @cssprop --qwen-assistant-fg - the panel's text colour
 * @cssprop --qwen-assistant-muted - secondary text
 * @cssprop --qwen-assistant-border - borders
 * @cssprop --qwen-assistant-surface - messages, code and results
 * @cssprop --qwen-assistant-radius - corner radius (default 12px)
 * @cssprop --qwen-assistant-font - font family
 * @cssprop --qwen-assistant-font-size - font size (default 14px)
 * @cssprop --qwen-assistant-z-index - stacking order of the launcher and panel
 */
export class QwenAssistant extends LitElement {
  static override styles = [widgetStyles, markdownStyles];

  @property({ attribute: ATTRIBUTES.model }) modelAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.mlcModel }) mlcModelAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.backend }) backendAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.docsIndex }) docsIndexAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.lang }) langAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.position }) positionAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.window }) windowAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.shortcut }) shortcutAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.mode }) modeAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.scope }) scopeAttr: string | null = null;
  @property({ attribute: ATTRIBUTES.suggestions }) suggestionsAttr: string | null = null;
  /** Whether the panel is open. */
  @property({ type: Boolean, reflect: true }) open = false;

  @state() private _draft = '';
  /** The consent step is shown; with the question that brought it up (asked once the reader accepts). */
  @state() private _consent: { pending: string | null } | null = null;
  @query('.launcher') private _launcher!: HTMLButtonElement;
  @query('textarea') private _input!: HTMLTextAreaElement | null;
  @query('.messages') private _list!: HTMLElement | null;

  /** The validated attributes. @internal */
  settings: WidgetSettings = parseAttributes({ model: null, mlcModel: null, backend: null, docsIndex: null, lang: null, position: null, window: null, shortcut: null, mode: null, scope: null, suggestions: null }).settings;
  /** @internal */
  readonly assistant = new AssistantController(this, () => this.runtimeConfig);
  /** @internal */
  readonly search = new SearchController(this, {
    search: (text, options) => this.assistant.search(text, options),
    rendered: (query, results, ms) => fire(this, 'qwen-assistant:search', { query, results: results.map(({ href, title, heading }) => ({ href, title, heading })), ms }),
  });

  constructor() {
    super();
    this.assistant.onEvent = (name, detail) => fire(this, `qwen-assistant:${name}`, detail);
  }
  private _configKey = '';

  /** The language the panel speaks: the `lang` attribute, else the page's, else the browser's. */
  get language(): WidgetLang {
    return resolveLang(this.settings.lang, document.documentElement.lang, navigator.languages ?? [navigator.language]);
  }

  private get _strings(): WidgetStrings {
    return STRINGS[this.language];
  }

  /** What the runtime is created with. @internal */
  get runtimeConfig(): WidgetRuntimeConfig {
    const docsIndex = this.settings.docsIndex === '' ? '' : new URL(this.settings.docsIndex, document.baseURI).href;
    return {
      base: BASE,
      model: this.settings.model,
      mlcModel: this.settings.mlcModel,
      backend: this.settings.backend,
      docsIndex,
      lang: this.language,
      window: this.settings.window,
      storeName: `qwen-assistant|${docsIndex === '' ? location.origin + location.pathname : docsIndex}`,
      scope: this.settings.scope,
    };
  }

  /** Opens the panel (as the launcher or the shortcut does). */
  show(): void {
    this._setOpen(true);
  }

  /** Closes the panel. */
  hide(): void {
    this._setOpen(false);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('keydown', this._onDocumentKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this._onDocumentKey);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this._applyAttributes(changed);
    // What opening starts is decided here, with the attributes parsed (`show()` may come before the first update).
    if (changed.has('open') && this.open) this._opened();
  }

  private _applyAttributes(changed: PropertyValues<this>): void {
    const keys = ['modelAttr', 'mlcModelAttr', 'backendAttr', 'docsIndexAttr', 'langAttr', 'positionAttr', 'windowAttr', 'shortcutAttr', 'modeAttr', 'scopeAttr', 'suggestionsAttr'] as const;
    if (!keys.some((key) => changed.has(key))) return;
    const { settings, problems } = parseAttributes({
      model: this.modelAttr,
      mlcModel: this.mlcModelAttr,
      backend: this.backendAttr,
      docsIndex: this.docsIndexAttr,
      lang: this.langAttr,
      position: this.positionAttr,
      window: this.windowAttr,
      shortcut: this.shortcutAttr,
      mode: this.modeAttr,
      scope: this.scopeAttr,
      suggestions: this.suggestionsAttr,
    });
    const changedNames = new Set(keys.filter((key) => changed.has(key)).map((key) => this._attributeOf(key)));
    // `backend` is checked against `mlc-model` too: a change of either may make it a problem.
    if (changedNames.has(ATTRIBUTES.mlcModel)) changedNames.add(ATTRIBUTES.backend);
    for (const problem of problems) if (changedNames.has(problem.attribute)) console.error(problemText(problem));
    this.settings = settings;
    this.assistant.scope = settings.scope;
    // A new model, index, language or window needs a new runtime; it is created on the next open.
    const config = this.runtimeConfig;
    const key = JSON.stringify([config.model, config.mlcModel, config.backend, config.docsIndex, config.lang, config.window, config.scope]);
    if (this._configKey !== '' && key !== this._configKey) void this.assistant.dispose();
    this._configKey = key;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('open') && this.open) this._input?.focus();
    const list = this._list;
    if (list !== null && list.scrollHeight - list.scrollTop - list.clientHeight < 80) list.scrollTop = list.scrollHeight;
  }

  protected override render(): unknown {
    const strings = this._strings;
    const left = this.settings.position === 'bottom-left';
    return html`<div class="root ${left ? 'left' : ''}" lang=${this.language} @keydown=${this._onKey}>
      <button
        class="launcher"
        part="launcher"
        type="button"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="panel"
        aria-keyshortcuts=${ariaShortcuts(this.settings.shortcut)}
        @click=${() => this._setOpen(!this.open)}
      >
        ${CHAT_ICON}<span>${strings.launcher}</span>
      </button>
      <div id="panel" class="panel" part="panel" role="dialog" aria-modal="false" aria-labelledby="title" ?hidden=${!this.open}>
        <header part="header">
          <h2 id="title">${strings.title}</h2>
          <button class="icon" type="button" @click=${() => this._newConversation()} title=${strings.newConversation}>
            ${strings.newConversation}
          </button>
          <button class="icon" type="button" aria-label=${strings.close} title=${strings.close} @click=${() => this._close()}>✕</button>
        </header>
        ${this._consent === null ? nothing : renderConsent(this.assistant.modelOffer, strings, () => this._acceptConsent(), () => this._declineConsent())}
        ${renderSearch(
          {
            ...this.search.state,
            offerAssistant: this.settings.mode !== 'search' && this._consent === null && !this.search.state.asked,
            compact: this.assistant.messages.length > 0,
            onPick: (hit, event) => this._pick(hit, event),
            onAsk: () => this._askOrOffer(this.search.state.query),
          },
          strings,
        )}
        <div class="messages" part="messages" role="log" aria-live="polite" aria-label=${strings.title} @click=${this._onListClick}>
          ${this.assistant.messages.length === 0
            ? this.search.state.query.trim() === ''
              ? html`<p class="empty">${this._assistantAllowed ? strings.empty : strings.searchEmpty}</p>
                  ${renderSuggestions(this._suggestions(), strings, (text) => this._choose(text))}`
              : nothing
            : this.assistant.messages.map((message) =>
                renderMessage(
                  message,
                  strings,
                  () => this.requestUpdate(),
                  (question) => this._choose(question),
                ),
              )}
        </div>
        ${this._renderStatus(strings)} ${this._renderComposer(strings)}
      </div>
    </div>`;
  }

  private _renderStatus(strings: WidgetStrings): unknown {
    const { status, error } = this.assistant;
    if (error !== null) {
      return html`<div class="status error" part="status" role="status">
        <span class="text">${error.code}: ${error.message}</span>
        <button type="button" @click=${() => void this.assistant.retry()}>${strings.retry}</button>
      </div>`;
    }
    const text = status?.text ?? strings.starting;
    const progress = status?.progress ?? null;
    return html`<div class="status" part="status" role="status" data-phase=${status?.phase ?? 'idle'}>
      <span class="text">${text}</span>
      ${progress === null ? nothing : html`<progress max="1" .value=${progress} aria-label=${text}></progress>`}
    </div>`;
  }

  private _renderComposer(strings: WidgetStrings): unknown {
    const busy = this.assistant.busy;
    return html`<form @submit=${this._onSubmit}>
        <textarea
          part="input"
          rows="1"
          aria-label=${strings.input}
          aria-controls="results"
          aria-activedescendant=${this.search.state.active >= 0 ? `result-${this.search.state.active}` : nothing}
          placeholder=${this._assistantAllowed ? strings.placeholder : strings.searchPlaceholder}
          .value=${this._draft}
          @input=${this._onInput}
          @keydown=${this._onInputKey}
        ></textarea>
        ${busy
          ? html`<button class="send" part="send" type="button" @click=${() => this.assistant.stop()}>${strings.stop}</button>`
          : this.settings.mode === 'search'
            ? nothing
            : html`<button class="send" part="send" type="submit" ?disabled=${this._draft.trim() === ''}>${strings.send}</button>`}
      </form>
      <p class="hint">${this._assistantAllowed ? strings.hint : strings.searchHint}</p>`;
  }

  private _attributeOf(key: `${keyof WidgetSettings}Attr`): string {
    return ATTRIBUTES[key.slice(0, -'Attr'.length) as keyof WidgetSettings];
  }

  private _setOpen(open: boolean): void {
    if (open === this.open) return;
    this.open = open;
    fire(this, 'qwen-assistant-toggle', { open });
  }

  /**
   * The panel opened: the docs index loads (search needs nothing else); the engine only for a reader who consented
   * to it, never at host page load. Mode `assistant` asks at the first open.
   */
  private _opened(): void {
    // Rendered again once the docs are in: an empty panel then suggests their pages.
    void this.assistant.startDocs().then(() => this.requestUpdate());
    if (this._assistantAllowed) {
      void this.assistant.start();
      return;
    }
    if (this.settings.mode === 'search') return;
    // A reader who has the weights already goes straight in: there is nothing to download to ask about.
    void this.assistant.modelOnDevice().then((here) => {
      if (here) {
        this._weightsHere = true;
        this._consent = null;
        void this.assistant.start();
      } else if (this.settings.mode === 'assistant' && this._consent === null && !this._assistantAllowed) this._consent = { pending: null };
    });
  }

  /** The model's weights were found on this device (the engines' caches): no download, no consent to ask. */
  private _weightsHere = false;

  /** Whether the model may load: not in mode `search`; the reader consented on this site, or has the weights. */
  private get _assistantAllowed(): boolean {
    return this.settings.mode !== 'search' && (this._weightsHere || hasModelConsent());
  }

  /** What an empty panel suggests: the site's questions (`suggestions`), else its docs' pages (once loaded). */
  private _suggestions(): string[] {
    if (this.settings.suggestions.length > 0) return [...this.settings.suggestions];
    return this.assistant.topSections(this.settings.scope).map((s) => s.title);
  }

  /** A suggestion or a follow-up chosen: asked when the model may run, else searched. */
  private _choose(text: string): void {
    this._draft = text;
    if (this._assistantAllowed) this._send();
    else void this.search.run(text, { scope: this.settings.scope });
    this._input?.focus();
  }

  private _pick(hit: DocSearchHit, event: Event | null): void {
    fire(this, 'qwen-assistant:source-click', { href: hit.href, title: hit.title, heading: hit.heading, from: 'search' });
    // A click follows its link; Enter goes there as the click would.
    if (event === null) location.assign(hit.href);
  }

  /** A question: asked when the model may run, else the consent step, which asks it once accepted. */
  private _askOrOffer(text: string): void {
    const question = text.trim();
    if (question === '' || this.settings.mode === 'search') return;
    if (this._assistantAllowed) {
      this._draft = question;
      this._send();
      return;
    }
    this._consent = { pending: question };
  }

  private _acceptConsent(): void {
    const pending = this._consent?.pending ?? null;
    this._consent = null;
    rememberModelConsent(true);
    fire(this, 'qwen-assistant:consent', { granted: true });
    void this.assistant.start();
    if (pending !== null) {
      this._draft = pending;
      this._send();
    }
    this._input?.focus();
  }

  private _declineConsent(): void {
    this._consent = null;
    fire(this, 'qwen-assistant:consent', { granted: false });
    this._input?.focus();
  }

  private _close(): void {
    this._setOpen(false);
    void this.updateComplete.then(() => this._launcher.focus());
  }

  private async _newConversation(): Promise<void> {
    this._draft = '';
    this.search.clear();
    await this.assistant.reset();
    this._input?.focus();
  }

  private _send(): void {
    const question = this._draft;
    if (this.assistant.ask(question)) {
      this.search.asked(question);
      this._draft = '';
      if (this._input !== null) this._input.style.height = '';
    }
  }

  private _onSubmit = (event: Event): void => {
    event.preventDefault();
    this._send();
  };

  private _onInput = (event: Event): void => {
    const input = event.target as HTMLTextAreaElement;
    this._draft = input.value;
    input.style.height = 'auto';
    input.style.height = `${input.scrollHeight + 2}px`;
    void this.search.run(input.value, { scope: this.settings.scope });
  };

  private _onInputKey = (event: KeyboardEvent): void => {
    if (event.isComposing || event.keyCode === 229) return;
    // Arrow keys move through the results, as in DocSearch; the caret stays in the field.
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && this.search.move(event.key === 'ArrowDown' ? 1 : -1)) {
      event.preventDefault();
      return;
    }
    // Enter opens the chosen result, else sends (or, before consent, offers the assistant); Shift+Enter is a new
    // line; an IME composing Chinese keeps its Enter.
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    const chosen = this.search.chosen(this.settings.mode === 'search');
    if (chosen !== undefined) return this._pick(chosen, null);
    if (!this.assistant.busy) this._askOrOffer(this._draft);
  };

  /** Escape, from anywhere in the widget (the panel, or the launcher while it is open), closes the panel. */
  private _onKey = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || event.isComposing || !this.open) return;
    event.preventDefault();
    event.stopPropagation();
    this._close();
  };

  private _onDocumentKey = (event: KeyboardEvent): void => {
    if (!isOpenShortcut(event, this.settings.shortcut)) return;
    event.preventDefault();
    if (this.open) this._input?.focus();
    else this._setOpen(true);
  };

  private _onListClick = (event: Event): void => {
    const target = event.target as Element;
    const rate = target.closest?.('[data-rate]');
    const copyAnswer = target.closest?.('[data-copy-answer]');
    const message = this.assistant.messages.find((m) => String(m.id) === (rate ?? copyAnswer)?.closest('[data-message]')?.getAttribute('data-message'));
    if (rate != null && message !== undefined) {
      message.rating = rate.getAttribute('data-rate') === 'up' ? 'up' : 'down';
      this.requestUpdate();
      fire(this, 'qwen-assistant:feedback', { question: message.question, answer: message.text, rating: message.rating, sources: message.sources });
      return;
    }
    if (copyAnswer != null && message !== undefined) {
      // The button is Lit's: its label comes from the message (never written into the DOM by hand).
      void navigator.clipboard
        ?.writeText(message.text)
        .then(() => {
          message.copied = true;
          this.requestUpdate();
        })
        .catch(() => {});
      return;
    }
    const link = target.closest?.('.sources a');
    if (link != null) {
      const href = link.getAttribute('href') ?? '';
      const source = this.assistant.messages.flatMap((m) => m.sources).find((s) => s.href === href);
      fire(this, 'qwen-assistant:source-click', { href, title: source?.title ?? link.textContent ?? '', heading: source?.heading ?? '', from: 'answer' });
      return;
    }
    const button = (event.target as Element).closest?.('[data-copy-code]');
    const code = button?.closest('.code-block')?.querySelector('code')?.textContent;
    if (button == null || code == null) return;
    void navigator.clipboard?.writeText(code).then(() => (button.textContent = this._strings.copied)).catch(() => {});
  };
}

/** Defined once: a second copy of the script (or another version already on the page) leaves the first in place. */
if (customElements.get('qwen-assistant') === undefined) customElements.define('qwen-assistant', QwenAssistant);

declare global {
  interface HTMLElementTagNameMap {
    'qwen-assistant': QwenAssistant;
  }
}

import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import { EngineClient } from '../engine/client.ts';
import { CHAT_DEFAULTS, type BackendPreference, type ModelSource } from '../engine/protocol.ts';
import { ChatController } from './controllers/chat-controller.ts';
import { ContextPlanner } from './controllers/context-planner.ts';
import { EngineController } from './controllers/engine-controller.ts';
import './qwen-backend-badge.ts';
import './qwen-composer.ts';
import type { QwenComposer } from './qwen-composer.ts';
import './qwen-load-panel.ts';
import './qwen-message-list.ts';

const DEFAULT_SYSTEM_PROMPT = 'You are a helpful assistant.';
/** Chunks of at least this many tokens are reused from wllama's KV cache even after earlier turns were dropped. */
const KV_CHUNK_REUSE = 32;

/**
 * The chat page: conversation, composer, model loading and the backend badge.
 * Give it `source` and `backend` before it loads; it loads when the user asks (or at once with `autoload`).
 */
@customElement('qwen-chat-app')
export class QwenChatApp extends LitElement {
  static override styles = css`
    :host {
      display: flex;
      flex-direction: column;
      height: 100%;
      color: var(--qwen-fg, #1c1c1e);
      background: var(--qwen-bg, #fafafa);
      font-family: system-ui, sans-serif;
    }
    header {
      display: flex;
      align-items: center;
      gap: 0.75rem;
      padding: 0.5rem 1rem;
      border-bottom: 1px solid var(--qwen-border, #ddd);
    }
    h1 {
      font-size: 1rem;
      margin: 0;
    }
    .notice {
      margin: 0.5rem auto 0;
      max-width: 46rem;
      padding: 0.5rem 0.75rem;
      border-radius: 8px;
      background: var(--qwen-warn-bg, #fff4d6);
      color: var(--qwen-warn-fg, #6b4e00);
      font-size: 0.9rem;
    }
    qwen-message-list {
      flex: 1;
    }
    .sr-only {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
  `;

  @property({ attribute: false }) source: ModelSource = {};
  @property() backend: BackendPreference = 'auto';
  /** The model's whole window (prompt + answer), as the context engine budgets it. */
  @property({ type: Number, attribute: 'context-window' }) contextWindow = 1024;
  @property({ type: Boolean }) autoload = false;
  @property({ attribute: false }) systemPrompt = DEFAULT_SYSTEM_PROMPT;
  /** The engine handle; replace it before the first load to use another worker (tests do). */
  @property({ attribute: false }) client = new EngineClient();

  @query('qwen-composer') private _composer!: QwenComposer;

  private _engine?: EngineController;
  private _chat?: ChatController;

  get engine(): EngineController {
    this._engine ??= new EngineController(this, this.client, () => ({
      source: this.source,
      backend: this.backend,
      contextWindow: this.contextWindow,
      kvChunkReuse: KV_CHUNK_REUSE,
    }));
    return this._engine;
  }

  get chat(): ChatController {
    const planner = new ContextPlanner(() => ({ systemPrompt: this.systemPrompt, budgetTokens: this.contextWindow }));
    this._chat ??= new ChatController(this, this.engine, () => ({ ...CHAT_DEFAULTS }), (history, input) => planner.plan(history, input));
    return this._chat;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.autoload) void this.engine.ensureReady().catch(() => {});
  }

  private _onLoad(): void {
    void this.engine.ensureReady().catch(() => {});
  }

  private _onSend(event: CustomEvent<{ text: string }>): void {
    this._composer.value = '';
    void this.chat.send(event.detail.text);
  }

  override render() {
    const engine = this.engine;
    const chat = this.chat;
    const last = chat.messages.at(-1);
    return html`
      <header>
        <h1>Local assistant</h1>
        <qwen-backend-badge .loaded=${engine.loaded}></qwen-backend-badge>
      </header>
      ${engine.loaded?.fallbackNotice ? html`<div class="notice" role="status">${engine.loaded.fallbackNotice}</div>` : nothing}
      <qwen-load-panel
        .status=${engine.status}
        .progress=${engine.progress}
        .error=${chat.messages.length > 0 && engine.status === 'error' ? null : engine.error}
        .source=${this.source}
        @qwen-load=${this._onLoad}
      ></qwen-load-panel>
      <qwen-message-list .messages=${chat.messages} @qwen-retry=${() => void chat.retry()}></qwen-message-list>
      <div class="sr-only" aria-live="polite">${last?.role === 'assistant' && last.status === 'complete' ? last.content : ''}</div>
      <qwen-composer
        .busy=${chat.busy}
        ?disabled=${engine.status === 'loading'}
        @qwen-send=${this._onSend}
        @qwen-stop=${() => chat.stop()}
      ></qwen-composer>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-chat-app': QwenChatApp;
  }
}

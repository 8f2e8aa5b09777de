import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { UiMessage } from './controllers/chat-controller.ts';
import { LocaleController, formatNumber, t } from './i18n/index.ts';
import { renderMarkdown } from './markdown.ts';
import { markdownStyles } from './markdown-styles.ts';
import { controls } from './styles.ts';
import { fire } from './fire.ts';

/** A user message longer than this shows its start, with a button for the rest. */
const LONG_MESSAGE_CHARS = 4_000;

/** The start of a long message, never ending inside a surrogate pair. */
function shownStart(text: string): string {
  const end = LONG_MESSAGE_CHARS / 2;
  const code = text.charCodeAt(end - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

/**
 * The conversation. The user's text is shown as typed (never interpreted); replies are markdown, sanitised.
 * The last reply can be regenerated (also a stopped, failed or interrupted one) and the last message edited.
 * @fires qwen-regenerate - ask again for the last user message
 * @fires qwen-edit - detail: { text } the last user message, changed, to send again
 * @fires qwen-copied - detail: { text } after a copy button copied something
 * @fires qwen-forget - detail: { id } "Forget this message": out of the memory, kept in the conversation, marked
 * @fires qwen-unforget - detail: { id } Undo of a forget made in this page
 * @csspart message - each message
 */
@customElement('qwen-message-list')
export class QwenMessageList extends LitElement {
  static override styles = [
    controls,
    markdownStyles,
    css`
      :host {
        display: block;
        overflow-y: auto;
        position: relative;
      }
      ol.messages {
        list-style: none;
        margin: 0 auto;
        padding: 1rem 1rem 2rem;
        max-width: 48rem;
        display: flex;
        flex-direction: column;
        gap: 1rem;
      }
      li[data-role] {
        /* Holds its visually hidden label: an absolute box must not escape the scrolling list. */
        position: relative;
        overflow-wrap: anywhere;
        line-height: 1.55;
      }
      li[data-forgotten] .content {
        opacity: 0.55;
      }
      li[data-role='user'] {
        align-self: flex-end;
        max-width: 85%;
      }
      li[data-role='user'] .content {
        white-space: pre-wrap;
        background: var(--qwen-user-bg, #e8eefc);
        padding: 0.55rem 0.9rem;
        border-radius: 14px;
      }
      li[data-role='assistant'] .content {
        background: var(--qwen-assistant-bg, transparent);
      }
      .actions {
        display: flex;
        gap: 0.25rem;
        margin-top: 0.3rem;
        justify-content: flex-start;
      }
      li[data-role='user'] .actions {
        justify-content: flex-end;
      }
      .actions button {
        font-size: 0.78rem;
        padding: 0.15rem 0.5rem;
      }
      .note {
        display: block;
        margin-top: 0.4rem;
        font-size: 0.82rem;
        color: var(--qwen-muted, #5f6068);
      }
      .failed {
        color: var(--qwen-danger, #b3261e);
      }
      .typing {
        color: var(--qwen-muted, #5f6068);
      }
      .edit textarea {
        width: min(40rem, 80vw);
        min-height: 4rem;
        box-sizing: border-box;
      }
      .empty {
        text-align: center;
        margin: 12vh auto 0;
        max-width: 30rem;
        color: var(--qwen-muted, #5f6068);
      }
      .empty h2 {
        color: var(--qwen-fg, #1c1c1e);
        font-size: 1.4rem;
        font-weight: 600;
        margin-bottom: 0.5rem;
      }
    `,
  ];

  /** Forgotten messages this page can take back (Undo, until the page closes). */
  @property({ attribute: false }) undoable: ReadonlySet<string> = new Set();
  @property({ attribute: false }) messages: UiMessage[] = [];
  /** A reply is streaming: no regenerate or edit meanwhile. */
  @property({ type: Boolean }) busy = false;
  @state() private _editing = false;
  /** Long messages the user opened in full (laying out 100,000 characters at once freezes the page). */
  @state() private _expanded: ReadonlySet<string> = new Set();
  @state() private _draft = '';

  constructor() {
    super();
    new LocaleController(this);
  }

  /** The first message shown, to tell another conversation from a longer one. */
  private _firstId: string | undefined;

  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has('messages')) return;
    const first = this.messages[0]?.id;
    const opened = first !== this._firstId;
    this._firstId = first;
    // A conversation opens at its end; a streaming reply is followed unless the user scrolled up to read.
    if (opened || this.scrollHeight - this.scrollTop - this.clientHeight < 200) this.scrollTop = this.scrollHeight;
  }

  private async _copy(text: string, button: HTMLButtonElement, label: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = t('message.copied');
      fire(this, 'qwen-copied', { text });
    } catch {
      button.textContent = t('message.copyFailed');
    }
    setTimeout(() => (button.textContent = label), 1_500);
  }

  /** Copy buttons inside rendered code blocks (plain HTML from the markdown renderer). */
  private _onContentClick(event: Event): void {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-copy-code]');
    if (button === null) return;
    const code = button.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    void this._copy(code, button, t('message.copyCode'));
  }

  private _startEdit(message: UiMessage): void {
    this._draft = message.content;
    this._editing = true;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLTextAreaElement>('.edit textarea')?.focus());
  }

  private _submitEdit(): void {
    const text = this._draft;
    if (text.trim() === '') return;
    this._editing = false;
    fire(this, 'qwen-edit', { text });
  }

  private _onEditKey(event: KeyboardEvent): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this._submitEdit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      this._editing = false;
    }
  }

  /** A stored, finished message can be forgotten; a forgotten one says so, and this page can take it back. */
  private _forgetControls(m: UiMessage) {
    if (m.id.startsWith('pending:') || m.id.startsWith('queued:') || m.status === 'streaming' || m.status === 'queued') return nothing;
    // Disabled, not hidden, during a reply: the list keeps its height, so a followed reply stays in view.
    if (m.forgotten !== true) {
      return html`<button class="ghost" data-action="forget" ?disabled=${this.busy} aria-label=${t('message.forgetLabel')} @click=${() => fire(this, 'qwen-forget', { id: m.id })}>${t('message.forget')}</button>`;
    }
    return this.undoable.has(m.id)
      ? html`<button class="ghost" data-action="unforget" ?disabled=${this.busy} @click=${() => fire(this, 'qwen-unforget', { id: m.id })}>${t('message.unforget')}</button>`
      : nothing;
  }

  private _forgottenNote(m: UiMessage) {
    return m.forgotten === true ? html`<span class="note" data-status="forgotten">${t('message.forgotten')}</span>` : nothing;
  }

  private _note(m: UiMessage) {
    if (m.status === 'stopped') return html`<span class="note" data-status="stopped">${t('message.stopped')}</span>`;
    if (m.status === 'interrupted') return html`<span class="note" data-status="interrupted">${t('message.interrupted')}</span>`;
    if (m.status === 'failed' && m.error) {
      return html`<span class="note failed" role="alert" data-status="failed" data-code=${m.error.code}
        >${m.error.message} (${m.error.code})</span
      >`;
    }
    return nothing;
  }

  private _assistant(m: UiMessage, isLast: boolean) {
    const regenerate = isLast && !this.busy;
    const body =
      m.content === '' && m.status === 'streaming'
        ? html`<span class="typing">${t('message.typing')}</span>`
        : unsafeHTML(renderMarkdown(m.content, { copy: t('message.copyCode'), image: t('message.image') }));
    return html`<div class="content markdown" @click=${this._onContentClick}>${body}</div>
      ${this._note(m)} ${this._forgottenNote(m)}
      ${m.status === 'streaming'
        ? nothing
        : html`<div class="actions">
            ${m.content === ''
              ? nothing
              : html`<button class="ghost" @click=${(e: Event) => void this._copy(m.content, e.currentTarget as HTMLButtonElement, t('message.copy'))}>
                  ${t('message.copy')}
                </button>`}
            ${regenerate ? html`<button class="ghost" @click=${() => fire(this, 'qwen-regenerate')}>${t('message.regenerate')}</button>` : nothing}
            ${this._forgetControls(m)}
          </div>`}`;
  }

  private _user(m: UiMessage, isLastUser: boolean, isLast: boolean) {
    if (isLastUser && this._editing) {
      return html`<div class="edit">
        <textarea aria-label=${t('message.editLabel')} .value=${this._draft} @input=${(e: Event) => (this._draft = (e.target as HTMLTextAreaElement).value)} @keydown=${this._onEditKey}></textarea>
        <div class="actions">
          <button class="ghost" @click=${() => (this._editing = false)}>${t('common.cancel')}</button>
          <button class="primary" @click=${this._submitEdit}>${t('message.saveEdit')}</button>
        </div>
      </div>`;
    }
    const long = m.content.length > LONG_MESSAGE_CHARS && !this._expanded.has(m.id);
    return html`<div class="content">${long ? `${shownStart(m.content)}…` : m.content}</div>
      ${long
        ? html`<button class="ghost more" @click=${() => (this._expanded = new Set([...this._expanded, m.id]))}>
            ${t('message.showAll', { total: formatNumber(m.content.length) })}
          </button>`
        : nothing}
      ${m.status === 'queued' ? html`<span class="note" data-status="queued">${t('message.queued')}</span>` : nothing}
      ${m.sent === undefined
        ? nothing
        : html`<span class="note" data-sent=${m.sent.chars}
            >${t('message.partlySent', { sent: formatNumber(m.sent.chars), total: formatNumber(m.content.length), tokens: formatNumber(m.sent.tokens) })}</span
          >`}
      ${this._forgottenNote(m)}
      <div class="actions">
        ${!this.busy && isLastUser ? html`<button class="ghost" @click=${() => this._startEdit(m)}>${t('message.edit')}</button>` : nothing}
        ${!this.busy && isLast ? html`<button class="ghost" @click=${() => fire(this, 'qwen-regenerate')}>${t('message.getReply')}</button>` : nothing}
        ${this._forgetControls(m)}
      </div>`;
  }

  override render() {
    if (this.messages.length === 0) {
      return html`<div class="empty">
        <h2>${t('chat.emptyTitle')}</h2>
        <p>${t('chat.emptyBody')}</p>
      </div>`;
    }
    const lastId = this.messages.at(-1)?.id;
    const lastUserId = this.messages.findLast((m) => m.role === 'user')?.id;
    return html`<ol class="messages" aria-label=${t('chat.conversation')}>
      ${repeat(
        this.messages,
        (m) => m.id,
        (m) => html`<li part="message" data-role=${m.role} data-status=${m.status} data-chunks=${m.chunks} data-id=${m.id} ?data-forgotten=${m.forgotten === true}>
          <span class="sr-only">${m.role === 'user' ? t('message.you') : t('message.assistant')}</span>
          ${m.role === 'assistant' ? this._assistant(m, m.id === lastId) : this._user(m, m.id === lastUserId, m.id === lastId)}
        </li>`,
      )}
    </ol>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-message-list': QwenMessageList;
  }
}

import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { ConversationSummary } from './controllers/conversations-controller.ts';
import { LocaleController, t } from './i18n/index.ts';
import type { QwenConfirmDialog } from './qwen-confirm-dialog.ts';
import './qwen-confirm-dialog.ts';
import { controls } from './styles.ts';
import { fire } from './fire.ts';

/**
 * The conversations: a new one, search by title and content, open, rename (inline; Enter saves, Esc cancels)
 * and delete (after a confirmation).
 * @fires qwen-new - start a new conversation
 * @fires qwen-open - detail: { id }
 * @fires qwen-rename - detail: { id, title }
 * @fires qwen-delete - detail: { id } (confirmed)
 * @fires qwen-search - detail: { query }
 * @csspart item - each conversation
 */
@customElement('qwen-conversation-list')
export class QwenConversationList extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: flex;
        flex-direction: column;
        gap: 0.5rem;
        padding: 0.75rem;
        box-sizing: border-box;
        height: 100%;
        min-height: 0;
      }
      .new {
        width: 100%;
        text-align: left;
      }
      input[type='search'] {
        width: 100%;
        box-sizing: border-box;
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        overflow-y: auto;
        flex: 1;
      }
      li {
        display: flex;
        align-items: center;
        gap: 0.15rem;
        border-radius: 8px;
      }
      li[aria-current='true'] {
        background: var(--qwen-border, #dcdce0);
      }
      li:hover {
        background: color-mix(in srgb, var(--qwen-border, #dcdce0) 60%, transparent);
      }
      .open {
        flex: 1;
        min-width: 0;
        text-align: left;
        border: none;
        background: none;
        padding: 0.45rem 0.5rem;
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .tool {
        border: none;
        background: none;
        padding: 0.25rem 0.35rem;
        font-size: 0.75rem;
        color: var(--qwen-muted, #5f6068);
        opacity: 0;
      }
      li:hover .tool,
      li[aria-current='true'] .tool,
      .tool:focus-visible {
        opacity: 1;
      }
      @media (hover: none) {
        .tool {
          opacity: 1;
        }
      }
      .rename {
        flex: 1;
        min-width: 0;
      }
      .empty {
        color: var(--qwen-muted, #5f6068);
        font-size: 0.85rem;
        padding: 0.5rem;
      }
    `,
  ];

  @property({ attribute: false }) conversations: ConversationSummary[] = [];
  @property({ attribute: false }) activeId: string | null = null;
  /** Ids matching the search, or null when not searching. */
  @property({ attribute: false }) hits: Set<string> | null = null;
  @property() query = '';
  @state() private _renaming: string | null = null;
  @query('qwen-confirm-dialog') private _confirm!: QwenConfirmDialog;

  constructor() {
    super();
    new LocaleController(this);
  }

  private async _startRename(id: string): Promise<void> {
    this._renaming = id;
    await this.updateComplete;
    const input = this.renderRoot.querySelector<HTMLInputElement>('input.rename');
    input?.focus();
    input?.select();
  }

  private _finishRename(id: string, input: HTMLInputElement, save: boolean): void {
    if (this._renaming !== id) return;
    this._renaming = null;
    const title = input.value.trim();
    if (save && title !== '') fire(this, 'qwen-rename', { id, title });
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>(`li[data-id="${id}"] .open`)?.focus());
  }

  private async _delete(c: ConversationSummary): Promise<void> {
    const title = c.title || t('conversations.untitled');
    const ok = await this._confirm.ask({ title: t('conversations.deleteTitle'), message: t('conversations.deleteMessage', { title }), confirm: t('common.delete') });
    if (ok) fire(this, 'qwen-delete', { id: c.id });
  }

  private _item(c: ConversationSummary) {
    const title = c.title || t('conversations.untitled');
    if (this._renaming === c.id) {
      return html`<li data-id=${c.id} part="item">
        <input
          class="rename"
          aria-label=${t('conversations.renameLabel')}
          .value=${c.title}
          @keydown=${(e: KeyboardEvent) => {
            if (e.key === 'Enter' && !e.isComposing) this._finishRename(c.id, e.target as HTMLInputElement, true);
            else if (e.key === 'Escape') {
              e.stopPropagation();
              this._finishRename(c.id, e.target as HTMLInputElement, false);
            }
          }}
          @blur=${(e: Event) => this._finishRename(c.id, e.target as HTMLInputElement, true)}
        />
      </li>`;
    }
    return html`<li data-id=${c.id} part="item" aria-current=${c.id === this.activeId ? 'true' : 'false'}>
      <button class="open" title=${title} @click=${() => fire(this, 'qwen-open', { id: c.id })}>${title}</button>
      <button class="tool" aria-label=${t('conversations.rename', { title })} @click=${() => this._startRename(c.id)}>${t('conversations.renameShort')}</button>
      <button class="tool" aria-label=${t('conversations.delete', { title })} @click=${() => this._delete(c)}>${t('conversations.deleteShort')}</button>
    </li>`;
  }

  override render() {
    const shown = this.hits === null ? this.conversations : this.conversations.filter((c) => this.hits!.has(c.id));
    return html`
      <button class="new primary" @click=${() => fire(this, 'qwen-new')}>＋ ${t('conversations.new')}</button>
      <input
        type="search"
        aria-label=${t('conversations.search')}
        placeholder=${t('conversations.search')}
        .value=${this.query}
        @input=${(e: Event) => fire(this, 'qwen-search', { query: (e.target as HTMLInputElement).value })}
      />
      <ul aria-label=${t('conversations.listLabel')}>
        ${repeat(shown, (c) => c.id, (c) => this._item(c))}
      </ul>
      ${shown.length === 0
        ? html`<p class="empty" role="status">${this.hits === null ? t('conversations.none') : t('conversations.noMatch')}</p>`
        : nothing}
      <qwen-confirm-dialog></qwen-confirm-dialog>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-conversation-list': QwenConversationList;
  }
}

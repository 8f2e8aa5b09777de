import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { WorkingItemRecord } from '../memory/store/index.ts';
import { preview } from './data/inspector-view.ts';
import { fire } from './fire.ts';
import { LocaleController, formatRelative, t, type MessageKey } from './i18n/index.ts';
import { controls, panelStyles } from './styles.ts';

/**
 * What the assistant remembers of this conversation (its working memory: entities, facts, the topic), as the
 * store holds it, for the user to check and correct: each item's subject and value, the message it came from, its
 * age and expiry. Pin keeps an item for good, Edit replaces its value, Forget removes it; the next prompt follows.
 * The list can be searched. Every control is a labelled button or field, reachable with Tab.
 * @fires qwen-memory-pin - detail: { id, pinned }
 * @fires qwen-memory-edit - detail: { id, value }
 * @fires qwen-memory-forget - detail: { id }
 */
@customElement('qwen-memory-panel')
export class QwenMemoryPanel extends LitElement {
  static override styles = [
    controls,
    panelStyles,
    css`
      ul {
        list-style: none;
        margin: 0.75rem 0 0;
        padding: 0;
        display: grid;
        gap: 0.5rem;
      }
      li {
        border: 1px solid var(--qwen-border, #d0d7de);
        border-radius: 8px;
        padding: 0.5rem 0.75rem;
      }
      .subject {
        font-weight: 600;
      }
      .kind {
        font-size: 0.8em;
        border: 1px solid currentColor;
        border-radius: 4px;
        padding: 0 0.3em;
        margin-inline-start: 0.4em;
        opacity: 0.8;
      }
      .meta {
        font-size: 0.85em;
        opacity: 0.8;
        margin: 0.25rem 0;
      }
      .actions,
      form {
        display: flex;
        gap: 0.4rem;
        flex-wrap: wrap;
        align-items: center;
      }
      form input {
        flex: 1 1 12rem;
      }
      input[type='search'] {
        width: 100%;
        box-sizing: border-box;
      }
      li[data-pinned] {
        border-color: var(--qwen-accent, #3056d3);
      }
    `,
  ];

  @property({ attribute: false }) items: WorkingItemRecord[] = [];
  /** Message id → its text (the open conversation's), to show where an item came from. */
  @property({ attribute: false }) sources: ReadonlyMap<string, string> = new Map();
  @property({ type: Number }) now = Date.now();
  @property({ type: Boolean }) loading = false;
  @property({ attribute: false }) error: Error | null = null;
  @state() private _query = '';
  @state() private _editing: string | null = null;

  constructor() {
    super();
    new LocaleController(this);
  }

  /** Items whose subject, value or source message contain every word of the search. */
  get shown(): WorkingItemRecord[] {
    const words = this._query.toLowerCase().split(/\s+/).filter((w) => w !== '');
    if (words.length === 0) return this.items;
    return this.items.filter((item) => {
      const text = `${item.name ?? item.key} ${item.value} ${this._source(item) ?? ''}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }

  private _source(item: WorkingItemRecord): string | null {
    return item.sourceTurnId === null ? null : (this.sources.get(item.sourceTurnId) ?? null);
  }

  private _save(event: Event, item: WorkingItemRecord): void {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('value') as HTMLInputElement;
    if (input.value.trim() !== '' && input.value.trim() !== item.value) fire(this, 'qwen-memory-edit', { id: item.id, value: input.value });
    this._editing = null;
  }

  private _item(item: WorkingItemRecord) {
    const subject = item.name ?? item.key;
    const source = this._source(item);
    const expiry = item.expiresAt === null ? t('memory.pinned') : t('memory.expires', { when: formatRelative(item.expiresAt - this.now) });
    const editing = this._editing === item.id;
    return html`<li data-id=${item.id} data-kind=${item.kind} ?data-pinned=${item.expiresAt === null}>
      <div><span class="subject">${subject}</span><span class="kind">${t(`memory.kind.${item.kind}` as MessageKey)}</span></div>
      ${editing
        ? html`<form @submit=${(e: Event) => this._save(e, item)} @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && ((this._editing = null), e.stopPropagation())}>
            <input name="value" aria-label=${t('memory.editLabel', { subject })} .value=${item.value} />
            <button type="submit">${t('memory.save')}</button>
            <button type="button" class="ghost" @click=${() => (this._editing = null)}>${t('memory.cancel')}</button>
          </form>`
        : html`<div class="value">${item.value}</div>`}
      <p class="meta">
        ${source === null ? t('memory.sourceUnknown') : t('memory.source', { text: preview(source, 80) })} · ${t('memory.age', { when: formatRelative(item.updatedAt - this.now) })} ·
        ${expiry}
      </p>
      <div class="actions">
        <button type="button" aria-pressed=${String(item.expiresAt === null)} aria-label=${t(item.expiresAt === null ? 'memory.unpinLabel' : 'memory.pinLabel', { subject })}
          @click=${() => fire(this, 'qwen-memory-pin', { id: item.id, pinned: item.expiresAt !== null })}>${item.expiresAt === null ? t('memory.unpin') : t('memory.pin')}</button>
        <button type="button" ?disabled=${editing} aria-label=${t('memory.editLabel', { subject })} @click=${() => this._startEdit(item.id)}>${t('memory.edit')}</button>
        <button type="button" class="danger" aria-label=${t('memory.forgetLabel', { subject })} @click=${() => this._forget(item.id)}>${t('memory.forget')}</button>
      </div>
    </li>`;
  }

  /** The item's row goes away: focus moves to the search field rather than to the page. */
  private _forget(id: string): void {
    this.renderRoot.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
    fire(this, 'qwen-memory-forget', { id });
  }

  private async _startEdit(id: string): Promise<void> {
    this._editing = id;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('form input')?.focus();
  }

  override render() {
    const shown = this.shown;
    return html`<h2>${t('memory.title')}</h2>
      <p class="muted" id="memory-help">${t('memory.help')}</p>
      <input type="search" aria-label=${t('memory.search')} placeholder=${t('memory.search')} aria-describedby="memory-help" .value=${this._query}
        @input=${(e: Event) => (this._query = (e.target as HTMLInputElement).value)} />
      ${this.error === null ? nothing : html`<p role="alert">${this.error.message}</p>`}
      ${this.items.length === 0
        ? html`<p class="muted" role="status">${this.loading ? t('memory.loading') : t('memory.empty')}</p>`
        : shown.length === 0
          ? html`<p class="muted" role="status">${t('memory.noMatch')}</p>`
          : html`<ul aria-label=${t('memory.list', { n: shown.length })}>${shown.map((item) => this._item(item))}</ul>`}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-memory-panel': QwenMemoryPanel;
  }
}

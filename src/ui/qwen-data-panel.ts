import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import type { DataNotice } from './controllers/data-controller.ts';
import type { DocsImportProgress, DocsImportSkip } from './data/docs-import.ts';
import { IMPORT_MAX_BYTES } from './data/export-format.ts';
import { LocaleController, t, type MessageKey } from './i18n/index.ts';
import type { QwenConfirmDialog } from './qwen-confirm-dialog.ts';
import './qwen-confirm-dialog.ts';
import { controls, panelStyles } from './styles.ts';
import { fire } from './fire.ts';

/**
 * Data control: export this or every conversation, import an export (checked whole first), import a folder of
 * Markdown files as knowledge (progress, and each skipped file with why), delete everything.
 * @fires qwen-export - detail: { scope: 'current' | 'all' }
 * @fires qwen-import - detail: { file }
 * @fires qwen-import-docs - detail: { files } (a chosen folder's files, or chosen files)
 * @fires qwen-delete-all - the user confirmed deleting all their data
 * @csspart section - each part of the panel
 */
@customElement('qwen-data-panel')
export class QwenDataPanel extends LitElement {
  static override styles = [
    controls,
    panelStyles,
    css`
      .row {
        display: flex;
        gap: 0.5rem;
        flex-wrap: wrap;
        align-items: center;
      }
      .notice {
        padding: 0.5rem 0.75rem;
        border-radius: 8px;
        border: 1px solid currentColor;
        margin-top: 0.75rem;
      }
      input[type='file'] {
        max-width: 100%;
      }
      .skipped {
        margin: 0.5rem 0 0;
        padding-inline-start: 1.25rem;
        font-size: 0.9em;
      }
    `,
  ];

  @property({ attribute: false }) notice: DataNotice | null = null;
  @property({ type: Boolean }) busy = false;
  /** Whether a conversation is open (its export is offered). */
  @property({ type: Boolean, attribute: 'has-current' }) hasCurrent = false;
  /** The docs import under way (null when none is). */
  @property({ attribute: false }) docsProgress: DocsImportProgress | null = null;
  /** Files the last docs import skipped. */
  @property({ attribute: false }) docsSkipped: DocsImportSkip[] = [];
  @query('qwen-confirm-dialog') private _confirm!: QwenConfirmDialog;

  constructor() {
    super();
    new LocaleController(this);
  }

  private _onFile(event: Event): void {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file !== undefined) fire(this, 'qwen-import', { file });
  }

  private _onDocs(event: Event): void {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = '';
    if (files.length > 0) fire(this, 'qwen-import-docs', { files });
  }

  private _skipLine(skip: DocsImportSkip): string {
    const reason = t(`data.docs.reason.${skip.reason}` as MessageKey, skip.params);
    return t('data.docs.skipped', { path: skip.path, reason });
  }

  private _renderDocs() {
    const progress = this.docsProgress;
    return html`<section part="section" aria-labelledby="h-docs">
      <h3 id="h-docs">${t('data.docs.title')}</h3>
      <p class="muted" id="docs-help">${t('data.docs.help')}</p>
      <div class="row">
        <label class="row">
          <span>${t('data.docs.folder')}</span>
          <input type="file" webkitdirectory multiple aria-describedby="docs-help" ?disabled=${this.busy} @change=${this._onDocs} />
        </label>
        <label class="row">
          <span>${t('data.docs.files')}</span>
          <input type="file" multiple accept=".md,.markdown,.html,.htm,text/markdown,text/html" aria-describedby="docs-help" ?disabled=${this.busy} @change=${this._onDocs} />
        </label>
      </div>
      ${progress === null ? nothing : html`<p role="status" class="muted">${t('data.docs.progress', { done: progress.done, total: progress.total })}</p>`}
      ${this.docsSkipped.length === 0
        ? nothing
        : html`<ul class="skipped" aria-label=${t('data.docs.skippedTitle')}>
            ${this.docsSkipped.map((s) => html`<li>${this._skipLine(s)}</li>`)}
          </ul>`}
    </section>`;
  }

  private async _deleteAll(): Promise<void> {
    const ok = await this._confirm.ask({ title: t('data.wipe.confirmTitle'), message: t('data.wipe.confirmMessage'), confirm: t('data.wipe.confirm') });
    if (ok) fire(this, 'qwen-delete-all');
  }

  override render() {
    const n = this.notice;
    return html`<h2>${t('data.title')}</h2>
      <section part="section" aria-labelledby="h-export">
        <h3 id="h-export">${t('data.export.title')}</h3>
        <p class="muted">${t('data.export.help')}</p>
        <div class="row">
          <button ?disabled=${!this.hasCurrent || this.busy} @click=${() => fire(this, 'qwen-export', { scope: 'current' })}>${t('data.export.current')}</button>
          <button ?disabled=${this.busy} @click=${() => fire(this, 'qwen-export', { scope: 'all' })}>${t('data.export.all')}</button>
        </div>
      </section>
      <section part="section" aria-labelledby="h-import">
        <h3 id="h-import">${t('data.import.title')}</h3>
        <p class="muted" id="import-help">${t('data.import.help', { max: IMPORT_MAX_BYTES / 1024 / 1024 })}</p>
        <label class="row">
          <span>${t('data.import.choose')}</span>
          <input type="file" accept="application/json,.json" aria-describedby="import-help" ?disabled=${this.busy} @change=${this._onFile} />
        </label>
      </section>
      ${this._renderDocs()}
      <section part="section" aria-labelledby="h-wipe">
        <h3 id="h-wipe">${t('data.wipe.title')}</h3>
        <p class="muted">${t('data.wipe.help')}</p>
        <button class="danger" ?disabled=${this.busy} @click=${this._deleteAll}>${t('data.wipe.button')}</button>
      </section>
      ${n === null
        ? nothing
        : html`<div class="notice ${n.kind === 'ok' ? 'ok' : 'error'}" role=${n.kind === 'ok' ? 'status' : 'alert'} data-kind=${n.kind}>${t(n.key, n.params)}</div>`}
      <qwen-confirm-dialog></qwen-confirm-dialog>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-data-panel': QwenDataPanel;
  }
}

import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { BUDGET_KEYS, budgetsFor, DEFAULT_SETTINGS, type AppSettings, type FieldError, type SettingsField } from './data/settings.ts';
import { LocaleController, t, type MessageKey } from './i18n/index.ts';
import { controls, panelStyles } from './styles.ts';
import { fire } from './fire.ts';

/**
 * The settings form: system prompt, window and section budgets, recent turns, temperature and top-p, embedder.
 * Nothing is kept until every field is valid; each problem is shown next to its field.
 * @fires qwen-save-settings - detail: { settings } (the parent validates again and answers with `errors`)
 * @slot embedder - below the embedder choice: what the engine's embeddings cost and where they stand
 * @csspart form - the form
 */
@customElement('qwen-settings-panel')
export class QwenSettingsPanel extends LitElement {
  static override styles = [
    controls,
    panelStyles,
    css`
      form {
        display: grid;
        gap: 0.9rem;
      }
      label,
      legend {
        display: block;
        font-weight: 600;
        margin-bottom: 0.2rem;
      }
      fieldset {
        border: 1px solid var(--qwen-border, #dcdce0);
        border-radius: 10px;
        padding: 0.5rem 0.75rem 0.75rem;
        margin: 0;
      }
      .budgets {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(7.5rem, 1fr));
        gap: 0.5rem;
      }
      .budgets label {
        font-weight: 400;
        font-size: 0.85rem;
      }
      textarea {
        width: 100%;
        box-sizing: border-box;
        min-height: 5rem;
      }
      input[type='number'] {
        width: 7rem;
      }
      .help {
        font-size: 0.8rem;
        color: var(--qwen-muted, #5f6068);
        margin: 0.2rem 0 0;
      }
      .field-error {
        font-size: 0.82rem;
        color: var(--qwen-danger, #b3261e);
        margin: 0.2rem 0 0;
      }
      .row {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        flex-wrap: wrap;
      }
    `,
  ];

  @property({ attribute: false }) settings: AppSettings = structuredClone(DEFAULT_SETTINGS) as AppSettings;
  /** Problems from the last save (set by the parent). */
  @property({ attribute: false }) errors: FieldError[] = [];
  @property({ type: Boolean }) saved = false;
  /** What the form shows: a copy of `settings` being edited. */
  private _draft: AppSettings | null = null;
  /** Edited since the last save. */
  private _dirty = false;

  constructor() {
    super();
    new LocaleController(this);
  }

  private get _d(): AppSettings {
    this._draft ??= structuredClone(this.settings);
    return this._draft;
  }

  private _set(patch: Partial<AppSettings>): void {
    this._draft = { ...this._d, ...patch };
    this._dirty = true;
    this.requestUpdate();
  }

  private _num(value: string): number {
    return value.trim() === '' ? Number.NaN : Number(value);
  }

  private _error(field: SettingsField) {
    const e = this.errors.find((x) => x.field === field);
    return e === undefined ? nothing : html`<p class="field-error" id="err-${field}">${t(e.key, e.params)}</p>`;
  }

  private _invalid(field: SettingsField): 'true' | 'false' {
    return this.errors.some((e) => e.field === field) ? 'true' : 'false';
  }

  private async _submit(event: Event): Promise<void> {
    event.preventDefault();
    fire(this, 'qwen-save-settings', { settings: structuredClone(this._d) });
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // New settings from outside (saved, or reset): the form shows them.
    if (changed.has('settings')) {
      this._draft = null;
      this._dirty = false;
    }
  }

  override render() {
    const d = this._d;
    const describe = (field: SettingsField, help?: string) =>
      [help, this.errors.some((e) => e.field === field) ? `err-${field}` : undefined].filter(Boolean).join(' ') || undefined;
    return html`
      <h2>${t('settings.title')}</h2>
      <form part="form" novalidate @submit=${this._submit}>
        <div>
          <label for="system">${t('settings.systemPrompt')}</label>
          <textarea id="system" .value=${d.systemPrompt} placeholder=${t('settings.systemPromptPlaceholder')}
            aria-invalid=${this._invalid('systemPrompt')} aria-describedby=${describe('systemPrompt', 'help-system') ?? ''}
            @input=${(e: Event) => this._set({ systemPrompt: (e.target as HTMLTextAreaElement).value })}></textarea>
          <p class="help" id="help-system">${t('settings.systemPromptHelp')}</p>
          ${this._error('systemPrompt')}
        </div>
        <div>
          <label for="window">${t('settings.window')}</label>
          <div class="row">
            <input id="window" type="number" min="256" max="4096" step="1" .value=${String(d.window)}
              aria-invalid=${this._invalid('window')} aria-describedby=${describe('window', 'help-window') ?? ''}
              @input=${(e: Event) => this._set({ window: this._num((e.target as HTMLInputElement).value) })} />
            <button type="button" @click=${() => Number.isInteger(d.window) && d.window >= 256 && this._set({ budgets: budgetsFor(Math.min(d.window, 4096)) })}>
              ${t('settings.budgetDefaults')}
            </button>
          </div>
          <p class="help" id="help-window">${t('settings.windowHelp')}</p>
          ${this._error('window')}
        </div>
        <fieldset>
          <legend>${t('settings.budgets')}</legend>
          <div class="budgets">
            ${BUDGET_KEYS.map(
              (k) => html`<div>
                <label for="budget-${k}">${t(`inspector.budget.${k}` as MessageKey)}</label>
                <input id="budget-${k}" type="number" min="0" step="1" .value=${String(d.budgets[k])}
                  aria-invalid=${this._invalid(k)} aria-describedby=${describe(k) ?? ''}
                  @input=${(e: Event) => this._set({ budgets: { ...d.budgets, [k]: this._num((e.target as HTMLInputElement).value) } })} />
                ${this._error(k)}
              </div>`,
            )}
          </div>
          <p class="help">${t('settings.budgetsHelp', { sum: BUDGET_KEYS.reduce((s, k) => s + (Number.isFinite(d.budgets[k]) ? d.budgets[k] : 0), 0), window: d.window })}</p>
        </fieldset>
        <div>
          <label for="recent">${t('settings.recent')}</label>
          <input id="recent" type="number" min="0" max="20" step="1" .value=${String(d.recentExchanges)}
            aria-invalid=${this._invalid('recentExchanges')} aria-describedby=${describe('recentExchanges') ?? ''}
            @input=${(e: Event) => this._set({ recentExchanges: this._num((e.target as HTMLInputElement).value) })} />
          ${this._error('recentExchanges')}
        </div>
        <div class="row">
          <div>
            <label for="temperature">${t('settings.temperature')}</label>
            <input id="temperature" type="number" min="0" max="2" step="0.05" .value=${String(d.temperature)}
              aria-invalid=${this._invalid('temperature')} aria-describedby=${describe('temperature') ?? ''}
              @input=${(e: Event) => this._set({ temperature: this._num((e.target as HTMLInputElement).value) })} />
            ${this._error('temperature')}
          </div>
          <div>
            <label for="topp">${t('settings.topP')}</label>
            <input id="topp" type="number" min="0" max="1" step="0.05" .value=${String(d.topP)}
              aria-invalid=${this._invalid('topP')} aria-describedby=${describe('topP') ?? ''}
              @input=${(e: Event) => this._set({ topP: this._num((e.target as HTMLInputElement).value) })} />
            ${this._error('topP')}
          </div>
        </div>
        <div>
          <label for="embedder">${t('settings.embedder')}</label>
          <select id="embedder" .value=${d.embedder} aria-describedby="help-embedder"
            @change=${(e: Event) => this._set({ embedder: (e.target as HTMLSelectElement).value as AppSettings['embedder'] })}>
            <option value="hashed" ?selected=${d.embedder === 'hashed'}>${t('settings.embedder.hashed')}</option>
            <option value="keywords" ?selected=${d.embedder === 'keywords'}>${t('settings.embedder.keywords')}</option>
            <option value="engine" ?selected=${d.embedder === 'engine'}>${t('settings.embedder.engine')}</option>
          </select>
          <p class="help" id="help-embedder">${t('settings.embedderHelp')}</p>
          <slot name="embedder"></slot>
          ${this._error('embedder')}
        </div>
        <div class="row">
          <button type="submit" class="primary">${t('settings.save')}</button>
          <button type="button" @click=${() => this._set(structuredClone(DEFAULT_SETTINGS) as AppSettings)}>${t('settings.defaults')}</button>
          <span role="status" class="ok">${this.saved && !this._dirty ? t('settings.saved') : ''}</span>
          ${this.errors.length > 0 ? html`<span role="alert" class="error">${t('settings.invalid', { n: this.errors.length })}</span>` : nothing}
        </div>
      </form>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-settings-panel': QwenSettingsPanel;
  }
}

import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import type { BackendPreference, LoadProgress, LoadResult, ModelSource } from '../engine/protocol.ts';
import type { StartStep } from '../engine/start-steps.ts';
import './qwen-start-steps.ts';
import type { DownloadRate, EngineStatus } from './controllers/engine-controller.ts';
import type { StorageState } from './controllers/model-controller.ts';
import type { ModelCacheInfo } from './data/model-cache.ts';
import { cssProps } from './css-props.ts';
import { formatBytes, hostOf, modelName, progressText } from './format.ts';
import { LocaleController, t, type MessageKey } from './i18n/index.ts';
import './qwen-backend-badge.ts';
import type { QwenConfirmDialog } from './qwen-confirm-dialog.ts';
import './qwen-confirm-dialog.ts';
import { controls, panelStyles } from './styles.ts';
import { fire } from './fire.ts';

/**
 * The model manager: which model and engine run and why, the weights on this device (size, delete), the
 * origin's storage with a request to make it persistent, and the engine preference.
 * @fires qwen-switch-backend - detail: { backend }
 * @fires qwen-delete-model - the user confirmed deleting the downloaded weights
 * @fires qwen-persist - asks the browser to keep this site's data
 * @fires qwen-load - load the model now
 * @csspart section - each part of the panel
 */
@customElement('qwen-model-manager')
export class QwenModelManager extends LitElement {
  static override styles = [
    controls,
    panelStyles,
    css`
      .meter {
        height: 0.6rem;
        border-radius: 4px;
        background: var(--qwen-surface-2, #f5f5f7);
        border: 1px solid var(--qwen-border, #dcdce0);
        overflow: hidden;
        margin: 0.35rem 0;
      }
      .meter span {
        display: block;
        height: 100%;
        background: var(--qwen-accent, #3056d3);
      }
      progress {
        width: 100%;
      }
      .choices {
        display: grid;
        gap: 0.3rem;
        border: none;
        padding: 0;
        margin: 0;
      }
      .choices h3 {
        margin-top: 1rem;
      }
      .choices label {
        display: flex;
        gap: 0.5rem;
        align-items: baseline;
      }
      .row {
        display: flex;
        gap: 0.5rem;
        flex-wrap: wrap;
        margin-top: 0.5rem;
      }
      td.url {
        overflow-wrap: anywhere;
        color: var(--qwen-muted, #5f6068);
      }
    `,
  ];

  @property({ attribute: false }) loaded: LoadResult | null = null;
  @property() status: EngineStatus = 'idle';
  @property({ attribute: false }) source: ModelSource = {};
  @property({ attribute: false }) progress: LoadProgress | null = null;
  @property({ attribute: false }) rate: DownloadRate | null = null;
  /** Where the source came from (query, setting, build, self-hosted, huggingface). */
  @property() origin = '';
  @property() backend: BackendPreference = 'auto';
  @property({ attribute: false }) cache: ModelCacheInfo | null = null;
  @property({ attribute: false }) storage: StorageState | null = null;
  @property({ type: Boolean }) busy = false;
  /** The steps of this visit's start, timed, and when the engine was ready. */
  @property({ attribute: false }) startSteps: readonly StartStep[] = [];
  @property({ attribute: false }) readyMs: number | null = null;
  @query('qwen-confirm-dialog') private _confirm!: QwenConfirmDialog;

  constructor() {
    super();
    new LocaleController(this);
  }

  private async _delete(): Promise<void> {
    const size = formatBytes(this.cache?.totalBytes ?? 0);
    const ok = await this._confirm.ask({ title: t('model.deleteTitle'), message: t('model.deleteMessage', { size }), confirm: t('common.delete') });
    if (ok) fire(this, 'qwen-delete-model');
  }

  private _active() {
    const loaded = this.loaded;
    const where = this.source.ggufUrl ?? this.source.mlc?.urlF16 ?? '';
    return html`<section part="section" aria-labelledby="h-active">
      <h3 id="h-active">${t('model.active')}</h3>
      <dl>
        <dt>${t('load.model')}</dt>
        <dd data-field="model">${loaded ? modelName(loaded.backend === 'wllama' ? { ggufUrl: loaded.modelUrl } : this.source) : modelName(this.source)}</dd>
        <dt>${t('load.from')}</dt>
        <dd>${hostOf(loaded?.modelUrl ?? where)}${this.origin ? html` <span class="muted">(${t(`model.origin.${this.origin}` as MessageKey)})</span>` : nothing}</dd>
        <dt>${t('model.engine')}</dt>
        <dd data-field="engine">${loaded ? html`<qwen-backend-badge .loaded=${loaded}></qwen-backend-badge>` : t(`model.status.${this.status}` as MessageKey)}</dd>
        ${loaded?.fallbackNotice ? html`<dt>${t('model.fallback')}</dt><dd>${loaded.fallbackNotice}</dd>` : nothing}
        ${loaded ? html`<dt>${t('settings.window')}</dt><dd>${loaded.contextWindow}</dd>` : nothing}
      </dl>
      ${this.status === 'loading'
        ? html`<progress max="1" .value=${this.progress?.fraction ?? 0} aria-label=${t('load.progressLabel')}></progress>
            <p class="muted" data-progress>${progressText(this.progress, this.rate)}</p>`
        : nothing}
      ${loaded === null && this.status !== 'loading' ? html`<div class="row"><button class="primary" @click=${() => fire(this, 'qwen-load')}>${t('load.button')}</button></div>` : nothing}
    </section>`;
  }

  private _backend() {
    const options: BackendPreference[] = ['auto', 'webgpu', 'wasm'];
    return html`<section part="section">
      <fieldset class="choices">
        <legend><h3>${t('model.backend')}</h3></legend>
        ${options.map(
          (b) => html`<label>
            <input type="radio" name="backend" value=${b} .checked=${this.backend === b} ?disabled=${this.status === 'loading'}
              @change=${() => fire(this, 'qwen-switch-backend', { backend: b })} />
            <span>${t(`model.backend.${b}` as MessageKey)}</span>
          </label>`,
        )}
      </fieldset>
    </section>`;
  }

  private _cache() {
    const cache = this.cache;
    return html`<section part="section" aria-labelledby="h-cache">
      <h3 id="h-cache">${t('model.cache')}</h3>
      ${cache === null
        ? html`<p class="muted">${t('model.cacheUnknown')}</p>`
        : html`<p data-cache-bytes=${cache.totalBytes}>${cache.files.length === 0 ? t('model.cacheEmpty') : t('model.cacheTotal', { size: formatBytes(cache.totalBytes), n: cache.files.length })}</p>
            ${cache.files.length > 0
              ? html`<table>
                  <tbody>
                    ${cache.files.map((f) => html`<tr><td class="url">${f.url || f.name}</td><td class="num">${formatBytes(f.bytes)}</td></tr>`)}
                  </tbody>
                </table>`
              : nothing}`}
      <div class="row">
        <button class="danger" ?disabled=${this.busy || !cache || cache.files.length === 0} @click=${this._delete}>${t('model.delete')}</button>
      </div>
    </section>`;
  }

  private _storage() {
    const s = this.storage;
    if (s === null) return html`<section part="section"><h3>${t('model.storage')}</h3><p class="muted">${t('model.storageUnknown')}</p></section>`;
    const share = s.quota > 0 ? Math.min(100, (100 * s.usage) / s.quota) : 0;
    return html`<section part="section" aria-labelledby="h-storage">
      <h3 id="h-storage">${t('model.storage')}</h3>
      <p>${t('model.storageUse', { used: formatBytes(s.usage), quota: formatBytes(s.quota) })}</p>
      <div class="meter" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow=${Math.round(share)} aria-label=${t('model.storage')}>
        <span ${cssProps({ width: `${share}%` })}></span>
      </div>
      <p data-persisted=${String(s.persisted)}>${s.persisted === true ? t('model.persisted') : s.persisted === false ? t('model.notPersisted') : t('model.persistUnknown')}</p>
      ${s.persisted === false ? html`<button @click=${() => fire(this, 'qwen-persist')}>${t('model.persist')}</button>` : nothing}
    </section>`;
  }

  private _start() {
    return html`<section part="section" aria-labelledby="h-start" data-section="start">
      <h3 id="h-start">${t('start.title')}</h3>
      <qwen-start-steps .steps=${this.startSteps} .readyMs=${this.readyMs}></qwen-start-steps>
    </section>`;
  }

  override render() {
    return html`<h2>${t('model.title')}</h2>
      ${this._active()} ${this._start()} ${this._backend()} ${this._cache()} ${this._storage()}
      <qwen-confirm-dialog></qwen-confirm-dialog>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-model-manager': QwenModelManager;
  }
}

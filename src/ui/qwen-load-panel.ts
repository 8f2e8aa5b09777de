import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { BackendPreference, LoadProgress, ModelSource } from '../engine/protocol.ts';
import type { AssistantError } from '../shared/errors.ts';
import type { DownloadRate, EngineStatus } from './controllers/engine-controller.ts';
import { DEFAULT_GGUF_BYTES, DEFAULT_MLC_BYTES } from './controllers/model-controller.ts';
import { formatBytes, hostOf, modelName, progressText } from './format.ts';
import { LocaleController, t } from './i18n/index.ts';
import { controls } from './styles.ts';
import { fire } from './fire.ts';

/** What the engine is doing while it starts. */
function stepLabel(step: LoadProgress['step']): string {
  if (step === 'weights-open' || step === 'wasm' || step === 'model-load') return t(`load.step.${step}`);
  return t('load.initialising');
}

/**
 * Before anything large is fetched, says what will be downloaded — which model, how big, from where, and that it
 * stays on the device — and waits for the user's go. Then shows progress (bytes, speed, time left) or the error.
 * After a failure (a crashed engine) with the weights on the device it offers Retry, never the download question.
 * @fires qwen-load - the user asked to load (or retry loading) the model
 * @csspart progress - the progress bar
 */
@customElement('qwen-load-panel')
export class QwenLoadPanel extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: block;
      }
      .card {
        border: 1px solid var(--qwen-border, #dcdce0);
        border-radius: 14px;
        padding: 1rem 1.25rem;
        margin: 1rem auto;
        max-width: 40rem;
        background: var(--qwen-surface, #fff);
        line-height: 1.5;
      }
      .card.error {
        border-color: var(--qwen-danger, #b3261e);
      }
      h2 {
        font-size: 1.05rem;
        margin: 0 0 0.5rem;
      }
      dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0.2rem 1rem;
        margin: 0.75rem 0;
      }
      dt {
        color: var(--qwen-muted, #5f6068);
      }
      dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .code {
        font-family: ui-monospace, monospace;
        font-size: 0.85em;
        opacity: 0.8;
      }
      progress {
        width: 100%;
        height: 0.8rem;
        accent-color: var(--qwen-accent, #3056d3);
      }
      .numbers {
        font-variant-numeric: tabular-nums;
        font-size: 0.9rem;
        color: var(--qwen-muted, #5f6068);
      }
    `,
  ];

  @property() status: EngineStatus = 'idle';
  @property({ attribute: false }) progress: LoadProgress | null = null;
  @property({ attribute: false }) rate: DownloadRate | null = null;
  @property({ attribute: false }) error: AssistantError | null = null;
  @property({ attribute: false }) source: ModelSource = {};
  @property() backend: BackendPreference = 'auto';
  /** Size of the GGUF file from its host, when known. */
  @property({ attribute: false }) downloadBytes: number | null = null;
  /** Whether the weights are on this device (null until known). */
  @property({ attribute: false }) cached: boolean | null = null;

  constructor() {
    super();
    new LocaleController(this);
  }

  private _load(): void {
    fire(this, 'qwen-load');
  }

  /** What will be fetched: the GGUF for the CPU engine, the MLC build for WebGPU, or either. */
  private _size(): string {
    const gguf = this.source.ggufUrl !== undefined ? formatBytes(this.downloadBytes ?? DEFAULT_GGUF_BYTES) : null;
    const mlc = this.source.mlc !== undefined && this.backend !== 'wasm' ? formatBytes(DEFAULT_MLC_BYTES) : null;
    if (gguf !== null && mlc !== null) return t('load.sizeEither', { gpu: mlc, cpu: gguf });
    return gguf ?? t('load.sizeAbout', { size: mlc ?? '?' });
  }

  private _progress() {
    const p = this.progress;
    const label = p === null ? t('load.starting') : p.phase === 'download' ? t('load.downloading') : stepLabel(p.step);
    return html`<div class="card" role="status">
      <div>${label}</div>
      <progress part="progress" max="1" .value=${p?.fraction ?? 0} aria-label=${t('load.progressLabel')}></progress>
      <div class="numbers">${progressText(p, this.rate)}</div>
    </div>`;
  }

  override render() {
    if (this.status === 'ready') return nothing;
    if (this.status === 'loading') return this._progress();
    if (this.status === 'error' && this.cached === true) {
      // The error itself may be shown elsewhere (on the failed reply): then this card only says what to do.
      return html`<div class="card error" role="alert" data-state="restart">
        <p>${this.error?.message ?? t('load.stopped')}</p>
        ${this.error !== null ? html`<p class="code">${t('load.errorCode', { code: this.error.code })}</p>` : nothing}
        <p>${t('load.onDevice')}</p>
        <button class="primary" @click=${this._load}>${t('load.restart')}</button>
      </div>`;
    }
    if (this.status === 'error' && this.error !== null) {
      return html`<div class="card error" role="alert">
        <p>${this.error.message}</p>
        <p class="code">${t('load.errorCode', { code: this.error.code })}</p>
        <button class="primary" @click=${this._load}>${t('load.retry')}</button>
      </div>`;
    }
    const where = this.source.ggufUrl ?? this.source.mlc?.urlF16 ?? '';
    return html`<div class="card" aria-labelledby="consent-title">
      <h2 id="consent-title">${t('load.title')}</h2>
      <p>${t('load.intro')}</p>
      <dl>
        <dt>${t('load.model')}</dt>
        <dd>${modelName(this.source)}</dd>
        <dt>${t('load.size')}</dt>
        <dd>${this._size()}</dd>
        <dt>${t('load.from')}</dt>
        <dd>${hostOf(where)}</dd>
        <dt>${t('load.where')}</dt>
        <dd>${t('load.stays')}</dd>
      </dl>
      <button class="primary" @click=${this._load}>${t('load.button')}</button>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-load-panel': QwenLoadPanel;
  }
}

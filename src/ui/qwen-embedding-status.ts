import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { BackendKind } from '../engine/protocol.ts';
import type { EmbeddingState } from './controllers/engine-embeddings-controller.ts';
import { EMBEDDING_COST } from './data/embedding-cost.ts';
import { LocaleController, t } from './i18n/index.ts';
import { controls } from './styles.ts';
import { fire } from './fire.ts';

/**
 * What the engine embeddings cost and where they stand: the cost before they start, the embedding model's download,
 * the messages embedded so far, the time measured on this device; Cancel while they run, Retry after a failure.
 * @fires qwen-embedding-cancel
 * @fires qwen-embedding-retry
 */
@customElement('qwen-embedding-status')
export class QwenEmbeddingStatus extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        display: block;
        font-size: 0.8rem;
        color: var(--qwen-muted, #5f6068);
      }
      p {
        margin: 0.2rem 0 0;
      }
      .row {
        display: flex;
        gap: 0.5rem;
        align-items: center;
        flex-wrap: wrap;
      }
      progress {
        width: 10rem;
      }
    `,
  ];

  @property({ attribute: false }) state: EmbeddingState | null = null;
  /** The chat engine's backend (the embedding model goes with it); null before a load: the CPU's cost is shown. */
  @property({ attribute: false }) backend: BackendKind | null = null;
  /** Whether the setting chooses the engine's embeddings (the saved value, not the form's draft). */
  @property({ type: Boolean }) active = false;

  constructor() {
    super();
    new LocaleController(this);
  }

  override render() {
    const state = this.state;
    const backend = this.backend ?? state?.model?.backend ?? 'wllama';
    const cost = EMBEDDING_COST[backend];
    const mb = state?.downloadBytes !== null && state?.downloadBytes !== undefined ? Math.round(state.downloadBytes / 1e6) : cost.mb;
    const costLine = html`<p id="embedding-cost">${t(backend === 'webllm' ? 'embedding.cost.webllm' : 'embedding.cost.wllama', { mb, minutes: cost.minutes })}</p>`;
    if (!this.active || state === null) return costLine;
    const measured = state.secondsPer1000 === null ? nothing : html`<p>${t('embedding.measured', { seconds: state.secondsPer1000.toFixed(1) })}</p>`;
    const cancel = html`<button type="button" @click=${() => fire(this, 'qwen-embedding-cancel', {})}>${t('embedding.cancel')}</button>`;
    switch (state.phase) {
      case 'off':
        return html`${costLine}<p role="status">${t('embedding.waiting')}</p>`;
      case 'model': {
        const fraction = state.progress?.fraction ?? 0;
        const text = state.progress?.phase === 'init' || state.progress === null ? t('embedding.modelStarting') : t('embedding.model', { percent: Math.round(fraction * 100) });
        return html`${costLine}
          <div class="row">
            <progress max="1" .value=${fraction} aria-label=${text}></progress>
            <span role="status">${text}</span>
            ${cancel}
          </div>`;
      }
      case 'indexing': {
        const text = t('embedding.indexing', { done: state.done, total: state.total });
        return html`${costLine}
          <div class="row">
            <progress max=${Math.max(1, state.total)} .value=${state.done} aria-label=${text}></progress>
            <span role="status">${text}</span>
            ${cancel}
          </div>
          ${measured}`;
      }
      case 'ready':
        return html`<p role="status">${t('embedding.ready', { total: state.total, model: shortName(state.model?.modelId ?? '') })}</p>${measured}`;
      case 'failed':
        return html`${costLine}
          <div class="row">
            <span role="alert">${t('embedding.failed', { message: state.error?.message ?? '' })}</span>
            <button type="button" @click=${() => fire(this, 'qwen-embedding-retry', {})}>${t('embedding.retry')}</button>
          </div>`;
    }
  }
}

/** A model's file or id without its folders. */
const shortName = (modelId: string): string => modelId.split(/[?#]/)[0]!.split('/').pop() ?? modelId;

declare global {
  interface HTMLElementTagNameMap {
    'qwen-embedding-status': QwenEmbeddingStatus;
  }
}

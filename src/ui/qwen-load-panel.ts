import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { LoadProgress, ModelSource } from '../engine/protocol.ts';
import type { AssistantError } from '../shared/errors.ts';
import type { EngineStatus } from './controllers/engine-controller.ts';
import { formatBytes, hostOf } from './format.ts';

/**
 * Says what will be downloaded before anything large is fetched, then shows load progress or a load error.
 * @fires qwen-load - the user asked to load (or retry loading) the model
 * @csspart progress - the progress bar
 */
@customElement('qwen-load-panel')
export class QwenLoadPanel extends LitElement {
  static override styles = css`
    :host {
      display: block;
    }
    .card {
      border: 1px solid var(--qwen-border, #ddd);
      border-radius: 12px;
      padding: 1rem;
      margin: 1rem auto;
      max-width: 40rem;
      background: var(--qwen-surface, #fff);
    }
    .error {
      border-color: var(--qwen-danger, #c0392b);
    }
    .code {
      font-family: ui-monospace, monospace;
      font-size: 0.85em;
      opacity: 0.8;
    }
    progress {
      width: 100%;
      height: 0.8rem;
    }
    button {
      font: inherit;
      padding: 0.4rem 1rem;
      border-radius: 8px;
      border: 1px solid var(--qwen-accent, #3056d3);
      background: var(--qwen-accent, #3056d3);
      color: white;
      cursor: pointer;
    }
  `;

  @property() status: EngineStatus = 'idle';
  @property({ attribute: false }) progress: LoadProgress | null = null;
  @property({ attribute: false }) error: AssistantError | null = null;
  @property({ attribute: false }) source: ModelSource = {};

  private _load(): void {
    this.dispatchEvent(new CustomEvent('qwen-load', { bubbles: true, composed: true }));
  }

  override render() {
    if (this.status === 'ready') return nothing;
    if (this.status === 'loading') {
      const p = this.progress;
      const bytes = p && p.totalBytes > 0 ? `${formatBytes(p.loadedBytes)} of ${formatBytes(p.totalBytes)}` : '';
      return html`<div class="card" role="status">
        <div>${p?.text ?? 'Starting the engine…'} ${bytes}</div>
        <progress part="progress" max="1" .value=${p?.fraction ?? 0} aria-label="Model loading progress"></progress>
      </div>`;
    }
    if (this.status === 'error' && this.error !== null) {
      return html`<div class="card error" role="alert">
        <p>${this.error.message}</p>
        <p class="code">Error code: ${this.error.code}</p>
        <button @click=${this._load}>Try again</button>
      </div>`;
    }
    const where = this.source.ggufUrl ?? this.source.mlc?.urlF16 ?? '';
    return html`<div class="card">
      <p>
        The assistant runs Qwen2.5-0.5B-Instruct entirely in this browser. Loading it downloads the model
        (about 400–500 MB, once) from <strong>${hostOf(where)}</strong>; it is cached and stays on this device.
      </p>
      <button @click=${this._load}>Load the model</button>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-load-panel': QwenLoadPanel;
  }
}

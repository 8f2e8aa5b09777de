import { LitElement, css, html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { LoadResult } from '../engine/protocol.ts';
import { LocaleController, t } from './i18n/index.ts';

/**
 * Shows which engine runs the model and why (e.g. "WebGPU, q4f32 — no shader-f16").
 * @csspart badge - the pill
 */
@customElement('qwen-backend-badge')
export class QwenBackendBadge extends LitElement {
  static override styles = css`
    :host {
      display: inline-block;
      min-width: 0;
      max-width: 100%;
    }
    .badge {
      display: inline-block;
      gap: 0.4em;
      align-items: center;
      padding: 0.15em 0.6em;
      border-radius: 999px;
      font-size: 0.8rem;
      max-width: 100%;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      background: var(--qwen-badge-bg, #e8eefc);
      color: var(--qwen-badge-fg, #1d3b8b);
    }
    .badge[data-backend='none'] {
      background: var(--qwen-muted-bg, #eee);
      color: var(--qwen-muted-fg, #555);
    }
  `;

  @property({ attribute: false }) loaded: LoadResult | null = null;

  constructor() {
    super();
    new LocaleController(this);
  }

  override render() {
    const loaded = this.loaded;
    if (loaded === null) return html`<span class="badge" part="badge" data-backend="none">${t('badge.none')}</span>`;
    const name = loaded.backend === 'webllm' ? 'WebGPU · web-llm' : 'CPU · wllama';
    return html`<span class="badge" part="badge" data-backend=${loaded.backend} title=${loaded.reason}>${name} — ${loaded.reason}</span>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-backend-badge': QwenBackendBadge;
  }
}

import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { StartStep } from '../engine/start-steps.ts';
import { formatBytes, formatMs } from './format.ts';
import { LocaleController, t, type MessageKey } from './i18n/index.ts';

/**
 * The last start, step by step (model panel): when each step began after the page opened and how long it took,
 * with a bar placing it on the way to "ready", so a slow start shows where it went.
 */
@customElement('qwen-start-steps')
export class QwenStartSteps extends LitElement {
  static override styles = css`
    :host {
      display: block;
    }
    table {
      width: 100%;
      border-collapse: collapse;
      font-size: 0.85rem;
      font-variant-numeric: tabular-nums;
    }
    th {
      text-align: left;
      font-weight: 600;
      color: var(--qwen-muted, #5f6068);
    }
    td,
    th {
      padding: 0.15rem 0.35rem;
    }
    .num {
      text-align: right;
      white-space: nowrap;
    }
    .bar {
      position: relative;
      height: 0.5rem;
      min-width: 4rem;
      background: var(--qwen-border, #dcdce0);
      border-radius: 3px;
    }
    .bar span {
      position: absolute;
      top: 0;
      bottom: 0;
      min-width: 2px;
      background: var(--qwen-accent, #3056d3);
      border-radius: 3px;
    }
    .detail {
      color: var(--qwen-muted, #5f6068);
      font-size: 0.8rem;
    }
  `;

  @property({ attribute: false }) steps: readonly StartStep[] = [];
  /** When the engine was ready (ms since the page opened); null before. */
  @property({ attribute: false }) readyMs: number | null = null;

  constructor() {
    super();
    new LocaleController(this);
  }

  /** The bars are placed through the CSSOM, which the page's CSP allows; an inline style attribute it refuses. */
  override updated(): void {
    for (const bar of this.renderRoot.querySelectorAll<HTMLElement>('.bar span')) {
      bar.style.left = `${bar.dataset.left}%`;
      bar.style.width = `${bar.dataset.width}%`;
    }
  }

  override render() {
    if (this.steps.length === 0) return html`<p class="detail">${t('start.notYet')}</p>`;
    const span = Math.max(this.readyMs ?? 0, ...this.steps.map((s) => s.endMs), 1);
    return html`${this.readyMs !== null ? html`<p data-ready-ms=${this.readyMs}>${t('start.ready', { ms: formatMs(this.readyMs) })}</p>` : nothing}
      <table>
        <thead>
          <tr><th>${t('start.col.step')}</th><th class="num">${t('start.col.at')}</th><th class="num">${t('start.col.took')}</th><th aria-hidden="true"></th></tr>
        </thead>
        <tbody>
          ${this.steps.map(
            (s) => html`<tr data-step=${s.name}>
              <td>
                ${t(`start.step.${s.name}` as MessageKey)}
                ${s.readBytes !== undefined && s.readBytes > 0 ? html`<div class="detail">${t('start.read', { size: formatBytes(s.readBytes), ms: formatMs(s.readMs ?? 0) })}</div>` : nothing}
              </td>
              <td class="num">${formatMs(s.startMs)}</td>
              <td class="num" data-took>${formatMs(s.endMs - s.startMs)}</td>
              <td aria-hidden="true"><div class="bar"><span data-left=${(100 * s.startMs) / span} data-width=${(100 * (s.endMs - s.startMs)) / span}></span></div></td>
            </tr>`,
          )}
        </tbody>
      </table>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-start-steps': QwenStartSteps;
  }
}

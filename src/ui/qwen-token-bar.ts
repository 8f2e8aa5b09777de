import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { cssProps } from './css-props.ts';
import { formatNumber } from './i18n/index.ts';

export interface BarSegment {
  id: string;
  label: string;
  tokens: number;
  /** Its budget, shown after the count; null for none. */
  budget: number | null;
  /** A CSS colour (usually a custom property). */
  color: string;
}

/**
 * A stacked bar of tokens per section across the whole window, with a legend that gives every number.
 * @csspart bar - the bar
 * @csspart legend - the table of numbers
 */
@customElement('qwen-token-bar')
export class QwenTokenBar extends LitElement {
  static override styles = css`
    :host {
      display: block;
    }
    .bar {
      display: flex;
      height: 1.1rem;
      border-radius: 6px;
      overflow: hidden;
      border: 1px solid var(--qwen-border, #dcdce0);
      background: var(--qwen-surface-2, #f5f5f7);
    }
    .bar span {
      display: block;
      min-width: 0;
    }
    .bar span + span {
      box-shadow: inset 1px 0 0 rgb(255 255 255 / 0.5);
    }
    table {
      border-collapse: collapse;
      width: 100%;
      margin-top: 0.5rem;
      font-size: 0.85rem;
    }
    td,
    th {
      padding: 0.2rem 0.35rem;
      border-bottom: 1px solid var(--qwen-border, #dcdce0);
      text-align: left;
    }
    .num {
      text-align: right;
      font-variant-numeric: tabular-nums;
      white-space: nowrap;
    }
    .swatch {
      display: inline-block;
      width: 0.7rem;
      height: 0.7rem;
      border-radius: 3px;
      margin-right: 0.4rem;
      vertical-align: -0.05rem;
    }
    .over {
      color: var(--qwen-danger, #b3261e);
      font-weight: 600;
    }
    tfoot td {
      font-weight: 600;
      border-bottom: none;
    }
  `;

  @property({ attribute: false }) segments: BarSegment[] = [];
  @property({ type: Number }) total = 0;
  /** Accessible summary of the bar. */
  @property() label = '';
  @property() sectionHeading = '';
  @property() tokensHeading = '';
  @property() budgetHeading = '';
  @property() totalLabel = '';

  override render() {
    const total = Math.max(1, this.total);
    return html`
      <div class="bar" part="bar" role="img" aria-label=${this.label}>
        ${this.segments.map((s) =>
          s.tokens > 0 ? html`<span ${cssProps({ width: `${(100 * s.tokens) / total}%`, background: s.color })} title="${s.label}: ${s.tokens}"></span>` : nothing,
        )}
      </div>
      <table part="legend">
        <thead>
          <tr>
            <th>${this.sectionHeading}</th>
            <th class="num">${this.tokensHeading}</th>
            <th class="num">${this.budgetHeading}</th>
          </tr>
        </thead>
        <tbody>
          ${this.segments.map(
            (s) => html`<tr data-section=${s.id} data-tokens=${s.tokens} data-budget=${s.budget ?? ''}>
              <td><span class="swatch" ${cssProps({ background: s.color })}></span>${s.label}</td>
              <td class="num ${s.budget !== null && s.id !== 'answer' && s.tokens > s.budget ? 'over' : ''}">${formatNumber(s.tokens)}</td>
              <td class="num">${s.budget === null ? '—' : formatNumber(s.budget)}</td>
            </tr>`,
          )}
        </tbody>
        <tfoot>
          <tr>
            <td>${this.totalLabel}</td>
            <td class="num">${formatNumber(this.segments.reduce((sum, s) => sum + s.tokens, 0))}</td>
            <td class="num">${formatNumber(this.total)}</td>
          </tr>
        </tfoot>
      </table>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-token-bar': QwenTokenBar;
  }
}

import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { InspectorSnapshot } from './controllers/chat-controller.ts';
import { INJECTED_FATES, engineView, preview, sectionView, sourceText, turnRows, type SectionId, type SectionView } from './data/inspector-view.ts';
import { cssProps } from './css-props.ts';
import { formatMs } from './format.ts';
import { LocaleController, formatDateTime, formatNumber, t, type MessageKey } from './i18n/index.ts';
import './qwen-token-bar.ts';
import type { BarSegment } from './qwen-token-bar.ts';
import { controls, panelStyles } from './styles.ts';

const COLORS: Record<SectionId, string> = {
  system: 'var(--qwen-sec-system, #7c5cd6)',
  working: 'var(--qwen-sec-working, #d9822b)',
  retrieval: 'var(--qwen-sec-retrieval, #2b8a6e)',
  history: 'var(--qwen-sec-history, #3b82c4)',
  message: 'var(--qwen-sec-input, #3056d3)',
  template: 'var(--qwen-muted, #5f6068)',
  answer: 'var(--qwen-sec-reserve, #c9cad1)',
};

/**
 * The context inspector (seed 001's observability panel, as a picture): for the last request, tokens per section
 * against the budget, the turns and memory considered with what became of each and why, the working memory with
 * where each item came from, and the engine's own counters (cached vs prefilled, time to first token, speed).
 * @csspart section - each part of the panel
 */
@customElement('qwen-inspector')
export class QwenInspector extends LitElement {
  static override styles = [
    controls,
    panelStyles,
    css`
      .pill {
        display: inline-block;
        font-size: 0.75rem;
        padding: 0 0.45em;
        border-radius: 999px;
        border: 1px solid currentColor;
        white-space: nowrap;
      }
      .in {
        color: var(--qwen-ok, #1e7d32);
      }
      .out {
        color: var(--qwen-muted, #5f6068);
      }
      .cache-bar {
        display: flex;
        height: 0.8rem;
        border-radius: 5px;
        overflow: hidden;
        margin: 0.4rem 0;
        background: var(--qwen-surface-2, #f5f5f7);
        border: 1px solid var(--qwen-border, #dcdce0);
      }
      .cached {
        background: var(--qwen-ok, #1e7d32);
      }
      .prefilled {
        background: var(--qwen-sec-working, #d9822b);
      }
      ul.items {
        padding-left: 1.1rem;
        margin: 0.25rem 0;
      }
      ul.items li {
        margin-bottom: 0.35rem;
      }
      .source {
        display: block;
        font-size: 0.8rem;
        color: var(--qwen-muted, #5f6068);
      }
      td.preview {
        color: var(--qwen-muted, #5f6068);
        max-width: 16rem;
        overflow-wrap: anywhere;
      }
    `,
  ];

  @property({ attribute: false }) snapshot: InspectorSnapshot | null = null;
  /** Conversation titles by id, to name where a recalled turn came from. */
  @property({ attribute: false }) titles: ReadonlyMap<string, string> = new Map();

  constructor() {
    super();
    new LocaleController(this);
  }

  private _sections(s: InspectorSnapshot) {
    const view = sectionView(s);
    const segments: BarSegment[] = view.segments.map((seg) => ({
      id: seg.id,
      label: t(`inspector.section.${seg.id}` as MessageKey),
      tokens: seg.tokens,
      budget: seg.budget,
      color: COLORS[seg.id],
    }));
    return html`<section part="section" aria-labelledby="h-sections">
      <h3 id="h-sections">${t('inspector.sections')}</h3>
      <qwen-token-bar
        .segments=${segments}
        .total=${view.window}
        label=${t('inspector.barLabel', { prompt: view.promptTokens, window: view.window })}
        sectionHeading=${t('inspector.section')}
        tokensHeading=${t('inspector.tokens')}
        budgetHeading=${t('inspector.budget')}
        totalLabel=${t('inspector.window')}
      ></qwen-token-bar>
      ${this._inputLine(view)}
    </section>`;
  }

  /** The input against its budget; for a message cut to fit, what was sent against the room it had. */
  private _inputLine(view: SectionView) {
    const cut = view.messageCut;
    if (cut !== null) {
      const n = formatNumber;
      const params = { kept: n(cut.keptTokens), room: n(cut.room), limit: n(cut.promptLimit), reserve: n(cut.reserve), sent: n(cut.sentChars), total: n(cut.totalChars) };
      return html`<p class="muted" data-message-cut=${cut.keptTokens}>${t('inspector.messageCut', params)}</p>`;
    }
    if (view.inputBudget === null) return nothing;
    const key = view.inputTokens > view.inputBudget ? 'inspector.inputOver' : 'inspector.inputBudget';
    return html`<p class="muted" data-input-tokens=${view.inputTokens}>${t(key, { tokens: formatNumber(view.inputTokens), budget: formatNumber(view.inputBudget) })}</p>`;
  }

  /** Where a first message's cached tokens came from: the start of its prompt, prefilled while the user typed. */
  private _warmed(s: InspectorSnapshot) {
    if (s.warmed === undefined) return nothing;
    return html` <span class="muted" data-warmed=${s.warmed.tokens}>${t('inspector.warmed', { tokens: formatNumber(s.warmed.tokens), seconds: formatNumber(s.warmed.ms / 1000, 1) })}</span>`;
  }

  /** Marks a counter the backend computed rather than the engine reported (web-llm's cached and total tokens). */
  private _derived(derived: boolean) {
    return derived ? html` <span class="muted derived" title=${t('inspector.derived')}>(${t('inspector.derived')})</span>` : nothing;
  }

  private _engine(s: InspectorSnapshot) {
    const r = s.report;
    if (s.result === null) return html`<section part="section"><h3>${t('inspector.engine')}</h3><p class="muted">${t('inspector.waiting')}</p></section>`;
    const e = engineView(s.result);
    const share = e.promptTokens > 0 ? (100 * e.cachedTokens) / e.promptTokens : 0;
    return html`<section part="section" aria-labelledby="h-engine">
      <h3 id="h-engine">${t('inspector.engine')}</h3>
      <div class="cache-bar" role="img" aria-label=${t('inspector.cacheBar', { cached: e.cachedTokens, prefilled: e.prefilledTokens })}>
        <span class="cached" ${cssProps({ width: `${share}%` })}></span><span class="prefilled" ${cssProps({ width: `${100 - share}%` })}></span>
      </div>
      <dl data-engine>
        <dt>${t('inspector.promptTokens')}</dt>
        <dd data-field="prompt" data-derived=${e.derived.promptTokens}>${formatNumber(e.promptTokens)}${this._derived(e.derived.promptTokens)}
          <span class="muted">${r.promptTokens === e.promptTokens ? t('inspector.countsMatch') : t('inspector.countsDiffer', { ours: r.promptTokens })}</span></dd>
        <dt>${t('inspector.cached')}</dt>
        <dd data-field="cached" data-derived=${e.derived.cachedTokens}>${formatNumber(e.cachedTokens)}${this._derived(e.derived.cachedTokens)} <span class="muted">${t('inspector.expectedPrefix', { tokens: r.prefix.tokens })}</span>${this._warmed(s)}</dd>
        <dt>${t('inspector.prefilled')}</dt>
        <dd data-field="prefilled">${formatNumber(e.prefilledTokens)}</dd>
        <dt>${t('inspector.ttft')}</dt>
        <dd data-field="ttft">${formatMs(e.ttftMs)}</dd>
        <dt>${t('inspector.completion')}</dt>
        <dd data-field="completion">${formatNumber(e.completionTokens)}</dd>
        <dt>${t('inspector.speed')}</dt>
        <dd data-field="speed">${e.tokensPerSecond === null ? '—' : t('inspector.tokensPerSecond', { n: formatNumber(e.tokensPerSecond, 1) })}</dd>
      </dl>
    </section>`;
  }

  private _turns(s: InspectorSnapshot) {
    const rows = turnRows(s);
    return html`<section part="section" aria-labelledby="h-turns">
      <h3 id="h-turns">${t('inspector.turns', { in: rows.filter((r) => r.included).length, all: rows.length })}</h3>
      <table>
        <thead>
          <tr><th>#</th><th>${t('inspector.role')}</th><th>${t('inspector.fate')}</th><th class="num">${t('inspector.tokens')}</th><th>${t('inspector.why')}</th><th>${t('inspector.text')}</th></tr>
        </thead>
        <tbody>
          ${rows.map(
            (row) => html`<tr data-turn=${row.index} data-included=${row.included} data-reason=${row.reason}>
              <td class="num">${row.index + 1}</td>
              <td>${row.role === 'user' ? t('inspector.you') : row.role === 'assistant' ? t('inspector.assistant') : row.role}</td>
              <td><span class="pill ${row.included ? 'in' : 'out'}">${row.included ? t('inspector.in') : t('inspector.out')}</span></td>
              <td class="num">${row.tokens === null ? '—' : formatNumber(row.tokens)}${row.cut ? ` ${t('inspector.cut')}` : ''}</td>
              <td title=${row.detail}>${t(`reason.${row.reason}` as MessageKey)}</td>
              <td class="preview">${row.preview}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </section>`;
  }

  private _retrieval(s: InspectorSnapshot) {
    const m = s.report.memory;
    if (m === undefined) return nothing;
    const candidates = m.retrieval.candidates;
    return html`<section part="section" aria-labelledby="h-retrieval">
      <h3 id="h-retrieval">${t('inspector.retrieval', { in: candidates.filter((c) => INJECTED_FATES.has(c.fate)).length, all: candidates.length })}</h3>
      <p class="muted">${t('inspector.gate')}: ${m.gate.reason}</p>
      ${m.query.topic === null
        ? nothing
        : html`<p class="muted topic">${t(m.query.topic.why === 'named' ? 'inspector.topicNamed' : 'inspector.topicCarried', { topic: m.query.topic.value })}</p>`}
      ${m.query.terms.length > 0 ? html`<p class="muted">${t('inspector.query')}: ${m.query.terms.slice(0, 10).map(([term]) => term).join(' · ')}</p>` : nothing}
      ${candidates.length === 0
        ? html`<p class="muted">${t('inspector.noCandidates')}</p>`
        : html`<table>
            <thead>
              <tr><th class="num">#</th><th>${t('inspector.fate')}</th><th class="num">${t('inspector.score')}</th><th>${t('inspector.from')}</th><th>${t('inspector.text')}</th></tr>
            </thead>
            <tbody>
              ${candidates.map((c) => {
                const injected = INJECTED_FATES.has(c.fate);
                const from = c.namespace === 'docs' ? t('inspector.fromDocs') : c.scope === s.sessionId ? t('inspector.fromThis') : (this.titles.get(c.scope) ?? t('inspector.fromOther'));
                return html`<tr data-candidate=${c.id} data-fate=${c.fate}>
                  <td class="num">${c.rank}</td>
                  <td><span class="pill ${injected ? 'in' : 'out'}">${t(`fate.${c.fate}` as MessageKey)}</span></td>
                  <td class="num">${c.score.toFixed(2)}</td>
                  <td>${from}</td>
                  <td class="preview">${preview(c.preview)}</td>
                </tr>`;
              })}
            </tbody>
          </table>`}
    </section>`;
  }

  private _working(s: InspectorSnapshot) {
    const items = s.working;
    return html`<section part="section" aria-labelledby="h-working">
      <h3 id="h-working">${t('inspector.working', { n: items.length })}</h3>
      ${items.length === 0
        ? html`<p class="muted">${t('inspector.noWorking')}</p>`
        : html`<ul class="items">
            ${items.map((item) => {
              const from = sourceText(s, item.sourceTurnId);
              return html`<li data-kind=${item.kind}>
                <strong>${item.name}</strong>: ${item.value}
                <span class="source">${from === null ? t('inspector.sourceUnknown') : t('inspector.source', { text: preview(from, 60) })}
                  · ${item.expiresAt === null ? t('inspector.pinned') : t('inspector.expires', { at: formatDateTime(item.expiresAt) })}</span>
              </li>`;
            })}
          </ul>`}
    </section>`;
  }

  override render() {
    const s = this.snapshot;
    if (s === null) return html`<h2>${t('inspector.title')}</h2><p class="muted">${t('inspector.empty')}</p>`;
    const r = s.report;
    const mode = r.mode === 'append' ? t('inspector.append') : t('inspector.compact', { cause: t(`compaction.${r.compaction ?? 'first-request'}` as MessageKey) });
    return html`
      <h2>${t('inspector.title')}</h2>
      <p class="muted">${t('inspector.request', { n: r.request, at: formatDateTime(s.at) })} · ${mode}</p>
      ${this._sections(s)} ${this._engine(s)} ${this._turns(s)} ${this._retrieval(s)} ${this._working(s)}
      ${r.warnings.length > 0
        ? html`<section part="section"><h3>${t('inspector.warnings')}</h3><ul class="items">${r.warnings.map((w) => html`<li>${w}</li>`)}</ul></section>`
        : nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-inspector': QwenInspector;
  }
}

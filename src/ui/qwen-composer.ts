import { LitElement, css, html } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';
import { LocaleController, t } from './i18n/index.ts';
import { controls } from './styles.ts';
import { fire } from './fire.ts';

/**
 * Where the user writes. Enter sends, Shift+Enter adds a line, Esc stops a reply.
 * The text is cleared only once the parent accepted it.
 * @fires qwen-send - detail: { text }
 * @fires qwen-stop - the user asked to stop the reply
 * @csspart input - the textarea
 */
@customElement('qwen-composer')
export class QwenComposer extends LitElement {
  static override styles = [
    controls,
    css`
    form {
      display: flex;
      gap: 0.5rem;
      max-width: 48rem;
      margin: 0 auto;
      padding: 0.75rem 1rem;
    }
    textarea {
      flex: 1;
      font: inherit;
      resize: none;
      box-sizing: border-box;
      min-height: 2.6rem;
      max-height: 12rem;
      padding: 0.5rem 0.75rem;
      border-radius: 10px;
      border: 1px solid var(--qwen-border, #ccc);
      background: var(--qwen-surface, #fff);
      color: inherit;
    }
    button {
      font: inherit;
      padding: 0 1rem;
      border-radius: 10px;
      border: 1px solid var(--qwen-accent, #3056d3);
      background: var(--qwen-accent, #3056d3);
      color: white;
      cursor: pointer;
    }
    button:disabled {
      opacity: 0.5;
      cursor: default;
    }
    .hint {
      max-width: 48rem;
      margin: -0.5rem auto 0;
      padding: 0 1rem 0.5rem;
      font-size: 0.75rem;
      text-align: center;
      color: var(--qwen-muted, #5f6068);
    }
  `,
  ];

  /** True while a reply streams: the button becomes Stop. */
  @property({ type: Boolean }) busy = false;
  @property({ type: Boolean }) disabled = false;
  @query('textarea') private _input!: HTMLTextAreaElement;

  constructor() {
    super();
    new LocaleController(this);
  }

  get value(): string {
    return this._input?.value ?? '';
  }

  set value(text: string) {
    if (this._input) {
      this._input.value = text;
      this._grow();
    }
  }

  /** The textarea grows with its text up to its max height. */
  private _grow(): void {
    const input = this._input;
    input.style.height = 'auto';
    input.style.height = `${input.scrollHeight + 2}px`;
  }

  override focus(): void {
    this._input?.focus();
  }

  private _send(): void {
    const text = this.value;
    if (this.busy || this.disabled || text.trim() === '') return;
    fire(this, 'qwen-send', { text });
  }

  private _stop(): void {
    fire(this, 'qwen-stop');
  }

  private _onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this._send();
    } else if (event.key === 'Escape' && this.busy) {
      event.preventDefault();
      this._stop();
    }
  }

  override render() {
    return html`<form
      @submit=${(e: Event) => {
        e.preventDefault();
        this._send();
      }}
    >
      <textarea
        part="input"
        rows="1"
        aria-label=${t('composer.label')}
        aria-describedby="hint"
        placeholder=${t('composer.placeholder')}
        ?disabled=${this.disabled}
        @keydown=${this._onKeyDown}
        @input=${this._grow}
      ></textarea>
      ${this.busy
        ? html`<button type="button" @click=${this._stop}>${t('composer.stop')}</button>`
        : html`<button type="submit" class="primary" ?disabled=${this.disabled}>${t('composer.send')}</button>`}
    </form>
    <p class="hint" id="hint">${t('composer.hint')}</p>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-composer': QwenComposer;
  }
}

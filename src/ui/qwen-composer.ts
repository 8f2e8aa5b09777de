import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { LocaleController, formatNumber, t } from './i18n/index.ts';
import { controls } from './styles.ts';
import { fire } from './fire.ts';

/** Longer texts are held aside: a textarea lays out ~10,000 mixed characters in about 25 ms here, 100,000 in 250+. */
export const LONG_TEXT_CHARS = 10_000;
/** What the read-only textarea shows of a long text. */
const PREVIEW_CHARS = 1_000;

/** The start of `text` for the preview, never ending inside a surrogate pair. */
function preview(text: string): string {
  const code = text.charCodeAt(PREVIEW_CHARS - 1);
  return `${text.slice(0, code >= 0xd800 && code <= 0xdbff ? PREVIEW_CHARS - 1 : PREVIEW_CHARS)}…`;
}

/**
 * Where the user writes. Enter sends, Shift+Enter adds a line, Esc stops a reply.
 * The text is cleared only once the parent accepted it. A text longer than `LONG_TEXT_CHARS` (a big paste) is held
 * here whole but never put into the textarea: laying out 100,000 characters there blocks the page for a second or
 * more. The textarea then shows its start, read-only, with a Clear button.
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
    .long {
      max-width: 48rem;
      margin: -0.5rem auto 0;
      padding: 0 1rem 0.5rem;
      display: flex;
      gap: 0.5rem;
      align-items: center;
      font-size: 0.8rem;
    }
    .long button {
      color: inherit;
      background: none;
      border-color: var(--qwen-border, #ccc);
      padding: 0.1rem 0.6rem;
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
  /** The whole text while it is too long for the textarea, else null. */
  @state() private _long: string | null = null;

  constructor() {
    super();
    new LocaleController(this);
  }

  get value(): string {
    return this._long ?? this._input?.value ?? '';
  }

  set value(text: string) {
    if (!this._input) return;
    this._long = text.length > LONG_TEXT_CHARS ? text : null;
    this._input.value = this._long === null ? text : preview(text);
    this._grow();
  }

  /**
   * A paste (or dropped or inserted text) that would make the text long is taken here instead of by the
   * textarea: `paste` sees a real Ctrl+V first; `beforeinput` covers drops and text inserted by other means.
   */
  private _onPaste(event: ClipboardEvent): void {
    this._takeLong(event, event.clipboardData?.getData('text/plain') ?? '');
  }

  private _onBeforeInput(event: InputEvent): void {
    if (!event.inputType.startsWith('insert')) return;
    this._takeLong(event, event.data ?? event.dataTransfer?.getData('text/plain') ?? '');
  }

  private _takeLong(event: Event, inserted: string): void {
    const input = this._input;
    if (this._long !== null || inserted.length + input.value.length <= LONG_TEXT_CHARS) return;
    const { selectionStart: start, selectionEnd: end } = input;
    const text = input.value.slice(0, start) + inserted + input.value.slice(end);
    if (text.length <= LONG_TEXT_CHARS) return;
    event.preventDefault();
    this.value = text;
  }

  /** The textarea grows with its text up to its max height. */
  private _grow(): void {
    const input = this._input;
    if (this._long !== null) {
      // The preview fills the box anyway: measuring it would only cost a layout.
      input.style.height = '12rem';
      return;
    }
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

  private _clear(): void {
    this.value = '';
    this.focus();
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
        ?readonly=${this._long !== null}
        @keydown=${this._onKeyDown}
        @input=${this._grow}
        @paste=${this._onPaste}
        @beforeinput=${this._onBeforeInput}
      ></textarea>
      ${this.busy
        ? html`<button type="button" @click=${this._stop}>${t('composer.stop')}</button>`
        : html`<button type="submit" class="primary" ?disabled=${this.disabled}>${t('composer.send')}</button>`}
    </form>
    ${this._long === null
      ? nothing
      : html`<p class="long" data-long=${this._long.length}>
          <span>${t('composer.long', { total: formatNumber(this._long.length) })}</span>
          <button type="button" @click=${this._clear}>${t('composer.clear')}</button>
        </p>`}
    <p class="hint" id="hint">${t('composer.hint')}</p>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-composer': QwenComposer;
  }
}

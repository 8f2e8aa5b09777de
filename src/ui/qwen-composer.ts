import { LitElement, css, html } from 'lit';
import { customElement, property, query } from 'lit/decorators.js';

/**
 * Where the user writes. Enter sends, Shift+Enter adds a line, Esc stops a reply.
 * The text is cleared only once the parent accepted it.
 * @fires qwen-send - detail: { text }
 * @fires qwen-stop - the user asked to stop the reply
 * @csspart input - the textarea
 */
@customElement('qwen-composer')
export class QwenComposer extends LitElement {
  static override styles = css`
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
      min-height: 2.5rem;
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
  `;

  /** True while a reply streams: the button becomes Stop. */
  @property({ type: Boolean }) busy = false;
  @property({ type: Boolean }) disabled = false;
  @query('textarea') private _input!: HTMLTextAreaElement;

  get value(): string {
    return this._input?.value ?? '';
  }

  set value(text: string) {
    if (this._input) this._input.value = text;
  }

  override focus(): void {
    this._input?.focus();
  }

  private _send(): void {
    const text = this.value;
    if (this.busy || this.disabled || text.trim() === '') return;
    this.dispatchEvent(new CustomEvent('qwen-send', { detail: { text }, bubbles: true, composed: true }));
  }

  private _stop(): void {
    this.dispatchEvent(new CustomEvent('qwen-stop', { bubbles: true, composed: true }));
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
        aria-label="Message"
        placeholder="Message the assistant (Enter sends, Shift+Enter new line)"
        ?disabled=${this.disabled}
        @keydown=${this._onKeyDown}
      ></textarea>
      ${this.busy
        ? html`<button type="button" @click=${this._stop} aria-label="Stop">Stop</button>`
        : html`<button type="submit" ?disabled=${this.disabled} aria-label="Send">Send</button>`}
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-composer': QwenComposer;
  }
}

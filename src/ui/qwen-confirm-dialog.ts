import { LitElement, css, html } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { LocaleController, t } from './i18n/index.ts';
import { controls } from './styles.ts';

export interface ConfirmRequest {
  title: string;
  message: string;
  /** The label of the confirming button ("Delete"). */
  confirm: string;
}

/**
 * A modal question before something that cannot be undone. `ask()` resolves true only for the confirm button;
 * Esc, Cancel and a click outside say no. Focus starts on Cancel, the safe choice.
 * @csspart dialog - the dialog box
 */
@customElement('qwen-confirm-dialog')
export class QwenConfirmDialog extends LitElement {
  static override styles = [
    controls,
    css`
      dialog {
        border: 1px solid var(--qwen-border, #dcdce0);
        border-radius: 14px;
        background: var(--qwen-surface, #fff);
        color: var(--qwen-fg, #1c1c1e);
        max-width: 28rem;
        padding: 1.25rem;
      }
      dialog::backdrop {
        background: rgb(0 0 0 / 0.35);
      }
      h2 {
        font-size: 1.05rem;
        margin: 0 0 0.5rem;
      }
      .buttons {
        display: flex;
        justify-content: flex-end;
        gap: 0.5rem;
        margin-top: 1rem;
      }
    `,
  ];

  @state() private _request: ConfirmRequest | null = null;
  @query('dialog') private _dialog!: HTMLDialogElement;
  private _resolve: ((answer: boolean) => void) | null = null;

  constructor() {
    super();
    new LocaleController(this);
  }

  async ask(request: ConfirmRequest): Promise<boolean> {
    this._resolve?.(false);
    this._request = request;
    await this.updateComplete;
    this._dialog.showModal();
    this.renderRoot.querySelector<HTMLButtonElement>('button[data-cancel]')?.focus();
    return new Promise((resolve) => (this._resolve = resolve));
  }

  private _answer(value: boolean): void {
    const resolve = this._resolve;
    this._resolve = null;
    if (this._dialog.open) this._dialog.close();
    resolve?.(value);
  }

  override render() {
    const r = this._request;
    return html`<dialog
      part="dialog"
      aria-labelledby="title"
      aria-describedby="message"
      @close=${() => this._answer(false)}
      @click=${(e: Event) => e.target === this._dialog && this._answer(false)}
    >
      <h2 id="title">${r?.title ?? ''}</h2>
      <p id="message">${r?.message ?? ''}</p>
      <div class="buttons">
        <button data-cancel @click=${() => this._answer(false)}>${t('common.cancel')}</button>
        <button class="danger" data-confirm @click=${() => this._answer(true)}>${r?.confirm ?? ''}</button>
      </div>
    </dialog>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-confirm-dialog': QwenConfirmDialog;
  }
}

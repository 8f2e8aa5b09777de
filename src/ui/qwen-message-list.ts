import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { UiMessage } from './controllers/chat-controller.ts';

/**
 * The conversation. Text is rendered as plain text (no HTML is ever interpreted here).
 * @fires qwen-retry - the user asked to retry the last failed or stopped reply
 * @csspart message - each message bubble
 */
@customElement('qwen-message-list')
export class QwenMessageList extends LitElement {
  static override styles = css`
    :host {
      display: block;
      overflow-y: auto;
    }
    ol {
      list-style: none;
      margin: 0 auto;
      padding: 1rem;
      max-width: 48rem;
      display: flex;
      flex-direction: column;
      gap: 0.75rem;
    }
    li {
      overflow-wrap: anywhere;
      line-height: 1.5;
      padding: 0.6rem 0.9rem;
      border-radius: 12px;
      max-width: 85%;
    }
    li[data-role='user'] {
      align-self: flex-end;
      background: var(--qwen-user-bg, #e8eefc);
    }
    li[data-role='assistant'] {
      align-self: flex-start;
      background: var(--qwen-assistant-bg, #f4f4f5);
    }
    .content {
      white-space: pre-wrap;
    }
    .note {
      display: block;
      margin-top: 0.4rem;
      font-size: 0.8rem;
      opacity: 0.8;
    }
    .failed {
      color: var(--qwen-danger, #c0392b);
    }
    button {
      font: inherit;
      font-size: 0.8rem;
      margin-left: 0.5rem;
    }
  `;

  @property({ attribute: false }) messages: UiMessage[] = [];

  override updated(): void {
    this.scrollTop = this.scrollHeight;
  }

  private _retry(): void {
    this.dispatchEvent(new CustomEvent('qwen-retry', { bubbles: true, composed: true }));
  }

  private _note(message: UiMessage, isLast: boolean) {
    const retry = isLast ? html`<button @click=${this._retry}>Retry</button>` : nothing;
    if (message.status === 'stopped') return html`<span class="note" data-status="stopped">Stopped.${retry}</span>`;
    if (message.status === 'failed' && message.error) {
      return html`<span class="note failed" role="alert" data-status="failed" data-code=${message.error.code}
        >${message.error.message} (${message.error.code})${retry}</span
      >`;
    }
    return nothing;
  }

  override render() {
    const lastId = this.messages.at(-1)?.id;
    return html`<ol aria-label="Conversation">
      ${repeat(
        this.messages,
        (m) => m.id,
        (m) => html`<li part="message" data-role=${m.role} data-status=${m.status} data-chunks=${m.chunks}>
          <span class="content">${m.content}</span>${m.status === 'streaming' && m.content === '' ? '…' : nothing}${this._note(m, m.id === lastId)}
        </li>`,
      )}
    </ol>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-message-list': QwenMessageList;
  }
}

/**
 * Keeps the engine's KV cache warm for the open conversation: when the engine becomes ready and when a conversation
 * opens, the messages its next prompt will start with (the system message; once the conversation has had a prompt,
 * kept across page loads, that whole prompt and its reply) are prefilled while the user reads and types. The reply then prefills only the
 * new message: on a laptop CPU (~15–20 tokens/s) a 74-token system prompt is 4 s less to wait at the first
 * message, a conversation switched back to much more. An engine that cannot hold a prefix (web-llm) says so, and
 * nothing happens. A warm-up never stands in a message's way: none starts while a reply is under way, and one
 * that is running when a message is sent is the start of that message's prompt, which the engine runs first.
 */
import type { ChatMessage, PrefillResult } from '../../engine/protocol.ts';
import type { Lang } from '../../memory/layered/index.ts';

export interface WarmerDeps {
  /** The engine, when it is ready (null otherwise). */
  engine(): { prefill(messages: ChatMessage[], options: { signal?: AbortSignal }): Promise<PrefillResult> } | null;
  nextPrefix(sessionId: string | null, langHint: Lang): Promise<ChatMessage[]>;
  /** A reply is being planned or streamed: its own prompt fills the cache. */
  busy(): boolean;
  lang(): Lang;
}

export interface WarmRecord {
  sessionId: string | null;
  /** Messages prefilled (the system message first). */
  messages: number;
  result: PrefillResult;
}

export class PromptWarmer {
  /** The last warm-up that finished (tests read it). */
  last: WarmRecord | null = null;
  /** `last` is of the open conversation and no message has been sent on it yet. */
  private _unshown = false;
  private _abort: AbortController | null = null;

  constructor(private readonly _deps: WarmerDeps) {}

  /** Warms the start of `sessionId`'s next prompt (null: a new conversation), replacing any warm-up under way. */
  async warm(sessionId: string | null): Promise<void> {
    this._abort?.abort();
    const abort = new AbortController();
    this._abort = abort;
    this._unshown = false;
    if (this._deps.engine() === null || this._deps.busy()) return;
    try {
      const messages = await this._deps.nextPrefix(sessionId, this._deps.lang());
      // Checked again after the wait: a message sent meanwhile fills the cache itself.
      const engine = this._deps.engine();
      if (abort.signal.aborted || engine === null || this._deps.busy()) return;
      const result = await engine.prefill(messages, { signal: abort.signal });
      if (!abort.signal.aborted && result.supported) {
        this.last = { sessionId, messages: messages.length, result };
        // A message sent while it ran has waited for it in the engine: it was not prefilled before that message.
        this._unshown = !this._deps.busy();
      }
    } catch {
      // A warm-up that fails (or is replaced) costs nothing but the warm cache: the reply prefills as it would have.
    } finally {
      if (this._abort === abort) this._abort = null;
    }
  }

  /**
   * What the finished warm-up of the open conversation prefilled, for the first message sent after it (then null):
   * the inspector says where that message's cached tokens came from.
   */
  take(): { tokens: number; ms: number } | null {
    if (!this._unshown || this.last === null) return null;
    this._unshown = false;
    return { tokens: this.last.result.promptTokens - this.last.result.cachedTokens, ms: this.last.result.ms };
  }
}

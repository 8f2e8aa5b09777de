/**
 * The conversation as the UI shows it, and the streaming of one reply at a time.
 * A failed or stopped reply stays visible with its reason; the user's message is never lost.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ContextReport } from '../../context/index.ts';
import type { ChatMessage, ChatResult } from '../../engine/protocol.ts';
import { type AssistantError, isAbortError, toAssistantError } from '../../shared/errors.ts';
import type { EngineController } from './engine-controller.ts';

export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'failed';

export interface UiMessage {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  error?: AssistantError;
  stats?: ChatResult;
  /** Number of text deltas received, so a user (and a test) can see the reply streamed. */
  chunks: number;
}

export interface ChatSettings {
  maxTokens: number;
  temperature: number;
  topP: number;
}

/** Builds the prompt for `input` after `history` (the context engine in the app). */
export type PromptBuilder = (history: ChatMessage[], input: string) => Promise<{ messages: ChatMessage[]; report?: ContextReport }>;

export class ChatController implements ReactiveController {
  messages: UiMessage[] = [];
  /** How the last prompt was assembled: sections, turns in and out, the cached prefix. */
  lastReport: ContextReport | null = null;
  private _abort: AbortController | null = null;
  private _nextId = 1;

  constructor(
    private readonly _host: ReactiveControllerHost,
    private readonly _engine: EngineController,
    private readonly _settings: () => ChatSettings,
    private readonly _buildPrompt: PromptBuilder,
  ) {
    _host.addController(this);
  }

  hostConnected(): void {}

  get busy(): boolean {
    return this._abort !== null;
  }

  get lastStats(): ChatResult | undefined {
    return [...this.messages].reverse().find((m) => m.stats !== undefined)?.stats;
  }

  async send(text: string): Promise<void> {
    if (this.busy || text.trim() === '') return;
    this.messages = [...this.messages, { id: this._nextId++, role: 'user', content: text, status: 'complete', chunks: 0 }];
    await this._generate();
  }

  stop(): void {
    this._abort?.abort();
  }

  /** Drops the last failed or stopped reply and asks again for the same user message. */
  async retry(): Promise<void> {
    if (this.busy) return;
    const last = this.messages.at(-1);
    if (last?.role === 'assistant' && last.status !== 'complete') this.messages = this.messages.slice(0, -1);
    if (this.messages.at(-1)?.role !== 'user') return;
    await this._generate();
  }

  private async _generate(): Promise<void> {
    const abort = new AbortController();
    this._abort = abort;
    const reply: UiMessage = { id: this._nextId++, role: 'assistant', content: '', status: 'streaming', chunks: 0 };
    const history = this.messages;
    this.messages = [...history, reply];
    this._host.requestUpdate();
    const update = (patch: Partial<UiMessage>): void => {
      Object.assign(reply, patch);
      this.messages = [...this.messages];
      this._host.requestUpdate();
    };
    try {
      await this._engine.ensureReady();
      const settings = this._settings();
      // Every earlier message goes in as it was shown (a stopped reply too), so the prompt stays an
      // extension of the one the engine has cached.
      const earlier = history.slice(0, -1).map((m): ChatMessage => ({ role: m.role, content: m.content }));
      const planned = await this._buildPrompt(earlier, history.at(-1)!.content);
      this.lastReport = planned.report ?? null;
      // The answer may use what the prompt left of the window (at least the reserve), never more.
      const room = planned.report ? planned.report.budget.total - planned.report.promptTokens : settings.maxTokens;
      for await (const event of this._engine.client.chat(planned.messages, {
        signal: abort.signal,
        maxTokens: Math.max(1, Math.min(settings.maxTokens, room)),
        temperature: settings.temperature,
        topP: settings.topP,
      })) {
        if (event.type === 'delta') update({ content: reply.content + event.text, chunks: reply.chunks + 1 });
        else update({ status: 'complete', stats: event.result });
      }
    } catch (error) {
      if (isAbortError(error)) update({ status: 'stopped' });
      else update({ status: 'failed', error: toAssistantError(error) });
    } finally {
      this._abort = null;
      this._host.requestUpdate();
    }
  }
}

/**
 * The open conversation as the UI shows it, and the streaming of one reply at a time.
 * The user's message is written to IndexedDB before anything can fail; the reply is stored while it streams
 * and marked interrupted when it is stopped, fails, or the tab closes. Regenerate and edit hide the turns they
 * replace (kept in the store, tagged) so the conversation, the memory and the prompt agree on what was said.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { CHAT_DEFAULTS, type ChatResult } from '../../engine/protocol.ts';
import type { ReplyWriter } from '../../memory/reply-writer.ts';
import type { SentPart, TurnRecord } from '../../memory/records.ts';
import type { MemoryStore } from '../../memory/store.ts';
import { type AssistantError, isAbortError, toAssistantError } from '../../shared/errors.ts';
import type { AppSettings } from '../data/settings.ts';
import type { EngineController } from './engine-controller.ts';
import { HIDDEN_TAG, isVisibleTurn } from '../data/visible-turns.ts';
import { readSentPart, sameSentPart, sentPartOf } from '../data/sent-part.ts';
import { yieldToPage } from '../yield.ts';
import { replySaveError } from './reply-save-error.ts';
import type { HistoryTurn, PlannedPrompt, PromptPlanner } from './memory-planner.ts';

/** `stopped`/`failed` in this visit; `interrupted` for a reply found cut off in the store. */
export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'failed' | 'interrupted';

export interface UiMessage {
  /** The stored turn's id; `pending:<n>` for a reply that failed before it was stored. */
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  createdAt: number;
  error?: AssistantError;
  stats?: ChatResult;
  /** Number of text deltas received, so a user (and a test) can see the reply streamed. */
  chunks: number;
  /** A user message too long for the window: the part the model got (stored with the turn). */
  sent?: SentPart;
}

/** What the inspector draws: the last request's prompt report and, once the reply ended, the engine's counters. */
export interface InspectorSnapshot extends PlannedPrompt {
  sessionId: string;
  input: HistoryTurn;
  at: number;
  result: ChatResult | null;
}

export interface ChatDeps {
  engine: EngineController;
  store(): Promise<MemoryStore>;
  planner: PromptPlanner;
  settings(): AppSettings;
  /** Creates the conversation a first message goes into and returns its id. */
  createSession(firstMessage: string): Promise<string>;
  /** A conversation's content changed (its place in the list may move). */
  touched(): void;
}

const pending = (() => {
  let n = 0;
  return () => `pending:${++n}`;
})();

function fromTurn(t: TurnRecord): UiMessage {
  const status: MessageStatus = t.status === 'complete' ? 'complete' : 'interrupted';
  const sent = t.role === 'user' ? readSentPart(t.sent) : null;
  return {
    id: t.id,
    role: t.role === 'assistant' ? 'assistant' : 'user',
    content: t.content,
    status,
    createdAt: t.createdAt,
    chunks: 0,
    ...(sent === null ? {} : { sent }),
  };
}

export class ChatController implements ReactiveController {
  messages: UiMessage[] = [];
  sessionId: string | null = null;
  /** How the last prompt was assembled and what the engine reported. */
  lastSnapshot: InspectorSnapshot | null = null;
  /** A storage failure on send (the message was not accepted). */
  error: AssistantError | null = null;
  private _abort: AbortController | null = null;
  private _loadRun = 0;

  constructor(
    private readonly _host: ReactiveControllerHost,
    private readonly _deps: ChatDeps,
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

  /** Shows a stored conversation (or an empty one for null). */
  async open(sessionId: string | null): Promise<void> {
    this.stop();
    const run = ++this._loadRun;
    this.sessionId = sessionId;
    this.messages = [];
    this.error = null;
    this._host.requestUpdate();
    if (sessionId === null) return;
    const turns = await (await this._deps.store()).listTurns(sessionId);
    if (run !== this._loadRun) return;
    this.messages = turns.filter((t) => isVisibleTurn(t) && !(t.role === 'assistant' && t.content === '' && t.status !== 'complete')).map(fromTurn);
    this._host.requestUpdate();
  }

  /**
   * Stores the message, then streams the reply. `accepted` runs once the message is stored (the composer
   * clears then); when storing fails the text stays where the user typed it.
   */
  async send(text: string, accepted?: () => void): Promise<void> {
    if (this.busy || text.trim() === '') return;
    const abort = new AbortController();
    this._abort = abort;
    let turn: TurnRecord;
    try {
      const store = await this._deps.store();
      const sessionId = this.sessionId ?? (await this._deps.createSession(text));
      this.sessionId = sessionId;
      turn = await store.appendTurn({ sessionId, role: 'user', content: text });
    } catch (error) {
      this._abort = null;
      this.error = toAssistantError(error);
      this._host.requestUpdate();
      return;
    }
    this.error = null;
    accepted?.();
    this.messages = [...this.messages, fromTurn(turn)];
    this._deps.touched();
    // The message shows before its prompt is planned (each step its own task, so the page never stalls).
    await yieldToPage();
    await this._generate(abort, false);
  }

  stop(): void {
    this._abort?.abort();
  }

  /** Asks again for the last user message: the last reply (complete, stopped or interrupted) is replaced. */
  async regenerate(): Promise<void> {
    if (this.busy || this.sessionId === null) return;
    const abort = new AbortController();
    this._abort = abort;
    const last = this.messages.at(-1);
    if (last?.role === 'assistant') {
      this.messages = this.messages.slice(0, -1);
      this._host.requestUpdate();
      await this._hide([last]);
    }
    if (this.messages.at(-1)?.role !== 'user') {
      this._abort = null;
      this._host.requestUpdate();
      return;
    }
    await this._generate(abort, true);
  }

  /** Kept for callers of the first version: a retry is a regenerate. */
  retry(): Promise<void> {
    return this.regenerate();
  }

  /** Replaces the last user message with `text` and asks again; the replies after it are replaced. */
  async editLast(text: string): Promise<void> {
    if (this.busy || this.sessionId === null || text.trim() === '') return;
    const index = this.messages.findLastIndex((m) => m.role === 'user');
    if (index < 0) return;
    const abort = new AbortController();
    this._abort = abort;
    const user = this.messages[index]!;
    try {
      await (await this._deps.store()).updateTurn(user.id, { content: text });
    } catch (error) {
      this._abort = null;
      this.error = toAssistantError(error);
      this._host.requestUpdate();
      return;
    }
    const replaced = this.messages.slice(index + 1);
    this.messages = [...this.messages.slice(0, index), { ...user, content: text, createdAt: Date.now() }];
    this._host.requestUpdate();
    await this._hide(replaced);
    await this._generate(abort, true);
  }

  /** Shows on the message (and keeps with its turn) how much of it the model got, when that changed. */
  private _noteSent(user: UiMessage, sent: SentPart | null): void {
    if (sameSentPart(user.sent ?? null, sent)) return;
    if (sent === null) delete user.sent;
    else user.sent = sent;
    this.messages = [...this.messages];
    this._host.requestUpdate();
    void this._deps
      .store()
      .then((store) => store.updateTurn(user.id, { sent }))
      .catch(() => null);
  }

  private async _hide(messages: UiMessage[]): Promise<void> {
    const store = await this._deps.store();
    for (const m of messages) {
      if (!m.id.startsWith('pending:')) await store.updateTurn(m.id, { tags: [HIDDEN_TAG] }).catch(() => null);
    }
  }

  /** Streams a reply to the last message (a user message). */
  private async _generate(abort: AbortController, again: boolean): Promise<void> {
    const sessionId = this.sessionId!;
    const user = this.messages.at(-1)!;
    const reply: UiMessage = { id: pending(), role: 'assistant', content: '', status: 'streaming', createdAt: Date.now(), chunks: 0 };
    this.messages = [...this.messages, reply];
    this._host.requestUpdate();
    const update = (patch: Partial<UiMessage>): void => {
      Object.assign(reply, patch);
      if (this.sessionId === sessionId) this.messages = [...this.messages];
      this._host.requestUpdate();
    };
    let writer: ReplyWriter | null = null;
    let finished = false;
    try {
      await this._deps.engine.ensureReady();
      if (abort.signal.aborted) throw abort.signal.reason;
      const settings = this._deps.settings();
      await yieldToPage();
      const planned = await this._deps.planner.plan({ sessionId, turn: { id: user.id, text: user.content, time: user.createdAt }, again });
      const snapshot: InspectorSnapshot = { ...planned, sessionId, input: { id: user.id, role: 'user', text: user.content }, at: Date.now(), result: null };
      this.lastSnapshot = snapshot;
      this._noteSent(user, sentPartOf(planned.report, user.content));
      await yieldToPage();
      if (abort.signal.aborted) throw abort.signal.reason;
      writer = await (await this._deps.store()).startReply(sessionId, { replyTo: user.id });
      update({ id: writer.turnId });
      // The answer may use what the prompt left of the window (at least the reserve), never more.
      const room = planned.report.budget.total - planned.report.promptTokens;
      for await (const event of this._deps.engine.client.chat(planned.messages, {
        signal: abort.signal,
        maxTokens: Math.max(1, Math.min(CHAT_DEFAULTS.maxTokens, room)),
        temperature: settings.temperature,
        topP: settings.topP,
      })) {
        if (event.type === 'delta') {
          writer.append(event.text);
          update({ content: reply.content + event.text, chunks: reply.chunks + 1 });
        } else {
          finished = true;
          await writer.complete({ tokenCount: event.result.completionTokens });
          snapshot.result = event.result;
          this.lastSnapshot = { ...snapshot };
          update({ status: 'complete', stats: event.result });
        }
      }
    } catch (error) {
      const saveError = writer !== null && !finished ? await writer.interrupt().then(() => null, (e: unknown) => e) : null;
      const unsaved = replySaveError(saveError ?? error);
      if (unsaved !== null) update({ status: 'failed', error: unsaved });
      else if (isAbortError(error) || abort.signal.aborted) update({ status: 'stopped' });
      else update({ status: 'failed', error: toAssistantError(error) });
    } finally {
      if (writer !== null) await this._deps.planner.recordReply(sessionId, writer.turnId, reply.content, Date.now()).catch(() => {});
      if (this._abort === abort) this._abort = null;
      this._deps.touched();
      this._host.requestUpdate();
    }
  }
}

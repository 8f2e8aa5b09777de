/**
 * The open conversation as the UI shows it, and the streaming of one reply at a time.
 * The user's message is written to IndexedDB before anything can fail; the reply is stored while it streams
 * and marked interrupted when it is stopped, fails, or the tab closes. Regenerate and edit hide the turns they
 * replace (kept in the store, tagged) so the conversation, the memory and the prompt agree on what was said.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatResult } from '../../engine/protocol.ts';
import type { MemoryStore, SentPart, TurnRecord } from '../../memory/store/index.ts';
import { type AssistantError, isAbortError, toAssistantError } from '../../shared/errors.ts';
import { streamReply, storeQuestion, type TurnPorts, type TurnStore } from '../../turn/turn-pipeline.ts';
import type { AppSettings } from '../data/settings.ts';
import type { EngineController } from './engine-controller.ts';
import { enterExchange, warnBeforeUnload } from './exchange-lock.ts';
import { HIDDEN_TAG, isForgotten, isVisibleTurn } from '../data/visible-turns.ts';
import { groupExchanges, withUnstored } from '../data/exchanges.ts';
import { readSentPart } from '../data/sent-part.ts';
import { yieldToPage } from '../../shared/yield.ts';
import { replySaveError } from './reply-save-error.ts';
import type { HistoryTurn, PlannedPrompt, PromptPlanner } from './memory-planner.ts';

/**
 * `stopped`/`failed` in this visit; `interrupted` for a reply found cut off in the store; `queued` for a question
 * waiting (not stored yet) while another tab's exchange in this conversation ends.
 */
export type MessageStatus = 'complete' | 'streaming' | 'stopped' | 'failed' | 'interrupted' | 'queued';

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
  /** A reply's question (its stored `replyTo`). */
  replyTo?: string;
  /** Forgotten by the user: shown, marked, out of the memory. */
  forgotten?: boolean;
}

/** What the inspector draws: the last request's prompt report and, once the reply ended, the engine's counters. */
export interface InspectorSnapshot extends PlannedPrompt {
  sessionId: string;
  input: HistoryTurn;
  at: number;
  result: ChatResult | null;
  /** The start of this prompt the engine prefilled before the message was sent (prompt-warmer.ts), if any. */
  warmed?: WarmedBefore;
}

/** Tokens a warm-up prefilled into the engine's cache, and how long it took. */
export interface WarmedBefore {
  tokens: number;
  ms: number;
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
  /** The warm-up of the open conversation that finished before this message, once (the inspector shows it). */
  warmed?(): WarmedBefore | null;
}

const pending = (() => {
  let n = 0;
  return () => `pending:${++n}`;
})();
const queuedId = (() => {
  let n = 0;
  return () => `queued:${++n}`;
})();
/** Only in this tab: a question waiting for the lock, a reply that failed before it was stored. */
const unstored = (m: UiMessage): boolean => m.id.startsWith('pending:') || m.id.startsWith('queued:');
/**
 * This tab's own account of a stored message (streaming, stopped, failed, with the engine's counters) beats a
 * re-read; anything else is read afresh (another tab's reply seen mid-stream is complete by now).
 */
const live = (m: UiMessage | undefined): m is UiMessage => m !== undefined && ((m.status !== 'complete' && m.status !== 'interrupted') || m.stats !== undefined);

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
    ...(t.role === 'assistant' && t.replyTo !== null ? { replyTo: t.replyTo } : {}),
    ...(isForgotten(t) ? { forgotten: true } : {}),
  };
}

/** An empty reply that never completed says nothing: not shown (unless this tab is still writing it). */
const emptyCut = (t: TurnRecord): boolean => t.role === 'assistant' && t.content === '' && t.status !== 'complete';

export class ChatController implements ReactiveController {
  messages: UiMessage[] = [];
  sessionId: string | null = null;
  /** How the last prompt was assembled and what the engine reported. */
  lastSnapshot: InspectorSnapshot | null = null;
  /** A storage failure on send (the message was not accepted). */
  error: AssistantError | null = null;
  private _abort: AbortController | null = null;
  private _loadRun = 0;
  /** Other tabs' writes to the open conversation seen so far, and how many of them the list shows. */
  private _remoteWrites = 0;
  private _shownWrites = 0;
  /** This tab holds the conversation's exchange lock: its own writes are under way, the list is its own. */
  private _inExchange = false;

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

  /** Shows a message as forgotten (or not) without reading the conversation again. */
  markForgotten(messageId: string, forgotten: boolean): void {
    this.messages = this.messages.map((m) => {
      if (m.id !== messageId) return m;
      const { forgotten: _was, ...rest } = m;
      return forgotten ? { ...rest, forgotten: true } : rest;
    });
    this._host.requestUpdate();
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
    this._shownWrites = this._remoteWrites;
    const turns = await (await this._deps.store()).listTurns(sessionId);
    if (run !== this._loadRun) return;
    this.messages = groupExchanges(turns.filter((t) => isVisibleTurn(t) && !emptyCut(t))).map(fromTurn);
    this._host.requestUpdate();
  }

  /**
   * Another tab wrote to a conversation: the open one is read again. What only this tab has (a waiting question,
   * the reply it streams) stays; during this tab's own exchange the read waits for its end.
   */
  async refresh(sessionId: string): Promise<void> {
    if (sessionId !== this.sessionId) return;
    this._remoteWrites++;
    if (this._inExchange) return;
    await this._reread(sessionId);
  }

  /** `inside`: called by this tab's exchange itself, under the lock. */
  private async _reread(sessionId: string, inside = false): Promise<void> {
    const run = this._loadRun;
    const seen = this._remoteWrites;
    const turns = await (await this._deps.store()).listTurns(sessionId);
    // Another conversation opened meanwhile, or this tab's exchange began: its list is newer than this read.
    if (run !== this._loadRun || sessionId !== this.sessionId || (this._inExchange && !inside)) return;
    const local = new Map(this.messages.filter((m) => live(m)).map((m) => [m.id, m]));
    const shown = groupExchanges(turns.filter((t) => isVisibleTurn(t) && (local.has(t.id) || !emptyCut(t))));
    this.messages = withUnstored(
      shown.map((t) => local.get(t.id) ?? fromTurn(t)),
      this.messages.filter(unstored),
    );
    this._shownWrites = Math.max(this._shownWrites, seen);
    this._host.requestUpdate();
  }

  /** Waits for the conversation's exchange lock (see exchange-lock.ts), held until the reply ends. */
  private async _enterExchange(sessionId: string, signal: AbortSignal, onQueued?: () => void): Promise<() => void> {
    const release = await enterExchange(sessionId, signal, onQueued);
    this._inExchange = true;
    return () => {
      this._inExchange = false;
      release();
    };
  }

  /**
   * Stores the message, then streams the reply. `accepted` runs once the message is stored, or shown as waiting
   * for another tab's exchange (the composer clears then); when storing fails the text stays where the user typed
   * it, or goes back there (`returned`) from a waiting message that was stopped.
   */
  async send(text: string, accepted?: () => void, returned?: (text: string) => void): Promise<void> {
    if (this.busy || text.trim() === '') return;
    const abort = new AbortController();
    this._abort = abort;
    let turn: TurnRecord;
    let sessionId: string;
    let leave: (() => void) | null = null;
    let queued: UiMessage | null = null;
    try {
      const store = await this._deps.store();
      sessionId = this.sessionId ?? (await this._deps.createSession(text));
      this.sessionId = sessionId;
      // The question is stored inside the lock, so exchanges never interleave in storage. While another tab's
      // exchange ends it shows as waiting (the composer is free again), and closing the tab asks first.
      leave = await this._enterExchange(sessionId, abort.signal, () => {
        queued = { id: queuedId(), role: 'user', content: text, status: 'queued', createdAt: Date.now(), chunks: 0 };
        this.messages = [...this.messages, queued];
        accepted?.();
        globalThis.addEventListener?.('beforeunload', warnBeforeUnload);
        this._host.requestUpdate();
      });
      turn = await storeQuestion(store, sessionId, text);
    } catch (error) {
      leave?.();
      this._abort = null;
      if (queued !== null) {
        this.messages = this.messages.filter((m) => m !== queued);
        returned?.(text); // stopped or failed while waiting: the text goes back where it was typed
      }
      if (!isAbortError(error)) this.error = toAssistantError(error);
      this._host.requestUpdate();
      return;
    } finally {
      globalThis.removeEventListener?.('beforeunload', warnBeforeUnload);
    }
    this.error = null;
    if (queued === null) accepted?.();
    this.messages = [...this.messages.filter((m) => m !== queued), fromTurn(turn)];
    if (this._shownWrites !== this._remoteWrites) await this._catchUp(sessionId, turn.id);
    this._deps.touched();
    // The message shows before its prompt is planned (each step its own task, so the page never stalls).
    await yieldToPage();
    await this._generate(abort, false, leave);
  }

  /** Inside the lock, before a reply: the list gets what other tabs wrote, with `last` (this question) at its end. */
  private async _catchUp(sessionId: string, last?: string): Promise<void> {
    // On failure the list is kept as it was: the next change or visit reads it again.
    await this._reread(sessionId, true).catch(() => undefined);
    const at = last === undefined ? -1 : this.messages.findIndex((m) => m.id === last);
    if (at >= 0 && at < this.messages.length - 1) this.messages = [...this.messages.filter((m) => m.id !== last), this.messages[at]!];
  }

  stop(): void {
    this._abort?.abort();
  }

  /** Asks again for the last user message: the last reply (complete, stopped or interrupted) is replaced. */
  async regenerate(): Promise<void> {
    if (this.busy || this.sessionId === null) return;
    const abort = new AbortController();
    this._abort = abort;
    const leave = await this._lockFor(this.sessionId, abort);
    if (leave === null) return;
    const last = this.messages.at(-1);
    if (last?.role === 'assistant') {
      this.messages = this.messages.slice(0, -1);
      this._host.requestUpdate();
      await this._hide([last]);
    }
    if (this.messages.at(-1)?.role !== 'user') {
      leave();
      this._abort = null;
      this._host.requestUpdate();
      return;
    }
    await this._generate(abort, true, leave, last?.role === 'assistant' ? [last.id] : []);
  }

  /** The exchange lock for a regenerate or an edit, with the list caught up; null when stopped while waiting. */
  private async _lockFor(sessionId: string, abort: AbortController): Promise<(() => void) | null> {
    this._host.requestUpdate();
    try {
      const leave = await this._enterExchange(sessionId, abort.signal);
      if (this._shownWrites !== this._remoteWrites) await this._catchUp(sessionId);
      return leave;
    } catch {
      // Only a stop ends the wait (holdLock rejects on abort alone).
      if (this._abort === abort) this._abort = null;
      this._host.requestUpdate();
      return null;
    }
  }

  /** Kept for callers of the first version: a retry is a regenerate. */
  retry(): Promise<void> {
    return this.regenerate();
  }

  /** Replaces the last user message with `text` and asks again; the replies after it are replaced. */
  async editLast(text: string): Promise<void> {
    if (this.busy || this.sessionId === null || text.trim() === '') return;
    if (this.messages.findLastIndex((m) => m.role === 'user') < 0) return;
    const abort = new AbortController();
    this._abort = abort;
    const leave = await this._lockFor(this.sessionId, abort);
    if (leave === null) return;
    // Read after the wait: another tab's exchange may have come first, and its question is now the last one.
    const index = this.messages.findLastIndex((m) => m.role === 'user');
    const user = this.messages[index]!;
    try {
      await (await this._deps.store()).updateTurn(user.id, { content: text });
    } catch (error) {
      leave();
      this._abort = null;
      this.error = toAssistantError(error);
      this._host.requestUpdate();
      return;
    }
    const replaced = this.messages.slice(index + 1);
    this.messages = [...this.messages.slice(0, index), { ...user, content: text, createdAt: Date.now() }];
    this._host.requestUpdate();
    await this._hide(replaced);
    await this._generate(abort, true, leave, replaced.map((m) => m.id));
  }

  /** Shows on the message how much of it the model got (the pipeline keeps it with the stored turn). */
  private _showSent(user: UiMessage, sent: SentPart | null): void {
    if (sent === null) delete user.sent;
    else user.sent = sent;
    this.messages = [...this.messages];
    this._host.requestUpdate();
  }

  private async _hide(messages: UiMessage[]): Promise<void> {
    const store = await this._deps.store();
    for (const m of messages) {
      if (!m.id.startsWith('pending:')) await store.updateTurn(m.id, { tags: [HIDDEN_TAG] }).catch(() => null);
    }
  }

  /**
   * Streams a reply to the last message (a user message) through the turn pipeline; `leave` ends the exchange (its
   * lock) once the reply did. `again`: the message was asked before (regenerate, edit), and `replaced` are the turns
   * that went with it.
   */
  private async _generate(abort: AbortController, again: boolean, leave: () => void, replaced: readonly string[] = []): Promise<void> {
    const sessionId = this.sessionId!;
    const user = this.messages.at(-1)!;
    const reply: UiMessage = { id: pending(), role: 'assistant', content: '', status: 'streaming', createdAt: Date.now(), chunks: 0, replyTo: user.id };
    this.messages = [...this.messages, reply];
    this._host.requestUpdate();
    const update = (patch: Partial<UiMessage>): void => {
      Object.assign(reply, patch);
      if (this.sessionId === sessionId) this.messages = [...this.messages];
      this._host.requestUpdate();
    };
    const settings = this._deps.settings();
    // Opened on use, so a store that fails to open fails the turn like any other step (the lock is let go).
    const store: TurnStore = {
      appendTurn: async (input) => (await this._deps.store()).appendTurn(input),
      startReply: async (id, options) => (await this._deps.store()).startReply(id, options),
      updateTurn: async (id, patch) => (await this._deps.store()).updateTurn(id, patch),
    };
    let snapshot: InspectorSnapshot | null = null;
    const ports: TurnPorts<PlannedPrompt> = {
      store,
      plan: (planAgain) => this._deps.planner.plan({ sessionId, turn: { id: user.id, text: user.content, time: user.createdAt }, again: planAgain, replaced }),
      chat: (messages, options) => this._deps.engine.client.chat(messages, options),
      record: (r) => this._deps.planner.recordReply(sessionId, r.id, r.text, r.time),
      ready: async () => void (await this._deps.engine.ensureReady()),
      recover: () => {
        // The CPU engine loads at the next try's ready().
        this._deps.engine.noteWebGpuLost();
        return Promise.resolve(true);
      },
      pause: yieldToPage,
    };
    const outcome = await streamReply(
      ports,
      { sessionId, question: { id: user.id, text: user.content, time: user.createdAt, sent: user.sent ?? null }, again, signal: abort.signal, sampling: { temperature: settings.temperature, topP: settings.topP } },
      {
        planned: (planned) => {
          const warmed = this._deps.warmed?.() ?? null;
          snapshot = { ...planned, sessionId, input: { id: user.id, role: 'user', text: user.content }, at: Date.now(), result: null, ...(warmed === null ? {} : { warmed }) };
          this.lastSnapshot = snapshot;
        },
        sent: (sent) => this._showSent(user, sent),
        replyStarted: (turnId) => update({ id: turnId }),
        delta: (text) => update({ content: reply.content + text, chunks: reply.chunks + 1 }),
        restart: () => update({ content: '', chunks: 0 }),
        complete: (text, result) => {
          if (snapshot !== null) this.lastSnapshot = { ...snapshot, result };
          update({ content: text, status: 'complete', stats: result });
        },
      },
    );
    if (outcome.status !== 'complete') {
      const unsaved = replySaveError(outcome.saveError ?? outcome.error);
      if (unsaved !== null) update({ status: 'failed', error: unsaved });
      else if (outcome.status === 'stopped') update({ status: 'stopped' });
      else update({ status: 'failed', error: toAssistantError(outcome.error) });
    }
    leave();
    // Other tabs' writes seen during the exchange (only where Web Locks are missing) show now.
    if (this.sessionId !== null && this._shownWrites !== this._remoteWrites) void this._reread(this.sessionId).catch(() => undefined);
    if (this._abort === abort) this._abort = null;
    this._deps.touched();
    this._host.requestUpdate();
  }
}

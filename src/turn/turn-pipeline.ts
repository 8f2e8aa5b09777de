/**
 * One turn, as the app and the widget both take it: store the question, plan its prompt, stream the reply while
 * storing it, and record the reply in the memory. Each caller keeps only its own view (the app's message list and
 * inspector, the widget's callbacks) and its own locking: the app holds a conversation's exchange lock around
 * `storeQuestion` and `streamReply`; the widget answers one question at a time.
 *
 * What every turn gets from here:
 * - the question is in the store before anything can fail;
 * - the reply is stored as it streams, completed with the engine's own final text where the engine gives one
 *   (web-llm's getMessage()), and marked interrupted when it is stopped or fails;
 * - the reply may use what the prompt left of the window (at least the reserve), never more;
 * - a long question keeps, with its stored turn, how much of it the model got;
 * - a GPU that loses its device mid-request gets one more try, after the caller moved to the CPU;
 * - whatever text arrived is recorded in the memory, even when the reply was cut.
 */
import type { ChatEvent } from '../engine/client.ts';
import { CHAT_DEFAULTS, type ChatOptions, type ChatResult } from '../engine/protocol.ts';
import { sameSentPart, sentPartOf, type LayeredReport } from '../memory/layered/index.ts';
import type { MemoryStore, ReplyWriter, SentPart, TurnRecord } from '../memory/store/index.ts';
import type { ChatMessage } from '../shared/chat.ts';
import { AssistantError, isAbortError, toAssistantError } from '../shared/errors.ts';

/** What a turn writes to the store. */
export type TurnStore = Pick<MemoryStore, 'appendTurn' | 'startReply' | 'updateTurn'>;

/** A prompt as the layered memory planned it. */
export interface TurnPlan {
  messages: ChatMessage[];
  report: LayeredReport;
}

/** The question as stored. */
export interface StoredQuestion {
  id: string;
  text: string;
  time: number;
  /** How much of it the model got, as its stored turn says now (null: all of it, or not known yet). */
  sent: SentPart | null;
}

export interface TurnPorts<P extends TurnPlan> {
  store: TurnStore;
  /** Plans the prompt. `again`: the question is in the memory already (a regenerate, an edit, a second try). */
  plan(again: boolean): Promise<P>;
  /** The engine's reply as a stream of deltas ending with its result. */
  chat(messages: ChatMessage[], options: ChatOptions & { signal?: AbortSignal }): AsyncIterable<ChatEvent>;
  /** Puts the reply into the memory (never called with an empty text). */
  record(reply: { id: string; text: string; time: number }): Promise<void>;
  /** Before each try: the engine is ready (the app waits for it here; the widget before the turn). */
  ready?(signal: AbortSignal): Promise<void>;
  /** The GPU lost its device: move to the CPU engine and return true, and the turn is tried once more. */
  recover?(signal: AbortSignal): Promise<boolean>;
  /** Between steps: lets the page paint. */
  pause?(): Promise<void>;
}

/** What the caller's view hears as the turn goes. */
export interface TurnView<P extends TurnPlan> {
  planned?(plan: P): void;
  /** How much of the question the model got changed (stored with the turn too). */
  sent?(sent: SentPart | null): void;
  /** The reply's turn exists in the store. */
  replyStarted?(turnId: string): void;
  delta?(text: string): void;
  /** A second try begins: the text shown so far is gone. */
  restart?(): void;
  /** The reply is stored complete (before it is recorded in the memory, which the outcome waits for). */
  complete?(text: string, result: ChatResult): void;
}

export interface ReplyRequest {
  sessionId: string;
  question: StoredQuestion;
  /** The question was asked before (regenerate, edit): the memory holds it already. */
  again: boolean;
  signal: AbortSignal;
  sampling: Pick<ChatOptions, 'temperature' | 'topP'>;
}

export type ReplyOutcome<P extends TurnPlan> =
  | { status: 'complete'; replyId: string; text: string; result: ChatResult; plan: P }
  | {
      status: 'stopped' | 'failed';
      /** Null when the reply was never stored (it failed before its first write). */
      replyId: string | null;
      text: string;
      error: unknown;
      /** Marking the stored reply interrupted failed too (a full disk): the reply's last write is what is kept. */
      saveError: unknown;
      plan: P | null;
    };

/** Step one: the question goes into the store before anything else can fail. */
export function storeQuestion(store: TurnStore, sessionId: string, text: string): Promise<TurnRecord> {
  return store.appendTurn({ sessionId, role: 'user', content: text });
}

/** Steps two to five: plan, stream and store the reply, record it. Never throws; the outcome says how it ended. */
export async function streamReply<P extends TurnPlan>(ports: TurnPorts<P>, request: ReplyRequest, view: TurnView<P> = {}): Promise<ReplyOutcome<P>> {
  const { sessionId, question, signal } = request;
  let writer: ReplyWriter | null = null;
  let plan: P | null = null;
  let text = '';
  let finished = false;
  let sentWrite: Promise<unknown> = Promise.resolve();
  let storedSent = question.sent;
  try {
    let again = request.again;
    for (let attempt = 0; ; attempt++) {
      try {
        // The prompt is planned while the engine gets ready (a first message of a visit waits for the slower of
        // the two, not both). A second try plans again (the question is in the memory by then). An engine that
        // fails to get ready is the error the user sees, whatever the plan did.
        const planning = ports.plan(again);
        planning.catch(() => undefined);
        again = true;
        await ports.ready?.(signal);
        signal.throwIfAborted();
        await ports.pause?.();
        plan = await planning;
        view.planned?.(plan);
        const sent = sentPartOf(plan.report, question.text);
        if (!sameSentPart(storedSent, sent)) {
          storedSent = sent;
          view.sent?.(sent);
          // Not waited for here (the reply starts at once); waited for before the turn ends.
          sentWrite = ports.store.updateTurn(question.id, { sent }).catch(() => null);
        }
        await ports.pause?.();
        signal.throwIfAborted();
        writer ??= await ports.store.startReply(sessionId, { replyTo: question.id });
        view.replyStarted?.(writer.turnId);
        const room = plan.report.budget.total - plan.report.promptTokens;
        const options = { signal, maxTokens: Math.max(1, Math.min(CHAT_DEFAULTS.maxTokens, room)), ...request.sampling };
        for await (const event of ports.chat(plan.messages, options)) {
          if (event.type === 'delta') {
            text += event.text;
            writer.append(event.text);
            view.delta?.(event.text);
          } else {
            finished = true;
            // The engine's own record of the reply (web-llm's getMessage()) is what the next prompt re-sends.
            text = event.result.text ?? text;
            await writer.complete({ content: text, tokenCount: event.result.completionTokens });
            view.complete?.(text, event.result);
            return { status: 'complete', replyId: writer.turnId, text, result: event.result, plan };
          }
        }
        throw new AssistantError('inference_failed', 'The engine ended the reply without its result.');
      } catch (error) {
        if (attempt > 0 || signal.aborted || finished || toAssistantError(error).code !== 'webgpu_unavailable') throw error;
        if (ports.recover === undefined || !(await ports.recover(signal))) throw error;
        text = '';
        writer?.set('');
        view.restart?.();
      }
    }
  } catch (error) {
    const saveError = writer !== null && !finished ? await writer.interrupt().then(() => null, (e: unknown) => e) : null;
    const stopped = signal.aborted || isAbortError(error);
    return { status: stopped ? 'stopped' : 'failed', replyId: writer?.turnId ?? null, text, error, saveError, plan };
  } finally {
    await sentWrite;
    if (writer !== null && text !== '') await ports.record({ id: writer.turnId, text, time: Date.now() }).catch(() => undefined);
  }
}


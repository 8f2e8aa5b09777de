/**
 * The turn pipeline the app and the widget share, over a real store in IndexedDB and a real layered memory, with a
 * scripted engine (the engine paths have their own tests with the generated model).
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../src/engine/client.ts';
import type { ChatOptions, ChatResult } from '../../../src/engine/protocol.ts';
import { LayeredMemory } from '../../../src/memory/layered/pipeline.ts';
import { InMemoryChunkStore } from '../../../src/memory/retrieval/records.ts';
import type { TurnRecord } from '../../../src/memory/store/records.ts';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import type { ChatMessage } from '../../../src/shared/chat.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import { storeQuestion, streamReply, type TurnPlan, type TurnPorts } from '../../../src/turn/turn-pipeline.ts';
import { qwenCounter } from '../../../src/ui/controllers/context-planner.ts';
import { scratch } from '../memory/scratch.ts';

const { fresh } = scratch();
const USER = 'u';

function result(text: string | undefined, completionTokens: number): ChatResult {
  return {
    finishReason: 'stop',
    promptTokens: 40,
    cachedTokens: 0,
    completionTokens,
    ...(text === undefined ? {} : { text }),
    timings: { ttftMs: 5, totalMs: 10 },
  } as ChatResult;
}

/** One scripted try: deltas, then a result, or an error thrown after the deltas. */
type Attempt = { deltas: string[]; final?: ChatResult; error?: unknown };

/** An engine that plays its attempts in order, stops when the request's signal aborts, and keeps what it was sent. */
function scriptedEngine(attempts: Attempt[], beforeDelta?: (index: number) => void) {
  const requests: { messages: ChatMessage[]; options: ChatOptions }[] = [];
  async function* chat(messages: ChatMessage[], options: ChatOptions & { signal?: AbortSignal }): AsyncGenerator<ChatEvent> {
    requests.push({ messages, options });
    const attempt = attempts[requests.length - 1]!;
    for (const [i, text] of attempt.deltas.entries()) {
      beforeDelta?.(i);
      options.signal?.throwIfAborted();
      await new Promise((r) => setTimeout(r, 1));
      yield { type: 'delta', text };
    }
    options.signal?.throwIfAborted();
    if (attempt.error !== undefined) throw attempt.error;
    yield { type: 'final', result: attempt.final! };
  }
  return { chat, requests };
}

async function setup(window = 1024) {
  const { store } = await fresh('turn');
  const memory = new LayeredMemory({ store: new InMemoryChunkStore(), counter: await qwenCounter(), window });
  const session = await store.createSession();
  return { store, memory, sessionId: session.id };
}

type Question = Pick<TurnRecord, 'id' | 'content' | 'createdAt'>;

function portsFor(store: MemoryStore, memory: LayeredMemory, sessionId: string, question: Question, chat: TurnPorts<TurnPlan>['chat']) {
  const plans: boolean[] = [];
  const recorded: string[] = [];
  const ports: TurnPorts<TurnPlan> = {
    store,
    plan: async (again) => {
      plans.push(again);
      if (again) memory.forgetTurns(USER, sessionId, [question.id]);
      return memory.handleUserMessage({ userId: USER, sessionId, text: question.content, time: question.createdAt, id: question.id });
    },
    chat,
    record: async (reply) => {
      recorded.push(reply.text);
      await memory.recordReply({ userId: USER, sessionId, ...reply });
    },
  };
  return { ports, plans, recorded };
}

const ask = (sessionId: string, q: Question, signal = new AbortController().signal) => ({
  sessionId,
  question: { id: q.id, text: q.content, time: q.createdAt, sent: null },
  again: false,
  signal,
  sampling: { temperature: 0.2 },
});

describe('the turn pipeline', () => {
  it('keeps the question when planning fails, and stores no reply', async () => {
    const { store, memory, sessionId } = await setup();
    const question = await storeQuestion(store, sessionId, 'Which port does the API listen on?');
    const { ports } = portsFor(store, memory, sessionId, question, scriptedEngine([]).chat);
    ports.plan = () => Promise.reject(new AssistantError('internal', 'planner broke'));

    const outcome = await streamReply(ports, ask(sessionId, question));

    expect(outcome).toMatchObject({ status: 'failed', replyId: null });
    const turns = await store.listTurns(sessionId);
    expect(turns.map((t) => [t.role, t.content])).toEqual([['user', 'Which port does the API listen on?']]);
  });

  it('plans the prompt while the engine is still getting ready, and replies once it is', async () => {
    const { store, memory, sessionId } = await setup();
    const question = await storeQuestion(store, sessionId, 'How do I rotate the signing key?');
    const engine = scriptedEngine([{ deltas: ['Use ', 'the CLI.'], final: result(undefined, 3) }]);
    const { ports, plans } = portsFor(store, memory, sessionId, question, engine.chat);
    let engineReady!: () => void;
    let plannedBeforeReady = false;
    ports.ready = () =>
      new Promise<void>((resolve) => {
        engineReady = () => {
          plannedBeforeReady = plans.length === 1;
          resolve();
        };
      });

    const outcome = streamReply(ports, ask(sessionId, question));
    // The engine finishes loading only after the planner had its turn.
    await new Promise((r) => setTimeout(r, 50));
    engineReady();

    expect(await outcome).toMatchObject({ status: 'complete', text: 'Use the CLI.' });
    expect(plannedBeforeReady).toBe(true);
    expect(engine.requests).toHaveLength(1);
  });

  it('an engine that fails to get ready is the error the turn ends with, even when the plan failed too', async () => {
    const { store, memory, sessionId } = await setup();
    const question = await storeQuestion(store, sessionId, 'Is the cache shared between tabs?');
    const { ports } = portsFor(store, memory, sessionId, question, scriptedEngine([]).chat);
    ports.plan = () => Promise.reject(new AssistantError('internal', 'planner broke'));
    ports.ready = () => new Promise((_, reject) => setTimeout(() => reject(new AssistantError('model_not_downloaded', 'not on this device')), 20));

    const outcome = await streamReply(ports, ask(sessionId, question));

    expect(outcome).toMatchObject({ status: 'failed', replyId: null, error: { code: 'model_not_downloaded' } });
    expect((await store.listTurns(sessionId)).map((t) => t.role)).toEqual(['user']);
  });

  it("stores the reply with the engine's own final text, and the next prompt re-sends that text", async () => {
    const { store, memory, sessionId } = await setup();
    const question = await storeQuestion(store, sessionId, 'Which port does the API listen on?');
    // The deltas as streamed, and the engine's own record of the reply, which differs (as web-llm's may).
    const engine = scriptedEngine([{ deltas: ['It listens ', 'on 8443'], final: result('It listens on port 8443.', 7) }]);
    const { ports, recorded } = portsFor(store, memory, sessionId, question, engine.chat);
    const seen: string[] = [];

    const outcome = await streamReply(ports, ask(sessionId, question), { delta: (t) => seen.push(t) });

    expect(outcome.status).toBe('complete');
    expect(seen).toEqual(['It listens ', 'on 8443']);
    const reply = await store.getTurn(outcome.replyId!);
    expect(reply).toMatchObject({ role: 'assistant', status: 'complete', content: 'It listens on port 8443.', replyTo: question.id, tokenCount: 7 });
    expect(recorded).toEqual(['It listens on port 8443.']);
    // The answer may use what the prompt left of the window, never more.
    const planned = outcome.status === 'complete' ? outcome.plan : null;
    expect(engine.requests[0]!.options.maxTokens).toBeLessThanOrEqual(planned!.report.budget.total - planned!.report.promptTokens);

    const next = await memory.handleUserMessage({ userId: USER, sessionId, text: 'And over plain HTTP?', time: Date.now() });
    expect(next.messages.map((m) => m.content)).toContain('It listens on port 8443.');
  });

  it('stopped mid-reply: the text so far is stored, marked interrupted, and recorded', async () => {
    const { store, memory, sessionId } = await setup();
    const question = await storeQuestion(store, sessionId, 'Explain the release steps.');
    const abort = new AbortController();
    const engine = scriptedEngine([{ deltas: ['First, tag ', 'the commit; ', 'then build.'], final: result(undefined, 9) }], (i) => {
      if (i === 2) abort.abort();
    });
    const { ports, recorded } = portsFor(store, memory, sessionId, question, engine.chat);

    const outcome = await streamReply(ports, ask(sessionId, question, abort.signal));

    expect(outcome).toMatchObject({ status: 'stopped', text: 'First, tag the commit; ' });
    expect(await store.getTurn(outcome.replyId!)).toMatchObject({ status: 'interrupted', content: 'First, tag the commit; ' });
    expect(recorded).toEqual(['First, tag the commit; ']);
  });

  it('a GPU lost mid-reply gets one more try after the caller recovers; the stored reply is the second try alone', async () => {
    const { store, memory, sessionId } = await setup();
    const question = await storeQuestion(store, sessionId, 'What is a KV cache?');
    const lost = new AssistantError('webgpu_unavailable', 'Device lost');
    const engine = scriptedEngine([
      { deltas: ['Garbl'], error: lost },
      { deltas: ['Keys and values ', 'kept between steps.'], final: result(undefined, 6) },
    ]);
    const { ports, plans } = portsFor(store, memory, sessionId, question, engine.chat);
    let recovered = 0;
    ports.recover = () => Promise.resolve(++recovered > 0);
    const restarts: number[] = [];

    const outcome = await streamReply(ports, ask(sessionId, question), { restart: () => restarts.push(1) });

    expect(outcome.status).toBe('complete');
    expect([recovered, restarts.length]).toEqual([1, 1]);
    // Planned again for the new engine, with the question already in the memory.
    expect(plans).toEqual([false, true]);
    const turns = await store.listTurns(sessionId);
    expect(turns.filter((t) => t.role === 'assistant').map((t) => [t.status, t.content])).toEqual([['complete', 'Keys and values kept between steps.']]);
  });

  it('a second lost device fails the turn, with the reply marked interrupted', async () => {
    const { store, memory, sessionId } = await setup();
    const question = await storeQuestion(store, sessionId, 'What is a KV cache?');
    const lost = () => new AssistantError('webgpu_unavailable', 'Device lost');
    const engine = scriptedEngine([
      { deltas: ['A'], error: lost() },
      { deltas: ['B'], error: lost() },
    ]);
    const { ports } = portsFor(store, memory, sessionId, question, engine.chat);
    let recovered = 0;
    ports.recover = () => Promise.resolve(++recovered > 0);

    const outcome = await streamReply(ports, ask(sessionId, question));

    expect(outcome).toMatchObject({ status: 'failed', text: 'B' });
    expect(recovered).toBe(1);
    expect(await store.getTurn(outcome.replyId!)).toMatchObject({ status: 'interrupted', content: 'B' });
  });

  it('a question too long for the window keeps, with its stored turn, how much of it the model got', async () => {
    const { store, memory, sessionId } = await setup(512);
    const long = Array.from({ length: 120 }, (_, i) => `Line ${i + 1} of the pasted build log: step finished without warnings.`).join('\n');
    const question = await storeQuestion(store, sessionId, long);
    const engine = scriptedEngine([{ deltas: ['The build passed.'], final: result(undefined, 4) }]);
    const { ports } = portsFor(store, memory, sessionId, question, engine.chat);
    const told: unknown[] = [];

    const outcome = await streamReply(ports, ask(sessionId, question), { sent: (s) => told.push(s) });

    expect(outcome.status).toBe('complete');
    const stored = await store.getTurn(question.id);
    expect(stored?.content).toBe(long);
    expect(stored?.sent).toEqual(told[0]);
    expect(stored?.sent?.chars).toBeGreaterThan(0);
    expect(stored?.sent?.chars).toBeLessThan(long.length);
  });
});

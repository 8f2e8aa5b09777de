/**
 * Turns leave the layered memory in place (issue 17: regenerate, edit and delete without a rebuild), and a session
 * another tab wrote to is replaced in place; the next prompt is the one a rebuild from the remaining records gives:
 * same messages, same records injected.
 */
import { describe, expect, it } from 'vitest';
import { LayeredMemory, type MessageInput } from '../../../src/memory/layered/pipeline.ts';
import { SessionWorkingMemory } from '../../../src/memory/layered/working-memory.ts';
import { InMemoryChunkStore, type TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { HOUR, T0, pipeline, speaker } from './helpers.ts';

const U = 'u';

/** A store holding what `from` holds, less some turns (what a rebuild reads after they were hidden or deleted). */
async function without(from: InMemoryChunkStore, gone: ReadonlySet<string>): Promise<InMemoryChunkStore> {
  const copy = new InMemoryChunkStore();
  const turns = (await from.listTurns(U)).filter((t) => !gone.has(t.id));
  for (const t of turns) await copy.putTurn(t);
  const live = new Set(turns.map((t) => t.sessionId));
  for (const s of await from.listSessions(U)) if (live.has(s.sessionId)) await copy.putSession(s);
  await copy.putHeat(await from.listHeat(turns.map((t) => t.id)));
  return copy;
}

/** Two conversations with facts, a void topic and enough turns that retrieval has something to choose from. */
async function seeded(wm: SessionWorkingMemory) {
  const { memory, store, counter } = await pipeline(1024, { workingMemory: wm });
  const { say, clock } = speaker(memory, U, T0);
  await say('ops', 'user', 'Our staging server is 10.0.0.7 and it runs PostgreSQL 15 behind Nginx.');
  await say('ops', 'assistant', 'Noted: staging at 10.0.0.7, PostgreSQL 15, Nginx in front.');
  await say('ops', 'user', 'The backup job runs at 02:00 and writes to the bucket nightly-dumps.');
  await say('ops', 'assistant', 'The backups go to nightly-dumps at two in the morning.');
  await say('ops', 'user', 'Forget the Redis cache plan, we will not use it.');
  await say('ops', 'assistant', 'Understood, no Redis cache.');
  for (let i = 0; i < 4; i++) {
    await say('trip', 'user', `Day ${i + 1} of the trip: we visit the harbour museum and eat grilled fish near pier ${i + 3}.`);
    await say('trip', 'assistant', `Day ${i + 1}: the harbour museum opens at nine; pier ${i + 3} has the best grilled fish.`);
  }
  return { memory, store, counter, say, clock };
}

async function rebuilt(store: InMemoryChunkStore, counter: Awaited<ReturnType<typeof pipeline>>['counter'], wm: SessionWorkingMemory, gone: ReadonlySet<string>) {
  const memory = new LayeredMemory({ store: await without(store, gone), counter, window: 1024, workingMemory: wm });
  await memory.loadUser(U);
  return memory;
}

describe('forgetting turns without a rebuild', () => {
  it('regenerate: the replaced reply and the question leave, the question is asked again; the prompt equals a rebuild\'s', async () => {
    const wm = new SessionWorkingMemory();
    const { memory, store, counter, say, clock } = await seeded(wm);
    const time = clock();
    const question: MessageInput = { userId: U, sessionId: 'ops', text: 'Which server runs the database, and where do the backups go?', time, id: 'q-last' };
    await memory.handleUserMessage(question);
    const reply = await say('ops', 'assistant', 'It is on 10.0.0.7.');

    memory.forgetTurns(U, 'ops', [question.id!, reply]);
    const again = await memory.handleUserMessage(question);
    const fresh = await rebuilt(store, counter, wm, new Set([question.id!, reply]));
    const expected = await fresh.handleUserMessage(question);
    expect(again.messages).toEqual(expected.messages);
    expect(again.report.memory.retrieval.injected).toEqual(expected.report.memory.retrieval.injected);
    expect(again.messages.map((m) => m.content).join('\n')).not.toContain('It is on 10.0.0.7.');
  });

  it('edit: the message is rewritten and the turns after it leave; the prompt equals a rebuild\'s', async () => {
    const wm = new SessionWorkingMemory();
    const { memory, store, counter, say, clock } = await seeded(wm);
    const asked: MessageInput = { userId: U, sessionId: 'trip', text: 'Where do we eat on day two?', time: clock(), id: 'q-edit' };
    await memory.handleUserMessage(asked);
    const reply = await say('trip', 'assistant', 'At pier 4.');
    const edited: MessageInput = { ...asked, text: 'Which museum do we visit, and when does it open?' };

    memory.forgetTurns(U, 'trip', [asked.id!, reply]);
    const again = await memory.handleUserMessage(edited);
    const fresh = await rebuilt(store, counter, wm, new Set([asked.id!, reply]));
    const expected = await fresh.handleUserMessage(edited);
    expect(again.messages).toEqual(expected.messages);
    expect(again.report.memory.retrieval.injected).toEqual(expected.report.memory.retrieval.injected);
  });

  it('delete: a whole conversation leaves; a message in a new one gets the prompt a rebuild gives, with nothing of it', async () => {
    const wm = new SessionWorkingMemory();
    const { memory, store, counter, clock } = await seeded(wm);
    const ops = (await store.listTurns(U)).filter((t: TurnEntry) => t.sessionId === 'ops').map((t) => t.id);
    memory.forgetSession(U, 'ops');
    // A new conversation: neither memory has a prompt assembly for it (a rebuild starts every session afresh, while
    // forgetting keeps the other sessions' own, so their next prompts still extend the engine's cache).
    const next: MessageInput = { userId: U, sessionId: 'new', text: 'Remind me of the staging server address and the harbour museum hours.', time: clock() + HOUR, id: 'q-next' };
    const after = await memory.handleUserMessage(next);
    const fresh = await rebuilt(store, counter, wm, new Set(ops));
    const expected = await fresh.handleUserMessage(next);
    expect(after.messages).toEqual(expected.messages);
    expect(after.report.memory.retrieval.injected).toEqual(expected.report.memory.retrieval.injected);
    expect(after.report.memory.retrieval.injected.some((id) => ops.includes(id))).toBe(false);
    expect(memory.index.user(U).sessions.has('ops')).toBe(false);
  });

  it("another tab's turns: the session is replaced by its stored records, and the next prompt equals a rebuild's", async () => {
    const wm = new SessionWorkingMemory();
    const { memory, store, counter, clock } = await seeded(wm);
    // Another tab wrote an exchange to 'trip': it is in the store, not in this memory.
    const trip = (await store.listTurns(U)).filter((t) => t.sessionId === 'trip');
    const written = (seq: number, role: 'user' | 'assistant', text: string): TurnEntry => ({
      id: `other-tab-${seq}`, userId: U, sessionId: 'trip', seq, role, time: clock(), text, entities: [], dates: [], tags: [],
    });
    const added = [written(trip.length + 1, 'user', 'We changed plans: the ferry to the lighthouse island leaves at 07:45.'), written(trip.length + 2, 'assistant', 'Noted: the lighthouse ferry leaves at 07:45.')];
    for (const t of added) await store.putTurn(t);
    const stored = [...trip, ...added];
    const [gate] = (await store.listSessions(U)).filter((x) => x.sessionId === 'trip');
    memory.replaceSession(U, 'trip', stored, await store.listHeat(stored.map((t) => t.id)), gate);

    const next: MessageInput = { userId: U, sessionId: 'trip', text: 'When does the ferry to the lighthouse leave?', time: clock(), id: 'q-ferry' };
    const after = await memory.handleUserMessage(next);
    const fresh = await rebuilt(store, counter, wm, new Set());
    const expected = await fresh.handleUserMessage(next);
    expect(after.messages).toEqual(expected.messages);
    expect(after.report.memory.retrieval.injected).toEqual(expected.report.memory.retrieval.injected);
    expect(after.messages.map((m) => m.content).join('\n')).toContain('07:45');
    expect(memory.index.user(U).sessions.get('trip')).toEqual([...stored.map((t) => t.id), 'q-ferry']);
  });
});

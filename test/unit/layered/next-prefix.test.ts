import { describe, expect, it } from 'vitest';
import { LayeredMemory } from '../../../src/memory/layered/pipeline.ts';
import { systemPrompt, BASE_SYSTEM_PROMPT } from '../../../src/memory/layered/labels.ts';
import { SessionWorkingMemory } from '../../../src/memory/layered/working-memory.ts';
import { isKeptState, keptState, restoredState } from '../../../src/context/kept-state.ts';
import { T0, chat, pipeline } from './helpers.ts';

describe('the start of the next prompt, known before the message (prefilled while the user types)', () => {
  it('a new conversation starts with the system message, in the language the page suggests', async () => {
    const { memory } = await pipeline(1024);
    expect(await memory.nextPrefix('u', null, 'zh')).toEqual([{ role: 'system', content: systemPrompt('zh', BASE_SYSTEM_PROMPT.zh) }]);
    expect(await memory.nextPrefix('u', null, 'en')).toEqual([{ role: 'system', content: systemPrompt('en', BASE_SYSTEM_PROMPT.en) }]);
  });

  it('after a reply, it is the previous prompt and the reply: exactly how the next prompt starts when it appends', async () => {
    const { memory } = await pipeline(2048);
    const c = chat(memory, 'u', 'S1', T0);
    const first = await c.user('Our staging box runs Caddy on port 8443, and the deploy user is called shipit.');
    await c.bot('Noted: Caddy on 8443, deploy user shipit.');
    const prefix = await memory.nextPrefix('u', 'S1', 'en');
    expect(prefix).toEqual([...first.messages, { role: 'assistant', content: 'Noted: Caddy on 8443, deploy user shipit.' }]);

    const second = await c.user('Which port was it again?');
    expect(second.report.mode).toBe('append');
    expect(second.messages.slice(0, prefix.length)).toEqual(prefix);
    expect(second.messages).toHaveLength(prefix.length + 1);
  });

  it("keeps a conversation's language after a reload: a short English message in a Chinese conversation that starts afresh keeps the Chinese system prompt", async () => {
    const { memory, store, counter } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('帮我记一下：测试环境的数据库是 PostgreSQL 15，端口 5433。');
    await c.bot('好的，已记下：PostgreSQL 15，端口 5433。');

    // A page load after a change of window: the kept prompt cannot be continued, and the next one starts afresh.
    const reloaded = new LayeredMemory({ store, counter, window: 2048 });
    await reloaded.loadUser('u');
    const zhSystem = { role: 'system', content: systemPrompt('zh', BASE_SYSTEM_PROMPT.zh) };
    expect(await reloaded.nextPrefix('u', 'S1', 'en')).toEqual([zhSystem]);
    const after = await chat(reloaded, 'u', 'S1', T0 + 600_000).user('OK, thanks!');
    expect(after.messages[0]).toEqual(zhSystem);
  });

  it('after a page load, the next prompt continues the one before it, as if the page had not been closed', async () => {
    const workingMemory = new SessionWorkingMemory();
    const { memory, store, counter } = await pipeline(1024, { workingMemory });
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('The backup job runs at 02:30 and writes to the bucket nightly-dumps.');
    await c.bot('Noted: 02:30, bucket nightly-dumps.');
    await c.user('Retention is 14 days; older dumps are deleted by a lifecycle rule.');
    await c.bot('Got it: 14 days of retention.');
    const prefix = await memory.nextPrefix('u', 'S1', 'en');
    expect(prefix).toHaveLength(5);
    const asked = { userId: 'u', sessionId: 'S1', text: 'Which bucket do the dumps go to?', time: T0 + 3_600_000 };
    const unclosed = await memory.handleUserMessage(asked, { commit: false });

    // A page load: a new memory over the same store (working memory is durable in the app, so it is shared here).
    const reloaded = new LayeredMemory({ store, counter, window: 1024, workingMemory });
    await reloaded.loadUser('u');
    expect(await reloaded.nextPrefix('u', 'S1', 'en')).toEqual(prefix);
    const after = await reloaded.handleUserMessage(asked);
    expect(after.report.mode).toBe('append');
    expect(after.messages).toEqual(unclosed.messages);
    // The report lists every earlier turn, as in the prompt or not.
    expect(after.report.turns.map((t) => t.index)).toEqual([0, 1, 2, 3, 4]);
    expect(after.report.turns.filter((t) => t.included)).toHaveLength(5);
  });

  it('a message sent while the warm-up is still reading the kept prompt continues it too', async () => {
    const { memory, store, counter } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('The bike lock code is the year we moved here.');
    await c.bot('Noted.');
    // IndexedDB answers later than the message's own first steps.
    const slow = new Proxy(store, {
      get(target, name) {
        if (name === 'getContext') return (u: string, s: string) => new Promise((resolve) => setTimeout(() => resolve(target.getContext(u, s)), 30));
        const value: unknown = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const reloaded = new LayeredMemory({ store: slow, counter, window: 1024 });
    await reloaded.loadUser('u');
    const warming = reloaded.nextPrefix('u', 'S1', 'en');
    const sent = await reloaded.handleUserMessage({ userId: 'u', sessionId: 'S1', text: 'Which lock was that about?', time: T0 + 3_600_000 });
    expect(sent.report.mode).toBe('append');
    expect(sent.messages.slice(0, 3)).toEqual(await warming);
  });

  it('a conversation whose turns were taken out (a regenerate) is not continued after a page load', async () => {
    const { memory, store, counter } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('Name three rivers in Portugal.');
    await c.bot('Douro, Tejo, Mondego.');
    memory.forgetTurns('u', 'S1', ['S1/2']);
    const reloaded = new LayeredMemory({ store, counter, window: 1024 });
    await reloaded.loadUser('u');
    expect(await reloaded.nextPrefix('u', 'S1', 'en')).toEqual([{ role: 'system', content: systemPrompt('en', BASE_SYSTEM_PROMPT.en) }]);
  });

  it("a conversation another tab wrote to starts its next prompt afresh here, and leaves that tab's kept state", async () => {
    const { memory, store, counter } = await pipeline(1024);
    const other = new LayeredMemory({ store, counter, window: 1024 });
    const mine = chat(memory, 'u', 'S1', T0);
    await mine.user('The tent goes in the blue duffel bag.');
    await mine.bot('Noted: the tent is in the blue duffel.');
    // The other tab loads the conversation and adds an exchange; its prompt is kept in the store.
    await other.loadUser('u');
    const theirs = chat(other, 'u', 'S1', T0 + 600_000);
    await theirs.user('And the stove is in the red crate.');
    await theirs.bot('Noted: the stove is in the red crate.');
    const kept = await store.getContext('u', 'S1');
    // This tab takes in the turns the other wrote.
    const turns = (await store.listTurns('u')).filter((t) => t.sessionId === 'S1').sort((a, b) => a.seq - b.seq);
    memory.replaceSession('u', 'S1', turns, new Map(), undefined);
    expect(await memory.nextPrefix('u', 'S1', 'en')).toEqual([{ role: 'system', content: systemPrompt('en', BASE_SYSTEM_PROMPT.en) }]);
    expect(await store.getContext('u', 'S1')).toEqual(kept);
  });

  it('a kept state is checked when read back: a damaged or older record is ignored', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    const first = await c.user('Remember that the shed key is under the blue pot.');
    const state = memory.contextState('u', 'S1')!;
    const kept = keptState(state);
    expect(isKeptState(kept)).toBe(true);
    expect(isKeptState(JSON.parse(JSON.stringify(kept)))).toBe(true);
    expect(isKeptState({ ...kept, version: 2 })).toBe(false);
    expect(isKeptState({ ...kept, sentTokens: kept.sentTokens.slice(1) })).toBe(false);
    expect(isKeptState({ ...kept, sent: [{ role: 'robot', content: 'x' }, ...kept.sent.slice(1)] })).toBe(false);
    expect(isKeptState(null)).toBe(false);
    // Restored, it is the state the engine left, its report rebuilt in short.
    const restored = restoredState(kept, [{ role: 'user', content: 'Remember that the shed key is under the blue pot.' }]);
    expect({ ...restored, turns: [] }).toEqual({ ...state, turns: [] });
    expect(restored.turns).toEqual([expect.objectContaining({ index: 0, role: 'user', included: true, reason: 'current-input', tokens: first.report.turns.at(-1)!.tokens })]);
  });
});

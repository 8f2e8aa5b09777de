import { describe, expect, it } from 'vitest';
import { DAY, T0, chat, injected, pipeline } from './helpers.ts';

describe('session isolation and warm start', () => {
  it('finds an order number from another session three days later, once the warm start opens', async () => {
    const { memory } = await pipeline();
    const old = chat(memory, 'u', 'S1', T0);
    await old.user('我在你们店买了一台 ThinkPad X1，订单号是 #A123456，寄到上海浦东。');
    await old.bot('好的，订单 #A123456 已记录，预计三天内送达上海浦东。');
    await old.user('谢谢，另外帮我推荐一本 Python 入门书。');
    await old.bot('推荐《Python编程：从入门到实践》。');

    const now = chat(memory, 'u', 'S2', T0 + 3 * DAY);
    const t1 = await now.user('你好');
    expect(t1.report.memory.gate.otherSessions).toBe(false);
    expect(t1.report.memory.gate.reason).toContain('warm start');
    await now.bot('你好！有什么可以帮你？');
    // Even naming the order, the second message of a new session still reads docs only.
    const t2 = await now.user('订单 #A123456 的 ThinkPad 到上海了吗？');
    expect(t2.report.memory.gate.otherSessions).toBe(false);
    expect(t2.extras).not.toContain('寄到上海浦东');
    await now.bot('我帮你看看。');
    const t3 = await now.user('就是那个订单 #A123456，ThinkPad X1，寄到上海浦东的。');
    expect(t3.report.memory.gate.otherSessions).toBe(true);
    expect(t3.report.memory.gate.reason).toContain('S1');
    expect(injected(t3)).toContain('S1/1');
    expect(t3.extras).toContain('[相关历史（对话记录）]\n2024年3月1日\n');
    expect(t3.extras).toContain('订单号是 #A123456');
    // The book recommendation shares nothing with the question: no evidence, not injected.
    expect(t3.extras).not.toContain('推荐《Python');
    expect(t3.report.memory.retrieval.candidates[0]!.id).toBe('S1/1');
  });

  it('opens the older sessions at once for a message that asks about them, warm start or not', async () => {
    const { memory } = await pipeline();
    const old = chat(memory, 'u', 'S1', T0);
    await old.user('周末我去了栖霞山，枫叶全红了，还在山脚吃了一碗鸭血粉丝汤。');
    await old.bot('听起来很惬意！栖霞山的红枫确实有名。');
    await old.user('另外我最近在读《百年孤独》，读得很慢。');
    await old.bot('这本书人物多，可以画个家谱图帮助阅读。');

    // Three days later, a new session's first message asks what was said: the user asked for the old session.
    const later = chat(memory, 'u', 'S2', T0 + 3 * DAY);
    const asked = await later.user('你还记得我周末去哪座山看枫叶了吗？');
    expect(asked.report.memory.gate.otherSessions).toBe(true);
    expect(asked.report.memory.gate.reason).toContain('asks about an earlier conversation ("还记得")');
    expect(asked.extras).toContain('栖霞山');
    await later.bot('你去了栖霞山。');
    // It stays open for the session, and says why.
    const next = await later.user('那本很慢的书叫什么？');
    expect(next.report.memory.gate.otherSessions).toBe(true);
    expect(next.report.memory.gate.reason).toContain('asked about an earlier conversation');

    // A question about what the user likes or did, or a day before the session, is such a request too.
    const about = chat(memory, 'u', 'S3', T0 + 5 * DAY);
    expect((await about.user('我最近在读哪本书？')).report.memory.gate.otherSessions).toBe(true);
    const dated = chat(memory, 'u', 'S4', T0 + 6 * DAY);
    expect((await dated.user('3月1日那碗汤是什么？')).report.memory.gate.reason).toContain('("2024-03-01")');
    // An ordinary first message still reads docs only.
    const fresh = chat(memory, 'u', 'S5', T0 + 7 * DAY);
    const plain = await fresh.user('帮我写一个快速排序的 Python 函数。');
    expect(plain.report.memory.gate.otherSessions).toBe(false);
    expect(plain.report.memory.gate.reason).toContain('warm start');
  });

  it('reads a recall request in English the same way', async () => {
    const { memory } = await pipeline();
    const old = chat(memory, 'u', 'S1', T0);
    await old.user('I need a gift for my sister, she collects vintage fountain pens.');
    await old.bot('A Pilot Custom 74 or a restored Parker 51 would suit a collector.');
    const later = chat(memory, 'u', 'S2', T0 + 2 * DAY);
    const asked = await later.user('Which pens did you suggest for my sister?');
    expect(asked.report.memory.gate.otherSessions).toBe(true);
    expect(asked.extras).toContain('Parker 51');
    // Something the user did or likes, asked back: "I …, what was it?", "I don't like …, right?".
    const did = chat(memory, 'u', 'S4', T0 + 4 * DAY);
    expect((await did.user('I told you what my sister collects, what was it?')).report.memory.gate.otherSessions).toBe(true);
    expect((await chat(memory, 'u', 'S6', T0 + 6 * DAY).user("I don't like fountain pens, right?")).report.memory.gate.otherSessions).toBe(true);
    // Advice for now keeps the warm start.
    const fresh = chat(memory, 'u', 'S3', T0 + 3 * DAY);
    expect((await fresh.user('How do I clean a fountain pen?')).report.memory.gate.otherSessions).toBe(false);
    expect((await chat(memory, 'u', 'S7', T0 + 7 * DAY).user('I tried warm water, what next?')).report.memory.gate.otherSessions).toBe(false);
  });

  it('keeps a session closed while it shares fewer than three entities with older ones', async () => {
    const { memory } = await pipeline();
    const old = chat(memory, 'u', 'S1', T0);
    await old.user('Our CI runs on Jenkins at 10.1.2.3 and deploys to Kubernetes.');
    await old.bot('Jenkins pipelines can deploy with kubectl.');
    const now = chat(memory, 'u', 'S2', T0 + DAY);
    for (const text of ['Hi there', 'What is a good pasta recipe?', 'And a dessert?', 'Something with chocolate and Jenkins?']) {
      const r = await now.user(text);
      expect(r.report.memory.gate.otherSessions).toBe(false);
      expect(r.report.memory.retrieval.candidates.every((c) => c.scope === 'S2')).toBe(true);
      await now.bot('Sure.');
    }
  });

  it('never lets two users see each other’s memory', async () => {
    const { memory } = await pipeline();
    for (const user of ['alice', 'bob']) {
      const c = chat(memory, user, `${user}-1`, T0);
      await c.user(`My order #B777 for the Kindle Paperwhite goes to ${user === 'alice' ? 'Berlin Mitte' : 'Paris Louvre'}.`);
      await c.bot('Order #B777 noted for the Kindle Paperwhite.');
    }
    const later = chat(memory, 'bob', 'bob-2', T0 + 2 * DAY);
    let last;
    for (const text of ['hello', 'about my order', 'Where is order #B777, the Kindle Paperwhite to Paris Louvre?', 'and the Berlin one?']) {
      last = await later.user(text);
      for (const c of last.report.memory.retrieval.candidates) expect(c.id.startsWith('bob-')).toBe(true);
      expect(last.extras).not.toContain('Berlin Mitte');
      await later.bot('Let me check.');
    }
    expect(injected(last!)).toContain('bob-1/1');
    // A probe as alice sees only alice.
    const probe = await memory.handleUserMessage({ userId: 'alice', sessionId: 'alice-1', text: 'Paris Louvre Kindle?', time: T0 + 3 * DAY }, { commit: false });
    expect(probe.extras).not.toContain('Paris Louvre goes');
    for (const c of probe.report.memory.retrieval.candidates) expect(c.id.startsWith('alice-')).toBe(true);
  });
});

describe('input checks', () => {
  it('rejects an empty message before writing anything', async () => {
    const { memory, store } = await pipeline();
    await expect(memory.handleUserMessage({ userId: 'u', sessionId: 's', text: '  ', time: T0 })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(memory.handleUserMessage({ userId: 'u', sessionId: '', text: 'hi', time: T0 })).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await store.listTurns('u')).toEqual([]);
    // An aborted reply may be empty; it is still stored so the history stays whole.
    await memory.recordReply({ userId: 'u', sessionId: 's', text: '', time: T0 });
    expect(await store.listTurns('u')).toHaveLength(1);
  });
});

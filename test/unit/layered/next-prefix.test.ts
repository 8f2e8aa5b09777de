import { describe, expect, it } from 'vitest';
import { LayeredMemory } from '../../../src/memory/layered/pipeline.ts';
import { systemPrompt, BASE_SYSTEM_PROMPT } from '../../../src/memory/layered/labels.ts';
import { T0, chat, pipeline } from './helpers.ts';

describe('the start of the next prompt, known before the message (prefilled while the user types)', () => {
  it('a new conversation starts with the system message, in the language the page suggests', async () => {
    const { memory } = await pipeline(1024);
    expect(memory.nextPrefix('u', null, 'zh')).toEqual([{ role: 'system', content: systemPrompt('zh', BASE_SYSTEM_PROMPT.zh) }]);
    expect(memory.nextPrefix('u', null, 'en')).toEqual([{ role: 'system', content: systemPrompt('en', BASE_SYSTEM_PROMPT.en) }]);
  });

  it('after a reply, it is the previous prompt and the reply: exactly how the next prompt starts when it appends', async () => {
    const { memory } = await pipeline(2048);
    const c = chat(memory, 'u', 'S1', T0);
    const first = await c.user('Our staging box runs Caddy on port 8443, and the deploy user is called shipit.');
    await c.bot('Noted: Caddy on 8443, deploy user shipit.');
    const prefix = memory.nextPrefix('u', 'S1', 'en');
    expect(prefix).toEqual([...first.messages, { role: 'assistant', content: 'Noted: Caddy on 8443, deploy user shipit.' }]);

    const second = await c.user('Which port was it again?');
    expect(second.report.mode).toBe('append');
    expect(second.messages.slice(0, prefix.length)).toEqual(prefix);
    expect(second.messages).toHaveLength(prefix.length + 1);
  });

  it("keeps a conversation's language after a reload: a short English message in a Chinese conversation keeps the Chinese system prompt", async () => {
    const { memory, store, counter } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('帮我记一下：测试环境的数据库是 PostgreSQL 15，端口 5433。');
    await c.bot('好的，已记下：PostgreSQL 15，端口 5433。');

    // A page load: a new memory over the same store; the context state starts afresh.
    const reloaded = new LayeredMemory({ store, counter, window: 1024 });
    await reloaded.loadUser('u');
    const zhSystem = { role: 'system', content: systemPrompt('zh', BASE_SYSTEM_PROMPT.zh) };
    expect(reloaded.nextPrefix('u', 'S1', 'en')).toEqual([zhSystem]);
    const after = await chat(reloaded, 'u', 'S1', T0 + 600_000).user('OK, thanks!');
    expect(after.messages[0]).toEqual(zhSystem);
  });
});

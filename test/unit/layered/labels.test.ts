import { describe, expect, it } from 'vitest';
import { renderChatML } from '../../../src/context/chatml.ts';
import { detectLang } from '../../../src/memory/layered/labels.ts';
import { DAY, T0, chat, pipeline, smallTalk } from './helpers.ts';

const DOC_ZH = {
  id: 'nginx-1', docId: 'nginx-guide', source: 'Nginx 运维手册', part: 0,
  text: '502 Bad Gateway 通常表示上游 php-fpm 没有响应，先检查 php-fpm 的 socket 路径和进程状态。',
};
const DOC_EN = {
  id: 'nginx-en-1', docId: 'nginx-guide-en', source: 'Nginx operations guide', part: 0,
  text: 'A 502 Bad Gateway from nginx usually means the php-fpm upstream did not answer; check the php-fpm socket path first.',
};

describe('labels and namespaces', () => {
  it('labels documentation and conversation records apart, in Chinese', async () => {
    const { memory } = await pipeline(2048);
    await memory.addDoc(DOC_ZH);
    const old = chat(memory, 'u', 'S1', T0);
    await old.user('服务器 192.168.1.20 上的 Nginx 返回 502，php-fpm 重启后恢复了。');
    await old.bot('好的，记录下来：重启 php-fpm 解决了 502。');
    const now = chat(memory, 'u', 'S2', T0 + DAY);
    // Warm start: the first message reads documentation only.
    const first = await now.user('Nginx 502 是什么原因？');
    expect(first.extras).toContain('[文档知识]\n(Nginx 运维手册) 502 Bad Gateway');
    expect(first.extras).not.toContain('[相关历史');
    await now.bot('通常是上游没有响应。');
    await now.user('我记得之前在 192.168.1.20 上遇到过');
    await now.bot('是的。');
    const third = await now.user('192.168.1.20 的 Nginx 502 和 php-fpm 上次怎么解决的？');
    // The turn's memory, whole (the doc went with the first message and is not sent again).
    const records = third.memory.indexOf('[相关历史（对话记录）]');
    const docs = third.memory.indexOf('[文档知识]');
    expect(records).toBeGreaterThanOrEqual(0);
    expect(docs).toBeGreaterThan(records);
    // The doc text sits under the doc label only; the record under the history label only.
    expect(third.memory.slice(docs)).toContain('socket 路径');
    expect(third.memory.slice(records, docs)).not.toContain('socket 路径');
    expect(third.memory.slice(records, docs)).toContain('用户: 服务器 192.168.1.20 上的 Nginx 返回 502');
    expect(third.extras).not.toContain('[文档知识]');
    expect(renderChatML(third.messages)).toContain('[文档知识]\n(Nginx 运维手册) 502 Bad Gateway');
    expect(third.messages[0]!.content).toContain('仅当用户的问题涉及以前的对话时才可结合[对话记录]回答');
  });

  it('uses English labels in an English conversation', async () => {
    const ask = async (window: number) => {
      const { memory } = await pipeline(window);
      await memory.addDoc(DOC_EN);
      const c = chat(memory, 'u', 'S1', T0);
      await c.user('Our nginx at 192.168.1.20 returned 502 until we restarted php-fpm.');
      await c.bot('Noted: restarting php-fpm fixed the 502.');
      await smallTalk(c, 'en', 12);
      return c.user('Why does nginx return 502 with php-fpm?');
    };
    // At 2,048 tokens the first exchange is still in the prompt's history; the doc is memory.
    const roomy = await ask(2048);
    expect(roomy.memory).toContain('[Documentation]\n(Nginx operations guide) A 502 Bad Gateway');
    expect(roomy.report.memory.retrieval.inHistory).toContain('S1/1');
    // At 1,024 it has slid out, and comes back as a conversation record.
    const tight = await ask(1024);
    expect(tight.report.memory.retrieval.inHistory).not.toContain('S1/1');
    expect(tight.memory).toContain('[Related history (conversation records)]\n1 March 2024\nUser: Our nginx at 192.168.1.20 returned 502');
    expect(renderChatML(tight.messages)).toContain('User: Our nginx at 192.168.1.20 returned 502');
    expect(tight.messages[0]!.content).toContain('Use conversation records only when the question concerns earlier conversations');
  });

  it('detects the language from the letters', () => {
    expect(detectLang('帮我看看 Nginx 的 502 错误')).toBe('zh');
    expect(detectLang('Help me with the nginx 502 error')).toBe('en');
  });
});

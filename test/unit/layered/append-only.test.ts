import { describe, expect, it } from 'vitest';
import { renderChatML } from '../../../src/context/chatml.ts';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { PREFILL_CONVERSATION, RECALL_QUESTIONS } from '../../../bench/prefill-conversation.ts';
import type { TurnResult } from '../../../src/memory/layered/pipeline.ts';
import { DAY, T0, chat, pipeline, smallTalk } from './helpers.ts';

const same = (a: ChatMessage, b: ChatMessage): boolean => a.role === b.role && a.content === b.content;
const count = (text: string, part: string): number => text.split(part).length - 1;

const DOC = {
  id: 'nginx-1', docId: 'nginx-guide', source: 'Nginx 运维手册', part: 0,
  text: '502 Bad Gateway 通常表示上游 php-fpm 没有响应，先检查 php-fpm 的 socket 路径和进程状态。',
};
const DOC_LINE = '(Nginx 运维手册) 502 Bad Gateway 通常表示上游 php-fpm 没有响应';

describe('append-only memory blocks', () => {
  it('keeps consecutive prompts a prefix of each other except at compactions, which only take messages out', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    let previous: ChatMessage[] | null = null;
    let appends = 0;
    for (const text of [...PREFILL_CONVERSATION, ...RECALL_QUESTIONS]) {
      const r = await c.user(text);
      expect(r.report.promptTokens).toBeLessThanOrEqual(1024 - memory.budgets.reserve);
      if (previous !== null) {
        const reply = r.messages.at(-2)!;
        if (r.report.mode === 'append') {
          appends++;
          expect(r.messages.slice(0, previous.length)).toEqual(previous);
        } else {
          // A compaction keeps sent messages verbatim and in order (only the newest exchange may lose its block).
          let at = 0;
          for (const m of r.messages.slice(0, -3)) {
            while (at < previous.length && !same(previous[at]!, m)) at++;
            expect(at, `"${m.content.slice(0, 30)}" was not in the previous prompt`).toBeLessThan(previous.length);
          }
          expect(reply.role).toBe('assistant');
        }
      }
      await c.bot('好的，收到。');
      previous = r.messages;
    }
    // Memory changes every turn, yet most turns append to the prompt the engine has cached.
    expect(appends).toBeGreaterThan(PREFILL_CONVERSATION.length / 3);
  });

  it('does not send again a memory line the prompt already holds', async () => {
    const { memory } = await pipeline(2048);
    await memory.addDoc(DOC);
    const c = chat(memory, 'u', 'S1', T0);
    const first = await c.user('Nginx 502 Bad Gateway 是什么原因？');
    expect(first.extras).toContain(DOC_LINE);
    await c.bot('通常是上游没有响应。');
    const second = await c.user('php-fpm 的 socket 路径怎么检查？和 502 有关吗？');
    expect(second.report.mode).toBe('append');
    expect(second.memory).toContain(DOC_LINE);
    expect(second.extras).not.toContain(DOC_LINE);
    expect(second.report.memory.block.held.records).toContain('nginx-1');
    expect(second.report.memory.block.sent.records).not.toContain('nginx-1');
    expect(count(renderChatML(second.messages), DOC_LINE)).toBe(1);
  });

  it('sends a line again when a compaction took out its carrier and the turn needs it most', async () => {
    const { memory } = await pipeline(1024);
    await memory.addDoc(DOC);
    const c = chat(memory, 'u', 'S1', T0);
    const first = await c.user('Nginx 502 Bad Gateway 是什么原因？');
    expect(first.extras).toContain(DOC_LINE);
    await c.bot('通常是上游没有响应。');
    // Talk about something else until the first exchange has to go.
    await smallTalk(c, 'en', 12);
    const later = await c.user('php-fpm 的 socket 路径和进程状态怎么检查？');
    // The doc is this turn's best memory and the prompt no longer holds it.
    expect(later.report.memory.retrieval.injected[0]).toBe('nginx-1');
    const prompt = renderChatML(later.messages);
    // The first message (and the doc it carried) slid out of the prompt; the doc comes back, once, in the new block.
    expect(later.messages.some((m) => m.content.endsWith('Nginx 502 Bad Gateway 是什么原因？'))).toBe(false);
    expect(later.extras).toContain(DOC_LINE);
    expect(count(prompt, DOC_LINE)).toBe(1);
  });

  it('reports what each section sent, what the prompt already held, and what earlier blocks still carry', async () => {
    const { memory, counter } = await pipeline(1024);
    await memory.addDoc(DOC);
    const c = chat(memory, 'u', 'S1', T0);
    c.at(T0 + DAY);
    const results: TurnResult[] = [];
    for (const text of ['服务器 192.168.1.20 的 Nginx 报 502 Bad Gateway。', 'php-fpm 在跑，socket 路径是 /run/php/php8.2-fpm.sock。', '那 502 还可能是什么原因？']) {
      results.push(await c.user(text));
      await c.bot('先看 error.log 里 connect() failed 的报错。');
    }
    for (const r of results) {
      const m = r.report.memory;
      const s = m.sections;
      // Sent: the memory part of the newest message, split into its working-memory and retrieved parts.
      const joint = s.working.tokens > 0 && s.retrieval.tokens > 0 ? 1 : 0;
      expect(Math.abs(s.working.tokens + s.retrieval.tokens + joint - counter.count(r.extras))).toBeLessThanOrEqual(1);
      expect(s.working.selected!).toBeLessThanOrEqual(s.working.budget);
      expect(s.retrieval.selected!).toBeLessThanOrEqual(s.retrieval.budget);
      expect(s.working.tokens).toBeLessThanOrEqual(s.working.selected!);
      // The sections add up to the prompt: system, input (with its history), earlier blocks, this block, template.
      expect(s.system.tokens + s.input.tokens + m.block.carriedTokens + r.report.sections.extras.tokens + 3).toBe(r.report.promptTokens);
    }
    const last = results.at(-1)!.report.memory;
    expect(last.block.carriedTokens).toBeGreaterThan(0);
    expect(last.block.held.working).toEqual(expect.arrayContaining(['192.168.1.20 (ipv4)']));
    expect(last.block.sent.working).not.toContain('192.168.1.20 (ipv4)');
  });
});

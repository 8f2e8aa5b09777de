import { describe, expect, it } from 'vitest';
import { renderChatML } from '../../../src/context/chatml.ts';
import { blockDelta } from '../../../src/memory/layered/memory-block.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { loadNodeQwenTokenizer } from '../../../scripts/prepare-tokenizer.ts';
import { chineseDateNote, englishDateNote } from '../../../src/memory/retrieval/index.ts';
import { DAY, T0, chat, pipeline, smallTalk } from './helpers.ts';

describe('a question about when reads the date off the record', () => {
  it('notes what the relative times of an English record meant on the day it was written', async () => {
    const { memory } = await pipeline();
    const c = chat(memory, 'u', 's', T0); // Friday 1 March 2024, UTC
    const said = 'I renewed the certificate for shop.example.net yesterday, and last week we moved the blog to the new VPS.';
    await c.user(said);
    await c.bot('Noted: the certificate for shop.example.net is renewed and the blog runs on the new VPS.');
    c.at(T0 + 5 * DAY);
    await smallTalk(c, 'en', 12);
    const when = await c.user('When did I renew the certificate for shop.example.net?', true);
    // The record stays verbatim; its meaning follows it, in what the model is sent.
    expect(renderChatML(when.messages)).toContain(`${said} (yesterday = 29 February 2024; last week = the week before 1 March 2024)`);
    const what = await c.user('What did I do about the certificate for shop.example.net?', true);
    expect(what.memory).toContain(said);
    expect(what.memory).not.toContain('yesterday = ');
  });

  it('does the same for a Chinese record, in Chinese', async () => {
    const { memory } = await pipeline();
    const c = chat(memory, 'u', 'z', T0);
    const said = '前天把订单库从 MySQL 迁到了 PostgreSQL，去年就该迁了。';
    await c.user(said);
    await c.bot('好的，订单库现在在 PostgreSQL 上。');
    c.at(T0 + 3 * DAY);
    await smallTalk(c, 'zh', 12);
    const when = await c.user('订单库是什么时候迁到 PostgreSQL 的？', true);
    expect(renderChatML(when.messages)).toContain(`${said}（前天 = 2024年2月28日；去年 = 2023年）`);
  });

  it('words each kind of time plainly', () => {
    const mentions = [
      { phrase: 'yesterday', when: { kind: 'day', iso: '2024-02-29' } },
      { phrase: 'next weekend', when: { kind: 'weekend', offset: 1, anchor: '2024-03-01' } },
      { phrase: 'last month', when: { kind: 'month', iso: '2024-02' } },
      { phrase: 'last year', when: { kind: 'year', year: 2023 } },
      { phrase: 'yesterday', when: { kind: 'day', iso: '2024-02-29' } },
    ] as const;
    expect(englishDateNote(mentions)).toBe(' (yesterday = 29 February 2024; next weekend = the weekend after 1 March 2024; last month = February 2024; last year = 2023)');
    expect(chineseDateNote([{ phrase: '上周', when: { kind: 'week', offset: -1, anchor: '2024-03-01' } }, { phrase: '下个月', when: { kind: 'month', iso: '2024-04' } }])).toBe(
      '（上周 = 2024年3月1日的前一周；下个月 = 2024年4月）',
    );
    expect(englishDateNote([])).toBe('');
  });
});

describe('a question naming a month', () => {
  it('ties the turns of that month to it, as a named day is tied to its turns', async () => {
    const { memory } = await pipeline();
    const c = chat(memory, 'u', 's', T0); // March 2024
    await c.user('We repainted the garden fence green and fixed the gate latch.'); // s/1
    await c.bot('Green suits the garden.');
    c.at(T0 + 70 * DAY); // May 2024
    await c.user('We repainted the garden fence white this time, the green had faded.'); // s/3
    await c.bot('White will brighten it up.');
    await smallTalk(c, 'en', 12);
    const dateOf = (r: Awaited<ReturnType<typeof c.user>>, id: string) => r.report.memory.retrieval.candidates.find((x) => x.id === id)?.features.date;
    const named = await c.user('What did we do to the garden fence in March 2024?', true);
    expect(dateOf(named, 's/1')).toBe(1);
    expect(dateOf(named, 's/3')).toBe(0);
    const plain = await c.user('What did we do to the garden fence?', true);
    expect(dateOf(plain, 's/1')).toBe(0);
  });
});

describe('a record held without its note', () => {
  it('is sent again with it: an earlier block that showed the record without the date does not count', async () => {
    const counter = new CachedTokenCounter(await loadNodeQwenTokenizer());
    const said = 'I renewed the certificate for shop.example.net yesterday.';
    const line = { id: 'r', time: T0, seq: 1, speaker: 'User', parts: [said] };
    const earlier = [{ role: 'user' as const, content: `[Related history (conversation records)]\n1 March 2024\nUser: ${said}\n\nWhat did I do?` }];
    const parts = (note?: string) => ({ labels: LABELS.en, offsetMinutes: 0, working: [], records: [note === undefined ? line : { ...line, note }], docs: [], rank: new Map([['r', 0]]) });
    expect(blockDelta(parts(), earlier, counter).held.records).toEqual(['r']);
    const noted = blockDelta(parts(' (yesterday = 29 February 2024)'), earlier, counter);
    expect(noted.sent.records).toEqual(['r']);
    expect(noted.text).toContain(`User: ${said} (yesterday = 29 February 2024)`);
  });
});


import { describe, expect, it } from 'vitest';
import { renderChatML } from '../../../src/context/chatml.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import { DAY, HOUR, T0, chat, pipeline, smallTalk } from './helpers.ts';

describe('thin messages retrieve their thread through working memory', () => {
  it('"继续排查" the next morning finds the nginx thread, not the older Redis one', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('Redis 在 10.0.0.7 上内存占用很高，帮我看看。');
    await c.bot('先用 INFO memory 看 used_memory，再检查 maxmemory 策略。');
    c.at(T0 + 2 * HOUR);
    await c.user('另外 192.168.1.20 上的 Nginx 一直报 502 错误。');
    await c.bot('检查 php-fpm 是否存活，以及 upstream 的 socket 路径。');
    await c.user('php-fpm 看起来在跑，socket 是 /run/php/php8.2-fpm.sock。');
    await c.bot('那再看 Nginx error.log 里 connect() failed 的具体报错。');
    await c.user('好，明天再试。');
    await c.bot('好的，明天见。');
    // Enough small talk to slide the thread out of a 1,024-token prompt.
    await smallTalk(c, 'zh', 20);
    c.at(T0 + 18 * HOUR);
    const r = await c.user('继续排查');
    expect(r.report.memory.query.thin).toBe(true);
    expect(r.report.memory.query.expandedWith).toEqual(expect.arrayContaining(['192.168.1.20']));
    const top = r.report.memory.retrieval.candidates[0]!;
    expect(['S1/3', 'S1/4', 'S1/5', 'S1/6']).toContain(top.id);
    expect(r.memory).toContain('192.168.1.20');
    expect(r.memory.indexOf('502')).toBeGreaterThan(-1);
    expect(renderChatML(r.messages)).toContain(r.extras);
  });

  it('"try that again" finds what "that" was', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('The backup job to s3://team-backups fails with AccessDenied since v2.4.1.');
    await c.bot('Check the IAM policy attached to the backup role; v2.4.1 changed the bucket prefix.');
    await c.user('I will try that again tomorrow.');
    await c.bot('Good luck.');
    await smallTalk(c, 'en', 10);
    c.at(T0 + 20 * HOUR);
    const r = await c.user('OK, trying that again now.');
    expect(r.report.memory.query.thin).toBe(true);
    // What "that" was reaches the model: as memory, or still in the prompt's history (not slid out yet).
    const held = r.report.memory.retrieval.inHistory.includes('S1/1');
    expect(held || r.memory.includes('AccessDenied')).toBe(true);
    expect(renderChatML(r.messages)).toContain('The backup job to s3://team-backups fails with AccessDenied');
  });
});

describe('a short question that says its own subject is not thin', () => {
  it('"What\'s the moving date now?" finds the move, not the newest thread\'s dates', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    // A thread about a move, where "move" is a common word, and one turn that says the date now.
    const move = [
      'Starting to plan the move to the new flat, any tips for packing?',
      'The moving van company wants a deposit, is that normal?',
      'Moving date is now Saturday 5 October, the landlord needed two more days.',
      'Should I move the plants myself or let the movers do it?',
    ];
    for (const line of move) {
      await c.user(line);
      await c.bot('Label every box by room, keep a bag of essentials with you, and confirm the van the day before you move.');
    }
    await smallTalk(c, 'en', 8);
    c.at(T0 + 3 * DAY);
    // Another thread, full of dates, fills working memory with its items and the newest turns with them.
    for (const line of [
      'My cousin\'s recital is on 2024-03-22 and the rehearsal on 2024-03-20.',
      'The hall wants the booking form for 2024-03-22 by the end of the week.',
      'Can the piano tuner come on 2024-03-20 before the rehearsal?',
      'Tickets for 2024-03-22 go on sale soon, how should I price them?',
      'The caterer can only do 2024-03-21 or 2024-03-22, which is better?',
      'My aunt arrives on 2024-03-20 too, can she stay for the rehearsal?',
    ]) {
      await c.user(line);
      await c.bot('For 2024-03-20 and 2024-03-22, keep the hall, the tuner, the caterer and the tickets on one checklist.');
    }
    const r = await c.user("What's the moving date now?");
    expect(r.report.memory.query.thin).toBe(false);
    // The move is what the model reads first, with the date it asked for.
    expect(r.report.memory.retrieval.candidates[0]!.preview).toMatch(/mov/i);
    expect(r.memory).toContain('Moving date is now Saturday 5 October');
    // The other thread's dates are searched for only lightly, as context.
    const dateWeight = r.report.memory.query.terms.find(([t]) => t === '@2024-03-22')?.[1] ?? 0;
    expect(dateWeight).toBeLessThan(0.5);
  });

  it('a short question that points back is still thin ("and what about it?")', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    expect((await c.user('And what about it?')).report.memory.query.thin).toBe(true);
    expect((await c.user('再看一下这个')).report.memory.query.thin).toBe(true);
  });
});

describe('a Chinese word asked with a particle inside it', () => {
  it('"我是哪天搬的家？" finds the turn that says 搬家', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('周六终于搬家了，东西太多，累坏了。');
    await c.bot('辛苦了！先把床和常用的东西收拾出来，其他的慢慢来。');
    await smallTalk(c, 'zh', 12);
    c.at(T0 + 5 * DAY);
    const r = await c.user('我是哪天搬的家？');
    expect(r.memory).toContain('周六终于搬家了');
  });
});

describe('a weight asked about, said in its unit', () => {
  it('"How much does Biscuit weigh?" finds the turn that says "about 14 kg"', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('We adopted Biscuit last month, a spaniel cross, about 14 kg and very shy.');
    await c.bot('Congratulations! Give Biscuit a quiet corner and a fixed routine for the first weeks.');
    await c.user('Biscuit chewed the sofa again, any tips?');
    await c.bot('Offer chew toys, tire Biscuit out with walks, and block the sofa while you are out.');
    await c.user('Biscuit hates the rain, should I buy a coat?');
    await c.bot('A light waterproof coat helps many short-haired dogs; measure Biscuit\'s back first.');
    await smallTalk(c, 'en', 12);
    c.at(T0 + 5 * DAY);
    const r = await c.user('How much does Biscuit weigh?');
    expect(r.report.memory.retrieval.candidates[0]!.preview).toContain('about 14 kg');
  });
});

describe('a question with words of its own is not matched by what working memory holds', () => {
  it('the entities of a log pasted before are not what a question about something else shares', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('爸妈那套老房子在无锡，想把卫生间翻新一下，预算大概 5 万。');
    await c.bot('无锡老小区的卫生间翻新，5 万一般够做防水、瓷砖和洁具，先量一下面积。');
    await smallTalk(c, 'zh', 12);
    c.at(T0 + 3 * DAY);
    await c.user('worker 重启之后任务卡住了，日志如下：\n```\n[2024-03-04 09:12:40,118: WARNING/MainProcess] Restoring 2 unacknowledged message(s)\n[2024-03-04 09:12:41,007: INFO/MainProcess] Connected to redis://10.8.0.21:6379/2\n```');
    await c.bot('看起来是重启时有未确认的消息被放回队列了，检查一下 visibility_timeout 的设置。');
    await smallTalk(c, 'zh', 12);
    const r = await c.user('爸妈的老房子在哪个城市来着？');
    expect(r.report.memory.query.thin).toBe(false);
    // The log's timestamp and address are in working memory, but they are not what this question asks about.
    expect(r.report.memory.query.entities ?? []).not.toContain('url:redis://10.8.0.21:6379/2');
    expect(r.report.memory.retrieval.candidates.every((x) => x.features.entities === 0)).toBe(true);
    expect(r.memory).toContain('老房子在无锡');
  });
});

describe('the query a message makes with working memory beside it', () => {
  const expansions = [
    { text: 'redis://10.8.0.21:6379/2', key: 'url:redis://10.8.0.21:6379/2', at: 2 },
    { text: 'visibility_timeout', key: 'term:visibility_timeout', at: 2 },
  ];
  it('a message with words of its own weighs memory lightly, and neither shares its entities nor says them in its vector', () => {
    const q = buildQuery({ message: '爸妈的老房子在哪个城市来着？', entities: [], dates: [], expansions });
    expect(q.thin).toBe(false);
    expect([...q.entities]).not.toContain('url:redis://10.8.0.21:6379/2');
    expect(q.vectorText).toBe('爸妈的老房子在哪个城市来着？');
    // Still searched for, lightly, and shown as what the query was expanded with.
    expect(q.expandedWith).toContain('visibility_timeout');
    expect(q.terms.get('visibility_timeout') ?? 0).toBeLessThan(0.5);
  });
  it('a thin message that leans back takes memory as its own', () => {
    const q = buildQuery({ message: '继续排查', entities: [], dates: [], expansions });
    expect(q.thin).toBe(true);
    expect([...q.entities]).toContain('url:redis://10.8.0.21:6379/2');
    expect(q.vectorText).toContain('visibility_timeout');
  });
});

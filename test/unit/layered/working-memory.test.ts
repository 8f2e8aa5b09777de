import { describe, expect, it } from 'vitest';
import { SessionWorkingMemory } from '../../../src/memory/layered/working-memory.ts';
import { DAY, HOUR, T0, chat, pipeline } from './helpers.ts';

describe('working memory in the pipeline', () => {
  it('overwrites a fact when the user changes their mind (Nginx → Apache)', async () => {
    const { memory } = await pipeline();
    const c = chat(memory, 'u', 's', T0);
    const first = await c.user('我们计划用Nginx做反向代理，服务器IP是192.168.1.20');
    expect(first.report.memory.working.text).toContain('reverse proxy = Nginx');
    await c.bot('好的，Nginx 的反向代理配置如下……');
    // No slot named this time: Apache takes the role the user gave Nginx (one role, one slot).
    const second = await c.user('算了，还是用Apache吧');
    const wm = second.report.memory.working.text;
    expect(wm).toContain('reverse proxy = Apache');
    expect(wm).not.toContain('Nginx');
    expect(wm).toContain('192.168.1.20');
    // It rides in the newest user message, labelled in the conversation's language.
    expect(second.extras.startsWith('[工作记忆]\n')).toBe(true);
    expect(second.messages.at(-1)!.content).toContain('reverse proxy = Apache');
  });

  it('one role, one slot: the reverse proxy named later replaces the web server that played it, and an app server stays beside it', async () => {
    const { memory } = await pipeline();
    const c = chat(memory, 'u', 's', T0);
    await c.user('我们用 Nginx。');
    const moved = await c.user('反向代理换成 Caddy 了。');
    expect(moved.report.memory.working.text).toContain('reverse proxy = Caddy');
    expect(moved.report.memory.working.text).not.toContain('Nginx');

    const d = chat(memory, 'u', 's2', T0);
    await d.user('Our Flask app runs on Gunicorn.');
    const both = await d.user('The API sits behind nginx.');
    expect(both.report.memory.working.text).toContain('web server = Gunicorn');
    expect(both.report.memory.working.text).toContain('reverse proxy = nginx');
    // Dropped by name, nginx leaves the role it held; Gunicorn is untouched.
    const dropped = await d.user('nginx 不用了。');
    expect(dropped.report.memory.working.text).not.toContain('nginx');
    expect(dropped.report.memory.working.text).toContain('web server = Gunicorn');
  });

  it("a port is a slot of its service, and a bare correction (\"actually it's 8444\") overwrites the fact it corrects", async () => {
    const { memory } = await pipeline();
    const c = chat(memory, 'u', 's', T0);
    const first = await c.user('The ledger API listens on port 8443 behind the gateway.');
    expect(first.report.memory.working.text).toContain('api port = 8443');
    await c.bot('Noted: 8443.');
    const corrected = await c.user("Actually it's 8444, not 8443.");
    expect(corrected.report.memory.working.text).toContain('api port = 8444');
    expect(corrected.report.memory.working.text).not.toContain('8443');
    // Without the value it replaces, the newest fact of the same kind (a number) takes it.
    await c.user('管理后台端口是 9090。');
    const again = await c.user('更正一下，是 9091。');
    expect(again.report.memory.working.text).toContain('port = 9091');
    expect(again.report.memory.working.text).toContain('api port = 8444');
    expect(again.report.memory.working.text).not.toContain('9090');
  });

  it('a language the user later forbids leaves working memory rather than being set again', async () => {
    const { memory } = await pipeline();
    const c = chat(memory, 'u', 's', T0);
    const first = await c.user('以后用英文回答我。');
    expect(first.report.memory.working.text).toContain('answer language = English');
    await c.bot('OK, English from now on.');
    const second = await c.user('算了，别再用英文回答了。');
    expect(second.report.memory.working.text).not.toContain('answer language');
  });

  it('an event that moves keeps one slot, with its latest time', async () => {
    const { memory } = await pipeline();
    const c = chat(memory, 'u', 's', T0);
    const first = await c.user('The quarterly review is on Thursday at 3pm.');
    expect(first.report.memory.working.text).toMatch(/quarterly review = \d{4}-\d\d-\d\d 15:00/);
    await c.bot('Noted.');
    const second = await c.user('Quarterly review moved to Friday at 11am.');
    const wm = second.report.memory.working.text;
    expect(wm).toMatch(/quarterly review = \d{4}-\d\d-\d\d 11:00/);
    expect(wm).not.toMatch(/quarterly review = [^\n]*15:00/);
  });

  it('lets entities expire a day after they were last mentioned, unless pinned', async () => {
    const { memory } = await pipeline();
    const c = chat(memory, 'u', 's', T0);
    await c.user('The staging box is 10.0.0.7 and the order is #A123456.');
    await c.bot('Noted.');
    await c.user('Remember this: our due date is 2024-03-20.');
    c.at(T0 + 23 * HOUR);
    const before = await c.user('Any news?');
    expect(before.report.memory.working.text).toContain('10.0.0.7');
    c.at(T0 + 2 * DAY);
    const after = await c.user('Any news today?');
    const wm = after.report.memory.working.text;
    expect(wm).not.toContain('10.0.0.7');
    expect(wm).not.toContain('#A123456');
    expect(after.report.memory.query.entities.some((e) => e.includes('10.0.0.7'))).toBe(false);
    expect(wm).toContain('deadline = 2024-03-20');
  });
});

describe('SessionWorkingMemory', () => {
  it('keeps sessions apart, unsets dropped subjects and remembers void topics', () => {
    const wm = new SessionWorkingMemory();
    wm.observe('a', wm.extract('We use PostgreSQL for the database.', T0), T0, 't1');
    wm.observe('b', wm.extract('We use MySQL for the database.', T0), T0, 't2');
    expect(wm.render('a', 'en', T0)).toContain('database = PostgreSQL');
    expect(wm.render('b', 'en', T0)).toContain('database = MySQL');
    wm.observe('a', wm.extract('Forget the Pulsar idea.', T0 + 1), T0 + 1, 't3');
    expect(wm.deprecated('a')).toEqual(['Pulsar idea']);
    expect(wm.render('a', 'zh', T0 + 1)).toContain('已作废: Pulsar idea');
    expect(wm.items('a', T0 + 2 * DAY)).toEqual([]);
  });
});

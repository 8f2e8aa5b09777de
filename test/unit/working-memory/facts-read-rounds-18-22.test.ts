/**
 * Found by reading the eighteenth to twenty-second helper rounds' misses (issue 19). Our own wording: a slot said of
 * one side of a system, a named product dropped with 那套, what is dropped "from the plan", a date something arrives
 * by, a measure word with 新 before a slot word; someone else's words, a job moved to a new time, a contact the user
 * left, no need to explain, and "no longer on".
 */
import { describe, expect, it } from 'vitest';
import { createExtractor } from '../../../src/memory/working-memory/index.ts';
import { facts } from './helpers.ts';

describe('a language said of one side of the system', () => {
  it('is the backend or the frontend language', () => {
    expect(facts('服务端以后统一用 Rust 写。')).toEqual(['backend language=Rust']);
    expect(facts('Our back-end services are all written in Kotlin now.')).toContain('backend language=Kotlin');
    expect(facts('后端 Java，前端 TypeScript。')).toEqual(['backend language=Java', 'frontend language=TypeScript']);
  });

  it('stays the programming language for code examples and where no side is named', () => {
    expect(facts('以后前端的代码示例都用 TypeScript 写。')).toEqual(['programming language=TypeScript']);
    expect(facts('我们团队主要写 Kotlin。')).not.toContain('backend language=Kotlin');
  });
});

describe('a named product with 那套', () => {
  it('is the product dropped, not a topic', () => {
    const got = createExtractor().extract('Kafka 那套不用了，消息队列换成 NATS。', '2026-06-01T10:00:00+08:00');
    expect(got.facts).toContainEqual({ subject: 'message queue', value: 'Kafka', op: 'unset' });
    expect(got.deprecate).toEqual([]);
  });

  it('stays a topic for a way of working or a plan', () => {
    expect(createExtractor().extract('以后都走蓝绿发布，金丝雀那套不用了。', '2026-06-01T10:00:00+08:00').deprecate).toEqual(['金丝雀那套']);
    expect(createExtractor().extract('Kafka 那套方案不用了。', '2026-06-01T10:00:00+08:00').deprecate).toEqual(['Kafka 那套方案']);
  });
});

describe('what is dropped from the plan', () => {
  it('is the product, not a plan', () => {
    const got = createExtractor().extract('Drop the RabbitMQ cluster from the plan, we will decide on queues later.', '2026-06-01T10:00:00+08:00');
    expect(got.facts).toEqual([{ subject: 'message queue', value: 'RabbitMQ', op: 'unset' }]);
    expect(got.deprecate).toEqual([]);
  });
});

describe('a date something arrives by', () => {
  it('is no deadline of the user’s', () => {
    expect(facts('商家说 3月12号前发货。')).not.toContain('deadline=2026-03-12');
    expect(facts('报销款 6月20日前到账。')).toEqual([]);
    expect(facts('The clinic will send the test results to me by Friday.')).toEqual([]);
  });

  it('still is one when the user must do something by then', () => {
    expect(facts('6月20日前把报销单交上去。')).toEqual(['deadline=2026-06-20']);
    expect(facts('I have to send the results to the clinic by Friday.')).toEqual(['deadline=2026-03-06']);
  });
});

describe('a measure word with 新 before a slot word', () => {
  it('is no value of the slot', () => {
    expect(facts('想换台新电脑，预算 8000 元。')).toEqual(['budget=8000 CNY']);
  });
});

describe('the twenty-first round', () => {
  it('reads what a colleague said after naming the colleague as theirs', () => {
    expect(facts('我同事用的是 Fedora，他说用 dnf 装 docker 特别方便。')).toEqual([]);
    // A decision of the user's after it is still the user's.
    expect(facts('我同事用的是 Fedora，他说不错，那我们服务器也用 Debian 吧。')).toContain('os=Debian');
  });

  it('moves a job to the time it is moved to', () => {
    expect(facts('数据库快照改到每天凌晨4点跑。')).toEqual(['snapshot time=04:00']);
  });

  it('sets no contact the user says is the old one', () => {
    expect(facts('我邮箱换了，旧的 chen.old@example.com 不用了。')).toEqual([]);
    expect(facts('我的新邮箱是 chen.new@example.com。')).toEqual(['email=chen.new@example.com']);
  });

  it('drops nothing the user only asks not to have explained', () => {
    expect(facts('Docker Swarm 相关的东西就不用讲了，我们没用过。')).toEqual([]);
    expect(facts('Docker Swarm 就不用了。')).toEqual(['container orchestration≠Docker Swarm']);
  });

  it('reads "no longer on" as a drop, and a port the service is no longer on as none', () => {
    expect(facts("We're no longer on Jenkins, CI is GitHub Actions now.")).toEqual(['CI≠Jenkins', 'CI=GitHub Actions']);
    expect(facts('The admin panel is no longer on port 8080.')).toEqual([]);
  });
});

describe('the twenty-second round', () => {
  const run = (text: string) => createExtractor().extract(text, '2026-06-01T10:00:00+08:00');

  it('drops what follows a colon, not the words that announce it', () => {
    const got = run('监控方案改一下：Zabbix 不用了，换成 Prometheus。');
    expect(got.facts).toContainEqual({ subject: 'monitoring', value: 'Zabbix', op: 'unset' });
    expect(got.deprecate).toEqual([]);
  });

  it('keeps 这 of a time in a voided plan, and voids "那条路" as a topic', () => {
    expect(run('这周日去苏州的计划取消了。').deprecate).toEqual(['这周日去苏州的计划']);
    expect(run('Kafka 那条路 forget it，消息队列就用 RabbitMQ。').deprecate).toEqual(['Kafka 那条路']);
  });

  it('sets nothing from a move not made yet or a form the user dislikes', () => {
    expect(facts("Haven't moved to Python 3.13 yet.")).toEqual([]);
    expect(facts("I don't like answers full of tables.")).toEqual([]);
  });

  it('reads notes apps as their own slot, and "no longer self-host" as a drop', () => {
    expect(facts('笔记以后不用印象笔记了，换成 Logseq。')).toEqual(['note-taking app≠印象笔记', 'note-taking app=Logseq']);
    expect(facts('We no longer self-host Sentry.')).toEqual(['error tracking≠Sentry']);
  });

  it('takes a restaurant the user skips for no destination', () => {
    expect(facts('周六团建不去西贝了，改去楼下的烤肉店。')).toEqual([]);
  });
});

/**
 * Found by the helper batches' misses (issue 19) and kept general: a runtime moved between versions, a runtime named
 * as what the user's code runs on, an operating system named as what the machines are, the form and the length
 * asked of the answers, a date corrected against the one taken back, and a weekday written beside its own date.
 * Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { facts, values } from './helpers.ts';

describe('a runtime moved from one version to another', () => {
  it('sets the runtime’s version slot to the new version, in either language', () => {
    expect(facts('We migrated the ETL scripts from Python 3.8 to 3.10 yesterday.')).toEqual(['python version=3.10']);
    expect(facts('our JDK went from 11 to 21 over the holidays')).toEqual(['java version=21']);
    expect(facts('后端的 JDK 从 11 升到了 21，Gradle 也顺便升了。')).toEqual(['java version=21']);
    expect(facts('We bumped Go from 1.21 to 1.22 across the monorepo.')).toEqual(['go version=1.22']);
    expect(facts('Python 版本从 3.11 降到了 3.10，有个依赖不兼容。')).toEqual(['python version=3.10']);
  });

  it('takes the exact version said right after it', () => {
    expect(facts('JDK 从 11 升到了 21，具体是 21.0.2，启动脚本要改吗？')).toEqual(['java version=21.0.2']);
    expect(facts("We're on Node 22, to be exact 22.4.1.")).toEqual(['node version=22.4.1']);
    // A "more exact" version that is not the one just set refines nothing.
    expect(facts('Python 版本是 3.12，具体是 3.11.9。')).toEqual(['python version=3.12']);
  });

  it('sets nothing for a range a library supports, a move only planned, or a question', () => {
    expect(facts('The SDK supports Python from 3.8 to 3.12.')).toEqual([]);
    expect(facts('下个月打算把 Python 从 3.10 升到 3.12。')).toEqual([]);
    expect(facts('Is it safe to move Node from 18 to 22 in one go?')).toEqual([]);
  });
});

describe('a runtime named as what the user builds on', () => {
  it('sets its version slot after on, in, with or target', () => {
    expect(facts("I'm building the billing worker in Go 1.23.")).toEqual(['go version=1.23']);
    expect(facts('Our storefront is a Rails monolith on Ruby 3.2.')).toContain('ruby version=3.2');
    expect(facts('Heads-up: we target Java 17, not 21, because of the client’s app server.')).toEqual(['java version=17']);
    expect(facts('Node is 22.4.1 on every CI runner now.')).toEqual(['node version=22.4.1']);
    expect(facts('Node 我们现在统一用 22 了。')).toEqual(['node version=22']);
    expect(facts('JDK 统一 upgrade 到 21。')).toEqual(['java version=21']);
  });

  it('sets nothing for what a guide targets or a number of years', () => {
    expect(facts('This tutorial targets Java 8 readers.')).toEqual([]);
    expect(facts('I read that in Python 3.13 the GIL can be turned off.')).toEqual([]);
    expect(facts('Python 用 3 个 venv 分开装。')).toEqual([]);
  });
});

describe('an operating system named as what the machines are', () => {
  it('sets os', () => {
    expect(facts('我们的服务器都是 Debian 12。')).toEqual(['os=Debian 12']);
    expect(facts('这台云主机是 Ubuntu 24.04，2 核 4G。')).toEqual(['os=Ubuntu 24.04']);
    expect(facts('All our build servers are on Rocky Linux 9.')).toEqual(['os=Rocky Linux 9']);
  });

  it('takes a version corrected on its own', () => {
    expect(facts('Earlier I said the runners use Ubuntu 20.04; they are actually on 22.04.')).toEqual(['os=Ubuntu 22.04']);
    expect(facts('系统是 Ubuntu 22.04，不对，是 24.04。')).toEqual(['os=Ubuntu 24.04']);
  });

  it('sets nothing for a question about it', () => {
    expect(facts('Is the server Ubuntu 22.04 or 24.04?')).toEqual([]);
  });
});

describe('how the answers should look', () => {
  it('sets answer format from a form asked of the answers', () => {
    expect(facts('From now on, please put your answers in bullet points.')).toEqual(['answer format=bullet points']);
    expect(facts('回答用列表就行，手机上看方便。')).toEqual(['answer format=列表']);
    expect(facts('Numbered list please, nothing else.')).toEqual(['answer format=numbered list']);
    expect(facts('周报以后都用表格形式发我。')).toEqual(['answer format=表格']);
  });

  it('sets no format that is refused, allowed or limited, or a table asked for once', () => {
    expect(facts('以后回复别用 markdown 表格。')).toEqual([]);
    expect(facts('Keep replies short, bullet points are fine.')).toEqual(['answer length=short']);
    expect(facts('回答里 bullet points 不要太多。')).toEqual([]);
    expect(facts('Give me a table of last month’s costs by service.')).toEqual([]);
  });

  it('reads a cap on the answers’ length, and only the answers’', () => {
    expect(facts('Please keep answers under 150 words.')).toEqual(['answer length=under 150 words']);
    expect(facts('The design doc must stay under 3000 words.')).toEqual([]);
    // "the long ones" describes answers; the length asked for is the one before it.
    expect(facts('Make your answers short from now on; the long ones bury the command I need.')).toEqual(['answer length=short']);
  });
});

describe('a deadline corrected against the date taken back', () => {
  it('keeps the date said instead, not the one said not to be it', () => {
    expect(facts('deadline 改了，不是 3月20日，是 3月27日。')).toEqual(['deadline=2026-03-27']);
    expect(facts('截止日期不是周五，是下周一。')).toEqual(['deadline=2026-03-09']);
    expect(facts('The deadline is not March 20 but March 27.')).toEqual(['deadline=2026-03-27']);
  });
});

describe('a weekday written beside its own date', () => {
  it('is that date, not a second one', () => {
    expect(values('评审会在 3月13日（周五）。', 'date')).toEqual(['2026-03-13']);
    expect(values('The launch is Friday, March 13.', 'date')).toEqual(['2026-03-13']);
    expect(values('Launch: March 13, Friday.', 'date')).toEqual(['2026-03-13']);
  });

  it('is a day of its own when it is not that date’s weekday', () => {
    expect(values('验收改到6月12号，周四先交测试报告。', 'date')).toEqual(['2026-06-12', '2026-03-05']);
  });
});

describe('a cluster’s version', () => {
  it('is the kubernetes version slot, however the cluster is named', () => {
    expect(facts('Prod got upgraded to Kubernetes 1.31.2 on Monday.')).toEqual(['kubernetes version=1.31.2']);
    expect(facts('我们的 k8s 版本是 1.29.8。')).toEqual(['kubernetes version=1.29.8']);
    // Named without a version it is still the orchestrator.
    expect(facts('我们的服务全部跑在 Kubernetes 上。')).toEqual(['container orchestration=Kubernetes']);
    // …and with the cluster between the name and its version.
    expect(facts('我们 K8s 集群是 v1.30.2，监控用 Prometheus。')).toEqual(['kubernetes version=v1.30.2', 'monitoring=Prometheus']);
    expect(facts('Our Kubernetes cluster is on 1.30.')).toEqual(['kubernetes version=1.30']);
    // A version slot moved for everyone: 版本统一升到 ….
    expect(facts('Go 版本统一升到 1.23。')).toEqual(['go version=1.23']);
  });
});

describe('where alerts go', () => {
  it('sets alert email from an address alerts are sent to', () => {
    expect(facts('From Monday, alerts should go to Pager-Team@Example.net.')).toEqual(['alert email=pager-team@example.net']);
    expect(facts('以后告警邮件统一发到 sre@example.cn。')).toEqual(['alert email=sre@example.cn']);
    // The alerts' mailbox changed is theirs too, not the user's own address.
    expect(facts('告警的收件邮箱改成 noc@example.cn 了。')).toEqual(['alert email=noc@example.cn']);
  });

  it('sets nothing for a question or for an address that is not where alerts go', () => {
    expect(facts('Should alerts go to sre@example.cn or to the team channel?')).toEqual([]);
    expect(facts('My work address is me@example.net, alerts are noisy today.')).not.toContain('alert email=me@example.net');
  });
});

describe('numbers and names that belong to someone else', () => {
  it('does not take a customer’s, a clinic’s or a duty line’s phone as the user’s', () => {
    expect(facts('客户电话 139-0000-1234，让我今天回个电话。')).not.toContain('phone number=139-0000-1234');
    expect(facts('周五看牙，诊所电话 021-5555 0101。')).toEqual([]);
    expect(facts('我的手机号是 139-0000-1234。')).toEqual(['phone number=139-0000-1234']);
  });

  it('does not take a roommate’s setup as the user’s', () => {
    expect(facts('My roommate runs Fedora 40 with Sway.')).toEqual([]);
  });
});

describe('values read whole', () => {
  it('reads a minor version after a name that ends in its major one', () => {
    expect(facts('前端用的是 Vue 3.5。')).toEqual(['frontend framework=Vue 3.5']);
  });

  it('fills the build tool slot with a bundler', () => {
    expect(facts('We moved the frontend build from webpack to Vite.')).toEqual(['build tool≠webpack', 'build tool=Vite']);
  });

  it('ends a URL at a comma before a plain word', () => {
    expect(values('接口是 https://api.example.net/v3，docs 还没更新。', 'url')).toEqual(['https://api.example.net/v3']);
    expect(values('pin: https://maps.example.net/@31.2,121.4,12z', 'url')).toEqual(['https://maps.example.net/@31.2,121.4,12z']);
  });

  it('reads "the 15th of next month" as a date', () => {
    expect(values('The audit is due the 20th of next month.', 'date')).toEqual(['2026-04-20']);
  });
});

describe('candidates compared in a question that asks which', () => {
  it('sets nothing for the candidates, and keeps a setup said beside another question', () => {
    expect(facts('Kafka 和 Pulsar 做消息队列，哪个运维更省心？')).toEqual([]);
    expect(facts('Postgres or MySQL for the new billing service, which one would you pick?')).toEqual([]);
    expect(facts('我们用 Kafka 做消息队列，哪个 Go client 比较稳？')).toEqual(['message queue=Kafka']);
  });
});

describe('entities as labelled', () => {
  it('keeps an amount’s cents as written', () => {
    expect(values('The hotel was £182.40 a night.', 'amount')).toEqual(['182.40 GBP']);
    expect(values('这个月电费 ¥1,096.30。', 'amount')).toEqual(['1096.30 CNY']);
    expect(values('预算 1.5万元。', 'amount')).toEqual(['15000 CNY']);
  });

  it('keeps a glob in a path, not the markdown around it', () => {
    expect(values('日志都在 /srv/app/logs/api-*.log 里。', 'path')).toEqual(['/srv/app/logs/api-*.log']);
    expect(values('first edit **/etc/resolv.conf**', 'path')).toEqual(['/etc/resolv.conf']);
  });
});

describe('values that are not the slot’s', () => {
  it('does not take "port 5433" as the database', () => {
    expect(facts('The reporting DB is on port 6543 now.')).not.toContain('database=port 6543');
  });

  it('sets nothing for a change still waiting on approval', () => {
    expect(facts('已经提了申请，把 Kafka 升到 3.7.1，批下来再说。')).toEqual([]);
    // …or one the person who decides has not signed off.
    expect(facts('数据库用 MySQL 还是继续用 Oracle，老板还没拍板。')).toEqual([]);
    expect(facts('审批流程改成两级了，预算 8000 元。')).toEqual(['budget=8000 CNY']);
  });
});

describe('the last mend: a product’s version moved, a runtime the code stands on, a correction that upgrades', () => {
  it('sets a product’s version slot when it moves between versions', () => {
    expect(facts('上周把 Flink 从 1.17 升到了 1.18.1。')).toEqual(['flink version=1.18.1']);
    expect(facts('We upgraded Postgres from 15 to 17 over the weekend.')).toEqual(['postgres version=17']);
  });

  it('sets the runtime the user’s code still stands on', () => {
    expect(facts('我们的脚本还在 Python 3.8 上，别用海象运算符以外的新语法。')).toContain('python version=3.8');
  });

  it('takes a value the correction says it was upgraded to', () => {
    expect(facts('数据库是 MySQL 5.7，哦不对，上个月已经升级成 MySQL 8.0 了。')).toEqual(['database=MySQL 8.0']);
  });
});

describe('after the notes: where the user works, what the team hosts itself, a runtime written with v', () => {
  it('sets os for the system the user says they are on', () => {
    expect(facts('我在 Windows 上，conda 装不上 psycopg2。')).toEqual(['os=Windows']);
    expect(facts('这个库在 Windows 上有 bug。')).toEqual([]);
  });

  it('sets a product the team hosts itself', () => {
    expect(facts('Grafana 是我们自己搭的，账号找运维要。')).toEqual(['monitoring=Grafana']);
    expect(facts('We self-host Prometheus on two small VMs.')).toEqual(['monitoring=Prometheus']);
  });

  it('reads a runtime’s version written with a v', () => {
    expect(facts('Prod runs Node v22.4.1 now.')).toEqual(['node version=v22.4.1']);
  });
});

/**
 * Whose a statement is, and whether it holds: found by labelled batches written by people who had not seen the
 * rules (issue 19). Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { deprecated, facts } from './helpers.ts';

describe("someone else's setup, the user's past elsewhere, a run once", () => {
  it('sets nothing from another team, a friend, a former employer or a competitor', () => {
    expect(facts('隔壁团队用的是 Pulsar，据说扩容很麻烦。')).toEqual([]);
    expect(facts("My friend's company runs CockroachDB in eu-west-1 and loves it.")).toEqual([]);
    expect(facts('前公司用 SQL Server 2016 搭过一套报表系统。')).toEqual([]);
    expect(facts('A competitor of ours is on Vercel.')).toEqual([]);
    expect(facts('隔壁风控组上个月换成了 Doris。')).toEqual([]);
    expect(facts('帮同事排查一下，他那边装的是 Rocky Linux 9。')).toEqual([]);
    expect(facts('The course I am taking builds everything with Django 5 and MongoDB.')).toEqual([]);
    // The user's own clause beside it still counts.
    expect(facts('隔壁组用 Kafka，我们用 NATS。')).toEqual(['message queue=NATS']);
  });

  it('takes no region or port from a story of one run, but keeps the region the user states', () => {
    expect(facts('上回发版到 ap-south-1 的时候丢了好多请求。')).toEqual([]);
    expect(facts('When we deployed to eu-north-1 the latency was awful.')).toEqual([]);
    expect(facts('生产环境统一放 eu-north-1。')).toEqual(['region=eu-north-1']);
  });

  it("keeps someone else's phone out of the user's slot", () => {
    expect(facts('有问题找运维小李，他电话 138-0000-1111。')).toEqual([]);
    expect(facts('我电话换了，138-0000-1111。')).toEqual(['phone number=138-0000-1111']);
  });
});

describe('conditions that are not', () => {
  it('reads 主要是 and 只要是 as no condition (要是 is one)', () => {
    expect(facts('日志平台选了 Loki，主要是省钱。')).toEqual(['logging=Loki']);
    expect(facts('要是换成 Loki，就得重写告警。')).toEqual([]);
  });

  it('lets a condition in a trailing comment colour only that comment', () => {
    expect(facts('The release deadline is now June 30, which is fine if QA signs off early.', '2026-06-01T09:00:00+02:00')).toEqual([
      'deadline=2026-06-30',
    ]);
    expect(facts('If we move to June 30, the deadline is June 30.', '2026-06-01T09:00:00+02:00')).toEqual([]);
  });
});

describe('regions left and deadlines not set', () => {
  it('drops a region the user stops using, or has moved away from; a planned move sets only where it goes', () => {
    expect(facts('新机器都开在 cn-beijing，别再用 cn-shenzhen 了。')).toEqual(['region=cn-beijing', 'region≠cn-shenzhen']);
    expect(facts('We moved the cluster from us-west-2 to us-east-2 last week.')).toEqual(['region≠us-west-2', 'region=us-east-2']);
    expect(facts('准备从 eu-west-3 迁到 eu-central-1。')).toEqual(['region=eu-central-1']);
  });

  it('names no deadline that is still unknown, or only guessed', () => {
    expect(facts('截止日期领导还没定，先按下周三准备。')).toEqual([]);
    expect(facts('我估计周四之前搞不完。')).toEqual([]);
    expect(facts('周四之前把接口文档发我。')).toEqual(['deadline=2026-03-05']);
  });
});

describe('more ways of saying a value', () => {
  it('reads pinning to a version, and a runtime named as such', () => {
    expect(facts('We pin every repo to Python 3.12.4.')).toEqual(['python version=3.12.4']);
    expect(facts('It runs on Cloud Run, Node 22 runtime.')).toEqual(['node version=22']);
    expect(facts('I pinned that thread in Slack.')).toEqual([]);
    expect(facts('That is the version we pin in CI.')).toEqual([]);
  });

  it('reads a spending cap as the budget, and a length said just after the answers are named', () => {
    expect(facts('The side project is capped at $300 a month.')).toEqual(['budget=300 USD']);
    expect(facts('回复都用英文，简洁一点。')).toEqual(['answer language=English', 'answer length=short']);
  });

  it('drops the product after 不用, not the slot word before it; "forget it" voids the topic before it', () => {
    expect(facts('缓存不用 Memcached 了。')).toEqual(['cache≠Memcached']);
    expect(deprecated('缓存不用 Memcached 了。')).toEqual([]);
    expect(deprecated('之前那个分库分表方案 forget it。')).toEqual(['分库分表方案']);
  });
});

describe('a list or a version that goes on past a comma', () => {
  it('sets every product of an English list the commas cut into clauses', () => {
    expect(facts('We use Poetry, Ruff and Black.')).toEqual(['package manager=Poetry', 'linter=Ruff', 'formatter=Black']);
    // A list cut at its commas is one list: the slot it fills twice keeps both.
    expect(facts('We use ESLint, Prettier and Stylelint.')).toEqual(['linter=ESLint', 'formatter=Prettier', 'linter=Stylelint']);
    expect(facts('Tech stack: Go 1.22, Gin, GORM for the models.')).toEqual(['go version=1.22', 'framework=Gin', 'ORM=GORM']);
    // A clause that says something of its own is no list.
    expect(facts('We use Postgres, MySQL was too slow.')).toEqual(['database=Postgres']);
    expect(facts('We use Postgres, not MySQL.')).toEqual(['database=Postgres']);
  });

  it('reads a version said on its own right after the product', () => {
    expect(facts('消息队列用 Kafka，版本 3.7.1。')).toEqual(['message queue=Kafka', 'kafka version=3.7.1']);
    expect(facts('Our services run on Python, version 3.11.9.')).toEqual(['programming language=Python', 'python version=3.11.9']);
  });

  it('reads more ways of stating a setup or leaving one', () => {
    expect(facts('Go 锁在 1.21.6。')).toEqual(['go version=1.21.6']);
    expect(facts('我这边一直是 Fedora 40。')).toEqual(['os=Fedora 40']);
    expect(facts('Our repos are on Gitea.')).toEqual(['code hosting=Gitea']);
    expect(facts('We moved all our repos to Bitbucket.')).toEqual(['code hosting=Bitbucket']);
    expect(facts("We're no longer on eu-west-2, it all moved to eu-west-1.")).toEqual(['region≠eu-west-2', 'region=eu-west-1']);
    expect(facts('Reply in English and go into detail.')).toEqual(['answer language=English', 'answer length=detailed']);
  });
});

describe('corrections, questions with a statement before them, and drops said after the fact', () => {
  it('reads the right value after the wrong one, sets it alone (the wrong one was misspoken, not dropped), but only when both are names', () => {
    expect(facts('前面写错了，缓存用的不是 Memcached，是 Redis。')).toEqual(['cache=Redis']);
    expect(facts("The queue isn't SQS, it's Kafka.")).toEqual(['message queue=Kafka']);
    expect(facts('我不是说 MySQL 不好，是 Postgres 更合适。')).toEqual([]);
  });

  it('keeps a statement that leads into an English question', () => {
    expect(facts('Since the backend runs on Go 1.23, can I use range-over-func?')).toEqual(['go version=1.23']);
    expect(facts('The slides have to be ready by March 11, so can you outline them?')).toEqual(['deadline=2026-03-11']);
    expect(facts('Using Redis, how do I expire keys?')).toEqual([]);
  });

  it("drops a product said with 别用了 or \"isn't … anymore\", and voids a plan with cancel 了", () => {
    expect(facts('npm 别用了，统一 pnpm。')).toEqual(['package manager≠npm', 'package manager=pnpm']);
    expect(facts("Heads-up: our search engine isn't Solr anymore.")).toEqual(['search engine≠Solr']);
    expect(deprecated("Heads-up: our search engine isn't Solr anymore.")).toEqual([]);
    expect(deprecated('那个多活方案 cancel 了。')).toEqual(['多活方案']);
  });

  it('reads more ways of routing through a product, and of asking for short or long answers', () => {
    expect(facts('All traffic goes through HAProxy.')).toEqual(['load balancer=HAProxy']);
    expect(facts('以后回复用中文，解释要详细一点。')).toEqual(['answer language=Chinese', 'answer length=detailed']);
    expect(facts('Answer in English, without long explanations.')).toEqual(['answer language=English', 'answer length=short']);
  });
});

describe("quoted words, corrected numbers, and a linter beside a formatter", () => {
  it("sets nothing from a quoted log line or someone's quoted words, but a quoted name still counts", () => {
    expect(facts('报错信息是 “db: mysql 5.7, region: ap-east-1”，这是哪来的？')).toEqual([]);
    expect(facts('My manager wrote "budget is $900, deadline Friday" about his own team.')).toEqual([]);
    expect(facts('沟通工具用「钉钉」。')).toEqual(['chat tool=钉钉']);
  });

  it('takes the corrected budget or version, not the one said to be wrong', () => {
    expect(facts('说错了，预算不是5000元，是4200元。')).toEqual(['budget=4200 CNY']);
    expect(facts('更正：Go 版本不是 1.21，是 1.22.3。')).toEqual(['go version=1.22.3']);
  });

  it('sets only the right value when a correction names the wrong one after it, as the shared set labels "it\'s 8444, not 8443"', () => {
    expect(facts('Correction: the app runs on Ruby 3.3, not 3.2.')).toEqual(['ruby version=3.3']);
    expect(facts('Sorry, the backend is Laravel, not Symfony.')).toEqual(['framework=Laravel']);
    expect(facts('不对，我刚才说错了，我们的消息队列是 NATS，不是 Kafka。')).toEqual(['message queue=NATS']);
    expect(facts('The backend is Laravel, not Symfony.')).toEqual(['framework=Laravel']);
  });

  it('voids a trip like a plan', () => {
    expect(deprecated('Forget the Iceland trip, flights are too expensive.')).toEqual(['Iceland trip']);
  });

  it('keeps a linter and a formatter as two slots, so one does not replace the other', () => {
    expect(facts('We use ESLint. We use Prettier.')).toEqual(['linter=ESLint', 'formatter=Prettier']);
    expect(facts('格式化用 Black，lint 用 flake8。')).toEqual(['formatter=Black', 'linter=flake8']);
  });
});

describe('hearsay, places left, material about a product, compound names', () => {
  it('sets nothing from a sentence the user only heard', () => {
    expect(facts('听说数据组已经换成 StarRocks 了，查询也改走 Trino。')).toEqual([]);
    expect(facts('I heard the mobile team moved to Expo and dropped Fastlane.')).toEqual([]);
  });

  it('reads "not on X anymore" as leaving X, and sets nothing from "not on X"', () => {
    expect(facts("We're not on Netlify anymore.")).toEqual(['hosting≠Netlify']);
    expect(facts("We're not on Netlify.")).toEqual([]);
    expect(facts('我们不在腾讯云上。')).toEqual([]);
  });

  it('keeps a product when only material about it is dropped', () => {
    expect(facts('Our CI is Drone, so skip the Jenkins examples.')).toEqual(['CI=Drone']);
    expect(facts('别再给我 Webpack 的配置了。')).toEqual([]);
  });

  it('does not read the end of a compound name as the product', () => {
    // (Helm is what the user deploys with; kube-prometheus is not Prometheus.)
    expect(facts('We deploy kube-prometheus with Helm.')).toEqual(['deployment tool=Helm']);
    // ingress-nginx is a product of its own, not Nginx.
    expect(facts('网关用的是 ingress-nginx。')).toEqual(['ingress controller=ingress-nginx']);
  });

  it("reads the user's own cluster or instance as theirs, but not one that failed once", () => {
    expect(facts('Our Cassandra cluster has six nodes.')).toEqual(['database=Cassandra']);
    expect(facts('去年我们的 MongoDB 集群挂过一次。')).toEqual([]);
  });

  it('takes the named deadline over a date something is due before, and a length from anywhere in the sentence', () => {
    expect(facts('项目 deadline 是 3月20日，测试要在 3月18日前提完。')).toEqual(['deadline=2026-03-20']);
    expect(facts('回复用中文，代码注释用英文，不用太详细。')).toEqual(['answer language=Chinese', 'code comment language=English', 'answer length=short']);
  });

  it("names no user email from where to send mail, and no value from a path after 'at'", () => {
    expect(facts('出了问题发邮件到 team-ops@example.org。')).toEqual([]);
    expect(facts('The repo is at /home/dev/shop.')).toEqual([]);
  });
});

describe('what the project is, and routing through a product', () => {
  it('reads "our app is X" only when X follows at once', () => {
    expect(facts('Our app is a Laravel monolith.')).toEqual(['framework=Laravel']);
    expect(facts('The app is slow on Firefox.')).toEqual([]);
    expect(facts('Our project is late because of Kafka.')).toEqual([]);
  });

  it('reads "goes through X" and 统一 X only when X is the whole object', () => {
    expect(facts('All our email goes through Postmark.')).toEqual(['email service=Postmark']);
    expect(facts("Let's go through the Kafka docs first.")).toEqual([]);
    expect(facts('统一一下 Redis 的 key 命名规则。')).toEqual([]);
  });
});

describe('wishes, BI tools and game engines', () => {
  it('sets nothing from a wish about what was not chosen', () => {
    expect(facts('真希望当初选的是 BigQuery，现在查询太慢了。')).toEqual([]);
    expect(facts('I wish we had picked Svelte.')).toEqual([]);
  });

  it('knows BI tools and game engines as slots of their own', () => {
    expect(facts('报表工具换成 Superset 了，Tableau 不续了。')).toEqual(['BI tool=Superset', 'BI tool≠Tableau']);
    expect(facts('The game runs on Unreal Engine 5.3.')).toEqual(['game engine=Unreal Engine 5.3']);
  });
});

describe('offers, asides, sources and someone', () => {
  it('reads an offer in an aside as no condition on the statement', () => {
    expect(facts('The queue is NATS now (the admin UI is at 10.1.2.3, if you need it).')).toEqual(['message queue=NATS']);
    expect(facts('缓存用 Valkey，需要的话我再发配置。')).toEqual(['cache=Valkey']);
  });

  it('leaves a whole sentence undecided when it says so anywhere in it', () => {
    expect(facts('日志用 Loki 还是 OpenSearch，我还在比较，先别定。')).toEqual([]);
  });

  it("sets nothing from what a page says, someone's change, or another team's own tools", () => {
    expect(facts('状态页上说 eu-central-1 在降级。')).toEqual([]);
    expect(facts('有人把 nginx 的 worker 数改成了 8。')).toEqual([]);
    expect(facts('The analytics folks run their own Metabase in us-east-2.')).toEqual([]);
  });

  it("keeps a product when only tricks for it are skipped, and names no service 'v6'", () => {
    expect(facts("I'm on zsh, so skip the bash-only tricks.")).toEqual(['shell=zsh']);
    expect(facts('The proxy is at 10.0.0.9 (v6 address fd00::9).')).toEqual([]);
  });

  it('reads 版本统一 and 上了 as setting a value', () => {
    expect(facts('后端 Go 版本统一 1.22.5。')).toEqual(['go version=1.22.5']);
    expect(facts('消息队列上了 Pulsar。')).toEqual(['message queue=Pulsar']);
  });
});

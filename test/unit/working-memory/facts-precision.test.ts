/**
 * Facts that were wrong values, not differently named ones: a function word taken for a service's name, a count taken
 * for a database, a negated or undecided sentence, someone else's trip, a choice read as a place, an exception read as
 * the rule. Found by listing, over the helpers' labelled batches, the facts whose value no label of the message has
 * (issue 19). Examples are our own wording.
 */
import { describe, expect, it } from 'vitest';
import { deprecated, facts } from './helpers.ts';

describe('a slot named after the word before it', () => {
  it('takes no function word for the name of a service, an address or a version', () => {
    expect(facts('The new web nodes only have IPv6: 2001:db8:1::7 for now.')).toEqual([]);
    expect(facts('We chose our tracing tool. It is Tempo, going with version 2.4.')).not.toContainEqual(expect.stringMatching(/^with version=/));
    // A service named before the address still names it, and a verb between is no part of its name.
    expect(facts('The registry address is 10.0.4.2.')).toEqual(['registry address=10.0.4.2']);
    expect(facts('The API stays on port 8443.')).toEqual(['api port=8443']);
  });

  it('reads a port said in a story of a failure as no setting', () => {
    expect(facts('Ping works, but port 8080 times out from home.')).toEqual([]);
    expect(facts('The API listens on port 8443.')).toEqual(['api port=8443']);
  });
});

describe('values that are no value', () => {
  it('takes no count of machines for the value, and no possessive for the system', () => {
    expect(facts('读写分离不搞了，数据库就用一台 PostgreSQL 16。')).toEqual(['database=PostgreSQL 16']);
    expect(facts('缓存用两台 Redis。')).toEqual(['cache=Redis']);
    expect(facts('部署服务器的系统是 Debian 12，内核要升吗？')).toEqual(['os=Debian 12']);
  });

  it('finds the new value after the slot named again once the old one is dropped', () => {
    expect(facts("Drop Rollbar, we're switching error tracking to GlitchTip.")).toEqual(['error tracking≠Rollbar', 'error tracking=GlitchTip']);
  });

  it('keeps a maker out of the slot of the product it makes; a cloud before its own service is part of its name', () => {
    expect(facts('We migrated logs from Splunk to Grafana Loki.')).toEqual(['logging≠Splunk', 'logging=Loki']);
    expect(facts('Our app is a Laravel monolith.')).toEqual(['framework=Laravel']);
    expect(facts('我们的集群跑在 AWS EKS 上。')).toEqual(['container orchestration=AWS EKS']);
    expect(facts('镜像仓库从 Docker Hub 迁到了 AWS ECR。')).toEqual(['container registry≠Docker Hub', 'container registry=AWS ECR']);
    // A service the vocabulary does not know, in capitals: the cloud is still no cloud provider of the user's.
    expect(facts('告警直接上阿里云 XYZ。')).not.toContain('cloud provider=阿里云');
    // A cloud said on its own still is.
    expect(facts('我们的服务都跑在阿里云上。')).toEqual(['cloud provider=阿里云']);
  });
});

describe('what the sentence does not state', () => {
  it('puts nothing in a cloud the clause says nothing runs in', () => {
    expect(facts('We are all on GCP; nothing runs in AWS.')).toEqual(['cloud provider=GCP']);
    expect(facts("We don't run anything on Azure.")).toEqual([]);
    expect(facts('集群在阿里云上。')).toEqual(['cloud provider=阿里云']);
  });

  it('sets nothing while the choice is still argued or weighed', () => {
    expect(facts('消息队列到底用 Kafka 还是 Pulsar，组里还在争。')).toEqual([]);
    expect(facts('打算上 Grafana 做看板，不过还没最终 decide。')).toEqual([]);
    expect(facts("We're weighing Render against Railway for the API.")).toEqual([]);
  });

  it('keeps the clause that says its own choice is made, beside one still undecided', () => {
    expect(facts('ORM 还在纠结 Prisma 和 Drizzle，数据库倒是已经定了 PostgreSQL。')).toEqual(['database=PostgreSQL']);
    // A choice after the undecided clause stands too.
    expect(facts('我们组还在讨论用不用 Istio，网关先用 Kong。')).toEqual(['API gateway=Kong']);
  });

  it('reads the length asked for, not its exception', () => {
    expect(facts('回答尽量简短，除非我说要详细的。')).toEqual(['answer length=short']);
  });

  it('takes no answer language from a book in that language', () => {
    expect(facts('我的阅读器是 Kobo，主要拿来看日文小说。')).not.toContainEqual(expect.stringMatching(/^answer language=/));
    expect(facts('以后说中文。')).toEqual(['answer language=Chinese']);
  });
});

describe("someone else's plans and systems", () => {
  it("sets no destination for a relative's trip, but keeps the user's own", () => {
    expect(facts('My brother is flying to Rome on June 8.')).toEqual([]);
    expect(facts('我妈下周去三亚玩。')).toEqual([]);
    expect(facts('我和我妈决定下周去三亚玩。')).toEqual(['destination=三亚']);
  });

  it("sets nothing from a vendor's or a client's system, or from one the user says is not theirs", () => {
    expect(facts("The vendor's API runs on Azure.")).toEqual([]);
    expect(facts("The client's team is on DB2, but that's their stack, not ours.")).toEqual([]);
    expect(facts('frontend 那边用的是 Next.js 14.2，跟我们后端没关系，我就问一下。')).toEqual([]);
  });

  it("keeps what a manager passes on: the deadline is still the user's", () => {
    expect(facts('So my manager finally replied, and the launch deadline is now October 15.')).toEqual([expect.stringMatching(/^deadline=\d{4}-10-15$/)]);
  });
});

describe('a choice is no place', () => {
  it('reads "decided on the X over the Y" as a purchase, unless the message is about a trip', () => {
    expect(facts('Decided on the Garmin Forerunner 265 over the Coros, ordered it tonight.')).toEqual([]);
    expect(facts('For the honeymoon we settled on Lisbon, flying out May 3.')).toEqual(['destination=Lisbon']);
  });

  it('takes no time for a place when a trip is called off', () => {
    expect(facts('成都今年不去了。')).toEqual(['destination≠成都']);
    expect(facts('那个欧洲旅行就算了，今年不去了。')).not.toContainEqual(expect.stringMatching(/^destination=今年/));
  });
});

describe('read from the eighth round after it was scored', () => {
  it("sets nothing from the client's side, and no phone of the person on duty", () => {
    expect(facts('客户那边用的是腾讯云 CLB，我们只管应用。')).toEqual([]);
    expect(facts('明晚做切换演练，值班负责人电话 139-0000-2222。')).toEqual([]);
  });

  it("gives her birthday to her, not to the user, while the budget stays the user's", () => {
    expect(facts('给老婆挑礼物，预算2千元以内，她喜欢耳机，生日是下周三。')).toEqual(['budget=2000 CNY']);
    expect(facts('我生日是下周三。')).toEqual([expect.stringMatching(/^birthday=\d{4}-\d\d-\d\d$/)]);
    // What he or she passes on, or agrees to, is still the user's business.
    expect(facts('他说 deadline 是周五。')).toEqual([expect.stringMatching(/^deadline=/)]);
    expect(facts('他没意见，缓存就用 Redis 吧。')).toEqual(['cache=Redis']);
    expect(facts("He's right, let's use Redis for the cache.")).toEqual(['cache=Redis']);
  });

  it('takes no pronoun for a topic called off', () => {
    expect(deprecated('The gateway moved to 10.0.0.9; the old one at 10.0.0.3 is gone.')).toEqual([]);
    expect(deprecated("I'm allergic to shellfish, so skip anything with shrimp in the dinner ideas.")).toEqual([]);
    expect(deprecated('Forget the Kafka idea.')).toEqual(['Kafka idea']);
  });
});

describe('a last mend: the past, a part of a product, what 不用 takes', () => {
  it('takes no home from a story of the past', () => {
    expect(facts('读研的时候我住在南京，冬天很冷。')).toEqual([]);
    expect(facts('我现在住在南京。')).toEqual(['location=南京']);
  });

  it("keeps the product when only a part or an edition of it is dropped", () => {
    expect(facts('我们只部署到 eu-west-1，其他 AWS region 一律不用。')).toEqual(['region=eu-west-1']);
    expect(facts('We no longer use Terraform Cloud; state lives in a GCS bucket.')).not.toContain('infrastructure as code≠Terraform');
    expect(facts('不用 AWS 了，全部迁到 GCP。')).toEqual(['cloud provider≠AWS', 'cloud provider=GCP']);
  });

  it('drops what follows 不用 … 了, not the product before it', () => {
    expect(facts('ESLint 不用 standard 那套 config 了。')).not.toContain('linter≠ESLint');
    expect(facts('Jenkins 不用了。')).toEqual(['CI≠Jenkins']);
  });
});

describe('read from the ninth round after it was scored: exceptions, habits, what has always been', () => {
  it('keeps the rule before an exception and takes nothing from the exception', () => {
    expect(facts('Answers in English please, unless I write in Chinese.')).toEqual(['answer language=English']);
    expect(facts('Keep answers short unless I ask for detail.')).toEqual(['answer length=short']);
    // A condition is still a condition.
    expect(facts('If we move to AWS, use Terraform.')).toEqual([]);
  });

  it('reads 的时候 before a standing instruction as whenever, not as a story', () => {
    expect(facts('写代码的时候都用 Go。')).toEqual(['programming language=Go']);
    expect(facts('上次 deploy 到 us-east-1 的时候很慢。')).toEqual([]);
  });

  it('reads "has always been" and "is still" as what holds now', () => {
    expect(facts('CI has always been GitLab CI.')).toEqual(['CI=GitLab CI']);
    expect(facts('The database is still MySQL 5.7.')).toEqual(['database=MySQL 5.7']);
  });
});

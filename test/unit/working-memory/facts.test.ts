import { describe, expect, it } from 'vitest';
import { createExtractor } from '../../../src/memory/working-memory/extract.ts';
import { DEFAULT_VOCABULARY } from '../../../src/memory/working-memory/vocabulary.ts';
import { events, facts, run } from './helpers.ts';

describe('decisions and preferences', () => {
  it('sets the slot of a known product, Chinese, English and mixed', () => {
    expect(facts('我们后端决定用 Caddy。')).toEqual(['web server=Caddy']);
    expect(facts('数据库改成MariaDB，旧库下个月再停。')).toEqual(['database=MariaDB']);
    expect(facts('We finally settled on ClickHouse and Grafana.')).toEqual([
      'database=ClickHouse',
      'monitoring=Grafana',
    ]);
    expect(facts("We'll go with Pulumi for provisioning and Buildkite for CI.")).toEqual([
      'infrastructure as code=Pulumi',
      'CI=Buildkite',
    ]);
    expect(facts('前端打包工具就用 Vite 吧，webpack 太慢了。')).toEqual(['build tool=Vite']);
    expect(facts('直接 canary release 就行。')).toEqual(['deployment strategy=canary release']);
    expect(facts('Postgres it is.')).toEqual(['database=Postgres']);
  });

  it('keeps the newer of two values for one slot (计划用 Nginx，算了还是用 Apache), but a list in one clause whole', () => {
    expect(facts('我们计划用Nginx，算了还是用Apache。')).toEqual(['web server=Apache']);
    expect(facts('监控这块我们定了 Prometheus 和 Grafana。')).toEqual(['monitoring=Prometheus', 'monitoring=Grafana']);
    // Joined by a plus, a pair is one value, as labellers write it.
    expect(facts('监控这块我们定了 Prometheus + Grafana。')).toEqual(['monitoring=Prometheus + Grafana']);
    expect(facts('We switched monitoring over to Grafana + Alertmanager last week.')).toEqual(['monitoring=Grafana + Alertmanager']);
    // Of two slots, each keeps its own.
    expect(facts('前端用 Vue 3 + Pinia。')).toEqual(['frontend framework=Vue 3', 'state management=Pinia']);
  });

  it('reads statements of setup: slot word + is, where things run, what they are written in', () => {
    expect(facts('Our main DB is MySQL 8.0 on RDS, and the cache is Redis 7.2.')).toEqual([
      'database=MySQL 8.0',
      'cache=Redis 7.2',
    ]);
    expect(facts('我们的 k8s 集群在阿里云上。')).toEqual(['container orchestration=k8s', 'cloud provider=阿里云']);
    expect(facts('All new services are written in Go 1.22.')).toEqual(['go version=1.22']);
    expect(facts('开发机是 Debian 12，Python 用 3.11，包管理用 uv。')).toEqual([
      'os=Debian 12',
      'python version=3.11',
      'package manager=uv',
    ]);
  });

  it('a purpose that names an error is no story of an error: Rollbar for error reporting, 崩溃上报用 Bugsnag', () => {
    expect(facts('The mobile team uses Rollbar for error reporting and Opsgenie for paging.')).toEqual([
      'error tracking=Rollbar',
      'alerting=Opsgenie',
    ]);
    expect(facts('崩溃上报统一用 Bugsnag。')).toEqual(['error tracking=Bugsnag']);
    expect(facts('We ditched Bugsnag; crashes go to Sentry now.')).toEqual(['error tracking≠Bugsnag', 'error tracking=Sentry']);
    expect(facts('Rollbar throws errors when I upload source maps.')).toEqual([]);
  });

  it('job schedulers and connection pools have slots of their own; 退役 / 不再维护 retire a tool', () => {
    expect(facts('计划任务统一改用 Kubernetes CronJob，anacron 退役。')).toEqual(['job scheduler=Kubernetes CronJob', 'job scheduler≠anacron']);
    expect(facts('包管理改用 pnpm，Yarn 不再维护。')).toEqual(['package manager=pnpm', 'package manager≠Yarn']);
    expect(facts('Postgres 前面加了 PgBouncer 做连接池。')).toContain('connection pool=PgBouncer');
  });

  it('an answer language with a word on its register, a version made uniform (统一成)', () => {
    expect(facts('Reply in simple English from now on.')).toEqual(['answer language=English']);
    expect(facts('所有服务的 Python 版本统一成 3.12。')).toEqual(['python version=3.12']);
  });

  it('a date with a time of day before 前 is a deadline (周四下午三点前)', () => {
    expect(facts('周四下午三点前把周报发出来。')).toEqual(['deadline=2026-03-05']);
  });

  it('a slot word with what it is made of (monitoring stack, DNS 服务商) takes a list of values', () => {
    expect(facts('Our logging stack is Loki plus Promtail.')).toEqual(['logging=Loki', 'log collection=Promtail']);
    expect(facts('我们的告警体系是 PagerDuty 和 Opsgenie。')).toEqual(['alerting=PagerDuty', 'alerting=Opsgenie']);
    expect(facts('The database is MySQL and the cache is Memcached.')).toEqual(['database=MySQL', 'cache=Memcached']);
  });

  it('a cloud named beside a service slot word is that service, elsewhere the cloud provider', () => {
    expect(facts('CDN 服务商是腾讯云。')).toEqual(['CDN=腾讯云']);
    expect(facts('DNS is on Azure now.')).toEqual(['DNS=Azure']);
    expect(facts('服务器都在华为云上。')).toEqual(['cloud provider=华为云']);
  });

  it('a container registry has a slot of its own; 装的是 states what a machine runs', () => {
    expect(facts('Images go to Quay; the container registry is Quay.')).toContain('container registry=Quay');
    expect(facts('镜像仓库用 Harbor。')).toEqual(['container registry=Harbor']);
    expect(facts('测试机装的是 Rocky Linux 9。')).toEqual(['os=Rocky Linux 9']);
  });

  it('a port said by its verb alone, with the service before what holds it (the Postgres box listens on 5433)', () => {
    expect(facts('The Postgres box now listens on 5433.')).toEqual(['postgres port=5433']);
    expect(facts('网关服务现在监听 9443。')).toEqual(['port=9443']);
    expect(facts('The build runs on 16 cores.')).toEqual([]);
  });

  it("a scheduled job's time: 备份每晚 11 点跑, the sync runs nightly at 03:15", () => {
    expect(facts('数据库备份每晚 11 点跑。')).toContain('backup time=23:00');
    expect(facts('The inventory sync runs nightly at 03:15.')).toEqual(['sync time=03:15']);
    expect(facts('I ran the backup at 3am and it failed.')).toEqual([]);
    expect(facts('Does the cleanup start at 04:00?')).toEqual([]);
    // A one-off is an event, not setup (the shared set labels "the upgrade window is 10pm to 1am" with no fact).
    expect(facts('The snapshot starts at 22:00.')).toEqual([]);
  });

  it('a region not to use is not set; a language of a condition is not the answers\' (even when I ask in French)', () => {
    expect(facts('新实例都开在 eu-central-1，不要再开到 eu-west-1。')).toEqual(['region=eu-central-1']);
    expect(facts('Write commit messages in English even if I write in German.')).toEqual(['commit message language=English']);
    expect(facts('哪怕我用粤语问，也用普通话回答。')).toEqual(['answer language=Chinese']);
  });

  it('a runtime pinned without the word version, 版本统一用, a zone word a few words before its zone, tools that are gone', () => {
    expect(facts('Python is pinned to 3.11.9 in the Dockerfile.')).toEqual(['python version=3.11.9']);
    expect(facts('Go 版本统一用 1.23。')).toEqual(['go version=1.23']);
    expect(facts('The time zone for every report is Europe/Berlin.')).toEqual(['timezone=Europe/Berlin']);
    expect(facts('Formatting is Biome now; Prettier and Stylelint are gone.')).toEqual(['formatter=Biome', 'formatter≠Prettier', 'linter≠Stylelint']);
  });

  it('a VPN slot; mail services, cloud load balancers and GitHub Enterprise are known; "write everything in" is a choice', () => {
    expect(facts('办公网 VPN 统一用 ZeroTier。')).toEqual(['vpn=ZeroTier']);
    expect(facts('Company mail moves to Microsoft 365 in June.')).toEqual(['email service=Microsoft 365']);
    expect(facts('入口直接挂一个 CLB。')).toEqual([]);
    expect(facts('入口用 CLB。')).toEqual(['load balancer=CLB']);
    expect(facts('Our code is hosted on GitHub Enterprise.')).toEqual(['code hosting=GitHub Enterprise']);
    expect(facts('Write all the code in Kotlin, please.')).toEqual(['programming language=Kotlin']);
  });

  it('已经下线 drops what is already offline; 再下线 later drops nothing yet', () => {
    expect(facts('告警换成了 Opsgenie，老的 PagerDuty 已经下线。')).toEqual(['alerting=Opsgenie', 'alerting≠PagerDuty']);
    expect(facts('旧的 Jenkins 先留着，下个月再下线。')).toEqual([]);
  });

  it('precision: what 把 moves is not chosen, "still" is no value, hardware is no OS, a child\'s allergy is not the user\'s', () => {
    expect(facts('下季度打算把 Drone 全部迁到 Woodpecker。')).toEqual(['CI=Woodpecker']);
    expect(facts('我们打算把缓存换成 Valkey。')).toEqual(['cache=Valkey']);
    expect(facts('The cache is still Memcached 1.6.')).toEqual(['cache=Memcached 1.6']);
    expect(facts('My workstation is a Dell Precision running Debian 12.')).toEqual(['os=Debian 12']);
    expect(facts('我女儿对芒果过敏。')).toEqual([]);
    expect(facts('对芒果过敏，甜点别放。')).toEqual(['allergy=芒果']);
  });

  it('a language said of another thing in the next clause is not carried (文档可以英文), a negated one is', () => {
    expect(facts('代码注释统一写中文，README 可以英文。')).toEqual(['code comment language=Chinese']);
    expect(facts('Commit messages in English, not Chinese.')).toEqual(['commit message language=English']);
  });

  it('the user\'s phone in a conditional sentence; an API gateway slot word; more ways to drop', () => {
    expect(facts('If the pager fails, ring me on my new number, +33 6 12 34 56 78.')).toEqual(['phone number=+33 6 12 34 56 78']);
    expect(facts('Our API gateway is KrakenD.')).toEqual(['API gateway=KrakenD']);
    expect(facts('We ripped out Zipkin last week.')).toEqual(['tracing≠Zipkin']);
    expect(facts('部署工具用 Ansible，不要再用 SaltStack 了。')).toEqual(['configuration management=Ansible', 'configuration management≠SaltStack']);
    expect(facts('The job queue is Sidekiq; Resque was dropped.')).toContain('task queue≠Resque');
  });

  it("someone else's phone is not the user's (客服电话, the hotel's phone); the user's is", () => {
    expect(facts('售后电话是 400-820-1234，一直占线。')).toEqual([]);
    expect(facts("The landlord's phone is +44 20 7946 0011.")).toEqual([]);
    expect(facts('我的电话换成 13912345678 了。')).toEqual(['phone number=13912345678']);
  });

  it('a product upgraded to a version (Django 升到 5.0), Redis Cluster, 生产库, an on-call tool, docs that live in a wiki', () => {
    expect(facts('Django 升到 5.0 了。')).toEqual(['django version=5.0']);
    expect(facts('会话缓存用 Redis Sentinel。')).toEqual(['cache=Redis Sentinel']);
    expect(facts('线上库是 MySQL 8.4。')).toEqual(['database=MySQL 8.4']);
    expect(facts('Our on-call tool is Opsgenie.')).toEqual(['alerting=Opsgenie']);
    expect(facts('The design docs live in Notion.')).toEqual(['documentation=Notion']);
  });

  it('a name the vocabulary does not know, given its slot: "went with X for search", "switched the queue to X", 迁到了 X', () => {
    expect(facts('We went with Zincite for search.')).toEqual(['search engine=Zincite']);
    expect(facts('We picked Zincite as the search engine.')).toEqual(['search engine=Zincite']);
    expect(facts('Switched the cache to Garnetto.')).toEqual(['cache=Garnetto']);
    expect(facts('消息队列迁到了 Quarkmq。')).toEqual(['message queue=Quarkmq']);
    expect(facts('We use it for search.')).toEqual([]);
    // …but not inside a plan called off.
    expect(facts('Forget the idea of moving search to Zincite.')).toEqual([]);
  });

  it('mixed Chinese and English: drop 了, code 里的 comment, a word before 的 is no value, a switch that names its slot', () => {
    expect(facts('Memcached 我们 drop 了，改用 Valkey。')).toEqual(['cache≠Memcached', 'cache=Valkey']);
    expect(facts('回答用 English，code 里的注释用中文。')).toEqual(['answer language=English', 'code comment language=Chinese']);
    expect(facts('队列跑在 managed 的 RabbitMQ 上。')).toEqual(['message queue=RabbitMQ']);
    expect(facts('We moved DNS from Namecheap to Route 53.')).toEqual(['DNS≠Namecheap', 'DNS=Route 53']);
    expect(facts('The cache moved off Memcached to Valkey.')).toEqual(['cache≠Memcached', 'cache=Valkey']);
    expect(facts('We cancelled Pingdom; monitoring is Grafana now.')).toContain('monitoring=Grafana');
    expect(facts('OS 是 macOS Sequoia。')).toEqual(['os=macOS Sequoia']);
  });

  it('mixed: a story of a failure sets nothing (升级到 22 之后就 fail 了), 我的 email, 保留英文, code examples in X, deadline 是 6/3', () => {
    expect(facts('Python 升级到 3.13 之后 test 就 fail 了。')).toEqual([]);
    expect(facts('我的 email 是 li.na@example.org。')).toEqual(['email=li.na@example.org']);
    expect(facts('专业术语保留英文。')).toEqual(['technical terms language=English']);
    expect(facts('Please give code examples in Scala from now on.')).toEqual(['programming language=Scala']);
    expect(facts('这个 sprint 的 deadline 是 6/3。')).toEqual(['deadline=2026-06-03']);
  });

  it('把 A 换成了 B leaves A, unless planned; swapped A for B; a data warehouse; managed in; 在 X 上跑', () => {
    expect(facts('上周把 Jenkins 换成了 Drone。')).toEqual(['CI≠Jenkins', 'CI=Drone']);
    expect(facts('计划下个月把 Jenkins 换成 Drone。')).toEqual(['CI=Drone']);
    expect(facts('把 Jenkins 换成 Drone 吧。')).toEqual(['CI=Drone']);
    expect(facts('We swapped Memcached for Valkey last month.')).toEqual(['cache≠Memcached', 'cache=Valkey']);
    expect(facts('数仓用的是 StarRocks。')).toEqual(['data warehouse=StarRocks']);
    expect(facts('Our DNS is managed by DNSPod.')).toEqual(['DNS=DNSPod']);
    expect(facts('这个服务在 Jetty 上跑。')).toEqual(['web server=Jetty']);
  });

  it('走 links a slot word to a known product only; a log format slot; Heroku Postgres; review comments have a language', () => {
    expect(facts('告警统一走 PagerDuty。')).toEqual(['alerting=PagerDuty']);
    expect(facts('数据库走内网 IP 连。')).toEqual([]);
    expect(facts('日志格式用 logfmt。')).toEqual(['log format=logfmt']);
    expect(facts('We dropped Heroku Postgres for Supabase.')).toContain('database≠Heroku Postgres');
    expect(facts('Code review comments in English, please.')).toEqual(['code review comment language=English']);
  });

  it('a date with 下班前 after it is a deadline', () => {
    expect(facts('周四下班前把合同发给我。')).toEqual(['deadline=2026-03-05']);
  });

  it('migration tools and date libraries have slots of their own', () => {
    expect(facts('表结构迁移用 Flyway，日期库统一用 Luxon。')).toEqual(['migration tool=Flyway', 'date library=Luxon']);
    expect(facts("Let's stop using Moment.js; Day.js is enough.")).toEqual(['date library≠Moment.js', 'date library=Day.js']);
  });

  it('reads a maybe only in its own clause', () => {
    expect(facts('前端我们一直用 Angular，明年可能会迁到 React。')).toEqual(['frontend framework=Angular']);
  });

  it('follows the new value, not the old one: from/to, instead of, replace, over', () => {
    // What a switch leaves is dropped, beside the value it moves to.
    expect(facts("We're moving from MySQL to Postgres next quarter.")).toEqual(['database≠MySQL', 'database=Postgres']);
    expect(facts('OK, use Caddy instead of Nginx.')).toEqual(['web server=Caddy']);
    expect(facts('Replace Jenkins with Drone CI.')).toEqual(['CI=Drone CI']);
    expect(facts('I prefer tabs over spaces.')).toEqual(['indentation=tabs']);
    expect(facts('把 Redis 换成 Valkey 吧')).toEqual(['cache=Valkey']);
  });

  it('names the slot from a slot word when the value is unknown, or the role it is given', () => {
    expect(facts('消息队列统一用 FooMQ')).toEqual(['message queue=FooMQ']);
    expect(facts('Use Redis as the message queue for now.')).toEqual(['message queue=Redis']);
    expect(facts('Our stack: PostgreSQL 16 as the database.')).toEqual(['database=PostgreSQL 16']);
    expect(facts('编辑器我一直用 Neovim，别的插件就不用推荐了。')).toEqual(['editor=Neovim']);
  });

  it('keeps runtime versions in their own slot and OS versions in the value', () => {
    expect(facts('Prod runs Python 3.13, though the SDK wants 3.11.')).toEqual(['python version=3.13']);
    expect(facts('Node 版本是 22.3.0，Python 版本 3.10。')).toEqual(['node version=22.3.0', 'python version=3.10']);
    expect(facts('把 Python 从 3.9 升级到 3.12 了。')).toEqual(['python version=3.12']);
    expect(facts('我这台 iMac 系统 macOS 13.6。')).toEqual(['os=macOS 13.6']);
    expect(facts('The server runs Ubuntu 22.04 LTS.')).toEqual(['os=Ubuntu 22.04 LTS']);
  });

  it('fills the special slots: budget, deadline, region, answer language and length, name', () => {
    expect(facts('预算控制在 8000 元以内。')).toEqual(['budget=8000 CNY']);
    expect(facts('budget 差不多 $1,200，想换台显示器，Dell 还是 LG？')).toEqual(['budget=1200 USD']);
    expect(facts('Budget is around $2,000, max $2,500.')).toEqual(['budget=2000 USD']);
    expect(facts('Quick note, our deadline slipped to Thursday.')).toEqual(['deadline=2026-03-05']);
    expect(facts('下下周二交报告，截止时间是晚上6点。')).toEqual(['deadline=2026-03-17']);
    expect(facts('Going forward, deploy all of it in ap-southeast-2.')).toEqual(['region=ap-southeast-2']);
    expect(facts('以后请用中文回答，回答简短一点。')).toEqual(['answer language=Chinese', 'answer length=short']);
    expect(facts('Please reply in English and keep replies brief.')).toEqual([
      'answer language=English',
      'answer length=short',
    ]);
    expect(facts('我叫李雷，在杭州做后端。')).toEqual(['name=李雷']);
    expect(facts('My name is Priya and I work on payments.')).toEqual(['name=Priya']);
    expect(facts('时区是 Asia/Shanghai')).toEqual(['timezone=Asia/Shanghai']);
    expect(facts('我对花生过敏，推荐菜的时候注意。')).toEqual(['allergy=花生']);
    expect(facts("I'm vegetarian, so no meat please.")).toEqual(['diet=vegetarian']);
    expect(facts('我住在上海浦东，通勤一小时。')).toEqual(['location=上海浦东']);
  });

  it('reads the log level after its name or before "level", and the user\'s own phone number and email', () => {
    expect(facts('The log level on staging stays at WARN, nothing chattier.')).toEqual(['log level=WARN']);
    expect(facts('日志级别先调成 debug，排查完再改回来。')).toEqual(['log level=DEBUG']);
    expect(facts('Keep the workers at INFO level.')).toEqual(['log level=INFO']);
    // Prose about levels, or a level word in lower case beside a bare "level", sets nothing.
    expect(facts('The error level of the sensor drifted a bit.')).toEqual([]);
    expect(facts('My phone number is +1 415 555 0100.')).toEqual(['phone number=+1 415 555 0100']);
    expect(facts('我的电话是 021-5555-0188。')).toEqual(['phone number=021-5555-0188']);
    // A number only given to be called on is for the moment (blind labellers filed none).
    expect(facts('有事打我电话 021-5555-0188。')).toEqual([]);
    // The words may stand in the clause before, in the same sentence.
    expect(facts('我手机号换了，新的是 139 0000 6613，旧的停机了。')).toEqual(['phone number=139 0000 6613']);
    expect(facts('Email me at Dana.K@example.org with the draft.')).toEqual(['email=dana.k@example.org']);
    // Someone else's number, or an address not said to be the user's, is only an entity.
    expect(facts("The courier's number is 555-0100.")).toEqual([]);
    expect(facts('Invoices come from billing@example.net.')).toEqual([]);
  });
});

describe('corrections and versions', () => {
  it('a corrected value sets nothing; the value it corrects to does', () => {
    expect(facts('更正一下，区域是 eu-central-1，不是 eu-west-1。')).toEqual(['region=eu-central-1']);
    expect(facts('其实是 us-east-2，我刚才打成 us-east-1 了。')).toEqual(['region=us-east-2']);
  });

  it("a product's version said as such: pinned runtimes, and any product with the word version", () => {
    expect(facts('Go 工具链锁在 1.22.4，先别升。')).toEqual(['go version=1.22.4']);
    expect(facts('Our Java version is pinned to 21.0.3.')).toEqual(['java version=21.0.3']);
    expect(facts('Vault 的版本是 1.15.6。')).toEqual(['vault version=1.15.6']);
    // Without the word version, a dotted number linked to the name by 用 / 是 / is.
    expect(facts('Django 用 5.0，别升到 5.1。')).toEqual(['django version=5.0']);
    expect(facts('Our Elasticsearch is 8.11.3 on every node.')).toEqual(['elasticsearch version=8.11.3']);
    expect(facts('Elasticsearch is 2 nodes for now.')).toEqual([]);
  });
});

describe('values named without a decision word of their own', () => {
  it("a drop's replacement, named in the same message, sets the dropped one's slot", () => {
    expect(facts('Redis is out; the sessions live in KeyDB now.')).toEqual(['cache≠Redis', 'cache=KeyDB']);
    expect(facts('监控不用 Nagios 了，换 Prometheus。')).toEqual(['monitoring≠Nagios', 'monitoring=Prometheus']);
  });

  it('a slot word that ends its sentence takes the value the next sentence gives', () => {
    expect(facts('预发环境的消息队列。现在跑的是 RabbitMQ。')).toEqual(['message queue=RabbitMQ']);
    expect(facts('About the issue tracker. We moved it to Plane last month.')).toEqual(['project management=Plane']);
    expect(facts('About the cache. We moved it to the old box.')).toEqual([]);
  });

  it("a dropped product is filed under the slot the message sets when it also fills it, else under its own", () => {
    expect(facts('网关以后统一用 Traefik，Envoy 不用了。')).toEqual(['web server=Traefik', 'web server≠Envoy']);
    expect(facts('数据库用 TiDB，Memcached 不用了。')).toEqual(['database=TiDB', 'cache≠Memcached']);
    expect(facts('Envoy 不用了。')).toEqual(['load balancer≠Envoy']);
  });

  it('a runtime dropped at a version drops that version, and the version it moves to is set', () => {
    expect(facts('Node 16 is EOL for us.')).toEqual(['node version≠16']);
    expect(facts('Python 3.9 不用了，升级到 3.13。')).toEqual(['python version≠3.9', 'python version=3.13']);
  });

  it('db written in lower case is the database slot word; a lower-case product name is still the product', () => {
    expect(facts('the db is mariadb now fyi')).toEqual(['database=mariadb']);
    expect(facts('the db crashed last night')).toEqual([]);
  });

  it('a value that stays is kept; a date something must happen before is the deadline', () => {
    expect(facts('Forget the Pants migration plan, Maven stays.')).toEqual(['build tool=Maven']);
    expect(facts('下周四之前把压测报告交上来。')).toEqual(['deadline=2026-03-12']);
    expect(facts('Please finish the audit by 2026-03-20.')).toEqual(['deadline=2026-03-20']);
    // Something to hand in on a day: 要交, hand in.
    expect(facts('下周一要交毕业设计初稿。')).toEqual(['deadline=2026-03-09']);
    expect(facts('I need to hand in the grant application on Friday.')).toEqual(['deadline=2026-03-06']);
    expect(facts('要交的表格还没打印。')).toEqual([]);
  });

  it('a language the team only writes in, a longer product name, a switch said with 换到', () => {
    expect(facts('别再给我 C# 的写法了，我们只写 Go。')).toEqual(['programming language=Go']);
    expect(facts('We only write Scala on the data team.')).toEqual(['programming language=Scala']);
    expect(facts("We're standardizing on Podman across the fleet.")).toEqual(['container runtime=Podman']);
    expect(facts('Events go to NATS JetStream since March.')).toEqual([]);
    expect(facts('Our message queue is NATS JetStream now.')).toEqual(['message queue=NATS JetStream']);
    expect(facts('缓存从 Memcached 换到 Redis。')).toEqual(['cache≠Memcached', 'cache=Redis']);
    expect(facts('We write tests before the code.')).toEqual([]);
    expect(facts('我们只写单元测试。')).toEqual([]);
  });

  it('a pinned runtime version said with 锁, and UTC named as the time zone', () => {
    expect(facts('Python version 锁 3.12.4。')).toEqual(['python version=3.12.4']);
    expect(facts('Go 版本锁定 1.22，别升。')).toEqual(['go version=1.22']);
    expect(facts('Node 的版本固定 22。')).toEqual(['node version=22']);
    expect(facts('我们的数据库时区都是 UTC。')).toEqual(['timezone=UTC']);
  });
});

describe('ports and bare corrections', () => {
  it("a port sets its service's port slot, or the bare slot when nothing names the service", () => {
    expect(facts('The billing-api listens on port 9100.')).toEqual(['billing-api port=9100']);
    expect(facts("the API's port is 8443")).toEqual(['api port=8443']);
    expect(facts('数据库端口改成 5433。')).toEqual(['database port=5433']);
    expect(facts('端口是 7000。')).toEqual(['port=7000']);
    // A change already made: 改成了.
    expect(facts('Redis 端口改成了 6380。')).toEqual(['redis port=6380']);
  });

  it('no port from a question, a host:port, or a corrected number', () => {
    expect(facts('Is the API on port 8443?')).toEqual([]);
    expect(facts('Open 10.0.0.5:8080 in the browser.')).toEqual([]);
    expect(facts('API 端口是 8443，不是 8080。')).toEqual(['api port=8443']);
  });

  it('a correction naming no slot is kept for working memory, not as a fact', () => {
    expect(run("Actually it's 8444, not 8443.")).toMatchObject({ facts: [], correction: { value: '8444', replaces: '8443' } });
    expect(run('更正一下，是 9091。').correction).toEqual({ value: '9091' });
    expect(run('Actually I think we should wait.').correction).toBeUndefined();
  });
});

describe('drops (unset)', () => {
  it('unsets the dropped value, with its replacement when one is named', () => {
    expect(facts('Memcached 不用了，we will go with a local cache instead.')).toEqual([
      'cache≠Memcached',
      'cache=local',
    ]);
    expect(facts('Jenkins 不用了，换成 FooCI。')).toEqual(['CI≠Jenkins', 'CI=FooCI']);
    expect(facts("Let's drop Redis and use Memcached instead.")).toEqual(['cache≠Redis', 'cache=Memcached']);
    expect(facts('We ditched Travis CI last year and went with CircleCI.')).toEqual(['CI≠Travis CI', 'CI=CircleCI']);
    expect(facts('We moved off Heroku to Fly.io last month.')).toEqual(['hosting≠Heroku', 'hosting=Fly.io']);
    // The slot between the verb and "off": what it moves off is left, as with "from".
    expect(facts('They migrated the search cluster off Solr onto OpenSearch in March.')).toEqual(['search engine≠Solr', 'search engine=OpenSearch']);
  });

  it('an uninstalled tool is dropped, unless it was put back at once (卸了又装)', () => {
    expect(facts('IDE 换成 Zed 了，PyCharm 卸了。')).toEqual(['editor=Zed', 'editor≠PyCharm']);
    expect(facts('I uninstalled PyCharm and switched to Zed.')).toEqual(['editor≠PyCharm', 'editor=Zed']);
    expect(facts('PyCharm 卸了又装，还是启动不了。')).toEqual([]);
  });

  it('unsets without a replacement', () => {
    expect(facts('不考虑 Oracle 了，成本太高。')).toEqual(['database≠Oracle']);
    expect(facts("We don't use Kafka anymore.")).toEqual(['message queue≠Kafka']);
    expect(facts('GraphQL is off the table.')).toEqual(['API style≠GraphQL']);
    expect(facts('Nginx 算了。')).toEqual(['web server≠Nginx']);
  });

  it('needs 了 after 不用 / 不要 X: without it the sentence states a preference, not a drop', () => {
    expect(facts('不用 Redis 了。')).toEqual(['cache≠Redis']);
    expect(facts('以后代码示例都用 TypeScript，不要 JavaScript。')).toEqual(['programming language=TypeScript']);
  });
});

describe('nothing from questions, maybes, hypotheses, negations and stories', () => {
  it.each([
    ['数据库用 MySQL 还是 PostgreSQL 比较好？'],
    ['Should we use Podman or a conda env?'],
    ['Which is better for a small team, Jenkins or GitLab CI?'],
    ['用 Redis 做缓存，可以吗？'],
    ['We use Postgres, right?'],
    ['Using Kubernetes, how do I expose a service?'],
    ['Can you show me how to use Git rebase?'],
    ['我们还在纠结用 Kafka 还是 RabbitMQ。'],
    ['Could you compare Redis and Valkey for caching?'],
    ['帮我对比一下 Caddy 和 Traefik。'],
    ['Maybe we could try Pulumi, not sure yet.'],
    ['如果换成 PostgreSQL，需要迁移多少数据？'],
    ['If we switch to Kubernetes, we need Helm.'],
    ['我们不打算用微服务。'],
    ["I don't want to use MongoDB."],
    ['我用 Docker 部署的时候报错了'],
    ['用 Python 写一个快速排序。'],
    ['预发环境的 Caddy 一直报504'],
    ['改成 off 以后 reload 就失败了'],
    ['你是谁训练出来的？可以访问互联网吗？'],
  ])('%s', (text) => {
    expect(facts(text)).toEqual([]);
  });

  it('still reads a statement next to a question', () => {
    expect(facts('我们现在用 MySQL，要不要换成 PostgreSQL？')).toEqual(['database=MySQL']);
    expect(facts('We use Postgres, should we switch?')).toEqual(['database=Postgres']);
  });
});

describe('vocabulary is configuration', () => {
  it('learns a new product group from data', () => {
    const extractor = createExtractor({
      vocabulary: { products: [...DEFAULT_VOCABULARY.products, { subject: 'coffee', names: ['Flat White'] }] },
    });
    expect(extractor.extract('I prefer Flat White.', '2026-03-04T10:00:00Z').facts).toEqual([
      { subject: 'coffee', value: 'Flat White', op: 'set' },
    ]);
  });
});

describe('switches, kept choices and a product in another of its roles', () => {
  it('drops what a switch leaves, known or not, beside what it moves to', () => {
    expect(facts('We switched the queue from RabbitMQ to NATS last sprint.')).toEqual(['message queue≠RabbitMQ', 'message queue=NATS']);
    expect(facts('文件存储从 GlusterFS 迁到 MinIO。')).toEqual(['object storage≠GlusterFS', 'object storage=MinIO']);
  });

  it('keeps a product whose drop is said as not meant', () => {
    expect(facts("We're not moving off Redis, whatever the ticket says.")).toEqual(['cache=Redis']);
    expect(facts('我没说要放弃 Kafka。')).toEqual(['message queue=Kafka']);
    // A plan kept is a plan, not a product chosen.
    expect(facts('我没说要放弃蓝绿发布方案。')).toEqual([]);
    // A reminder is not a choice.
    expect(facts("Don't forget to restart Redis after the upgrade.")).toEqual([]);
    expect(facts('别忘了重启 Redis。')).toEqual([]);
  });

  it('files a product under a slot it also fills when the message names that slot', () => {
    expect(facts('域名的 DNS 放在 Cloudflare 上。')).toEqual(['DNS=Cloudflare']);
    expect(facts('Static assets go through Cloudflare as the CDN.')).toEqual(['CDN=Cloudflare']);
    expect(facts('Internal DNS is served by CoreDNS.')).toEqual(['DNS=CoreDNS']);
  });

  it('reads the value after "moved to", and an upgrade of everything after a runtime is dropped', () => {
    expect(facts('Monitoring moved to Grafana; Nagios is retired.')).toEqual(['monitoring=Grafana', 'monitoring≠Nagios']);
    expect(facts('Python 3.8 is EOL here, upgrade everything to 3.12.')).toEqual(['python version≠3.8', 'python version=3.12']);
    expect(facts('密钥统一放 Vault，不要写进配置文件。')).toEqual(['secrets management=Vault']);
  });
});

describe('languages: the answers, a piece of work, and a language forbidden', () => {
  it('drops a language the user forbids instead of setting it', () => {
    expect(facts('请不要用英文回答我。')).toEqual(['answer language≠English']);
    expect(facts("Please don't answer in French.")).toEqual(['answer language≠French']);
    expect(facts('Stop replying in German.')).toEqual(['answer language≠German']);
    // A reminder is not a prohibition.
    expect(facts('别忘了用日语回复。')).toEqual(['answer language=Japanese']);
  });

  it('keeps only the set when the message also names the language to use', () => {
    expect(facts('别用英文回复我，用中文。')).toEqual(['answer language=Chinese']);
    expect(facts("Reply in Spanish, don't use English.")).toEqual(['answer language=Spanish']);
  });

  it("files a piece of work's language under its own slot, not the answers'", () => {
    expect(facts('回答用英文就行，文档写中文。')).toEqual(['answer language=English', 'documentation language=Chinese']);
    expect(facts('Keep the commit messages in English.')).toEqual(['commit message language=English']);
    expect(facts('注释统一写英文，不要写中文。')).toEqual(['code comment language=English']);
  });
});

describe('plain 换 and lower-case names in Chinese text', () => {
  it('reads 换 before a product as a switch, but not 换掉 or 换个', () => {
    expect(facts('消息队列换 NATS。')).toEqual(['message queue=NATS']);
    expect(facts('RabbitMQ 不用了，换 NATS。')).toEqual(['message queue≠RabbitMQ', 'message queue=NATS']);
    expect(facts('先换掉 Memcached 再说。')).not.toContain('cache=Memcached');
    expect(facts('换个 MongoDB 的连接池参数试试。')).toEqual([]);
  });

  it('beside Chinese, a product whose name is also an English word counts in lower case, written as the vocabulary writes it', () => {
    expect(facts('依赖管理以后用 poetry，pipenv 不用了。')).toEqual(['package manager=Poetry', 'package manager≠pipenv']);
    expect(facts('新服务都用 rust 写。')).toEqual(['programming language=Rust']);
    // In English text it is the word; and some names stay words even beside Chinese.
    expect(facts('We use poetry in class.')).toEqual([]);
    expect(facts('集群换了三台机器，每个 node 都用 echo 测过。')).toEqual([]);
  });
});

describe('events and when they are', () => {
  it('sets one slot per event, with its date and time, in English and Chinese', () => {
    expect(events('The design review moved to next Thursday at 2pm.')).toEqual(['design review=2026-03-12 14:00']);
    expect(events('OK, retro is on Friday, 4:30pm works for everyone.')).toEqual(['retro=2026-03-06']);
    expect(events('My train to Leeds is tomorrow at 7:15am.')).toEqual(['train=2026-03-05 07:15']);
    expect(events('team lunch 改到下周一中午12点。')).toEqual(['team lunch=2026-03-09 12:00']);
    expect(events('这周的例会挪到周五上午10点。')).toEqual(['regular meeting=2026-03-06 10:00']);
    expect(events('发布会定在3月20日下午2点到4点。')).toEqual(['launch event=2026-03-20 14:00-16:00']);
  });

  it('keeps events out of the labelled facts: a meeting time is not a statement of setup', () => {
    expect(facts('Standup moved to Wednesday at 9am.')).toEqual([]);
    expect(events('Standup moved to Wednesday at 9am.')).toEqual(['standup=2026-03-04 09:00']);
  });

  it('names no event for a clause about time itself, the past, or a value far from the link', () => {
    expect(events('Today is Friday.')).toEqual([]);
    expect(events('It is 3pm already.')).toEqual([]);
    expect(events('The concert was on Saturday.')).toEqual([]);
    expect(events('The shop is open until 9pm.')).toEqual([]);
  });
});

describe("a service's address, like its port", () => {
  it('sets `<service> address` or `<service> url` after an address word, with the service named before it (the database\'s is its host)', () => {
    expect(facts('主库地址改成 10.4.2.8:3307 了。')).toEqual(['database host=10.4.2.8:3307']);
    expect(facts('数据库主机是 10.4.2.9。')).toEqual(['database host=10.4.2.9']);
    expect(facts("The mirror's address is now 10.9.0.12.")).toEqual(['mirror address=10.9.0.12']);
    expect(facts('Jenkins 的访问地址：https://ci.example.org/jenkins')).toEqual(['jenkins url=https://ci.example.org/jenkins']);
    expect(facts("The billing API's base URL is https://pay.example.net/v2.")).toEqual(['api base url=https://pay.example.net/v2']);
  });

  it('names nothing when no service is named, or the words only say what kind of address it is', () => {
    expect(facts('地址是 10.0.0.1。')).toEqual([]);
    expect(facts('机房网关的 IPv6 地址是 fd00::1。')).toEqual([]);
    expect(facts('The IP is 10.1.1.1 now.')).toEqual([]);
  });
});

/**
 * Values a clause sets (facts.ts runs it per clause): a decision word leading to a product (用 / switch to / go with),
 * a slot word naming the value after it (数据库是 MySQL, 缓存换成 Valkey), a product given its role (PostgreSQL 16 as
 * the database), a runtime's version, and a value named by its slot word after it (改用本地缓存).
 */
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import { negationBefore, type Lexicon, type Mark, type ProductMark, type SubjectMark } from './lexicon.ts';
import { hasCjk } from '../../shared/cjk.ts';
import { escapeRegExp } from './text.ts';
import type { EntitySpan, Fact } from './types.ts';

const MAX_GAP = 32;
/** After the object of 把: a verb that moves it elsewhere (把 X 全部迁到 Y). */
const MOVED_AFTER = /^\s*(?:都|全部|全|也|统一)?\s*(?:迁到|迁移到|换成|换到|改成|切到|切换到|搬到|替换成|升级到)/;
/** Slots whose values are all in the vocabulary: an unknown name after their word is something else. */
const KNOWN_VALUES_ONLY: ReadonlySet<string> = new Set(['os']);
const SPECIAL_SUBJECTS: ReadonlySet<string> = new Set(['timezone', 'region', 'budget', 'deadline', 'name', 'location']);
const LIST_JOINER =
  /^\s*(?:(?:for|as)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s*)?(?:,|，|、|and|和|以及|与|及|跟|plus|&|\+|还有|也)\s*(?:用|use)?\s*$/i;
/** Leads that say what the user's project is: the product must follow at once. */
const WHAT_IT_IS = /^(?:(?:our|the)\s+(?:app|project|backend|frontend|site|api|service|website)\s+is|我们的项目是|项目是|我们的\s*app\s*是)/i;
/** Before and after a product the user owns a running instance of: our … cluster / primary, 我们的 … 集群. */
const OWNED_BEFORE = /(?:\bour|我们的?|我司的?)\s*$/i;
const INSTANCE_AFTER = /^\s*(?:cluster|clusters|instance|instances|primary|replicas?|servers?|brokers?|nodes?|集群|实例|主库|从库|节点)(?![A-Za-z])/i;
/** Before a place, says the thing is not there: not on, no longer in, 不在, 没在. */
const NOT_THERE = /(?:\b(?:not|no longer|never)\s+(?:on|in|at)|不在|没在|不再在|不放在)\s*$/i;
/** A runtime's version said with the word runtime right after it: Node 20 runtime, Python 3.12 运行时. */
const RUNTIME_WORD = /^\s*(?:runtime|运行时)(?![A-Za-z])/i;
/** Machines, then a copula, just before an operating system: 服务器都是 …, 这台云服务器是 …, 我这边是 …, "the build box is actually …". */
const MACHINE_IS =
  /(?:服务器|机器|主机|虚拟机|开发机|工作站|笔记本|电脑|节点|这台|我这边|本机|\b(?:servers?|machines?|box(?:es)?|hosts?|VMs?|nodes?|laptop|desktop|workstation))\s*(?:都|全|也|全部|统一|其实|现在|目前|(?:all|also|actually|now|still|currently)\b)?\s*(?:是|用的是|装的是|跑的是|\b(?:is|are|run|runs)\b)\s*(?:(?:actually|now|still|currently)\s+)?(?:on\s+)?$/i;
/**
 * Before an operating system: the user works on it ("I'm running Node 20 on Windows 11", "we develop on macOS", "assume
 * zsh on macOS"), or the user's own thing runs there ("Our web server is Caddy 2.7 on Debian 12").
 */
const USER_WORKS_ON =
  /(?:\b(?:i|i'm|i am|we|we're|we are)\s+(?:(?:all|mostly|still|currently|now)\s+)?(?:running|run|develop|developing|work|working|code|coding|build|building)|\bassume|^\s*(?:our|my)\s(?:[^,;.!?]|\.(?=\w)){0,30}\b(?:is|are|runs?|running|lives?|sits?))\b(?:[^,;.!?]|\.(?=\w)){0,40}\bon\s+$/i;
/** Before a runtime with its version, in a statement of what the user builds: on, in, with, using. */
const ON_RUNTIME = /\b(?:on|in|with|using)\s+$/i;
/** What is built on it, said before it: writing this service in…, a Rails monolith on…, our API runs on…, my analysis in… with. */
const BUILT_ON =
  /\b(?:writ(?:e|es|ing|ten)|built|build(?:s|ing)?|develop(?:s|ed|ing)?|cod(?:e|ed|ing)|runs?|running|monolith|service|app|api|backend|project|stack|analysis|analy[sz](?:e|es|ing)|notebooks?|scripts?|pipelines?|training)\b/i;
/** Just before a runtime with its version: what the user's code is built for. */
const TARGETS = /\btarget(?:s|ed|ing)?\s+$/i;
/** After a product: 上, closing 在 … 上 (我在 Windows 上, 还在 Python 3.9 上). */
const ON_AFTER = /^\s*上/;
/** Before an operating system and 上: the user works there (我在 Windows 上, 我们都在 Mac 上). */
const USER_ON = /(?:我|我们|咱们)(?:都|也|现在|平时|一直)?在\s*$/;
/** Before a runtime with its version and 上: the user's code stands there (还在, 我们的服务都在; not 这个库在). */
const STANDS_ON = /(?:还|都|仍然|依然|我们|我|咱们|项目|repo|代码|服务)[^，,。;；库包]{0,6}在\s*$/i;
/** The user's own: a statement about something else's runtime ("Django 5 runs on Python 3.10") sets nothing. */
const OURS = /\b(?:we|we're|our|ours|i|i'm|my|us)\b/i;
/**
 * After a runtime name: its version said as such (Node 版本是 22.3.0, Go version 1.22, 升级到 3.12, k8s 集群是 v1.28.5; a
 * move from a version is facts-version-moves.ts's).
 */
const VERSION_WORD =
  /^\s*(?:的)?\s*(?:(?:集群|cluster)\s*(?:的)?\s*)?(?:(?:版本号?|version|工具链|toolchain)\s*(?:是|为|统一\s*(?:升到|升级到|改成|改为|用|到)?|:|=|is pinned to|is pinned at|is locked to|is locked at|is|用的是|统一用|用|锁在|pin\s*在|pin\s*到|锁死在|锁死|锁定在|锁定为|锁定|固定在|固定为|固定成|固定|定在|锁|统一成|统一为|统一到|改成|改为|升到|升级到|pinned to|pinned at|locked to|locked at|stays at|stays on)?|(?:(?:我们|我|咱们|这边)\s*)?(?:(?:现在|目前|以后|今后|都|已经|就|全部|统一|还是|先)\s*)*(?:统一用|统一成|统一到|都用|(?:upgrade|upgraded|bump|bumped|升级|升)\s*(?:到|to)|退回到?|回退到|降回到?|(?:rolled|roll) back to|revert(?:ed)? to|downgrad(?:e|ed) to)|用的是|统一用|用|是|:|=|锁在|锁死在|锁死|锁定在|锁定为|固定在|固定为|is pinned to|is pinned at|is locked to|is locked at|pinned to|pinned at|is now on|is now|is on|is running|is|(?:升级到|升到|升级成|换成|改成|改为|统一成|统一为|统一到|降级到|降到|upgraded to|upgrade to|to))\s*(v?\d+(?:\.\d+)*)(?![\w.])(?!\s*(?:年|个|天|月|周|岁|小时|次|%|years?\b|months?\b|days?\b|weeks?\b|times\b))/i;
/** After any other product: its version, said with the word version (Consul 的版本是 1.17.2, the Vault version is 1.15). */
const NAMED_VERSION =
  /^\s*(?:的)?\s*(?:版本号?|version)\s*(?:是|为|:|=|统一用|都是|都用|is pinned to|is locked to|is|用的是|锁在|pin\s*在|pin\s*到|锁死在|锁死|锁定在|锁定为|固定在|固定为|定在|pinned to|pinned at|locked to|locked at)\s*(v?\d+(?:\.\d+)+)(?![\w.])/i;
/** After any other product, its version said without the word version: Rails 用 7.1, our Kafka is 3.6.1 (a dot needed). */
const LINKED_VERSION =
  /^\s*(?:的)?\s*(?:用的是|是|为|用|:|=|is|升到|升级到|upgraded to|锁在|pin\s*在|pin\s*到|锁死在|锁死|锁定在|固定在|stays at|is pinned to|is pinned at|is locked to|is locked at|pinned to|pinned at|locked to|locked at)\s*(v?\d+(?:\.\d+)+)(?![\w.])/i;
/** Just before the tool the user deploys with: "deploy with", "deploys go through", 部署用, deploy 用. */
const DEPLOYS_WITH =
  /(?:\bdeploy(?:s|ed|ing)?\s+(?:everything\s+|it\s+|them\s+)?(?:with|using|via|through)|\bdeploy(?:ment)?s?\s+(?:is|are|goes|go)\s+(?:through|via)|(?<!持续)部署(?:统一|都|全部|还|还是|一直)?(?:在)?(?:用|走|使用|交给)(?:的是)?|\bdeploy\s*(?:用|走)(?:的是)?)\s*(?:the\s+)?$/i;
/** Around the tool the user deploys with, named before the verb: 用 Ansible 部署, "we use Ansible to deploy". */
const DEPLOYS_BY = { before: /(?:用|使用|\buse[sd]?|\busing)\s*$/i, after: /^\s*(?:来|去|做)?\s*(?:部署|发布|上线|\bto\s+deploy\b|\bfor\s+deploy(?:s|ments?)?\b)/i };
/** Just before a product in front of the user's service: "sits behind nginx", "runs behind an AWS ALB". */
const BEHIND = /\b(?:sits?|sitting|runs?|running|is|are|lives?|stays?|(?:put|puts|putting)\s+(?:everything|it|all|them|the\s+\w+|our\s+\w+))\s+behind\s+(?:(?:an?|the|our)\s+)?$/i;
/**
 * After a product, the role it is given: as the queue, 做缓存, for the frontend; "is our (primary) database" says the
 * same of the user's own, and so does 是我们的数据库 (not "is the bottleneck": the slot word must follow).
 */
const ROLE =
  /^\s*(?:as\b|做|当|作为|来做|来当|for\b|用作|用于|(?:is|are)\s+(?=(?:our|my)\b)|是\s*(?=我们的|我的))\s*(?:(?:the|an|a|our|my)\b|我们的|我们|我的)?\s*(?:(?:primary|main|only|default|current)\s+)?/i;
const FILLER = new RegExp(
  // A word for what the slot is made of may follow it: monitoring stack is…, DNS 服务商是…
  '^\\s*(?:(?:stack|setup|provider|vendor)\\b|服务商|提供商|厂商|体系)?' +
  '\\s*(?:的)?\\s*(?:(?:我们|我|咱们|这边|(?:we|i|our team)\\b)\\s*)?' +
    "(?:(?:现在|目前|以后|今后|统一|已经|就|都|先|暂时|还是|则|也|一直|那就|还|仍然|依然|继续|其实|实际上|(?:always|now|currently|will|'ll|just|then|actually)\\b)\\s*)*",
  'i',
);
const DETERMINER = /^\s*(?:(?:an|a|the|our|my)\b|一个|一套|个)?\s*/i;
const UNKNOWN_LATIN = /^[A-Za-z][\w.+#-]*(?:\s+[A-Z0-9][\w.+#-]*){0,2}/;
const UNKNOWN_CJK = /^[\u4e00-\u9fff]{2,8}?(?=[吧了的啊呢就来做，。,.!！?？;；\s]|$)/;
/** A number and its measure word (一台, 两个, 3 台): how many, not which. */
const COUNT_WORD = /^(?:\d+|[一二两三四五六七八九十几多每各])\s*[台个套款部只份种组条根块张位家]/;

/** Entities that say where something is, never which thing it is. */
const ADDRESSES: ReadonlySet<string> = new Set(['hostport', 'url', 'ipv4', 'ipv6', 'email', 'path']);
const STOP_VALUES =
  /^(?:the|a|an|it|this|that|them|to|in|on|at|for|of|and|or|not|too|very|so|all|some|one|what|which|how|is|are|be|defaults?|by|i|i'm|we|we're|you|he|she|they|me|us|yet|now|still|already|anymore|again|later|soon|then|instead)$/i;
/** An error or a state names what happened, not a thing in use: "Sentry 告警：PostgrestException", "告警：OOMKilled". */
const ERROR_NAME = /(?:exception|error|errors|killed|timeout|failed|failure|expired|refused|denied|notfound|panic|backoff)$/i;

/** After a product, the things it qualifies: "for our Python repos", "for the Django services". */
const QUALIFIED_AFTER = /^\s*(?:repos?|repositories|services?|apps?|projects?|code|codebases?|teams?|side|stack|packages?|modules?|workers?|jobs?)\b/i;

/** A product that only says which things are meant: "for our Python repos", "for the Django services". */
export function qualifies(text: string, p: ProductMark): boolean {
  return /\bfor\s+(?:our|the|my|all|all of our)\s*$/i.test(text.slice(Math.max(0, p.start - 16), p.start)) && QUALIFIED_AFTER.test(text.slice(p.valueEnd));
}

/** Decision words that are not cancelled by a negation just before them, nor part of a longer word (用户). */
function liveTriggers(text: string, lexicon: Lexicon): Mark[] {
  const exclusions = lexicon.words('useExclusions', text);
  return lexicon.words('set', text).filter((t) => {
    if (exclusions.some((x) => x.start <= t.start && t.end <= x.end)) return false;
    return !negated(text, t, lexicon);
  });
}

function negated(text: string, trigger: Mark, lexicon: Lexicon): boolean {
  return negationBefore(text, trigger.start, hasCjk(trigger.surface) ? 6 : 24, lexicon);
}

/** What `clause` sets, beside its drops (findFacts passes what they took, so nothing dropped is set). */
export function setFacts(
  clause: Clause,
  products: ProductMark[],
  subjects: SubjectMark[],
  entities: readonly EntitySpan[],
  lexicon: Lexicon,
  inheritedSubject: string | null,
  /** Products a drop or a void topic took: a slot word cannot give them as its value. */
  dropped: readonly ProductMark[] = [],
  /** Spans (in the clause) of the topics it calls off. */
  voided: ReadonlyArray<{ start: number; end: number }> = [],
): Found<Fact>[] {
  const text = clause.text;
  const out: Found<Fact>[] = [];
  const used = new Set<number>();
  const triggers = liveTriggers(text, lexicon);
  const blockerTriggers = new Set(lexicon.words('blockers', text).map((b) => b.start));
  // "to" / "成" lead to a value only after a decision word: migrate from A to B, replace A with B.
  const connectors = lexicon.words('connectors', text).filter((c) => triggers.some((t) => t.end <= c.start));
  const leads = [...triggers, ...connectors].sort((a, b) => a.start - b.start);
  // A decision word reaches a value over a short gap with no "from"/"instead of"/negation in it; past another
  // product only through a list (Pulumi for provisioning and Buildkite), not a new clause (换成 X 之后 Y).
  const reaches = (lead: Mark, p: ProductMark): boolean => {
    const gap = text.slice(lead.end, p.start);
    // 打算把 Jenkins 迁到 Tekton: what 把 takes is what is moved, not the value chosen.
    if (/把\s*$/.test(gap) && MOVED_AFTER.test(text.slice(p.valueEnd))) return false;
    // "Settled on a linter for our Python repos": a product that says which things the choice is for is not the choice.
    if (qualifies(text, p)) return false;
    // Pinning is to a version (pin Node.js 20.11.1); "pinned the tab in Chrome" chooses no browser.
    if (/^(?:pin|锁)/i.test(lead.surface) && p.value === p.surface) return false;
    // "Our app is a Rails monolith" names it at once; "the app is slow on Chrome" says nothing of the browser.
    if (WHAT_IT_IS.test(lead.surface) && gap.trim() !== '') return false;
    // 统一 pnpm, "jobs go through SQS": the product is the whole object. 统一一下 Redis 的 key 命名, "go through the
    // Kafka docs": it only qualifies what follows.
    if (/^(?:统一|go through|goes through|going through|run through|runs through)$/i.test(lead.surface) && !/^\s*(?:了|吧|now\b|first\b|$|[，,。.;；!！?？])/i.test(text.slice(p.valueEnd))) return false;
    if (
      gap.length > MAX_GAP ||
      blockerTriggers.has(lead.start) ||
      lexicon.has('blockers', gap) ||
      lexicon.has('negations', gap)
    )
      return false;
    const between = products.filter((q) => q.start >= lead.end && q.end <= p.start);
    if (between.length === 0) return true;
    const tail = text.slice(between[between.length - 1]!.valueEnd, p.start);
    return LIST_JOINER.test(tail);
  };
  const emit = (subject: string, value: string, at: number): void => {
    if (value.trim() !== '') out.push({ item: { subject, value: value.trim(), op: 'set' }, at: clause.start + at });
  };
  const runtime = (p: ProductMark): { subject: string; version: string } | null => {
    const subject = lexicon.vocabulary.runtimes[p.surface.toLowerCase()];
    const version = p.value.slice(p.surface.length).trim();
    return subject !== undefined && version !== '' ? { subject, version } : null;
  };
  const subjectFor = (p: ProductMark): string => {
    const role = ROLE.exec(text.slice(p.valueEnd));
    const named = role === null ? undefined : subjects.find((s) => s.start === p.valueEnd + role[0].length);
    // "as the queue" names the role; "for CI" only confirms what the product is, so the product wins there, unless
    // the slot named is another the product fills ("Envoy for the API gateway").
    if (named !== undefined && (!/^\s*for\b/i.test(role![0]) || p.alsoFills.some((f) => f.toLowerCase() === named.subject.toLowerCase()))) return named.subject;
    // 我们的 DNS 托管在 Cloudflare: a slot word before it that the product also fills names its role here.
    const also = subjects.find((s) => s.end <= p.start && p.alsoFills.some((f) => f.toLowerCase() === s.subject.toLowerCase()));
    if (also !== undefined) return also.subject;
    // 告警走飞书, "alerts go to Slack": a chat tool the alerts are sent to is their channel.
    if (p.alsoFills.includes('alert channel') && subjects.some((s) => s.end <= p.start && s.subject === 'alerting')) return 'alert channel';
    // "We deploy with Argo CD", 部署用 Ansible, 用 Ansible 部署: the tool the user deploys with, named by that verb.
    const deploysBy = DEPLOYS_BY.before.test(text.slice(Math.max(0, p.start - 8), p.start)) && DEPLOYS_BY.after.test(text.slice(p.valueEnd));
    if ((deploysBy || DEPLOYS_WITH.test(text.slice(Math.max(0, p.start - 24), p.start))) && p.alsoFills.includes('deployment tool')) return 'deployment tool';
    // "The API sits behind nginx": a web server in front of the user's service is its reverse proxy.
    if (BEHIND.test(text.slice(Math.max(0, p.start - 40), p.start)) && p.alsoFills.includes('reverse proxy')) return 'reverse proxy';
    return p.subject;
  };
  const setProduct = (p: ProductMark): void => {
    used.add(p.start);
    const r = runtime(p);
    if (r !== null) emit(r.subject, r.version, p.start);
    else emit(subjectFor(p), p.value, p.start);
  };
  // A runtime's version named as such is a setup statement: Node 版本是 22.3.0, Go version 1.22; so is any other
  // product's, said with the word version: its own `<name> version` slot (Consul 的版本是 1.17.2).
  for (const p of products) {
    const subject = lexicon.vocabulary.runtimes[p.surface.toLowerCase()];
    const v = subject === undefined ? null : VERSION_WORD.exec(text.slice(p.valueEnd));
    if (subject !== undefined && v !== null) {
      used.add(p.start);
      emit(subject, v[1]!, p.start);
      continue;
    }
    // "AWS Lambda, Node 20 runtime", Python 3.12 运行时: the runtime named as such is the setup's.
    const r = runtime(p);
    if (r !== null && RUNTIME_WORD.test(text.slice(p.valueEnd))) {
      used.add(p.start);
      emit(r.subject, r.version, p.start);
      continue;
    }
    // "a Rails monolith on Ruby 3.3", "I'm writing this service in Go 1.22": the runtime what the user builds runs on.
    // "we target Java 11", "the service targets Java 21": the runtime it is built for.
    const before = text.slice(Math.max(0, p.start - 12), p.start);
    const builtOn = ON_RUNTIME.test(before) && OURS.test(text) && BUILT_ON.test(text.slice(0, p.start));
    const targeted = TARGETS.test(before) && (OURS.test(text) || BUILT_ON.test(text.slice(0, p.start)));
    // repo 还在 Python 3.9 上, 我们在 Node 16 上: where the user's code stands.
    const standsOn = STANDS_ON.test(text.slice(Math.max(0, p.start - 16), p.start)) && ON_AFTER.test(text.slice(p.valueEnd));
    if (r !== null && (builtOn || targeted || standsOn)) {
      used.add(p.start);
      emit(r.subject, r.version, p.start);
      continue;
    }
    // "Our API sits behind nginx", "both sit behind Cloudflare": what stands in front of the user's service.
    if (r === null && BEHIND.test(text.slice(Math.max(0, p.start - 40), p.start))) {
      setProduct(p);
      continue;
    }
    const after = text.slice(p.valueEnd);
    const named = subject === undefined && p.value === p.surface ? (NAMED_VERSION.exec(after) ?? LINKED_VERSION.exec(after)) : null;
    if (named !== null) {
      used.add(p.start);
      emit(`${p.surface.toLowerCase()} version`, named[1]!, p.start);
    }
  }
  // A decision word leads to the values after it: 改用 Caddy, go with Pulumi … and Buildkite.
  for (const p of products) {
    if (used.has(p.start)) continue;
    const lead = [...leads].reverse().find((t) => t.end <= p.start);
    if (lead !== undefined && reaches(lead, p)) {
      setProduct(p);
      continue;
    }
    // 集群在阿里云上, hosted on Vercel: where things run is a statement of setup.
    const before = text.slice(Math.max(0, p.start - 6), p.start).trimEnd();
    // ("We're not on Heroku anymore", 不在阿里云上: a place said not to be it is none.)
    const locative =
      lexicon.vocabulary.triggers.locativeSubjects.includes(p.subject) &&
      lexicon.words('locatives', before).some((w) => w.end === before.length) &&
      !NOT_THERE.test(text.slice(Math.max(0, p.start - 16), p.start)) &&
      // ("Nothing runs in GCP", "we don't run anything on AWS": a negated clause puts nothing there.)
      !negationBefore(text, p.start, hasCjk(text.slice(Math.max(0, p.start - 24), p.start)) ? 8 : 24, lexicon);
    // "Our Kafka 3.6 cluster has three brokers", 我们的 Redis 集群: what the user runs, named as theirs.
    const owned = OWNED_BEFORE.test(text.slice(Math.max(0, p.start - 8), p.start)) && INSTANCE_AFTER.test(text.slice(p.valueEnd));
    // 服务器都是 Debian 12, 我这台云服务器是 Ubuntu 22.04: the machines' system named as what they are; 我在 Windows 上:
    // the one the user works on.
    const machines =
      p.subject === 'os' &&
      (MACHINE_IS.test(text.slice(Math.max(0, p.start - 24), p.start)) ||
        // (The clause's start within reach, so a paste of a thousand systems stays linear.)
        (p.start <= 120 && USER_WORKS_ON.test(text.slice(0, p.start))) ||
        (USER_ON.test(text.slice(Math.max(0, p.start - 8), p.start)) && ON_AFTER.test(text.slice(p.valueEnd))));
    // "shell commands for bash rather than zsh": a product preferred to another, by name.
    const preferred = /\bfor\s+$/i.test(before + ' ') && /^\s*(?:rather than|instead of)\s/i.test(text.slice(p.valueEnd));
    if (locative || owned || machines || preferred) {
      setProduct(p);
      continue;
    }
    const after = text.slice(p.valueEnd, p.valueEnd + 24);
    const post = lexicon.words('setAfter', after).find((w) => after.slice(0, w.start).trim() === '');
    // A product given its role is a statement of setup: PostgreSQL 16 as the database, React for the frontend.
    const role = ROLE.exec(text.slice(p.valueEnd));
    const roleNamed = role !== null && subjects.some((s) => s.start === p.valueEnd + role[0].length);
    if (post !== undefined || roleNamed) setProduct(p);
  }
  // A slot word names the value after it: 缓存换成 Valkey, 系统 Ubuntu 24.04, framework 定了 Django.
  for (const s of subjects) {
    let pos = s.end + (FILLER.exec(text.slice(s.end))?.[0].length ?? 0);
    let link = [...lexicon.words('copulas', text), ...triggers]
      .filter((w) => w.start === pos)
      .sort((a, b) => b.end - a.end)[0];
    // "Switched the queue to Redpanda": a decision word just before the slot word, "to" after it.
    const to = link === undefined ? /^\s*(?:over\s+)?(?:to|onto|into)\b/i.exec(text.slice(pos)) : null;
    if (to !== null && triggers.some((t) => t.end <= s.start && text.slice(t.end, s.start).replace(DETERMINER, '').trim() === ''))
      link = { start: pos, end: pos + to[0].length, surface: to[0] };
    if (link !== undefined) pos = link.end;
    // CI moved to Buildkite: after a decision word, "to" only leads to the value; 迁到了: 了 only says it is done;
    // "moved off Akamai to CloudFront": what it left comes first.
    if (link !== undefined && triggers.includes(link)) {
      pos += /^\s*(?:off|from)\s+[^,，;；.。]{1,40}?\s(?=(?:over\s+)?(?:to|onto|into)\b)/i.exec(text.slice(pos))?.[0].length ?? 0;
      pos += /^\s*(?:(?:over\s+)?(?:to|onto|into)\b|了)/i.exec(text.slice(pos))?.[0].length ?? 0;
    }
    // "Search is still Elasticsearch": an adverb after the link is not the value.
    if (link !== undefined) pos += /^\s*(?:(?:still|now|currently|also|already|actually|really)\b|仍然|依然|还是|仍|其实|实际上)\s*/i.exec(text.slice(pos))?.[0].length ?? 0;
    pos += DETERMINER.exec(text.slice(pos))?.[0].length ?? 0;
    if (dropped.some((p) => p.start === pos) || voided.some((v) => v.start <= pos && pos < v.end)) continue;
    const product = products.find((p) => p.start === pos);
    if (product !== undefined) {
      const rest = text.slice(product.valueEnd).replace(/[\s.。!！]+$/, '');
      if (used.has(product.start) || (link === undefined && rest.trim() !== '')) continue;
      setProduct(product);
      // A list after the slot word fills it with each: monitoring is Prometheus plus Grafana.
      let last = product;
      for (const q of products) {
        if (q.start <= last.start || used.has(q.start)) continue;
        if (!LIST_JOINER.test(text.slice(last.valueEnd, q.start))) break;
        setProduct(q);
        last = q;
      }
      continue;
    }
    // 走 links a slot to a product it knows (CI 统一走 Jenkins), not to any word (数据库走 VPN 连: a route).
    if (link?.surface === '走') continue;
    // Slots with rules of their own (time zone, region…) take their values from those rules; an OS is one the
    // vocabulary knows ("my laptop is a ThinkPad": the laptop word names the slot, the value is hardware).
    if (SPECIAL_SUBJECTS.has(s.subject) || KNOWN_VALUES_ONLY.has(s.subject)) continue;
    if (
      link === undefined ||
      entities.some((e) => e.start <= pos && pos < e.end) ||
      negated(text, { ...s, start: pos, end: pos }, lexicon)
    )
      continue;
    // An unknown value must look like a name (TiDB, drone-ci, v2) after "is"; after 用 / switch to any word will do.
    const decided = triggers.includes(link);
    const latin = UNKNOWN_LATIN.exec(text.slice(pos))?.[0];
    const value =
      latin !== undefined
        ? decided || /[A-Z0-9]/.test(latin)
          ? latin
          : undefined
        : decided
          ? UNKNOWN_CJK.exec(text.slice(pos))?.[0].replace(/^的(?=[\u4e00-\u9fff]{2})/, '')
          : undefined;
    // "the repo is at C:\\src": a value never starts with a preposition.
    if (value !== undefined && /^(?:at|in|on|under|inside|from|to|for|of|with|by|via)\b/i.test(value)) continue;
    // "the DB is on port 5433": a port, a version or an address said of the slot is its own slot's value.
    if (value !== undefined && /^(?:port|ports|version|address|host|ip)\b/i.test(value)) continue;
    // 数据库就用一台 MySQL 8.0: a count of machines or things is no value (the product after it is).
    if (value !== undefined && COUNT_WORD.test(value)) continue;
    // 跑在 self-hosted 的 GitLab runner 上: a word before 的 describes what follows; it is not the value.
    const describes = value !== undefined && /^\s*的/.test(text.slice(pos + value.length));
    // 前端的计划先作废: a word that calls something off is no value; "the docs are due May 29": a value over a date is none.
    const voids = value !== undefined && (lexicon.has('dropAfter', value) || lexicon.has('strongDrop', value));
    const overDate = value !== undefined && entities.some((e) => (e.type === 'date' || e.type === 'time') && e.start < pos + value.length && pos < e.end);
    if (value !== undefined && !describes && !voids && !overDate && !STOP_VALUES.test(value) && !ERROR_NAME.test(value) && !lexicon.has('negations', value))
      emit(s.subject, value, pos);
  }
  // A value named by its slot word after it: use a local cache, 改用本地缓存.
  for (const s of subjects) {
    const before = text.slice(0, s.start);
    const lead = [...triggers].reverse().find((t) => t.end <= s.start && before.slice(t.end).length <= 24);
    if (lead === undefined || products.some((p) => p.start >= lead.end && p.end <= s.start)) continue;
    let between = before.slice(lead.end).replace(DETERMINER, '');
    // "went with Quickwit for search", "picked Quickwit as the search engine": a name given its role.
    // (A one-word name may be lower case after "as": "uses tokio as the async runtime"; not "use it as the cache".)
    const role =
      /^([A-Z][\w.+#-]*(?:\s+[A-Z0-9][\w.+#-]*)?)\s+(?:for|as)\s+(?:(?:the|our|a|an)\s+)?$/.exec(between) ??
      /^([a-z][\w.+#-]*)\s+as\s+(?:the|our|an?)\s+$/.exec(between);
    if (role !== null && STOP_VALUES.test(role[1]!)) continue;
    if (role !== null) between = role[1]!;
    // (One Han character between is part of a word, not a value: 选课系统 is a course-selection system.)
    const modifier = /^(?:[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?|[\u4e00-\u9fff]{2,4})\s*$/.exec(between)?.[0].trim();
    if (role === null && modifier !== undefined && /\s(?:for|as)$/i.test(modifier)) continue;
    // "Redis is what we use as the cache": a role's words are no name.
    if (role === null && modifier !== undefined && /^(?:as|for)\b/i.test(modifier)) continue;
    if (modifier === undefined || modifier === '' || /^[\d一二两三四五六七八九十几多]/.test(modifier)) continue;
    // 现阶段用不着 bundler: what is not needed is no value of it.
    if (lexicon.has('negations', modifier)) continue;
    // 部署服务器的系统是…: a word before 的 says whose slot it is (the servers' system), not its value.
    if (modifier.endsWith('的')) continue;
    // 打算把数据库换成…, 想换台 laptop: a function or measure word before the slot word is no value of it.
    // (换台新 laptop: a measure word with 新 or 旧 is none either.)
    if (/^(?:把|将|给|让|对|在|从|跟|和|这个|那个|这|那|所有|全部|台|个|套|款|部|只|份|种|一台|一个|一套|一款)$/.test(modifier)) continue;
    if (/^(?:台|个|套|款|部|只|一台|一个|一套|一款)?(?:新|旧|新的|旧的|好点的?|便宜点的?)$/.test(modifier)) continue;
    // "what we pin in CI", "everything in CI": a preposition ends no name.
    if (/(?:^|\s)(?:in|on|at|to|into|onto|for|of|with|from|by|via|through|inside)$/i.test(modifier)) continue;
    if (lexicon.words('vagueModifiers', modifier).some((w) => w.surface.length === modifier.length)) continue;
    emit(s.subject, modifier, s.start - between.length);
  }
  // After a drop, a new value with no slot word takes the dropped one's slot (Jenkins 不用了，改用 Woodpecker).
  if (inheritedSubject !== null && subjects.length === 0 && out.length === 0 && products.length === 0) {
    // "We moved it to Outline": the pronoun stands for the slot, the value comes after its connector.
    // ("switching error tracking to GlitchTip": the slot named again stands where the pronoun would.)
    const standIn = new RegExp(String.raw`^\s*(?:it|them|this|that|everything|all of it|(?:our\s+)?${escapeRegExp(inheritedSubject)})\s+(?:over\s+)?(?:to|onto|into)\b`, 'i');
    for (const t of triggers) {
      const rest = text.slice(t.end);
      const pronoun = standIn.exec(rest)?.[0].length ?? 0;
      const lead = pronoun + (DETERMINER.exec(rest.slice(pronoun))?.[0].length ?? 0);
      // A version slot takes a version (Python 3.8 不用了，升级到 3.12).
      const value = inheritedSubject.endsWith(' version')
        ? /^v?\d+(?:\.\d+)*(?![\w.])/.exec(rest.slice(lead))?.[0]
        : UNKNOWN_LATIN.exec(rest.slice(lead))?.[0];
      // After a pronoun the value must look like a name (Outline, v2), not a word ("moved it to the old box"); an
      // address is none ("dev server 跑在 localhost:5173" after webpack was dropped).
      const at = t.end + lead;
      if (value !== undefined && entities.some((e) => ADDRESSES.has(e.type) && e.start <= at && at < e.end)) continue;
      // 从 npm 换成 pnpm 了，版本锁在 v9.4.0: a version is the product's, never the tool slot's value.
      if (value !== undefined && !inheritedSubject.endsWith(' version') && /^v?\d+(?:\.\d+)+$/i.test(value)) continue;
      if (value !== undefined && !STOP_VALUES.test(value) && (pronoun === 0 || /[A-Z0-9]/.test(value))) {
        emit(inheritedSubject, value, t.end + lead);
        break;
      }
    }
  }
  return out;
}

/** Words that make a clause a decision, a drop, a question or a maybe. Data only. */

export interface TriggerVocabulary {
  /** Before a value, a decision or a statement of setup: 用, 换成, go with, I'm on. */
  readonly set: readonly string[];
  /** Before a cloud or hosting product, these say where things run (集群在阿里云上, hosted on Vercel). */
  readonly locatives: readonly string[];
  /** Slots that a locative word fills. */
  readonly locativeSubjects: readonly string[];
  /** After a value: 直接 canary release 就行, Postgres it is. */
  readonly setAfter: readonly string[];
  /** Link a slot word to its value: 数据库是 MySQL, database: Postgres. */
  readonly copulas: readonly string[];
  /** After a decision verb earlier in the clause these lead to the new value: migrate from A **to** B. */
  readonly connectors: readonly string[];
  /** Undo a trigger just before it: 不用, don't use, never. */
  readonly negations: readonly string[];
  /** Contain a negation character without negating: 不如用 (better use), 不错. */
  readonly negationExclusions: readonly string[];
  /** Between a trigger and a value these mean the value is the old or rejected one: from, instead of, 代替. */
  readonly blockers: readonly string[];
  /** Words containing 用 that are not "use": 用户, 应用, 费用. */
  readonly useExclusions: readonly string[];
  /** Before an object, it is dropped: drop X, 不用X了, 放弃X, forget X. */
  readonly dropBefore: readonly string[];
  /** These drop only with 了 after the object (不用 Redis 了); without it they state a preference (不要 JavaScript). */
  readonly dropBeforeNeedsLe: readonly string[];
  /** After an object: X不用了, X作废, X is off the table. */
  readonly dropAfter: readonly string[];
  /** These void whatever they name, even an unknown topic: 作废, scrap, 推翻. Others need a product or a topic noun. */
  readonly strongDrop: readonly string[];
  /**
   * An English drop word counts only at the start of its clause, after these; "forget" only as a request, not
   * after a bare pronoun (so "I forget the syntax" is not one).
   */
  readonly dropLeadIns: readonly string[];
  /** Before 忘: the speaker forgot something (我忘了密码), not a request to forget. */
  readonly forgetSubjects: readonly string[];
  /** Nouns that make an object a topic (a plan, an idea), deprecated as a whole rather than unset. */
  readonly topicNouns: readonly string[];
  /** Words that make an object a topic only at its end (灰度那套, not 那套房子). */
  readonly topicEndings: readonly string[];
  /** Stripped from the front of a topic: 上次聊的 Consul 方案 → Consul 方案 (regular-expression sources). */
  readonly topicQualifiers: readonly string[];
  /**
   * Words that point at a topic (那个, this): when a topic is only a generic noun (问题), the phrase from the last of
   * them on is kept, with a time word right before it, and what was before dropped (前面讨论的那个方案 → 那个方案).
   */
  readonly topicPointers: readonly string[];
  /** End an object: and, but, we'll, 改用. */
  readonly objectStops: readonly string[];
  /** Make a clause a question wherever they are (English wh-words count only at the start: "what I said"). */
  readonly questionWords: readonly string[];
  /** A clause starting with these is an English question. */
  readonly questionStarts: readonly string[];
  /** A last clause that is only one of these makes its whole sentence a question (…，可以吗？, …, right?). */
  readonly questionTags: readonly string[];
  /** Make a sentence undecided (还在纠结, still deciding, maybe): no facts. */
  readonly undecided: readonly string[];
  /** Make a sentence hypothetical (如果, if): no facts. */
  readonly conditional: readonly string[];
  /** Hold a conditional word without making a condition: 主要是 (要是), 若干 (若), "even if" (a concession). */
  readonly notConditional: readonly string[];
  /**
   * Open a clause that comments on the one before (…, which is tight but doable if nobody adds scope): a condition
   * that first appears in such a clause colours that clause and those after it, not the statement before it.
   */
  readonly commentStarts: readonly string[];
  /** Make a clause describe the past or a problem, not a choice (以前用, when I use): no set. */
  readonly narrative: readonly string[];
  /**
   * Make a clause about someone else's setup or the user's past elsewhere (隔壁组用的是 X, a friend's startup runs X,
   * 在旧公司用 X 搭过): it sets nothing and drops nothing; a void topic in it still counts.
   */
  readonly notOurs: readonly string[];
  /** Anywhere in a sentence, make all of it undecided: Prometheus 还是 VictoriaMetrics，我还在比较，先别定. */
  readonly undecidedSentence: readonly string[];
  /** Open a sentence the user only heard (听说, I heard): nothing in the whole sentence is the user's own setup. */
  readonly hearsay: readonly string[];
  /** A narrative word inside these names a purpose, not a problem: "Sentry for error tracking", 崩溃上报用 Bugsnag. */
  readonly narrativePurposes: readonly string[];
  /** The user asks to keep what they say: items of the message are pinned. */
  readonly remember: readonly string[];
  /** 用 X 写一个… asks for one piece of work in X, not a standing choice, unless one of `standing` is said too. */
  readonly taskVerbs: readonly string[];
  readonly standing: readonly string[];
  /** Before a slot word these name no value: "use a different cache", "换个新的数据库". */
  readonly vagueModifiers: readonly string[];
  /**
   * After a clause about someone else's setup, the clauses of its sentence that follow are theirs too (作者用 Flask，
   * 部署在 Heroku 上) unless one of these brings the user, a decision or a request back (…，我们用 Pulsar; …，最后定了用
   * Redis; …转给同事，不用太详细).
   */
  readonly ownAgain: readonly string[];
  /** Just before a value that is the old one (原来是 15 万, 从周五): a change word later in the message leads to the new one. */
  readonly oldValueMarkers: readonly string[];
  /** Just before the new value of a change: 提到, 提前到, 升到, "moved to", "bumped to". */
  readonly changeLeads: readonly string[];
  /**
   * A list of the user's setup follows, over the clauses of the sentence ("current stack: next.js 14 frontend; nestjs
   * api; postgres on rds"): each product named in them is set.
   */
  readonly inventoryLeads: readonly string[];
  /** The speaker takes back a value just given: 不对, 记错了, "sorry, actually", "make that" (facts-self-corrected.ts). */
  readonly selfCorrection: readonly string[];
  /** Just before the value that replaces it: 是, 改成, "it's", "make that". */
  readonly correctedValueLeads: readonly string[];
}

export const TRIGGER_VOCABULARY: TriggerVocabulary = {
  set: [
    '用', '使用', '采用', '选用', '改用', '换用', '换成', '换为', '改成', '改为', '切换到', '切换成', '切换为', '切到', '切成',
    '迁到', '迁移到', '迁去', '迁至', '搬到', '选了', '选择了', '选择', '选', '选定', '定了', '定为', '定成', '决定', '打算', '计划',
    '准备', '习惯', '喜欢', '偏好', '偏向', '倾向于', '倾向', '更喜欢', '首选', '部署在', '部署到', '跑在',
    '基于', '引入', '接入', '升级到', '升到', '降级到', '降到', '换回', '改回', '切回', '回到', '部署', '服务器在', '机器在',
    '托管在', '放在', '托管到', '跑的是', '装的是', '换到', '只写', '都写', '只用', '统一放', '一律放', '换', '退回', '退回到', '回退到',
    '降回', '降回到', '存到', '存进', '放到',
    // What the user's setup is now (我们现在是单机 MySQL 8.0, 线上是 Nginx): a product must follow.
    '我们现在是', '我们目前是', '我们这边是', '我们线上是', '我们现在用的是', '目前线上是', '现在线上是', '线上用的是', '生产环境是', '生产上是',
    'use', 'using', 'uses', 'go with', 'going with', 'went with', 'stick with', 'sticking with', 'stick to',
    'stay with', 'stays with', 'stayed with',
    'staying with', 'stay on', 'staying on', 'stays on', 'settle on', 'settled on', 'decided on', 'decide on', 'choose', 'chose', 'chosen',
    'pick', 'picked', 'opt for', 'opted for', 'prefer', 'prefers', 'preferred', 'switch', 'switching', 'switched',
    'move', 'moving', 'moved', 'migrate', 'migrating', 'migrated', 'adopt', 'adopting', 'adopted', 'assume', "i'm on", 'i am on', "i've been on", "we've been on", 'been on for',
    "we're on", 'we are on', 'is on', 'are on', 'running', 'run on', 'runs on', 'runs', 'run', 'we run', 'deploy on',
    'deploy to', 'self-host', 'self-hosting',
    'deployed on', 'deployed to', 'host on', 'hosted on', 'built with', 'build with', 'built on', 'based on',
    'standardize on', 'standardise on', 'standardizing on', 'standardising on', 'standardized on', 'standardised on', 'go for', 'going for', 'rely on', 'keep using', 'hosted in', 'is hosted on',
    'servers are in', 'servers are on', 'lives on', 'live in', 'lives in', 'live on', 'managed in', 'is managed in', 'managed by', 'is managed by', 'written in', 'built in', 'coded in', 'implemented in', 'upgrade to', 'upgraded to', 'served by', 'upgrade everything to', 'upgrade it to', 'upgrade them to',
    'upgrading to', 'downgrade to', 'downgraded to', 'replace', 'replacing', 'replaced', 'switch back to',
    'go back to', 'revert to', 'roll back to', 'rolled back to', 'rolling back to', 'reverted to', 'reverting to',
    'went back to', 'going back to', 'switched back to', 'switching back to', 'moved back to', 'deploy', 'deploys', 'deployed', 'deploying', 'keep', 'keeping',
    // Formatting and linting with a tool: "format everything with Black", "lint with Ruff".
    'format with', 'format everything with', 'format it with', 'format the code with', 'format code with', 'format all code with', 'formatted with', 'formatting with',
    'lint with', 'lint everything with', 'linted with', 'linting with',
    // A style or tool the team keeps to: "for Python style we follow Black".
    'we follow', 'i follow',
    'only write', 'we write', 'only use', 'write everything in', 'write all code in', 'write all the code in',
    'write all our code in', 'moves to', 'code examples in', 'all code examples in',
    '上了', '统一', 'go through', 'goes through', 'going through', 'run through', 'runs through', 'serve everything through', 'serve through',
    'served through', 'serves through', 'serve it through', 'route everything through', 'routed through',
    '一直是', 'stack:', 'tech stack', 'our stack is', '技术栈', '技术栈是', '技术选型是',
    'our app is', 'our app is a', 'our app is an', 'the app is', 'the app is a', 'our project is', 'our project is a',
    'our backend is', 'our frontend is', 'our site is', 'our api is', 'our api is a', 'the api is a', 'our service is a', 'our website is', '我们的项目是', '项目是', '我们的 app 是', '我们的app是',
    'pin', 'pins', 'pinned', 'pinning', 'pinned to', 'pin to', 'pinned at', 'locked to', '锁定在', '锁定到', '锁在', '锁死在', '固定用',
    '直接上', '全部上', '都上', '改上', '就上', 'pay for',
  ],
  locatives: ['在', '跑在', '放在', '部署在', 'on', 'in', 'at', 'onto'],
  locativeSubjects: ['cloud provider', 'hosting', 'region'],
  setAfter: [
    '就行', '就好', '就可以', '就够了', '够用了', '足够了', '即可', '吧', '好了', 'it is', 'is fine', 'is the choice', 'wins', 'for now',
    'is enough', 'is good enough', 'will do', 'should be enough', 'should do', 'works for us', 'is our pick', 'stays',
    'remains', '留着', '照旧', '上跑', '上运行', '上面跑', 'is what we run', 'is what we use', 'is what we use for', 'is what we run for',
    'sits in front of', 'is in front of', 'handles our', 'handles all our',
    // Self-hosted: Prometheus 是我们自己搭的, "Grafana is self-hosted".
    '是我们自己搭的', '是自己搭的', '是我们自建的', '是自建的', '是我们自己部署的', '是自己部署的', '是我们自己维护的', 'is self-hosted',
    'is self hosted', 'is self-managed',
  ],
  copulas: ['是', '为', '用的是', '选的是', '定的是', '选定的是', '敲定的是', '定下来的是', '走', '定', ':', '=', 'is', 'will be', "'s", 'are', 'should be', 'has always been', 'have always been', 'is still', 'are still'],
  connectors: ['to', 'into', 'with', 'onto', '成', '为', '到', '至'],
  negations: [
    '不', '别', '没', '没有', '不要', '不想', '不再', '未', '无需', '不必', '甭', '勿', '禁止', '拒绝',
    "don't", 'do not', "doesn't", 'does not', "didn't", 'did not', 'never', 'not', 'no longer', "won't", 'will not',
    "can't", 'cannot', "shouldn't", "wouldn't", 'stop', 'avoid', 'without', 'instead of', 'rather than',
    // "Haven't moved to Node 20 yet", "I don't like … bullet points".
    "haven't", 'have not', "hasn't", 'has not', "don't like", 'dislike', 'hate',
    // "Nothing runs in GCP", "none of our services use Kafka".
    'nothing', 'none of',
  ],
  negationExclusions: [
    'nothing but', 'nothing else', 'nothing fancy', 'nothing special',
    '不如', '不错', '不管', '不过', '不然', '要不', '不妨', '不了解', '不知道', '不太懂', '不会的话', '不熟', '不同', '不少', '不久', '不断', '不仅', '不一定',
    '不得不', '不止', '别忘', '不要忘', '不忘', "don't forget", 'do not forget', 'never forget',
  ],
  blockers: [
    'from', '从', 'instead of', 'rather than', '而不是', '而非', '不是', '代替', '替代', '取代', '替换', '替掉', 'than', 'over',
    'vs', 'vs.', 'versus', '比', '相比', '对比', 'replace', 'replacing', 'replaced', 'not', '除了', 'except', 'without',
    'but', '但', '但是', '而', 'however', '还是说',
  ],
  useExclusions: [
    // (测试 holds no 用: listed so that the scan takes it whole and 试用 cannot match across 单元测试用 pytest.)
    '测试',
    '用户', '应用', '费用', '作用', '可用', '有用', '没用', '通用', '专用', '常用', '实用', '用途', '用量', '用法', '用例', '用时',
    '信用', '使用率', '占用', '调用', '引用', '复用', '启用', '禁用', '备用', '试用', '适用', '用处', '用于', '用来', '租用',
    '挪用', '滥用', '耗用', '利用', '运用', '采用率', '用完', '用光', '用尽', '享用', '食用', '服用', '用心', '用功', '用力',
    '上午', '上面', '上述', '上次', '上个', '上周', '上月', '上线', '上传', '马上', '线上', '以上', '晚上', '早上', '网上',
    '上网', '上班', '上来', '上去', '上升', '上涨', '上限', '上下', '加上', '身上', '路上', '上游', '上架', '上报', '上层',
    '还是说', '还是不', '统一下', '习惯了', '计划中', '换掉', '替换', '交换', '换行', '转换', '换算', '兑换', '更换掉', '换个', '换一个',
    '换一下', '换人',
    // "assume zsh" asks the answers to; "suggestions that assume Kafka", "don't assume Docker" choose nothing.
    'that assume', 'which assume', "don't assume", 'do not assume', 'never assume', 'assume that', 'assume you', 'assume i',
  ],
  dropBefore: [
    '不用', '不再用', '不再使用', '别用', '不要用', '去掉', '去除', '删掉', '移除', '弃用', '停用', '放弃', '取消', '忘掉', '忘记',
    '忘了', '不考虑', '推翻', '废弃', '撤销', '作废', '抛弃', '丢掉', '扔掉', '干掉', '砍掉', '下掉', '拿掉', '不要',
    '别管', '不用管', '不要再用', '别再用', '不打算用', '不打算再用', '不准备用', '不准备再用',
    'drop', 'dropping', 'stop using', 'no longer use', 'no longer using', 'no longer on', 'no longer self-host', 'stopped self-hosting', 'no longer run', 'no longer running', 'get rid of', 'getting rid of', 'ditch',
    'ditching', 'remove', 'removing', 'abandon', 'abandoning', 'forget', 'forget about', 'scrap', 'scrapping',
    'scratch', 'discard', 'ignore', 'disregard', 'never mind', 'nevermind', 'cancel', 'kill', 'toss', 'throw out',
    'move away from', 'moving away from', 'phase out', 'retire', 'rip out', 'dropped', 'ditched', 'removed',
    'abandoned', 'scrapped', 'got rid of', 'moved away from', 'stopped using', 'phased out', 'retired', 'killed',
    'moved off', 'move off', 'moving off', 'migrated off', 'migrate off', 'migrating off', 'skip', 'nvm',
    'not going ahead with', 'not moving forward with', 'not going forward with', "won't go ahead with",
    'uninstalled', 'uninstalling', 'cancelled', 'canceled', 'delete', 'deleted', 'shelve', 'shelved', 'ripped out', 'ripping out', "don't bother with", 'do not bother with',
    // What the user said before, taken back: "forget everything I said about the Aurora migration".
    'forget everything i said about', 'forget what i said about', 'ignore what i said about', 'ignore everything i said about',
    'disregard what i said about', 'disregard everything i said about', 'forget all that about',
  ],
  dropBeforeNeedsLe: ['不用', '不要', '别用', '不要用', '不想用', '不要再用', '别再用', '不打算用', '不打算再用', '不准备用', '不准备再用'],
  dropAfter: [
    '不用了', '就不用了', '先不用了', '也不用了', '不要了', '不需要了', '不用', '作废', '作废了', '算了', '就算了', '不算', '不算数',
    '放弃', '先放弃', '放弃了', '取消', '取消了', '不考虑了', '先不考虑', '推翻', '弃用', '停用', '废掉', '废弃', '废弃了', '作罢',
    '不做了', '先搁置', '搁置', 'drop 掉', 'drop掉', '撤回', 'forget it', 'forget about it',
    '别用了', '别再用了', '不要用了', '不要再用了', '不再用了', 'cancel 了', 'cancel了', 'cancel 掉', 'cancel掉',
    // Shelved, retired, uninstalled (卸了又装 is not: drops.ts).
    '先放一放', '放一放', '先放放', '先放一边', '不搞了', '先不搞了', '不弄了', '先不弄了', '先不管了', '不管了', '就不管了', '退役', '退役了', '不再维护', '不维护了',
    '停止维护', '卸了', '卸载了', '卸掉了', '已卸载', '已经 decommission 了', 'decommission 了', 'decommission了', '已经 decommission',
    // Not renewed: 那套明年到期就不续了.
    '不续了', '不续费了', '不再续费', '不续约了', '不再续约',
    // Taken back as if never said: 调岗的事当我没说.
    '当我没说', '就当我没说', '当我没说过', '就当我没说过', '当我没提', '就当我没提', '当我没问', '就当我没问',
    'cancel 掉', 'cancel掉', '取消掉', '先 cancel', '先cancel', 'scrap 掉', 'scrap掉', 'kill 掉', 'kill掉', '砍掉',
    // Put on hold, taken offline for good (已经下线: a future 再下线 is no drop yet).
    'hold 住', 'hold住', '先 hold 住', '先不排期', '不排期', 'forget 吧', 'ignore 吧', 'ignore 掉', 'ignore掉', 'forget 掉', 'forget掉', 'shelve 掉', 'shelve掉', 'drop 了', 'drop了', 'is shelved', 'is on hold', 'are on hold', '已经下线', '已下线', '已经下线了',
    'is off the table', 'is off', 'is cancelled', 'is canceled', 'is dead', 'is out', 'is void', 'is scrapped',
    'is dropped', 'is no longer needed', "isn't needed anymore", 'is not needed anymore', 'is gone', 'are gone', 'are out', 'are dropped', 'was dropped', 'were dropped', 'got dropped', 'was removed', 'is retired', 'are retired', 'can go',
    'is decommissioned', 'was decommissioned', 'has been decommissioned', 'is being decommissioned',
    // On its way out: "Redis is being dropped once the cutover is done".
    'is being dropped', 'are being dropped', 'is getting dropped', 'will be dropped', 'is being retired', 'are being retired', 'will be retired',
    'is being phased out', 'are being phased out', 'is being removed', 'is going away',
    'is history', 'no longer applies', "doesn't apply anymore", 'anymore', 'is eol', 'is end of life', 'is end-of-life',
  ],
  strongDrop: [
    '作废', '推翻', '废弃', '撤销', '不算数', '不算', 'scrap', 'scrapping', 'scratch', 'is void', 'is off the table', 'disregard',
    'is scrapped', 'no longer applies', "doesn't apply anymore", 'is decommissioned', 'was decommissioned', 'has been decommissioned',
    '当我没说', '就当我没说', '当我没说过', '就当我没说过', '当我没提', '就当我没提',
    'forget everything i said about', 'forget what i said about', 'ignore what i said about', 'ignore everything i said about',
    'disregard what i said about', 'disregard everything i said about', 'forget all that about',
  ],
  dropLeadIns: [
    'please', 'just', 'ok', 'okay', 'so', 'and', 'actually', 'also', 'oh', 'hmm', 'then', "let's", 'let us', "we'll",
    'we will',
    "we're", 'we are', 'we can', 'we should', 'we need to', 'we have to', "i'll", 'i will', "i'm", 'i am', 'going to',
    'gonna',
    'decided to', 'want to', 'wanna', 'now', 'yeah', 'yes', 'no', 'well', 'alright', 'right', 'hey', 'sorry', 'wait',
    'honestly', 'guys', 'team', 'btw', 'also', 'instead', 'totally', 'completely', 'can you', 'could you', 'you can',
    'we', 'i', 'they', 'the team', 'our team', 'we just', 'we finally', 'we already', 'we have', "we've", 'i have',
    "i've",
    'finally', 'already', 'last year', 'recently', 'fyi', 'btw,', 'heads up', 'heads-up', 'quick update', 'update:', 'psa', 'note:',
  ],
  forgetSubjects: ['我', '我们', '他', '她', '你', '咱', '都', '又', '差点', '竟然', '居然'],
  topicNouns: [
    '方案', '计划', '想法', '思路', '主意', '提议', '建议', '设计', '需求', '问题', '要求', '话题', '讨论', '结论', '决定', '安排',
    '消息', '那句话', '那段', '版本', '路线', '架构方案', '选型', '事', '事情', '部分', '配置',
    'idea', 'ideas', 'plan', 'plans', 'approach', 'proposal', 'suggestion', 'design', 'question', 'request',
    'requirement', 'message', 'topic', 'option', 'solution', 'strategy', 'decision', 'discussion', 'thread', 'part',
    'draft', 'spec', 'route', 'thing', 'issue', 'baseline', 'experiment', 'poc', 'prototype', 'ticket', 'notes', 'note', 'integration', 'stuff', 'one', 'what i said', 'what we said', 'what i just said', 'what i told you', 'what i mentioned', 'feature', '功能',
    'migration', 'upgrade', 'rollout', 'rewrite', 'refactor', 'refactoring', 'redesign', 'pilot', '迁移', '升级', '重构', '改造',
    'trip', 'vacation', 'holiday', '行程', '旅行计划', '出行计划',
  ],
  topicEndings: ['那套', '这套', '那一套', '这一套', '那些', '这些', '那个', '这个', '那条路', '这条路', '那条路线', '这条路线'],
  topicQualifiers: [
    '^(?:我们|我|咱们)?(?:之前|刚才|刚刚|前面|上面|早先|原来|原先|先前|昨天|前天|今天|上午|早上|上次|上回|上周|上个月)?(?:说|提|问|讨论|聊|定|商量|想|做)(?:过)?的',
    // 让你帮我规划的 Japan road trip, 问你的那个…问题: who asked whom, before the topic.
    '^(?:让你|请你|叫你|问你|问过你|跟你说|和你说|给你|你帮我|你给我)(?:帮我|给我)?[\\u4e00-\\u9fff]{0,4}?(?:过)?的',
    '^(?:我们|我|咱们)(?:之前|刚才|刚刚|前面|上面|原来|原先|先前)', '^(?:之前|刚才|刚刚|前面|上面|原来|原先|先前|上次|上回|上周|昨天|前天|上个月)的?',
    // (Not the 这 of a time: 这周六去杭州的计划 keeps 这周六.)
    '^(?:那个|这个|那套|这套|那种|这种|那条|这条|那段|这段|那句|这句|那些|这些|整个|那|这(?![周月次回年天季学礼]))', '^(?:the|a|an)\\s+',
    '^(?:whole|entire|previous|earlier|old|original|last)\\s+',
    '^(?:that|this|those|these|my|our|your)\\s+',
    '^what (?:i|we) (?:just )?(?:said|told you|mentioned|wrote)(?: (?:earlier|before|yesterday|last time))?(?: about)?\\s*',
    '\\s+(?:earlier|before|just now|for now|again|from before|from earlier|from yesterday)$',
  ],
  topicPointers: [
    '那个', '这个', '那套', '这套', '那种', '这种', '那条', '这条', '那段', '这段', '那句', '这句', '那些', '这些', 'that', 'this', 'those',
    'these',
  ],
  objectStops: [
    '了', '吧', '啊', '呀', '嘛', '就', '改用', '换成', '改成', '直接', '然后', '先', '用', '，', '。', '；',
    'and', 'but', 'we', "we'll", "let's", "i'll", 'so', 'because', 'since', 'then', 'instead', 'for now', '—',
    'in favor of', 'in favour of', 'for', 'as', 'to', 'onto', 'please', 'entirely', 'completely', 'altogether',
    // Who made it: "scrap that meal plan you wrote", "ignore the script I sent" (the thing is what comes before).
    'you wrote', 'you made', 'you gave me', 'you suggested', 'you proposed', 'you drafted', 'you sent', 'you came up with',
    'i wrote', 'i sent', 'i gave you', 'i pasted', 'i shared',
    // Where it is dropped from: "drop the Elasticsearch cluster from the plan" drops the cluster, not a plan.
    'from the plan', 'from our plan', 'from the roadmap', 'from the stack', 'from our stack', 'from the design', 'from the architecture',
  ],
  questionWords: [
    '吗', '呢', '什么', '怎么', '怎样', '怎么样', '如何', '为什么', '为啥', '哪', '谁', '多少', '是否', '要不要', '能不能',
    '可不可以', '行不行', '好不好', '对不对', '是不是', '有没有', '会不会', '该不该', '用不用', '需不需要', '可以吗',
    '请问', '咋', '啥', '何时', '哪个', '哪种', '还是说', '难道',
    'any idea', 'anyone know', 'any suggestions', 'thoughts on', 'wondering whether', 'wondering if',
    'not sure whether',
    'how to', 'how do i', 'how do we', 'how can i', 'how can we', 'how should', 'show me how', '怎么用', '如何使用', '如何用',
  ],
  questionStarts: [
    'should', 'shall', 'can', 'could', 'would', 'will', 'do', 'does', 'did', 'is', 'are', 'was', 'were', 'which',
    'what',
    'how', 'why', 'when', 'where', 'who', 'have', 'has', 'may', 'might', 'any', 'whats', "what's", "how's", 'is it',
  ],
  questionTags: [
    '可以吗', '行吗', '好吗', '对吗', '对不对', '怎么样', '如何', '是吧', '对吧', '行不行', '好不好', '可以不', '呢', 'ok', 'okay', 'right',
    'correct', 'yes', 'no', 'thoughts', 'makes sense', 'good idea', 'sound good', 'sounds good', 'agree',
  ],
  undecided: [
    '还在考虑', '在考虑', '考虑一下', '还没定', '还没决定', '没想好', '没定', '犹豫', '纠结', '不确定', '拿不准', '还在想', '待定', '再看看',
    '试试', '试一下', '试试看', '或者', '或是', '可能', '也许', '或许', '说不定', '要么', '二选一',
    'still deciding', 'not sure', 'undecided', "haven't decided", 'have not decided', 'not decided', 'torn between',
    'considering', 'thinking about', 'thinking of', 'maybe', 'perhaps', 'might', 'possibly', 'either',
    'not yet decided', "we'll decide", 'we will decide', 'decide later', 'decide on it later', 'to be decided', '以后再定', '回头再定', '之后再定', '再决定',
    'deciding between', 'choosing between', 'evaluating', 'comparing', 'compare', 'try', 'trying', 'tbd', 'or',
    '比较一下', '对比一下', '比一比',
    // Someone's proposal is not yet a decision ("Dan suggested we swap pip for uv"; 领导提议换成 Doris).
    'suggested', 'suggests', 'proposed', 'proposes', 'is pushing for', 'wants us to', '提议', '建议我们', '建议换', '建议改',
  ],
  conditional: [
    '如果', '要是', '假如', '假设', '万一', '的话', '若', 'if', 'unless', 'in case', 'suppose', 'supposing', 'assuming', 'what if',
    // Wishes about what was not chosen: 真希望当初选的是 X, "I wish we had X".
    '真希望', '早知道', '当初要是', '要是当初', 'i wish we', 'i wish i', 'wish we had', 'if only',
  ],
  notConditional: [
    '主要是', '需要是', '只要是', '重要是', '重要的是', '若干', 'even if',
    // Offers, not conditions on what is said: "(its IPv6 is …, if you need it)", 需要的话.
    'if you need it', 'if you need them', 'if needed', 'if you want it', 'if that helps', 'if it helps', 'if possible', 'if necessary',
    'if that matters', 'if it matters', '如果需要的话', '如果有需要', '需要的话', '有需要的话',
  ],
  commentStarts: ['which', 'which is', 'though', 'although', 'but', 'and that', 'that is', 'that\'s', '不过', '但是', '但', '虽然', '只是'],
  narrative: [
    '以前', '之前用', '原来用', '之前一直', '以前一直', '原来一直', '曾经', '过去', '当时', '的时候', '时候', '报错', '出错', '失败', '挂了', '挂过', '出过', '崩了', '崩过', '卡住', '卡在',
    '做了个', '做了一个', '写了个', '写了一个', '试了', '试过', '用过', '试着', '尝试着',
    'used to', 'previously', 'back then', 'when i', 'when we', 'while', 'error', 'errors', 'fails', 'failed', 'crash',
    'crashes', 'crashed', 'broken', 'breaks', 'stuck', 'times out', 'timed out', 'timing out',
    // Mixed: 升级到 22 之后 build 就 fail 了 (a story of a failure, like 失败).
    'fail 了', 'fail了', '就 fail', 'broke 了', 'crash 了',
    // 升级到 X 之后就开始报 KeyError: what went wrong after a change, not a choice.
    '开始报', '就报了', '老是报', '一直报', '总是报',
    // What will not run or connect: 在 Windows 上跑不起来 is a failure on it, not a choice of it.
    '跑不起来', '跑不了', '跑不通', '起不来', '启动不了', '装不上', '连不上', '用不了', "won't run", "won't start",
    "doesn't run", "doesn't start", "can't connect", "won't connect",
  ],
  notOurs: [
    '隔壁组', '隔壁团队', '隔壁部门', '隔壁公司', '别的组', '别的团队', '别的部门', '其他团队', '其他部门', '别的公司', '别家公司', '别家',
    '隔壁', '同事', '他那边', '她那边', '朋友', '同学', '旧公司', '上家公司', '前公司', '老东家', '上一家公司', '以前的公司', '之前的公司', '他们公司', '他们组', '他们团队',
    '他们那边', '客户那边', '客户那里', '客户的', "the client's", "our client's", "a client's", "the customer's", '他们 team', '他们的', '她们的', 'their team', 'their stack', 'their setup', '人家', '竞品', '搭过', '做过', '作者', '博主', '博客', '博文', '一篇文章', '文章里', '他们把', '他们用', '他们换', '他们在用', 'team 那边', '组那边',
    'the author', "the author's",
    '上说', '上面说', 'according to', 'says that', 'per the docs', 'per the documentation', 'the docs say', 'the docs said', '文档说',
    '文档里说', '官方文档',
    '有人', 'someone', 'somebody', 'runs their', 'run their', 'their own',
    '教程', '课程里', '书上', '书里', '视频里', '示例项目', 'tutorial', 'tutorials', 'the course', 'the book', 'the guide', 'this guide',
    'blog post', 'the sample project',
    "a friend's", 'a friend', 'my friend', "my friend's", 'friends', 'another team', 'other teams', 'the other team',
    'previous company', 'former company', 'previous job', 'last company', 'old company', 'ex-company', 'previous employer',
    'another company', 'other companies', 'my old company', 'my previous company', 'my last company', 'my old job',
    'my previous job', 'my last job', 'his team', 'her team', 'their team', "his company", "her company", "a colleague's",
    "my colleague's", 'a colleague', 'my colleague', 'my teammate', "my teammate's", 'a teammate', "a teammate's", 'my coworker', "my coworker's", "a coworker's", 'a competitor', "competitor's", 'competitors', 'years ago',
    'my roommate', "my roommate's", "my wife's", "my husband's", "my partner's", "my brother's", "my sister's", "my dad's",
    "my mom's", "my boss's", 'my cousin', "my cousin's", 'my neighbor', "my neighbor's", 'my neighbour', "my neighbour's",
    'my uncle', "my uncle's", 'my aunt', "my aunt's", '表哥', '表姐', '表弟', '表妹', '堂哥', '堂姐', '邻居', '室友的', '我室友', '我老婆的', '我老公的', '我哥的', '我姐的', '我弟的', '我妹的', '我爸的', '我妈的',
  ],
  hearsay: ['听说', '据说', '听人说', 'i heard', 'i hear', 'heard that', 'rumour has it', 'rumor has it', 'apparently'],
  undecidedSentence: ['先别定', '还没拍板', '没拍板', '还没敲定', '还没最终定', "hasn't signed off", "haven't signed off", 'not signed off', '还没想好', '还在比较', '还在 compare', '还在compare', '还在对比', '还没 decide', '还没decide', '还在 decide', '还在decide', '在 decide 中', '没 decide', '还没最终 decide', '还没最终decide', '还没最终决定', '还在争', '还在吵', '还在讨论', '还在纠结', 'still deciding', 'still weighing', "we're weighing", 'we are weighing', "i'm weighing", 'torn between', 'still debating', 'still arguing', 'still discussing', "haven't decided", 'not decided yet', 'undecided',
    // A change asked for and waiting on approval: 申请把 Redis 升到 7.2，下周审批, "pending approval".
    '待审批', '等审批', '审批中', '审批通过后', '审批下来', '待批', '批下来再说', '等批复', 'pending approval', 'awaiting approval', 'waiting for approval', 'once it is approved', "once it's approved"],
  narrativePurposes: [
    'error tracking', 'error reporting', 'error monitoring', 'error handling', 'error logging', 'error logs', 'error alerts',
    'error pages', 'error budget', 'error tracker', 'error trackers', 'error monitor', 'crash reporter', 'for errors', 'for error', 'crash reporting', 'crash reports', 'crash tracking',
    'errors go to', 'errors are sent to', 'errors land in', 'crashes go to',
    '报错监控', '报错收集', '报错上报', '报错告警', '崩溃上报', '崩溃收集', '崩溃监控', '失败重试', '失败告警',
  ],
  vagueModifiers: [
    'new', 'different', 'another', 'other', 'better', 'same', 'some', 'any', 'proper', 'real', 'separate', 'single',
    'good', 'simple', 'simpler', 'faster', 'cheaper', 'bigger', 'smaller', 'default', 'our', 'my', 'your', 'their',
    'this', 'that', 'the', 'a', 'an', 'one', 'more', 'less', 'second', 'extra', 'own', 'old', 'current', 'existing',
    'all', 'all our', 'all the', 'all my', 'every', 'both', 'our own', 'its', 'these', 'those', 'primary', 'secondary', 'main',
    'default', 'backup', 'fallback', 'standby', 'whole', 'entire', 'same', 'shared',
    '新的', '新', '别的', '其他', '其它', '另一个', '另外的', '一个', '个', '这个', '那个', '更好的', '好的', '合适的', '现有的', '原来的', '之前的',
  ],
  taskVerbs: ['写一个', '写个', '写一段', '写一下', '实现一个', '实现', '做一个', '做个', '画一个', '画个', '生成', '算一下', '翻译一下', '翻译下', '翻译成', '翻译这', '帮我翻译', '解释', '演示'],
  standing: [
    '以后', '今后', '之后都', '都用', '统一', '一律', '一直', '默认', '项目', '我们', '团队', '公司', 'from now on', 'always', 'going forward',
  ],
  ownAgain: [
    '我', '咱', '自己', '本人', '定', '决定', '选', '最后', '还是', '改', '换', '迁', '统一', '以后', '但', '不过', '可是', '而',
    '请', '不用', '不要', '别', '给我', 'please', "don't", 'do not', 'i', "i'm", "i've", "i'll", 'me', 'my', 'we', "we're", "we've", "we'll", 'us', 'our', 'ours', 'mine', 'but', 'decided', 'chose',
    'went with', 'settled', 'picked', 'going with', 'switch', 'switched', 'moving', 'moved', 'instead', 'whereas', 'while we',
  ],
  inventoryLeads: ['stack:', 'stack for', 'the stack is', 'tech stack is', 'tech stack:', 'our stack:', 'current stack:', 'setup:', 'our setup:', 'current setup:', '技术栈：', '技术栈:', '技术栈是', '环境：', '环境:'],
  oldValueMarkers: [
    '原来是', '本来是', '之前是', '以前是', '原先是', '原定', '原定是', '从', 'used to be', 'was originally', 'originally', 'from',
    '原来批的是', '原来定的是', '本来定的是', '原本是', '原本定的是', 'was', 'had been',
  ],
  changeLeads: [
    '提到', '提高到', '提前到', '推迟到', '推到', '延到', '延后到', '延期到', '改到', '改成', '改为', '换成', '换到', '升到', '升级到', '调到',
    '调整到', '降到', '降低到', '涨到', '加到', '增加到', '减到', '减少到', '砍到', '缩短到', '延长到', '挪到', '迁到',
    'moved to', 'moved it to', 'pushed to', 'pushed it to', 'pushed back to', 'bumped to', 'bumped it to', 'raised to', 'lowered to',
    'cut to', 'upgraded to', 'increased to', 'reduced to', 'changed to', 'switched to', 'extended to', 'shifted to', 'now',
    '现在', '现在是', '只剩', '只剩下', '剩下', 'down to', 'up to', 'now it is', "now it's",
  ],
  selfCorrection: [
    '不对', '不是不是', '记错了', '说错了', '写错了', '搞错了', '看错了', '打错了', '更正', '纠正', '准确地说', '准确来说', '确切地说',
    '还是改成', '还是改为', '还是定', '算了', '哦不', '噢不', '啊不', '不不', 'correction', 'actually', 'sorry', 'i mean', 'i meant', 'no wait',
    'wait', 'scratch that', 'make that', 'or rather', 'no,', '— no', '- no',
    'make it', 'oops', 'my bad', 'i misspoke', 'i mistyped', 'typo',
    // 我之前说用 Python 3.10，其实是 3.12: "in fact" after a value said before rights it.
    '其实', '实际上',
  ],
  correctedValueLeads: [
    '是', '为', '改成', '改为', '改到', '定成', '定在', '定为', '应该是', '其实是', '升到', '升级到', '升级成', '升成', '换成', '迁到', '提到', '调到', '降到', '涨到',
    '已经是', '现在是', 'upgraded to', 'moved to', 'now', "it's", 'it’s', 'it is', 'its', "it'll be", "that's", 'that’s', 'should be',
    'make that', 'make it', 'to', 'is', 'on', '=',
  ],
  remember: [
    '记住', '请记住', '记一下', '记下来', '别忘了', '不要忘记', 'remember this', 'remember that', 'keep in mind', 'note that',
    "don't forget",
  ],
};

/** Subject slots: the words that name them, and the slots filled by their own rules. Data only. */

export interface SubjectVocabulary {
  /** Words that name a slot in the text: 数据库 → database. A value after them fills that slot. */
  readonly aliases: Readonly<Record<string, readonly string[]>>;
  readonly budgetWords: readonly string[];
  /** Before an amount, a cap reads as a budget: 不超过3000元, under $500. */
  readonly budgetCapBefore: readonly string[];
  /** After an amount: 3000元以内. */
  readonly budgetCapAfter: readonly string[];
  readonly deadlineWords: readonly string[];
  /** Language names → the normal form of `answer language`. */
  readonly languages: Readonly<Record<string, string>>;
  /** Verbs of answering, around a language name (用中文回答, reply in English). */
  readonly answerVerbs: readonly string[];
  /**
   * Between an event named at a clause's start and its date or time: Standup moved to next Tuesday, kickoff is on
   * Monday, weekly sync 改到下周二.
   */
  readonly eventLinks: readonly string[];
  /** Chinese event nouns → their English slot: 周会改到周四 sets `weekly meeting`. */
  readonly eventNouns: Readonly<Record<string, string>>;
  /** Words that open a clause but name no event: it is at 5, today is Monday, the deadline (a slot of its own). */
  readonly notEvents: readonly string[];
  /** Words that name the answers themselves (回答, replies): a language said with them is the answers'. */
  readonly answerWords: readonly string[];
  /**
   * Pieces of work with a language of their own → their slot: 代码注释也写中文 sets `code comment language`, not the
   * answers' language.
   */
  readonly languageObjects: Readonly<Record<string, string>>;
  /** Length preferences → the normal form of `answer length`. */
  readonly answerLengths: Readonly<Record<string, string>>;
  /**
   * The form asked of the answers → the value of `answer format` (English normalised, Chinese as written): "use
   * bullet points", 用列表就行. Only where the answers are named or the form is asked for alone ("Bullet points only").
   */
  readonly answerFormats: Readonly<Record<string, string>>;
  /** A length word sets `answer length` only next to one of these (回答简短一点, keep replies brief). */
  readonly answerLengthContext: readonly string[];
  /** Cloud region codes (eu-central-1, cn-hangzhou, us-central1), as a regular-expression source. */
  readonly regionPattern: string;
  /** Time zones (UTC+8, Asia/Shanghai, 东八区), as a regular-expression source. */
  readonly timezonePattern: string;
  readonly timezoneWords: readonly string[];
  /** Before a name: 我叫, my name is. */
  readonly nameIntros: readonly string[];
  /**
   * Trips (facts-trips.ts sets `destination`). Verbs that go to a place named right after them: 去, 飞往, fly to,
   * trip to. Enough on their own.
   */
  readonly tripVerbs: readonly string[];
  /** The same, too common to say a trip without a trip word or a date in the message: going to, visit, a week in. */
  readonly tripVerbsWithContext: readonly string[];
  /** Right after a Chinese place: the trip itself (去成都玩, 去冰岛看极光, 去日本的机票). */
  readonly tripAfter: readonly string[];
  /** Words that say the message is about a trip: 行程, 机票, itinerary, honeymoon. */
  readonly tripWords: readonly string[];
  /**
   * Words that make a trip a decision (定了去成都, we've settled on Lisbon, Osaka instead): only then does a place set
   * `destination`. A trip merely mentioned (下个月去成都玩五天, my flight to Osaka is on May 14) sets none.
   */
  readonly tripDecisionWords: readonly string[];
  /**
   * Slots said of one side of a system: a programming language said of the backend (后端统一用 Go 写, backend 语言定了
   * Go) is `backend language`. Slot → the side's slot → the words that name that side.
   */
  readonly sidedSubjects: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  /** Before a place the user no longer goes to (不去西安了, not going to Porto anymore). */
  readonly tripCancelBefore: readonly string[];
  /** After it: 海南不去了. */
  readonly tripCancelAfter: readonly string[];
  /**
   * A trip for work (出差, a conference): the labels' conventions file no destination for it (a business trip is no
   * decision about the user's setup), so a message with one of these sets none.
   */
  readonly businessTripWords: readonly string[];
  /** A meal or a gathering (周五聚餐不去海底捞了, dinner at …): the place is a restaurant, not a destination. */
  readonly outingWords: readonly string[];
  /** Words that may lead a Chinese place and are no part of it (这次旅行厦门不去了 → 厦门). */
  readonly tripPlaceLeads: readonly string[];
  /** Words in a place's position that name no destination: 去医院, 去公司, going to Monday's… */
  readonly notDestinations: readonly string[];
  /** Around what the user is allergic to: 我对花生过敏, allergic to nuts. */
  readonly allergyPatterns: readonly string[];
  /** Diets, as written → normal form (我吃素 → vegetarian). */
  readonly diets: Readonly<Record<string, string>>;
  /** Before where the user lives: 我住在, I live in. */
  readonly locationIntros: readonly string[];
  /** Words that name a port (a number after them sets `<what> port`: API 端口是 8443, the API's port is 8443). */
  readonly portWords: readonly string[];
  /** Words for a service's address or URL just before it: 地址, address, endpoint, URL (`<what> address`, `<what> url`). */
  readonly addressWords: readonly string[];
  /** Verbs between a service and its port word, not part of its name: listens on, runs on, 监听. */
  readonly portVerbs: readonly string[];
  /** Words that name the log level; a level after them (or right before: WARN level) sets `log level`. */
  readonly logLevelWords: readonly string[];
  /** Log levels, as a regular-expression source (any case). */
  readonly logLevelPattern: string;
  /** Around the user's own phone number (call me at, 我的手机): a phone there sets `phone`. */
  readonly phoneWords: readonly string[];
  /** Scheduled jobs → the stem of their time's slot: 备份脚本每天凌晨2点跑 sets `backup time`. */
  readonly jobNouns: Readonly<Record<string, string>>;
  /** Around the user's own email address (email me at, 我的邮箱): an email there sets `email`. */
  readonly emailWords: readonly string[];
}

export const SUBJECT_VOCABULARY: SubjectVocabulary = {
  aliases: {
    database: ['数据库', 'database', 'DB', 'db', '关系型数据库', 'RDBMS', '主库', '主数据库', '生产库', '线上库', 'production database'],
    'log format': ['日志格式', 'log format', 'logging format'],
    'data warehouse': ['数据仓库', '数仓', 'data warehouse'],
    cache: ['缓存', 'cache', 'caching', '缓存层', 'cache layer'],
    'web server': ['web server', 'webserver', 'web 服务器', 'http server', 'http 服务器'],
    // Its own slot, as labellers file it: the web servers also fill it (`alsoFills`) when the message names it.
    'reverse proxy': ['reverse proxy', 'reverse-proxy', '反向代理', '反代'],
    'load balancer': ['负载均衡', 'load balancer', 'load balancing'],
    'message queue': [
      '消息队列', 'message queue', 'MQ', 'job queue', 'message broker', '消息中间件', 'event bus', 'queue', '队列',
    ],
    'task queue': ['任务队列', 'task queue', 'background jobs', '异步任务'],
    'search engine': ['搜索引擎', 'search engine', '全文检索', 'full-text search', 'search'],
    'log collection': ['日志收集', '日志采集', 'log collection', 'log collector', 'log shipper', 'log shipping'],
    logging: ['日志系统', '日志平台', 'logging', 'log storage', '日志存储'],
    monitoring: ['监控', 'monitoring', 'observability', '可观测性'],
    alerting: ['告警', '报警', 'alerting', 'alerts', 'paging', 'on-call paging', 'on-call tool', '值班工具'],
    CI: ['CI', 'CI/CD', '持续集成', 'CI 工具', 'CI pipeline', '流水线', 'pipeline'],
    CD: ['持续部署', '持续交付', 'continuous deployment', 'CD'],
    'infrastructure as code': ['infrastructure as code', 'IaC', '基础设施即代码'],
    'configuration management': ['配置管理', 'configuration management', 'config management'],
    'container orchestration': ['容器编排', 'orchestration', 'orchestrator', '编排'],
    'container runtime': ['容器运行时', 'container runtime', '容器化'],
    'cloud provider': ['云厂商', '云服务商', '云平台', '云服务', 'cloud provider', 'cloud'],
    // (Hosted on: what the labellers file there, whatever else the product is: "hosted on AWS", host 在腾讯云上.)
    hosting: ['hosting', '托管平台', '部署平台', 'hosted on', 'hosted in', 'host 在', 'host在', 'hosting 在'],
    CDN: ['CDN'],
    DNS: ['DNS', 'DNS 服务商', 'DNS 服务', 'DNS provider', 'DNS server'],
    // (The longer words win where they overlap: 对象存储 is object storage, 日志存储 logging.)
    storage: ['存储', 'storage', 'storage backend', '存储方案', '存储后端'],
    'object storage': ['对象存储', 'object storage', 'blob storage', '文件存储', 'file storage'],
    framework: ['框架', 'framework', '后端框架', 'backend framework', 'web framework', 'web 框架', '开发框架', 'backend', '后端'],
    'frontend framework': ['前端框架', 'frontend framework', 'front-end framework', 'frontend', 'front end', '前端'],
    'UI library': ['组件库', 'UI 库', 'UI library', 'component library'],
    'CSS framework': ['CSS framework', 'CSS 框架', 'CSS 方案', 'styling', '样式方案'],
    'monorepo tool': ['monorepo tool', 'monorepo 工具', 'monorepo 管理'],
    'type checker': ['type checker', 'type checking', '类型检查'],
    'mobile framework': ['移动端框架', '跨端框架', '跨平台框架', 'mobile framework', 'app framework'],
    'programming language': ['编程语言', '开发语言', 'programming language', '后端语言', 'backend language'],
    os: [
      '操作系统', '系统', 'OS', 'operating system', '服务器系统', '电脑', '笔记本', '开发机', '工作机', 'computer', 'laptop',
      'dev machine', 'workstation',
    ],
    editor: ['编辑器', 'editor', 'IDE', '开发工具', 'code editor'],
    'package manager': ['包管理器', '包管理工具', '包管理', 'package manager'],
    'build tool': ['构建工具', 'build tool', 'build system', '构建系统', '打包工具', 'bundler'],
    'test framework': ['测试框架', 'testing framework', 'test framework', 'test runner', '单测框架', '单元测试框架', 'e2e 框架', '单元测试', '单测'],
    ORM: ['ORM'],
    'job scheduler': ['定时任务', '计划任务', '任务调度', 'job scheduler', 'cron jobs', 'scheduled jobs'],
    'connection pool': ['连接池', '数据库连接池', 'connection pool'],
    'connection pooler': ['connection pooler', '连接池代理'],
    hypervisor: ['hypervisor', '虚拟化平台', '虚拟化'],
    'media server': ['media server', '影音服务器', '媒体服务器'],
    'CAT tool': ['CAT tool', '翻译软件', '翻译工具', '辅助翻译工具', 'translation tool'],
    'migration tool': ['迁移工具', '数据库迁移', 'migration tool', 'schema migrations', 'database migrations'],
    'date library': ['日期库', '日期处理', '时间处理库', 'date library', 'date handling', 'date utils'],
    vpn: ['VPN', '组网'],
    'container registry': ['镜像仓库', '容器镜像仓库', 'container registry', 'docker registry', 'image registry'],
    'version control': ['版本控制', 'version control', 'VCS'],
    'code hosting': ['代码托管', 'code hosting', '代码仓库', 'git hosting', 'repo', 'repos', 'git repo', 'repository', 'repositories', '仓库'],
    browser: ['浏览器', 'browser'],
    shell: ['shell'],
    terminal: ['终端', 'terminal', 'terminal emulator'],
    'deployment strategy': [
      '部署策略', '发布策略', '部署方式', '发布方式', '上线方式', '部署方案', 'deployment strategy', 'deploy strategy', 'rollout strategy',
      'release strategy', 'deployment',
    ],
    'API gateway': ['API gateway', 'API 网关', 'api-gateway'],
    ISP: ['ISP', '宽带运营商', '网络运营商', 'internet provider', 'internet service provider', 'broadband provider'],
    'reference manager': ['reference manager', 'citation manager', '文献管理', '文献管理工具', '文献管理软件'],
    'config center': ['配置中心', 'config center', 'config server', 'configuration center', 'config service'],
    'API style': ['API 风格', '接口风格', 'API style', 'API design'],
    architecture: ['架构', 'architecture', '系统架构'],
    authentication: ['认证', '鉴权', '登录方式', '认证方式', 'auth', 'authentication', 'login', 'SSO', '单点登录'],
    'payment provider': ['支付方式', '支付渠道', 'payment provider', 'payments', 'payment'],
    'accounting software': ['记账软件', '财务软件', '会计软件', 'accounting software', 'bookkeeping software', 'accounting system'],
    'e-commerce platform': ['电商平台', '网店平台', '商城系统', '店铺平台', 'e-commerce platform', 'ecommerce platform', 'store platform'],
    'POS system': ['收银系统', '收银软件', 'POS', 'POS system', 'point of sale', 'point-of-sale system'],
    'error tracking': ['error tracking', 'error tracker', 'error monitoring', 'error reporting', '错误追踪', '错误监控', '异常监控', '报错监控'],
    'async runtime': ['async runtime', '异步运行时'],
    'ingress controller': ['ingress controller', 'ingress'],
    courier: ['快递', '快递公司', 'courier', 'shipping carrier'],
    'delivery platform': ['外卖平台', 'delivery platform', 'food delivery platform'],
    'experiment tracking': ['experiment tracking', '实验追踪', '实验跟踪', 'experiment tracker'],
    'chat tool': ['沟通工具', '即时通讯', 'IM', 'chat tool', 'team chat'],
    'project management': ['项目管理', '任务管理', 'project management', 'issue tracker', 'task tracker'],
    documentation: ['文档工具', 'documentation', 'docs', 'wiki', '知识库'],
    'email service': ['邮件服务', 'email service', 'email provider', 'mail service', '发信服务'],
    'data processing': ['数据处理', '计算引擎', '大数据', 'data processing', 'data pipeline'],
    'workflow orchestration': ['任务调度', '调度系统', 'workflow', 'workflow engine', 'scheduler', '工作流'],
    'secrets management': ['密钥管理', 'secrets management', 'secret management', 'secrets manager', 'secrets'],
    model: ['大模型', '模型', 'LLM', 'language model', 'model'],
    'embedding model': ['向量模型', '嵌入模型', 'embedding 模型', 'embedding model', 'embeddings', 'embedding'],
    reranker: ['重排模型', 'rerank 模型', 'reranker', 'rerank model'],
    'vector database': ['向量数据库', '向量库', 'vector database', 'vector DB', 'vector store', 'vector index'],
    indentation: ['缩进', 'indentation', 'indent'],
    linter: ['linter', 'linting', 'lint 工具', '代码检查', '静态检查', 'lint'],
    formatter: ['formatter', 'code formatter', '格式化工具', '代码格式化', 'formatting'],
    'code style': ['代码风格', 'code style', 'style guide', '代码规范'],
    'BI tool': ['BI 工具', 'BI工具', 'BI tool', 'BI', '报表工具', '可视化工具'],
    // (Not 引擎 alone: 存储引擎 InnoDB, 规则引擎 Drools are no game engines.)
    'game engine': ['游戏引擎', 'game engine'],
    'state management': ['状态管理', 'state management'],
    timezone: ['时区', 'timezone', 'time zone'],
    region: ['region', '区域', '地域', '可用区'],
  },
  budgetWords: ['预算', '经费', '预算上限', 'budget', 'budgets', 'price cap', 'price range', '价位', '心理价位'],
  budgetCapBefore: [
    '不超过', '不要超过', '别超过', '不能超过', '最多', '顶多', '控制在', '不高于', 'under', 'below', 'at most', 'no more than', 'less than',
    'max', 'maximum', 'up to', 'within', 'capped at', 'is capped at', 'cap of', 'cap at',
  ],
  budgetCapAfter: ['以内', '之内', '以下', '封顶', 'max', 'or less', 'tops'],
  deadlineWords: [
    'deadline', 'due date', 'due', 'DDL', '截止日期', '截止时间', '截止', '截至', '最后期限', '期限', '交付日期', '交付时间', '交付', '最晚', '最迟',
    '死线', 'at the latest', 'no later than', 'latest by', 'has to be done by', 'must be done by', '要交', '得交', '必须交',
    '要提交', 'hand in', 'turn in', '交稿日期', '交稿时间', '交稿', '截稿日期', '截稿',
  ],
  languages: {
    中文: 'Chinese', 汉语: 'Chinese', 简体中文: 'Chinese', 普通话: 'Chinese', 国语: 'Chinese', 繁体中文: 'Traditional Chinese',
    繁体: 'Traditional Chinese', 粤语: 'Cantonese', 英文: 'English', 英语: 'English', 日语: 'Japanese', 日文: 'Japanese',
    韩语: 'Korean', 韩文: 'Korean', 法语: 'French', 法文: 'French', 德语: 'German', 德文: 'German', 西班牙语: 'Spanish',
    俄语: 'Russian', 葡萄牙语: 'Portuguese', 意大利语: 'Italian', 阿拉伯语: 'Arabic',
    English: 'English', Chinese: 'Chinese', Mandarin: 'Chinese', 'Simplified Chinese': 'Chinese',
    'Traditional Chinese': 'Traditional Chinese', Cantonese: 'Cantonese', Japanese: 'Japanese', Korean: 'Korean',
    French: 'French', German: 'German', Spanish: 'Spanish', Russian: 'Russian', Portuguese: 'Portuguese',
    Italian: 'Italian', Arabic: 'Arabic', Dutch: 'Dutch', Vietnamese: 'Vietnamese', Thai: 'Thai',
  },
  answerVerbs: [
    '回答', '回复', '答复', '作答', '说', '写', '交流', '沟通', '讲', '解释', '输出', '对话', '聊', '答',
    'answer', 'answers', 'reply', 'replies', 'respond', 'response', 'responses', 'write', 'talk', 'speak',
    'explain', 'communicate', 'chat', 'answering', 'replying', 'responding', 'output',
  ],
  eventLinks: [
    'is', "'s", 'is now', 'is at', 'is on', 'is now at', 'is now on', 'will be', 'will be at', 'will be on', 'moved to',
    'is moved to', 'has moved to', 'has been moved to', 'got moved to', 'was moved to', 'pushed to', 'is pushed to',
    'pushed back to', 'is pushed back to', 'got pushed to', 'rescheduled to', 'rescheduled for', 'is rescheduled to',
    'is rescheduled for', 'is set for', 'is booked for', 'is scheduled for', 'is planned for', 'is fixed for',
    'starts', 'starts at', 'starts on', 'begins', 'begins at', 'begins on', 'changed to', 'is changed to',
    '改到', '改在', '改成', '挪到', '推到', '推迟到', '延到', '延期到', '提前到', '定在', '订在', '约在', '安排在', '是',
  ],
  eventNouns: {
    周会: 'weekly meeting', 例会: 'regular meeting', 站会: 'standup', 晨会: 'standup', 面试: 'interview', 体检: 'checkup',
    牙医: 'dentist appointment', 看牙: 'dentist appointment', 疫苗: 'vaccine appointment', 复诊: 'follow-up appointment',
    聚餐: 'dinner', 晚饭: 'dinner', 晚餐: 'dinner', 午饭: 'lunch', 午餐: 'lunch', 会议: 'meeting', 评审会: 'review meeting',
    发布会: 'launch event', 航班: 'flight', 婚礼: 'wedding', 生日会: 'birthday party', 家长会: 'parent-teacher meeting',
    周年纪念日: 'anniversary', 纪念日: 'anniversary', 停机维护: 'maintenance window', 维护窗口: 'maintenance window',
    上线: 'release', 发版: 'release', 发布: 'release', 演练: 'drill', 培训: 'training',
  },
  notEvents: [
    'it', 'this', 'that', 'there', 'here', 'what', 'which', 'who', 'everything', 'nothing', 'something', 'today',
    'tomorrow', 'tonight', 'now', 'time', 'the time', 'deadline', 'the deadline', 'due date', 'he', 'she', 'they',
    'we', 'i', 'you', 'mine', 'yours', 'one', 'the date', 'date',
  ],
  answerWords: [
    '回答', '回复', '答复', '作答', '答案', 'answer', 'answers', 'answering', 'reply', 'replies', 'replying', 'respond',
    'responding', 'response', 'responses',
  ],
  languageObjects: {
    代码注释: 'code comment language', 注释: 'code comment language', 'code comments': 'code comment language',
    'code comment': 'code comment language', 'comments in code': 'code comment language',
    'code 里的 comment': 'code comment language', 'code 里的注释': 'code comment language', '代码里的注释': 'code comment language',
    'code 注释': 'code comment language',
    'code 里的 comments': 'code comment language', '代码里的 comments': 'code comment language', '代码的 comments': 'code comment language',
    'comments in the code': 'code comment language',
    'code review 的 comment': 'code review comment language', 'review comments': 'code review comment language',
    'code review comments': 'code review comment language', 'review 意见': 'code review comment language',
    提交信息: 'commit message language', 提交说明: 'commit message language', 提交日志: 'commit message language',
    'commit 信息': 'commit message language', 'commit message': 'commit message language',
    'commit messages': 'commit message language',
    文档: 'documentation language', 'docs': 'documentation language', documentation: 'documentation language',
    术语: 'technical terms language', 专业术语: 'technical terms language', 技术术语: 'technical terms language',
    'technical terms': 'technical terms language', 'tech terms': 'technical terms language',
    界面: 'UI language', 'UI 文案': 'UI language', 'UI text': 'UI language', 'UI strings': 'UI language',
  },
  answerLengths: {
    简短: 'short', 简洁: 'short', 精简: 'short', 简单点: 'short', 简单一点: 'short', 短一点: 'short', 短一些: 'short',
    短点: 'short', 别太长: 'short', 不要太长: 'short', 言简意赅: 'short', 少说废话: 'short', 直接给结论: 'short',
    不用太详细: 'short', 不要太详细: 'short', 不必太详细: 'short', 别太详细: 'short', 不用太长: 'short', 不必太长: 'short', 不需要太长: 'short', 别写太长: 'short', 详细: 'detailed', 详细一点: 'detailed', 详细点: 'detailed', 详尽: 'detailed', 具体一点: 'detailed', 展开讲: 'detailed',
    short: 'short', shorter: 'short', brief: 'short', briefly: 'short', concise: 'short', succinct: 'short',
    terse: 'short', 'to the point': 'short', detailed: 'detailed', 'in detail': 'detailed', 'more detail': 'detailed',
    thorough: 'detailed', longer: 'detailed', 'in depth': 'detailed', 'in-depth': 'detailed', 'go into detail': 'detailed', 'into detail': 'detailed',
    'without long explanations': 'short', 'no long explanations': 'short', 'skip the explanations': 'short',
    'skip the long explanations': 'short', 'no long essays': 'short', 'no essays': 'short', 不用解释: 'short', 不要长篇大论: 'short',
    说重点: 'short', 讲重点: 'short', 挑重点: 'short', 别讲那么长: 'short', 别说那么多: 'short', 别写那么长: 'short', 'get to the point': 'short',
  },
  answerFormats: {
    'bullet points': 'bullet points', 'bullet point': 'bullet points', bullets: 'bullet points', 'bullet list': 'bullet points',
    'bulleted list': 'bullet points', 'bullet-point': 'bullet points', 'numbered list': 'numbered list', 'numbered lists': 'numbered list',
    'numbered steps': 'numbered list', tables: 'tables', 'a table': 'table', 'in a table': 'table', 列表: '列表', 表格: '表格', 分点: '分点', 编号列表: '编号列表',
    markdown: 'Markdown', 'in markdown': 'Markdown', 'markdown table': 'Markdown table', 'markdown tables': 'Markdown tables',
    'markdown 表格': 'Markdown 表格',
  },
  answerLengthContext: [
    '回答', '回复', '答案', '以后', '之后', '今后', '尽量', '一律', '保持', '一直', '给我讲', '跟我讲', '给我说',
    'keep it', 'keep them', 'keep answers', 'keep replies', 'keep responses', 'keep your', 'answer', 'answers',
    'reply', 'replies', 'response', 'responses', 'be', 'always', 'from now on', 'explanation', 'explanations', '解释',
  ],
  regionPattern: [
    '(?<![A-Za-z0-9-])(?:',
    '(?:us|eu|ap|sa|ca|me|af|il|mx|cn)-(?:gov-)?',
    '(?:north|south|east|west|central|northeast|northwest|southeast|southwest)-\\d',
    '|cn-(?:hangzhou|shanghai|beijing|shenzhen|qingdao|zhangjiakou|huhehaote|wulanchabu|chengdu|guangzhou|hongkong',
    '|heyuan|nanjing|fuzhou|wuhan)',
    '|(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-',
    '(?:north|south|east|west|central|northeast|southeast|southwest|northwest)\\d',
    '|ap-(?:guangzhou|shanghai|beijing|chengdu|chongqing|nanjing|hongkong|singapore|tokyo|seoul|bangkok|mumbai)',
    ')(?![A-Za-z0-9-])',
  ].join(''),
  timezonePattern: [
    '(?:UTC|GMT)(?:\\s?[+-]\\s?\\d{1,2}(?::?\\d{2})?)?(?![A-Za-z+-])',
    '|(?<![A-Za-z])(?:Asia|Europe|America|Africa|Australia|Pacific|Atlantic|Indian)/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?',
    '|[东西][一二三四五六七八九十]{1,2}区|北京时间',
    '|(?<![A-Za-z])(?:PST|PDT|EST|EDT|CST|CET|CEST|JST|KST|IST|BST|AEST|SGT|HKT)(?![A-Za-z])',
    '|(?<![A-Za-z])(?:Pacific|Eastern|Central|Mountain)\\s+[Tt]ime(?![A-Za-z])',
  ].join(''),
  timezoneWords: [
    '时区', 'timezone', 'time zone', "i'm in", 'i am in', 'we are in', "we're in", "i'm on", 'i am on', "we're on", 'we are on',
    '我在', '我们在',
    // "give any times in SGT", 时间都按 CET: the times the user asks for.
    'times in', 'time in', 'all times in', '时间按', '时间都按', '时间用', '时间都用', '时间统一用', '时间统一按',
    // "log timestamps should use UTC", 时间戳统一用 UTC: the clock the user's times are kept in.
    'timestamps', 'timestamp', '时间戳',
    // "Use Pacific time for any reminders": the clock the user asks for.
    'use', 'go by', 'stick to', 'switch to',
  ],
  allergyPatterns: [
    // The user's own (我对…, or a clause that starts with 对), not a child's (孩子对青霉素过敏).
    '(?:我|本人|^\\s*)对\\s*([\\u4e00-\\u9fffA-Za-z ]{1,12}?)\\s*过敏',
    "(?:i'm|i am|i'm severely|i am severely)\\s+allergic\\s+to\\s+([A-Za-z][A-Za-z -]{1,24}?)(?=[,.;!?]|\\s+(?:and|so|but)\\b|$)",
  ],
  diets: {
    // A Chinese diet is kept as written (the labels' convention: values as the user wrote them).
    吃素: '吃素', 吃素食: '素食', 素食: '素食', 素食主义者: '素食主义者', 全素: '全素', 蛋奶素: '蛋奶素', vegetarian: 'vegetarian', vegan: 'vegan',
    'pescatarian': 'pescatarian', 清真: '清真', halal: 'halal', kosher: 'kosher', 'gluten-free': 'gluten-free', keto: 'keto',
    'low-carb': 'low-carb',
  },
  locationIntros: ['我住在', '我家在', '我现在住在', '我人在', 'i live in', "i'm based in", 'i am based in', 'we are based in', "we're based in",
    // A move of home: "we just moved to Portland", 我们刚搬到杭州 (a product after it is a migration: facts-special.ts).
    'we live in', 'i just moved to', 'we just moved to', 'i moved to', 'we moved to', "i've moved to", "we've moved to", 'we recently moved to', 'i recently moved to',
    '我搬到了', '我们搬到了', '我刚搬到', '我们刚搬到', '我家搬到了', '我们家搬到了'],
  portWords: ['端口号', '端口', 'port number', 'port'],
  addressWords: [
    '地址', 'IP 地址', 'IPv4 地址', 'IPv6 地址', '访问地址', '链接', 'address', 'IP address', 'IPv4 address', 'IPv6 address',
    'IP', 'IPv4', 'IPv6', 'endpoint', 'URL', 'base URL', 'host', '主机', '主机地址',
  ],
  portVerbs: ['listens on', 'listening on', 'runs on', 'running on', 'is on', 'stays on', 'stay on', 'remains on', 'moved to', 'moves to', 'uses', 'using', 'on', 'at', 'with', '监听', '跑在', '用的是', '用', '的'],
  logLevelWords: [
    'log level', 'logging level', 'loglevel', 'log_level', 'LOG_LEVEL', 'level', '日志级别', '日志等级', '日志 level', '级别',
  ],
  logLevelPattern: '(?<![A-Za-z])(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)(?![A-Za-z])',
  phoneWords: [
    'call me', 'text me', 'reach me', 'ring me', 'my phone', 'my number', 'my cell', 'my mobile', 'phone number',
    'my new number',
    '手机号', '手机号码', '手机', '电话', '联系我', '打我', '打给我', '我的号码',
  ],
  emailWords: [
    'email me', 'e-mail me', 'mail me', 'my email', 'my e-mail', 'my new email', '我的新邮箱', '新邮箱', '我的 email', '我的email', '我的 e-mail', '我的 mail', 'email address', 'my address is', '邮箱', '电子邮件',
    // (发邮件到 X is where to write, often a team's mailbox, not the user's own address.)
    '发到我',
  ],
  jobNouns: {
    备份: 'backup', backup: 'backup', backups: 'backup', 'the backup': 'backup', 重建索引: 'reindex', reindex: 'reindex',
    同步: 'sync', sync: 'sync', 清理: 'cleanup', cleanup: 'cleanup', 快照: 'snapshot', snapshot: 'snapshot', snapshots: 'snapshot',
    部署: 'deploy', deploy: 'deploy', deploys: 'deploy', 发布: 'release', release: 'release', 对账: 'reconciliation',
    报表: 'report', report: 'report', 巡检: 'inspection',
  },
  nameIntros: ['我叫', '我的名字是', '我的名字叫', '叫我', '称呼我', 'my name is', 'call me', "i'm called", 'i am called'],
  tripVerbs: [
    '去', '飞去', '飞往', '飞', '前往', '改去', '出发去', '自驾去', '坐高铁去', '坐飞机去', 'fly to', 'flying to', 'flight to',
    'flights to', 'trip to', 'trips to', 'road trip to', 'travel to', 'traveling to', 'travelling to', 'vacation in',
    'holiday in', 'holidays in', 'honeymoon in', 'fly out to', 'flying out to',
  ],
  tripVerbsWithContext: [
    'going to', 'go to', 'heading to', 'headed to', 'head to', 'visit', 'visiting', 'a week in', 'two weeks in', 'a weekend in',
    'the weekend in', 'days in', 'nights in', 'doing', 'settled on', 'went with', 'decided on', 'picked',
  ],
  tripAfter: [
    '玩', '旅游', '旅行', '度假', '游玩', '自驾', '出差', '过年', '度蜜月', '看', '逛', '徒步', '滑雪', '爬山', '转转', '住', '待',
    '自由行', '跟团', '出差', '开会', '的机票', '的航班', '的行程', '的酒店', '的签证', '的高铁', '的火车', 'trip', '那边玩',
  ],
  tripWords: [
    '旅行', '旅游', '行程', '机票', '航班', '酒店', '签证', '攻略', '蜜月', '年假', '出发', '民宿', '自由行', '景点', 'trip', 'flight',
    'flights', 'itinerary', 'vacation', 'holiday', 'holidays', 'honeymoon', 'hotel', 'visa', 'travel', 'sightseeing', 'layover',
    'airbnb', 'getaway',
  ],
  sidedSubjects: {
    'programming language': {
      'backend language': ['backend', 'back-end', 'back end', 'server-side', '后端', '服务端'],
      'frontend language': ['frontend', 'front-end', 'front end', '前端'],
    },
  },
  tripDecisionWords: [
    '定了', '定下来', '定下了', '商量好', '决定', '确定', '敲定', '最后定', '终于定', '选定', '改去', '改成', '换成', '改到', '目的地', '作废', '取消',
    'decided', 'settled on', "we've settled", 'confirmed', 'instead', 'change of plan', 'going with', 'went with', 'picked',
    'chose', 'final answer', 'destination', 'scrap', 'forget the', 'rather than',
  ],
  tripCancelBefore: ['不去', '不打算去', '不想去', '不再去', '取消去', 'not going to', 'no longer going to', "won't go to", 'not visiting'],
  tripCancelAfter: ['不去了', '就不去了', '不去啦', '去不了了'],
  businessTripWords: [
    '出差', '开会', '见客户', '参会', '参加会议', '培训', '面试', '述职', '会议', '展会', 'business trip', 'conference', 'for work',
    'client', 'clients', 'meeting', 'meetings', 'onsite', 'on-site', 'offsite', 'summit', 'trade show', 'work trip',
  ],
  outingWords: ['聚餐', '聚会', '吃饭', '请客', '餐厅', '饭店', '饭馆', '火锅', '团建', 'dinner', 'lunch', 'brunch', 'restaurant', 'party'],
  tripPlaceLeads: ['这次', '这趟', '这回', '旅行', '旅游', '行程', '我们', '我', '就', '也', '那个', '本来', '原本', '原来', '打算', '计划', '的', '去'],
  notDestinations: [
    '医院', '公司', '学校', '超市', '银行', '健身房', '上班', '上学', '食堂', '商场', '办公室', '机场', '火车站', '高铁站', '那边', '那里',
    '哪里', '哪儿', '哪', '外地', '国外', '外面', '楼下', '家里', '朋友家', '看病', '开会', '面试', '考试', '药店', '菜市场', '幼儿园',
    '图书馆', '附近', '现场', '官网', '看看', '试试', '问问', '一趟', '一下', '一次', '年', '书', '机', '行', '掉', '除', '年底', '月底',
    // Times said where a place would be (今年不去了, 这周末不去了).
    '今年', '明年', '去年', '今天', '明天', '这周', '下周', '周末', '暑假', '寒假', '国庆', '春节', '五一', '这次', '下次', '那次', '以后',
    '公园', '体检', '复查', '团建', '聚会', '聚餐', '婚礼', '演唱会', '比赛', '活动', '派对', '生日会', '家长会', '年会', '课', '打针', '上课', '报名', '办', '买', '取', '接', '交', '见', '找',
    'I', 'The', 'A', 'An', 'My', 'Our', 'This', 'That', 'It', 'We', 'He', 'She', 'They', 'Monday', 'Tuesday', 'Wednesday', 'Thursday',
    'Friday', 'Saturday', 'Sunday', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
    'October', 'November', 'December', 'Easter', 'Christmas', 'English', 'Chinese', 'Mom', 'Dad', 'Grandma', 'Grandpa',
  ],
};

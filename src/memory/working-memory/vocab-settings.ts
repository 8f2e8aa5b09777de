/**
 * Numeric settings (facts-settings.ts): a word that names the setting, then its value — line length 100, 覆盖率不低于
 * 80%, 日志保留 30 天, cache TTL 600s. Data only.
 */

/** What a setting's value is: a plain count (100), a share (80%), or a span of time (30 天, 14 days, 600s). */
export type SettingValueKind = 'count' | 'percent' | 'duration';

export interface SettingSlot {
  /** The slot when no qualifier says whose setting it is; '' when it needs one (a retention is always of something). */
  readonly subject: string;
  /** Words that name the setting, either language. */
  readonly words: readonly string[];
  readonly value: SettingValueKind;
  /** A bare number is a value too (DNS 记录 TTL 都是 300): for durations whose unit goes without saying. */
  readonly bareNumber?: boolean;
  /**
   * Words that say whose setting it is, the nearest said before it in the message → the slot: 日志 → log retention,
   * cache → cache ttl.
   */
  readonly qualifiers?: Readonly<Record<string, string>>;
}

export interface SettingsVocabulary {
  readonly slots: readonly SettingSlot[];
  /** Between the setting's word and its value: 是, 设成, 限制在, 不低于, is, at, set to, capped at. */
  readonly links: readonly string[];
  /** Words of degree or scope that may stand before the link: 统一, 一律, 都, 要求. */
  readonly linkFillers: readonly string[];
  /** Units of a span of time, as written after the number. */
  readonly durationUnits: readonly string[];
  /** Units after a count that the value leaves out (100 characters → 100). */
  readonly countUnits: readonly string[];
}

const LOG = 'log retention';
const BACKUP = 'backup retention';

export const SETTINGS_VOCABULARY: SettingsVocabulary = {
  slots: [
    {
      subject: 'line length',
      words: ['行宽', '行长度', '单行长度', '每行长度', '每行最多', 'line length', 'line-length', 'line width', 'line-width', 'max-line-length', 'max line length', 'max_line_length', 'print width', 'printwidth', 'column limit'],
      value: 'count',
    },
    {
      subject: 'coverage threshold',
      words: ['覆盖率', '测试覆盖率', '代码覆盖率', '单测覆盖率', 'coverage', 'test coverage', 'code coverage', 'coverage threshold'],
      value: 'percent',
    },
    {
      subject: '',
      words: ['保留', '留存', 'retention', 'retain them for', 'retain it for', 'retained for', 'keep them for', 'keep it for', 'keep for', 'kept for', 'keep logs for', 'keep backups for'],
      value: 'duration',
      qualifiers: {
        日志: LOG, log: LOG, logs: LOG, logging: LOG, 备份: BACKUP, backup: BACKUP, backups: BACKUP, 快照: BACKUP, snapshot: BACKUP, snapshots: BACKUP,
        消息: 'message retention', messages: 'message retention', queue: 'queue retention', 队列: 'queue retention', topic: 'topic retention',
        指标: 'metrics retention', metrics: 'metrics retention', 监控数据: 'metrics retention', trace: 'trace retention', traces: 'trace retention', 链路: 'trace retention',
      },
    },
    {
      subject: '',
      words: ['ttl', '过期时间', '失效时间', '有效期', 'expiry', 'expiration', 'expire after', 'expires after'],
      value: 'duration',
      bareNumber: true,
      qualifiers: {
        缓存: 'cache ttl', cache: 'cache ttl', redis: 'cache ttl', dns: 'dns ttl', 记录: 'dns ttl', records: 'dns ttl', record: 'dns ttl',
        'access token': 'access token ttl', 'refresh token': 'refresh token ttl', token: 'token ttl', session: 'session ttl', 会话: 'session ttl',
        验证码: 'verification code ttl', 链接: 'link ttl', link: 'link ttl', 'presigned url': 'presigned url ttl', 签名: 'presigned url ttl',
      },
    },
    {
      subject: 'timeout',
      words: ['timeout', '超时时间', '超时'],
      value: 'duration',
      qualifiers: {
        deploy: 'deploy timeout', 部署: 'deploy timeout', request: 'request timeout', requests: 'request timeout', 请求: 'request timeout', 接口: 'request timeout', api: 'request timeout',
        connection: 'connection timeout', connect: 'connection timeout', 连接: 'connection timeout', query: 'query timeout', 查询: 'query timeout', session: 'session timeout', 会话: 'session timeout',
        build: 'build timeout', 构建: 'build timeout', job: 'job timeout', 任务: 'job timeout',
      },
    },
  ],
  links: [
    '是', '为', '设成', '设为', '设置为', '设置成', '设到', '设在', '改成', '改为', '改到', '调成', '调到', '调为', '定在', '定为', '定成', '限制在', '限制为', '限制到', '限制',
    '控制在', '不低于', '不少于', '至少', '达到', '不超过', '最多', '最少', '低于', '用', ':', '：', '=',
    'is', 'are', 'of', 'at', 'to', 'for', 'set to', 'capped at', 'cap at', 'limited to', 'at least', 'must be at least', 'should be at least', 'needs to be at least', 'must stay above', 'must be', 'should be', 'is set to', 'is now', 'stays at', 'of at least', 'above', '>=', '≥',
  ],
  linkFillers: ['的', '要求', '目标', '门槛', '阈值', '上限', '统一', '一律', '都', '全部', '默认', '就', '一般', '现在', '最后', '最终', 'now', 'all', 'always', 'finally'],
  durationUnits: [
    '天', '日', '周', '个月', '月', '年', '小时', '分钟', '分', '秒', '毫秒',
    'days', 'day', 'weeks', 'week', 'months', 'month', 'years', 'year', 'hours', 'hour', 'hrs', 'hr', 'minutes', 'minute', 'mins', 'min', 'seconds', 'second', 'secs', 'sec', 'ms', 's', 'm', 'h', 'd', 'w',
  ],
  countUnits: ['个字符', '字符', '个字', '字', '列', 'characters', 'character', 'chars', 'char', 'columns', 'column', 'cols'],
};

/** Word lists the entity rules read: currencies, order labels, units. Data only. */

export interface EntityVocabulary {
  /** Symbols written before a number: `$800`, `¥3,999`, `HK$50`. */
  readonly currencySymbols: Readonly<Record<string, string>>;
  /** Words and ISO codes written after (or, codes, before) a number: `2000元`, `50 dollars`, `USD 20`. */
  readonly currencyWords: Readonly<Record<string, string>>;
  /** `块` means yuan only when followed by one of these (or nothing): 200块钱 / 200块的, not 3块硬盘. */
  readonly kuaiFollowers: string;
  /** Multipliers written after a number: 万, 千, k, million. */
  readonly multipliers: Readonly<Record<string, number>>;
  /** Words in a clause that make a bare `50万` a sum in yuan. */
  readonly moneyContext: readonly string[];
  /** Words before an order / ticket number; dropped from the value. */
  readonly orderLabels: readonly string[];
  /** Prefixes of `ABC-1234` codes that are standards or models, not tickets. */
  readonly orderPrefixStoplist: readonly string[];
  /** After a dotted number these make it a quantity, not a version (3.5 GB, 1.5 倍). */
  readonly quantityUnits: readonly string[];
  /** Words just before a dotted quad that make it a version (version 7.1.0.4). */
  readonly versionWords: readonly string[];
  /** Words that look like a bare host in `word:1234` but are labels. */
  readonly hostStoplist: readonly string[];
  /** After `D号` these make it a number of a thing (5号楼, 3号线), not a day. */
  readonly dayNounFollowers: string;
  /** Just before `N:M` these make it a ratio or a score (比例 4:3, 16:10 aspect), not a time. */
  readonly ratioWords: readonly string[];
}

export const ENTITY_VOCABULARY: EntityVocabulary = {
  currencySymbols: {
    US$: 'USD', HK$: 'HKD', NT$: 'TWD', A$: 'AUD', AU$: 'AUD', C$: 'CAD', CA$: 'CAD', S$: 'SGD', NZ$: 'NZD',
    R$: 'BRL', $: 'USD', '¥': 'CNY', '￥': 'CNY', '€': 'EUR', '£': 'GBP', '₩': 'KRW', '₹': 'INR', '₽': 'RUB',
    '₺': 'TRY', '฿': 'THB', '₫': 'VND', '₱': 'PHP', 'JP¥': 'JPY', 'CN¥': 'CNY', RMB: 'CNY',
  },
  currencyWords: {
    元: 'CNY', 块钱: 'CNY', 块: 'CNY', 人民币: 'CNY', 元人民币: 'CNY', RMB: 'CNY', rmb: 'CNY', CNY: 'CNY', yuan: 'CNY',
    美元: 'USD', 美金: 'USD', 刀: 'USD', USD: 'USD', dollars: 'USD', dollar: 'USD', bucks: 'USD',
    欧元: 'EUR', EUR: 'EUR', euros: 'EUR', euro: 'EUR',
    英镑: 'GBP', GBP: 'GBP', 日元: 'JPY', 日圆: 'JPY', 円: 'JPY', JPY: 'JPY', yen: 'JPY',
    港币: 'HKD', 港元: 'HKD', HKD: 'HKD', 新台币: 'TWD', 台币: 'TWD', TWD: 'TWD', 韩元: 'KRW', KRW: 'KRW', won: 'KRW',
    澳元: 'AUD', 澳币: 'AUD', AUD: 'AUD', 加元: 'CAD', 加币: 'CAD', CAD: 'CAD', 新加坡元: 'SGD', 新币: 'SGD', SGD: 'SGD',
    瑞士法郎: 'CHF', 法郎: 'CHF', CHF: 'CHF', 卢布: 'RUB', RUB: 'RUB', 卢比: 'INR', INR: 'INR', rupees: 'INR',
    泰铢: 'THB', THB: 'THB', 越南盾: 'VND', VND: 'VND', 新西兰元: 'NZD', NZD: 'NZD', 雷亚尔: 'BRL', BRL: 'BRL',
    MYR: 'MYR', 林吉特: 'MYR', 令吉: 'MYR', 比索: 'PHP', IDR: 'IDR', 印尼盾: 'IDR', SEK: 'SEK', NOK: 'NOK', DKK: 'DKK',
    MOP: 'MOP', 澳门元: 'MOP', AED: 'AED', 迪拉姆: 'AED', SAR: 'SAR', ZAR: 'ZAR', MXN: 'MXN',
  },
  kuaiFollowers: '钱的左右吧啊呀呢了多一每/以内上下出头',
  multipliers: {
    十: 10, 百: 100, 千: 1000, 万: 10_000, 十万: 100_000, 百万: 1_000_000, 千万: 10_000_000, 亿: 100_000_000,
    k: 1000, K: 1000, m: 1_000_000, M: 1_000_000, mn: 1_000_000, million: 1_000_000, b: 1_000_000_000,
    bn: 1_000_000_000, billion: 1_000_000_000,
  },
  moneyContext: [
    '预算', '价格', '价钱', '报价', '售价', '费用', '成本', '月薪', '年薪', '工资', '薪资', '花了', '花费', '花', '贷款', '首付', '房租',
    '租金', '收入', '存款', '本金', '利息', '投资', '理财', '借了', '借', '欠', '还款', '总价', '单价', '金额', '价', '钱', '赚', '亏',
  ],
  orderLabels: [
    '订单号码', '订单编号', '订单号', '订单', '工单编号', '工单号', '工单', '运单号', '快递单号', '物流单号', '退款单号',
    '售后单号', '服务单号', '申请单号', '单号', '流水号', '交易号', '交易单号', '票号', '案件号', '事件单', '问题单',
    'order id', 'order number', 'order no', 'order', 'ticket id', 'ticket number', 'ticket no', 'ticket',
    'case id', 'case number', 'case no', 'case', 'incident', 'tracking number', 'tracking no', 'tracking id',
    'tracking',
    'reference number', 'reference no', 'ref no', 'booking reference', 'booking ref', 'booking number', 'booking',
    'confirmation number', 'confirmation code', 'reservation number', 'reservation', 'invoice number', 'invoice no',
    'invoice', 'RMA number', 'RMA', 'issue', 'request id', 'transaction id',
  ],
  orderPrefixStoplist: [
    'ISO', 'UTF', 'SHA', 'RFC', 'CVE', 'CWE', 'GB', 'TLS', 'SSL', 'HTTP', 'AES', 'RSA', 'MP', 'GPT', 'COVID', 'SARS',
    'RTX', 'GTX', 'RX', 'ECMA', 'IEEE', 'ANSI', 'PEP', 'JSR', 'ES', 'IE', 'DDR', 'LPDDR', 'USB', 'PCIE', 'IPV', 'ECDSA',
    'HMAC', 'CRC', 'FIPS', 'EN', 'IEC', 'BS', 'DIN', 'JIS', 'ANSI', 'MIL', 'SOC', 'WPA', 'ARM', 'X', 'AMD', 'UHD',
  ],
  quantityUnits: [
    '%', '‰', '倍', '元', '块', '万', '亿', '千', '分', '秒', '分钟', '小时', '天', '周', '月', '年', '个', '次', '度', '℃', '°',
    '米', '公里', '千米', '厘米', '毫米', '斤', '公斤', '千克', '克', '岁', '星', '寸', '英寸', '折', '升', '毫升', '核',
    '人', '页', '张', '台', '件', '条', '倍速', '帧', '兆', '瓦', '伏',
    'km', 'm', 'cm', 'mm', 'kg', 'g', 'lb', 'lbs', 'oz', 'gb', 'mb', 'kb', 'tb', 'pb', 'gib', 'mib', 'kib', 'tib',
    'ms', 's', 'sec', 'secs', 'second', 'seconds', 'min', 'mins', 'minute', 'minutes', 'h', 'hr', 'hrs', 'hour',
    'hours',
    'day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'x', 'times', 'percent', 'points', 'pts',
    'stars', 'star', 'inch', 'inches', 'ft', 'feet', 'miles', 'mile', 'mph', 'kph', 'fps', 'hz', 'khz', 'mhz', 'ghz',
    'w', 'kw', 'kwh', 'v', 'mah', 'l', 'ml', 'people', 'users', 'gbps', 'mbps', 'kbps', 'qps', 'rps', 'tps', 'cores',
    'degrees', 'k', 'kloc', 'usd', 'eur', 'cny', 'rmb', 'dollars', 'euros', 'yuan',
  ],
  versionWords: ['version', 'versions', 'ver', 'ver.', 'release', 'build', 'firmware', '版本号', '版本', '固件', 'v'],
  hostStoplist: [
    'port', 'line', 'lines', 'error', 'errno', 'code', 'step', 'id', 'note', 'page', 'pid', 'uid', 'gid', 'status',
    'http', 'https', 'ftp', 'tcp', 'udp', 'at', 'time', 'ratio', 'rate', 'version', 'build', 'exit', 'stage', 'phase',
    'chapter', 'section', 'room', 'table', 'row', 'col', 'column', 'issue', 'pr', 'ticket', 'order', 'case', 'item',
    'no', 'num', 'number', 'total', 'count', 'size', 'len', 'length', 'width', 'height', 'score', 'level', 'tel',
    'phone', 'mobile', 'fax', 'isbn', 'year', 'day', 'ref', 'rev', 'offset', 'index', 'epoch', 'round', 'test', 'ln',
  ],
  ratioWords: [
    '比例', '比分', '比值', '宽高比', '长宽比', '屏幕比', '比', 'ratio', 'ratios', 'aspect', 'score', 'scale', 'odds', 'split',
  ],
  dayNounFollowers: '楼线房机位门床桌字码院区栋层车厢口台柜箱球员手服窗店仓库包件款道题档屋室坑站桩游内',
};

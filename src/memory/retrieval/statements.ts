/**
 * A sentence read as a statement of a rule or setting: what it is about (its subject terms) and the value it
 * gives (`_md`, 8443, `release-train`, WARN). Two statements about the same subject with different values are
 * versions of one fact; the later one, said by the user, supersedes the earlier (supersede.ts). Word lists are
 * data, both languages. Pure, no DOM.
 */
import { productNames } from '../working-memory/index.ts';
import { DATE_VOCABULARY } from '../working-memory/vocab-dates.ts';
import { aliasConcepts, terms } from './text-terms.ts';

export interface Statement {
  /** Content terms (stems, CJK bigrams) without the values and without the words that mark a rule or a change. */
  readonly subject: ReadonlySet<string>;
  /**
   * The subject with the terms of the clauses that lead in to the first value ("For the newsletter, the code is
   * X"; "发布窗口的事：以后改到周二"): compared only when the later statement says that something changes.
   */
  readonly topic: ReadonlySet<string>;
  /** The values it gives, case-folded. */
  readonly values: ReadonlySet<string>;
  /** It says that something changes ("from now on", "switch to", 改成, 以后): it supersedes even a narrative. */
  readonly change: boolean;
  /** It tells what happened (past tense): two events are both true, neither supersedes the other. */
  readonly narrative: boolean;
  /**
   * Whose thing the subject is, when a possessive says so (my / our → 'self', your, his, her, their, its; 我的, 他的…):
   * "his name is Kyle" and "her name is Shadow" are about two things. Null when none is said.
   */
  readonly owner: string | null;
  /** It declares an earlier version void ("the old code is no longer valid", 之前的不用了): a change of the whole. */
  readonly retires: boolean;
  /**
   * The values it names as the old ones of a change ("端口从 7001 改成 7101", "moved from 8080 to 9090"): it retires
   * only a statement that gave one of them (another thing's port, 8080, is not what changed).
   */
  readonly from: ReadonlySet<string>;
  /** Terms that spell one concept twice (端口 and port: aliasConcepts), to count a shared subject by concept. */
  readonly concepts: ReadonlyMap<string, string>;
  /** Each clause that gives values, with its own subject: a change may be one clause of a sentence that says more. */
  readonly parts: ReadonlyArray<{ readonly subject: ReadonlySet<string>; readonly values: ReadonlySet<string> }>;
  /**
   * In a Chinese sentence, the terms of its Latin words (empty otherwise): there a Latin word names a thing (a tool,
   * a host, a topic), so the subject's Latin terms say which thing it is about (`names`).
   */
  readonly latin: ReadonlySet<string>;
  /** The subject's terms spelt in Latin in a Chinese sentence (not an alias of its Chinese words): what it is about. */
  readonly names: ReadonlySet<string>;
  /** `names` and the Latin terms of the values that are words (Loki, promtail): the things it speaks of. */
  readonly things: ReadonlySet<string>;
  /** The units its numbers are counted in (day, min, km): no subject words, but two values in one unit are alike. */
  readonly units: ReadonlySet<string>;
}

/** Possessives before a subject, and whose they say it is. */
const OWNER = /\b(my|our|your|his|her|their|its)\b|(我们的|你们的|他们的|她们的|我的|你的|他的|她的|它的)/i;
const OWNERS: Readonly<Record<string, string>> = {
  my: 'self', our: 'self', your: 'you', his: 'his', her: 'her', their: 'their', its: 'its',
  我的: 'self', 我们的: 'self', 你的: 'you', 你们的: 'you', 他的: 'his', 她的: 'her', 它的: 'its', 他们的: 'their', 她们的: 'their',
};

/** Words that say a rule changes. */
const CHANGE_EN = /\b(?:now|instead|anymore|any more|no longer|from now on|going forward|from today|switch(?:ed|es|ing)?|chang(?:e|ed|es|ing)|actually|updat(?:e|ed|es|ing)|rather|replac(?:e|ed|es|ing)|mov(?:e|ed|es|ing))\b/i;
const CHANGE_ZH = /改成|改为|改用|改到|换成|换到|换用|以后|今后|从现在|现在|不再|其实|更新为|调整为|调成|变成|统一改/;

/** Past tense or a past time: a narrative. Regular -ed forms, less the common words that only look like them. */
const NARRATIVE_EN = /\b(?:went|was|were|did|had|got|made|took|saw|came|ran|met|bought|sent|wrote|left|found|gave|told|began|brought|ago|yesterday|last (?:week|month|year|night|weekend|time))\b/i;
const REGULAR_PAST = /\b[a-z]{2,}ed\b/gi;
const NOT_PAST = new Set(['need', 'needed', 'feed', 'seed', 'speed', 'indeed', 'based', 'used', 'embed', 'red', 'bed', 'shed', 'proceed', 'exceed', 'succeed', 'named', 'called', 'expected', 'supposed', 'allowed', 'required', 'preferred', 'shared', 'fixed', 'limited', 'nested', 'mixed', 'tested', 'signed', 'prefixed', 'suffixed', 'detailed', 'advanced', 'related', 'scheduled', 'planned', 'compressed', 'encrypted', 'enabled', 'disabled', 'managed', 'hosted', 'reserved', 'logged', 'checked']);
const NARRATIVE_ZH = /昨天|前天|上周|上个月|去年|那天|刚才|当时/;
/**
 * A verb with 了 before a number tells of an event ("周六跑了 8 公里", "等了 40 分钟"); after 到 / 成 / 为 it gives a
 * setting its new value (升到了 5.7.1, 改成了 8443), which is no narrative.
 */
const EVENT_ZH = /(?<=\p{sc=Han})(?<![到成为])了\s*\d/u;

/** Marker words dropped from a subject: they say how, not what. */
const MARKER_WORDS =
  'now instead anymore more longer going forward today switch switched switching change changed changes changing actually update updated updates updating rather replace replaced replaces replacing move moved moves moving ' +
  'should must always never use using please make sure let want need keep set rule rules convention default ok okay also just still ' +
  // Who said it is not what it is about: "Zwift says FTP 212", he did say "I meant that".
  'say says said saying tell tells told';
const MARKER_TERMS = new Set(terms(MARKER_WORDS));
const MARKER_ZH = ['改成', '改为', '改用', '改到', '换成', '换到', '换用', '设置为', '设成', '设为', '调到', '调成', '调整为', '定在', '定为', '放在', '以后', '今后', '现在', '不再', '其实', '统一', '一律', '应该', '必须', '记得', '一定', '默认', '请', '都', '要', '用', '吧', '已经',
  // Naming words introduce a name (叫「订单告警」, 名为 …), as "named" does; pointing words (那边, 这里) say where, not what.
  '命名为', '名叫', '叫做', '名为', '叫', '那边', '这边', '那里', '这里'];

/**
 * A token that reads as a value: has a digit, an underscore, an inner -./: (release-train, v2.3), camelCase or is
 * CAPS; a day or a month; a capitalised word inside a sentence (a name: Lucia, Purolator). `$` and `%` stay on.
 */
const TOKEN = /\$?[A-Za-z0-9_][A-Za-z0-9_.:/-]*[A-Za-z0-9_]%?|\$?[A-Za-z0-9_]%?/g;
const DAY_OR_MONTH = /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|june|july|august|september|october|november|december)$/i;
const ZH_VALUE = /(?:周|星期|礼拜)[一二三四五六日天]/g;
const QUOTED = /`([^`\n]{1,40})`|"([^"\n]{1,40})"|“([^”\n]{1,40})”|「([^」\n]{1,40})」|『([^』\n]{1,40})』/g;

/** A verb and its particle joined by a hyphen is a noun of English, not an identifier: weigh-in, check-up, drop-off. */
const PARTICLE_NOUN = /^[a-z]{2,}-(?:in|up|on|off|out|down|over|back|by)$/;

function isValueToken(token: string, inside: boolean): boolean {
  if (PARTICLE_NOUN.test(token)) return false;
  if (/[0-9_]/.test(token) || /[a-z0-9][.:/-][a-z0-9]/i.test(token)) return true;
  const products = productNames();
  // A name that is also a word (Go, Make, Express) counts only inside a sentence, where its capital says so.
  if (products.anyCase.has(token.toLowerCase()) || (inside && products.asWritten.has(token))) return true;
  if (/[a-z][A-Z]/.test(token) || DAY_OR_MONTH.test(token)) return true;
  if (inside && /^[A-Z][a-z]{2,}$/.test(token)) return true;
  return token.length >= 3 && token === token.toUpperCase() && /[A-Z]/.test(token);
}

/** Short forms a rule is restated with ("PRs should target…" after "pull requests target…"), for subjects only. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  pr: 'pull request', prs: 'pull requests', mr: 'merge request', mrs: 'merge requests', repo: 'repository',
  repos: 'repositories', db: 'database', dbs: 'databases', k8s: 'kubernetes', env: 'environment', envs: 'environments',
  config: 'configuration', prod: 'production', deps: 'dependencies', msg: 'message', msgs: 'messages',
};
const ABBREVIATION = new RegExp(`\\b(?:${Object.keys(ABBREVIATIONS).join('|')})\\b`, 'gi');

/** "named" and "called" introduce a name ("a veteran named Samuel"): they are not the subject "name". */
const NAMING_PARTICIPLE = /\b(?:named|called)\b/gi;

/** A clause's terms less the words that mark a rule or a change (values are taken out before). */
function subjectTerms(text: string): string[] {
  let rest = text.replace(NAMING_PARTICIPLE, ' ').replace(ABBREVIATION, (word) => ABBREVIATIONS[word.toLowerCase()] ?? word);
  for (const w of MARKER_ZH) rest = rest.split(w).join(' ');
  return terms(rest).filter((t) => !MARKER_TERMS.has(t));
}

/** Whether the token at `at` of a clause stands inside its sentence (not the sentence's first word). */
const insideSentence = (clause: string, at: number, first: boolean): boolean => {
  const before = clause.slice(0, at).trimEnd();
  return before === '' ? !first : /[\p{L}\p{N},)]$/u.test(before);
};

/** A name that is spoken to ("Hey Ravi!", "Thanks, Noor.", "I agree, Anna."), not a value. */
const GREETING_BEFORE = /\b(?:hey|hi|hello|thanks|thank you|dear|bye|wow|aw|oh|sorry|congrats|congratulations|morning|evening|night|yo)\s+$/i;
const addressed = (clause: string, at: number, token: string): boolean =>
  GREETING_BEFORE.test(clause.slice(Math.max(0, at - 20), at)) || (clause.slice(0, at).trim() === '' && /^\s*(?:[!.?…]|$)/.test(clause.slice(at + token.length)));

/**
 * A name that opens a sentence and is its doer ("Priya is the reviewer…", "Imani answers emails…", "Tomasz, our
 * lead, owns it"): a value, though it stands first. Only before these verbs, so a capitalised common word that
 * opens a sentence ("Pull requests…", "Deploys are…") stays a word; and only when its clause gives no other value
 * ("Deploy is on Friday" is about the deploy).
 */
const LEAD_VERBS =
  'reviews|answers|owns|handles|leads|manages|covers|runs|approves|maintains|takes over|looks after|signs off|replies|responds|hosts|drives|teaches|coaches|replaces|deploys|merges|checks|picks up|' +
  'is (?:the|our|my|now|in charge|responsible)|will (?:review|answer|own|handle|lead|manage|cover|run|approve|maintain|take over|look after|reply|respond|host|drive|teach|coach|replace)';
const LEAD_NAME = new RegExp(String.raw`(?:^\s*|(?<=[.!?]\s+))["“'(]?(?:(?:and|also|so|yes|ok|okay|then|now)[,.]?\s+)?([A-Z][a-z]{2,})(\s*,\s*[^,.;!?]{1,40},)?(?=\s+(?:${LEAD_VERBS})\b)`, 'i');
/** The name that opens a clause, or a sentence in it ("Got it. Henrike will review…"), as its doer, or null. */
const leadName = (clause: string): string | null => {
  const m = LEAD_NAME.exec(clause);
  const name = m?.[1];
  if (name === undefined || !/^[A-Z][a-z]{2,}$/.test(name) || name.endsWith('ing')) return null;
  return terms(name).length === 0 || STOP_LEAD.has(name.toLowerCase()) ? null : name;
};
/** A sentence without the apposition after the name that opens it ("Tomasz, our lead, owns it"): its commas would cut the name off. */
const withoutApposition = (sentence: string): string => {
  const m = LEAD_NAME.exec(sentence);
  return m?.[2] === undefined || leadName(sentence) === null ? sentence : sentence.slice(0, m.index + m[0].length - m[2].length) + sentence.slice(m.index + m[0].length);
};
/** Capitalised words that open a sentence and are not names (besides stopwords, which `terms` drops). */
const STOP_LEAD = new Set([
  'everyone', 'everybody', 'nobody', 'someone', 'somebody', 'anyone', 'anybody', 'none', 'each', 'either', 'neither',
  'another', 'today', 'tomorrow', 'yesterday', 'tonight',
]);

/**
 * A person named in Chinese as the one who does a task: a common surname and one or two characters, between
 * 由/让/找/归/交给/要 and the task (评审, 负责, review…): "由林一帆评审", "要郑凯 review". Names have no case in Chinese;
 * this frame is what shows one.
 */
const ZH_SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
/** Common words that such a frame would read as a name ("要马上处理", "改成周末处理"). */
const ZH_NOT_NAMES = new Set(['马上', '方便', '周末', '高度', '何时', '万一', '任何', '程序', '白天', '夏天', '黄金', '龙头', '江湖', '毛病', '于是', '陆续', '林林']);
const ZH_NAME = new RegExp(String.raw`(?<=由|让|找|归|交给|要|请|指定|改为|改成|改由|换成|换)[${ZH_SURNAMES}][\p{sc=Han}]{1,2}?(?=\s*(?:来|负责|评审|审核|审批|审|review|approve|跟进|对接|接手|处理|值班|主持|管理?))`, 'gu');

/** Words that declare an earlier version void; in a clause that gives no value, they retire what it names. */
const RETIRE_EN = /\b(?:no longer (?:valid|used|in use|applies|active|needed)|(?:is|are) (?:void|obsolete|deprecated|retired|invalid)|(?:don't|do not) use (?:it|that|this|them|those) anymore)\b/i;
/** Not 过期 / 失效 / 取消: "证书过期了" tells of an event, it retires no rule. */
const RETIRE_ZH = /不再有效|不再使用|不再用|不用了|作废|废弃|停用/;

/** "from A to B", 从 A 改成 B: A, the old value of a change (a short span before the word that gives the new one). */
const FROM_TO = /(?:\bfrom\s+|从|由)([^,，;；。.!?！？]{1,30}?)\s*(?:\bto\b|改成|改为|改到|换成|换到|换为|升到|升级到|降到|降级到|调到|调成|调整为|变成|迁到|切到|到)/giu;

/** The values a sentence names as the old ones of a change. */
function fromValues(sentence: string, values: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const m of sentence.matchAll(FROM_TO)) {
    const span = m[1]!.toLowerCase();
    for (const v of values) if (span.includes(v)) out.add(v);
  }
  return out;
}

/** A number that labels an item ("Step 2:", "Option 3)", 第3个, a list's "1. ") counts items, it gives no value. */
const LABEL_NUMBER = /(?<=\p{L}\s?)\d{1,3}(?=\s*[)）:：](?!\d))|(?<=第\s*)\d{1,3}|^\s*\d{1,2}(?=[.)]\s|、)/gu;

/**
 * Clauses: at commas, semicolons and colons, and before the words that join a reason or a contrast. Not at the
 * colon of a clock time: "backup at 2:00, report at 3:30" gives the values 2:00 and 3:30, not 2, 00, 3 and 30.
 */
const CLAUSE_BREAK = /[,，;；：]\s*|:(?!\d)\s*|\s+(?=(?:so|since|because|but|which|while|as long as)\b)/i;
/** A participle after these is passive or perfect present ("are handled", "is set"), not a past event. */
const PASSIVE_BEFORE = /\b(?:is|are|be|been|being|get|gets|has|have)\s+$|['’](?:s|re)\s+$/i;

/** A title before a name is part of the name: "Mrs. Odell" is neither the value "mrs" nor merge requests (MRs). */
const HONORIFIC = /\b(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s+(?=\p{Lu})/gu;

/**
 * A unit after its number ("45 min", "3 days", "12 kg") and a rate ("a day", "per week") say what the number
 * counts, not what the sentence is about: as subject words they made "lessons 45 min" and "the backup took 2 min"
 * one subject, and "20 min a day" and "7 days" another.
 */
const UNIT_AFTER_NUMBER = /(\d)\s*(mins?|minutes?|secs?|seconds?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?|nights?|km|kms|kg|kgs|mg|lbs?|cm|mm|ms|miles?|times)\b/giu;
/** One spelling per unit: minutes and mins are min, days is day. */
const UNIT_SPELLINGS: Readonly<Record<string, string>> = { minute: 'min', second: 'sec', hr: 'hour', wk: 'week', yr: 'year', kgs: 'kg', kms: 'km', lbs: 'lb' };
function unitOf(written: string): string {
  const lower = written.toLowerCase();
  if (UNIT_SPELLINGS[lower] !== undefined) return UNIT_SPELLINGS[lower]!;
  const singular = lower.length > 2 && lower.endsWith('s') ? lower.slice(0, -1) : lower;
  return UNIT_SPELLINGS[singular] ?? singular;
}
const PER_UNIT = /\b(?:a|an|per)\s+(?:minute|hour|day|week|month|year|night)\b/giu;

/** A question, with its mark or, in Chinese, without it: "项目深挖为啥只有 7 分" restates no score. */
const isQuestion = (sentence: string): boolean => /[?？]|为啥|为什么|为何|凭什么/.test(sentence);
/**
 * The unit after a number in a Chinese date or time (10月25号, 3点): part of the value, not the subject. Left in,
 * any two dates shared 月 and 号, and "截稿是10月25号" read as restated by "二面在10月17号".
 */
const ZH_UNIT_AFTER_NUMBER = /(\d)\s*[年月日号点时分秒]/gu;

/** English month names and abbreviations (the working memory's date vocabulary), longest first: "sept" is read whole. */
const MONTH_NAME = `(?:${Object.keys(DATE_VOCABULARY.enMonths)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;
/**
 * A date, one value ("10月25号", "25 October", "Oct 25"): as two numbers, a moved date shared no value with the old
 * one and "截稿改到11月1号" restated nothing; read as month-day it gives way to the new date.
 */
const DATE = new RegExp(
  String.raw`(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]?|\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(${MONTH_NAME})\b\.?(?:,?\s+(\d{4})\b)?|\b(${MONTH_NAME})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`,
  'giu',
);
const pad = (n: string): string => n.padStart(2, '0');
function dateValue(m: readonly (string | undefined)[]): string {
  const [, zhYear, zhMonth, zhDay, enDay, enMonth, enYear, enMonth2, enDay2, enYear2] = m;
  const month = zhMonth ?? String(DATE_VOCABULARY.enMonths[(enMonth ?? enMonth2)!.toLowerCase()]);
  const day = zhDay ?? enDay ?? enDay2!;
  const year = zhYear ?? enYear ?? enYear2;
  return `${year === undefined ? '' : `${year}-`}${pad(month)}-${pad(day)}`;
}

/**
 * The statement a sentence makes, or null: a question, or nothing that reads as a value. Its subject may be empty
 * (a line of code, "Set it to INFO."): it then restates nothing, but can still echo a value (supersede.ts).
 */
export function statementOf(said: string, before = ''): Statement | null {
  if (isQuestion(said)) return null;
  const sentence = said.replace(HONORIFIC, '');
  const values = new Set<string>();
  const subject = new Set<string>();
  const topic = new Set<string>();
  const parts: Array<{ subject: Set<string>; values: Set<string> }> = [];
  const units = new Set<string>();
  // The subject is read from the clauses that give a value: a long sentence says other things around it. A
  // clause that only gives the value ("change it to $95") takes its subject from the clause, or sentence, before.
  // Clauses that give none before the first that does say what it is about ("For the newsletter, the code is
  // X"; "发布窗口的事：以后改到周二"): their terms join the topic, which a statement of change is compared by.
  const beforeRead = before === '' ? null : valuesTakenOut(before, true);
  let previous = beforeRead === null ? '' : beforeRead.rest;
  let leadIn: string[] | null = [];
  let owner: string | null = null;
  let retires = false;
  // A piece cut at a semicolon or colon is the same sentence: one before it that gives no value leads in.
  if (beforeRead !== null && beforeRead.given.size === 0 && /[;；:：]\s*$/.test(before)) {
    leadIn.push(...subjectTerms(beforeRead.rest));
    retires = RETIRE_EN.test(before) || RETIRE_ZH.test(before);
  }
  for (const [n, clause] of withoutApposition(sentence).replace(LABEL_NUMBER, ' ').split(CLAUSE_BREAK).entries()) {
    let { rest, given } = valuesTakenOut(clause, n === 0, units);
    const lead = given.size === 0 ? leadName(clause) : null;
    if (lead !== null) {
      given = new Set([lead.toLowerCase()]);
      rest = rest.replace(lead, ' ');
    }
    if (given.size > 0) {
      for (const v of given) values.add(v);
      const about = subjectTerms(rest);
      const from = about.length > 0 ? rest : previous;
      const own = new Set(about.length > 0 ? about : subjectTerms(previous));
      for (const t of own) subject.add(t);
      parts.push({ subject: own, values: given });
      if (leadIn !== null) for (const t of leadIn) topic.add(t);
      leadIn = null;
      const possessive: RegExpExecArray | null = owner === null ? OWNER.exec(from) : null;
      if (possessive !== null) owner = OWNERS[possessive[0].toLowerCase()] ?? null;
    } else {
      if (leadIn !== null) leadIn.push(...subjectTerms(rest));
      if (RETIRE_EN.test(rest) || RETIRE_ZH.test(rest)) retires = true;
    }
    previous = rest;
  }
  if (values.size === 0) return null;
  for (const t of subject) topic.add(t);
  const latin = latinTerms(sentence);
  const names = new Set([...subject].filter((t) => latin.has(t)));
  return {
    subject,
    topic,
    values,
    change: retires || CHANGE_EN.test(sentence) || CHANGE_ZH.test(sentence),
    narrative: tellsThePast(sentence),
    owner,
    retires,
    from: fromValues(sentence, values),
    concepts: aliasConcepts(sentence),
    parts,
    latin,
    names,
    things: new Set([...names, ...[...values].filter((v) => valueKind(v) === 'word').flatMap((v) => terms(v)).filter((t) => latin.has(t))]),
    units,
  };
}

const HAN = /\p{sc=Han}/u;

/** The terms of a Chinese sentence's Latin words (none for a sentence without Chinese). */
function latinTerms(sentence: string): Set<string> {
  if (!HAN.test(sentence)) return new Set();
  return new Set(terms((sentence.normalize('NFKC').match(/[\p{Script=Latin}\d][\p{Script=Latin}\d_.'-]*/gu) ?? []).join(' ')));
}

/** Statements by sentence text and the sentence before (sentences recur across searches; bounded). */
let statements = new Map<string, Statement | null>();
export function statementOfCached(sentence: string, before = ''): Statement | null {
  const key = `${before}\u0000${sentence}`;
  let s = statements.get(key);
  if (s === undefined) {
    s = statementOf(sentence, before);
    if (statements.size >= 20_000) statements = new Map();
    statements.set(key, s);
  }
  return s;
}

/** Whether a text tells what happened (past tense, a past time): "we deployed on Friday", 昨天, "did you…". */
function tellsThePast(text: string): boolean {
  const past = [...text.matchAll(REGULAR_PAST)].some((m) => !NOT_PAST.has(m[0].toLowerCase()) && !PASSIVE_BEFORE.test(text.slice(Math.max(0, m.index - 8), m.index)));
  return past || NARRATIVE_EN.test(text) || NARRATIVE_ZH.test(text) || EVENT_ZH.test(text);
}

/**
 * Whether a question asks about the past ("when did…", "what was…", "last week", 昨天): by its auxiliaries and times,
 * not by -ed forms, which a question's word order leaves without their "is" ("which currency are invoices issued in?").
 */
export function asksAboutThePast(question: string): boolean {
  return NARRATIVE_EN.test(question) || NARRATIVE_ZH.test(question);
}

/** A question's own words as a subject: its terms less the words that mark a rule or a change ("now", 现在). */
export function askedTerms(question: string): Set<string> {
  return new Set(subjectTerms(question));
}

/**
 * A plain word that names one of a kind of thing ("the trunk branch", "the #ops channel", "the staging cluster"):
 * a value, though it has no digit or capital. Words that only describe ("the new branch") are not names.
 */
const NAMED_KIND = /(?<=\b(?:the|a|an|our|to|into|on|from|in)\s+)#?([a-z][a-z0-9_-]{1,24})(?=\s+(?:branch|channel|bucket|queue|cluster|namespace|remote|tier|workspace)\b)/gi;
const KIND_MODIFIERS = new Set([
  'new', 'old', 'same', 'other', 'current', 'previous', 'next', 'default', 'first', 'last', 'separate', 'different',
  'own', 'whole', 'entire', 'specific', 'right', 'wrong', 'this', 'that', 'each', 'every', 'any', 'some', 'one',
  'single', 'shared', 'private', 'public', 'local', 'remote', 'long', 'short', 'big', 'small', 'feature', 'topic',
  'personal', 'team', 'working', 'temporary', 'permanent', 'live', 'test',
]);

/** A clause's values (case-folded), and the clause without them. */
function valuesTakenOut(clause: string, first: boolean, units?: Set<string>): { rest: string; given: Set<string> } {
  const given = new Set<string>();
  let rest = clause.replace(QUOTED, (_whole, ...groups: unknown[]) => {
    const inner = groups.slice(0, 5).find((g): g is string => typeof g === 'string')!.trim();
    if (inner !== '') given.add(inner.toLowerCase());
    return ' ';
  });
  rest = rest.replace(DATE, (...m: string[]) => {
    given.add(dateValue(m));
    return ' ';
  });
  rest = rest
    .replace(ZH_UNIT_AFTER_NUMBER, '$1 ')
    .replace(UNIT_AFTER_NUMBER, (_whole, digit: string, unit: string) => {
      units?.add(unitOf(unit));
      return `${digit} `;
    })
    .replace(PER_UNIT, ' ');
  rest = rest.replace(TOKEN, (token, at: number, whole: string) => {
    if (!isValueToken(token, insideSentence(whole, at, first) && !addressed(whole, at, token))) return token;
    given.add(token.toLowerCase());
    return ' ';
  });
  rest = rest.replace(NAMED_KIND, (whole, name: string) => {
    if (KIND_MODIFIERS.has(name.toLowerCase()) || terms(name).length === 0) return whole;
    given.add(name.toLowerCase());
    return whole.replace(name, ' ');
  });
  rest = rest.replace(ZH_VALUE, (day) => {
    given.add(day);
    return ' ';
  });
  rest = rest.replace(ZH_NAME, (name) => {
    if (ZH_NOT_NAMES.has(name)) return name;
    given.add(name);
    return ' ';
  });
  return { rest, given };
}

/**
 * Whether `later` restates `earlier` with another value:
 * - the same subject: at least two shared terms (or all of a one-term subject) and half of the smaller subject,
 *   subjects read from the clauses that give the values (for a statement of change, also their topics, or one
 *   clause of each);
 * - a value of each that the other lacks, and one they share when each gives two or more (unless the later one
 *   declares the earlier void);
 * - a word of change in the later one, or neither a narrative (two trips or two deploys are both true);
 * - not two owners ("his name", "her name").
 */
export function restates(later: Statement, earlier: Statement): boolean {
  const change = later.change || (!later.narrative && !earlier.narrative);
  if (!change) return false;
  // His name and her name are two things, though both are "name".
  if (later.owner !== null && earlier.owner !== null && later.owner !== earlier.owner) return false;
  if (namesAnotherThing(later, earlier)) return false;
  // Without a word of change, two statements share more than one concept of their subjects: "版本 24.3.0" (a
  // server's) and "下个版本 3.9.1" (the app's) only share 版本.
  // A unit both count in is one more thing they share ("within 21 days of delivery", "45 days after delivery"), when
  // each says what it is about besides: a later subject of one word says too little ("Walks: 2 a day, 30-45 min"
  // on a dog's care sheet shares only "walk" and minutes with "max 10 min walk from the station").
  const [laterSubject, earlierSubject] = later.subject.size > 1 || later.change ? withSharedUnits(later, earlier) : [later.subject, earlier.subject];
  if (
    valuesDiffer(later, earlier) &&
    (later.change
      ? sameSubject(laterSubject, earlierSubject) || sameSubject(later.topic, earlier.topic)
      : sameSubject(laterSubject, earlierSubject) && sharedConcepts(later, earlier) + (laterSubject.size - later.subject.size) >= 2) &&
    oneWordReachesItsClause(later, earlier)
  )
    return true;
  // A change said in one clause of a longer sentence ("Actually, make packing day Saturday, and the courier collects on
  // Monday"): that clause against each of the earlier one's.
  if (!later.change || (later.parts.length < 2 && earlier.parts.length < 2)) return false;
  return later.parts.some((p) => earlier.parts.some((q) => sameSubject(p.subject, q.subject) && valuesDiffer({ ...later, ...p }, { ...earlier, ...q })));
}

/**
 * A one-word subject ("move the shop to 8088") matches any longer subject that holds the word, so against a
 * statement of several clauses it restates only the clause that holds the word, with a value of that clause's kind:
 * "it's a ceramics shop (Larkfield Pottery), ~60 products, 40 orders a month" gave no port to change.
 */
function oneWordReachesItsClause(later: Statement, earlier: Statement): boolean {
  if (later.subject.size !== 1 || earlier.parts.length < 2) return true;
  const [word] = later.subject;
  return earlier.parts.some((q) => q.subject.has(word!) && valuesDiffer(later, { ...earlier, ...q }));
}

/** Both subjects with the units both statements count in, when each subject says something besides. */
function withSharedUnits(a: Statement, b: Statement): [ReadonlySet<string>, ReadonlySet<string>] {
  if (a.subject.size === 0 || b.subject.size === 0) return [a.subject, b.subject];
  const shared = [...a.units].filter((u) => b.units.has(u)).map((u) => `#${u}`);
  return shared.length === 0 ? [a.subject, b.subject] : [new Set([...a.subject, ...shared]), new Set([...b.subject, ...shared])];
}

/** The concepts the two subjects share (a word and its other spelling are one). */
function sharedConcepts(a: Statement, b: Statement): number {
  const shared = new Set<string>();
  for (const t of a.subject) if (b.subject.has(t)) shared.add(a.concepts.get(t) ?? b.concepts.get(t) ?? t);
  return shared.size;
}

/** At least two shared terms (or all of a one-term subject), and half of the smaller. */
function sameSubject(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared += 1;
  const smaller = Math.min(a.size, b.size);
  return smaller > 0 && shared >= Math.min(2, smaller) && shared * 2 >= smaller;
}

/**
 * A Chinese change about a thing it names in Latin, which the earlier statement never mentions, while the later one
 * mentions none of the things the earlier speaks of, and no value is shared: two things, though both speak of a port
 * ("promtail 推到 3100 端口" and "sidecar 冲突了，我把 restic 端口改成 8001"). A change that names nothing ("端口改成
 * 3200") or a new value only ("日志改用 ELK") is read as before.
 */
export function namesAnotherThing(later: Statement, earlier: Statement): boolean {
  if (later.names.size === 0 || earlier.things.size === 0) return false;
  if ([...earlier.things].some((t) => later.latin.has(t)) || [...later.names].some((t) => earlier.latin.has(t))) return false;
  return ![...earlier.values].some((v) => later.values.has(v));
}

/** A day: a date as statements give it (10-25, 2024-10-25), "the 5th", a weekday or a month, 周三. */
const DAY_VALUE = /^(?:\d{2}-\d{2}|\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th))$|^(?:周|星期|礼拜)[一二三四五六日天]$/i;
/** A clock time: 3:30, 03:15, 7pm, 6:30am. */
const TIME_VALUE = /^\d{1,2}:\d{2}(?:am|pm)?$|^\d{1,2}(?:am|pm)$/i;

/**
 * A value's kind: a day, a time of day, a number (a port, a version, an amount) or a word (a name, an identifier). A
 * value gives way only to one of its kind: "on Tuesday" names no new vet, "the 5th" is no new walking distance.
 */
export const valueKind = (value: string): 'day' | 'time' | 'number' | 'word' =>
  DAY_VALUE.test(value) || DAY_OR_MONTH.test(value) ? 'day' : TIME_VALUE.test(value) ? 'time' : /^[$¥€£]?v?\d/i.test(value) ? 'number' : 'word';

function valuesDiffer(later: Statement, earlier: Statement): boolean {
  // A change that names the old value retires what gave that value, not another thing's.
  if (later.from.size > 0 && ![...later.from].some((v) => earlier.values.has(v))) return false;
  const fresh = [...later.values].filter((v) => !earlier.values.has(v));
  // (A value the later one names as the old one is old, though it says it: "from 4000 to 4400".)
  const old = [...earlier.values].filter((v) => !later.values.has(v) || later.from.has(v));
  // A value gives way to one of its kind: "topic 叫 canal_order_binlog，12 分区" is not retired by "topic 有 12 个分区，
  // 加到 12 个并发" (the same 12; new numbers, no new name).
  if (!old.some((o) => fresh.some((n) => valueKind(n) === valueKind(o)))) return false;
  // Two values each and none shared: two things described alike ("auth-proxy listens on 8001", "search-gateway
  // listens on 8003"), not one thing changed. A change keeps what names the thing (the API port 8443 → 9417),
  // unless the later one says the earlier is void ("the old code is no longer valid; new subscribers get …").
  return later.retires || later.values.size < 2 || earlier.values.size < 2 || [...later.values].some((v) => earlier.values.has(v));
}

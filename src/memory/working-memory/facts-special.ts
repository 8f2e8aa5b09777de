/**
 * Slots with rules of their own: budget (an amount near 预算 / budget / 不超过), deadline (a date near
 * deadline / 截止), region (a cloud region code), time zone, answer length, the user's name, the log level, and the
 * user's own phone number and email address. Languages have their own file (facts-language.ts).
 */
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import { near, type Lexicon, type Mark } from './lexicon.ts';
import { alternation, FUNCTION_WORD } from './text.ts';
import type { EntitySpan, Fact } from './types.ts';

/** Between the user and a diet word: the diet is not theirs (not, never, no longer, 不, 没, 别). */
const NOT_DIET = /\b(?:not|never|no longer)\b|n't\b|不|没|别/i;

export interface SpecialMatchers {
  readonly lexicon: Lexicon;
  readonly port: RegExp;
  readonly portVerbs: RegExp;
  /** A port said by the verb alone: the API listens on 9090, 网关监听 9443. */
  readonly listenPort: RegExp;
  /** An address word and its link, ending where the address starts: 地址是, address is, URL:. */
  readonly addressBefore: RegExp;
  readonly region: RegExp;
  readonly timezone: RegExp;
  readonly allergies: readonly RegExp[];
  readonly diet: RegExp;
  readonly logLevel: RegExp;
}

export function compileSpecialMatchers(lexicon: Lexicon): SpecialMatchers {
  const s = lexicon.vocabulary.subjects;
  return {
    lexicon,
    // A port word, an optional link (是, is, 改成, to), the number: API 端口是 8443, port 8443, the port is 8443.
    port: new RegExp(
      `(?<![A-Za-z])(?:${alternation(s.portWords)})(?![A-Za-z])\\s*(?:号)?\\s*(?:(?:是|为|用|改成|改为|改到|换成|定在|:|：|=|is|to|of|will be|should be|moved to|changed to)\\s*了?)?\\s*(\\d{2,5})(?![\\d.:])`,
      'gi',
    ),
    addressBefore: new RegExp(
      `(?<![A-Za-z])(?:${alternation(s.addressWords)})(?![A-Za-z])\\s*(?:是|为|:|：|=|改成|改为|换成|在|is now|is|changed to|moved to)?\\s*$`,
      'i',
    ),
    listenPort:
      /(?:\b(?:(?:now|still|currently|already)\s+)?(?:listens|listening|is listening|will listen|should listen)\s+on\s+:?|(?:现在|目前)?监听(?:在)?\s*:?\s*)(\d{2,5})(?![\d.:])(?!\s*(?:cores?|threads?|connections?|个))/gi,
    portVerbs: new RegExp(`(?:\\s|^)(?:${alternation(s.portVerbs)})\\s*$|(?:'s|’s)\\s*$`, 'i'),
    region: new RegExp(s.regionPattern, 'g'),
    timezone: new RegExp(s.timezonePattern, 'gi'),
    allergies: s.allergyPatterns.map((p) => new RegExp(p, 'gi')),
    // (I went vegetarian, going vegan from now on, I've been vegetarian since May: a diet taken up or kept.)
    // (我 as the object — 帮我找素食餐厅 — is not the user saying what they eat.)
    diet: new RegExp(
      `(?:(?:(?<![帮给让叫跟和对替])我|i'm|i am|we're|we are|本人)[^,，。.;；]{0,10}?|(?:\\bwent|\\bgoing|\\bgone|\\bturned|\\b(?:i've|i have|we've|we have) been)[^,，。.;；]{0,6}?)(${alternation(Object.keys(s.diets))})`,
      'i',
    ),
    logLevel: new RegExp(s.logLevelPattern, 'gi'),
  };
}

/**
 * A value the message says is not the one (a correction: 是 cn-shanghai，不是 cn-hangzhou; 我前面打成 X 了; not X,
 * rather than X): it sets nothing.
 */
const corrected = (text: string, at: number): boolean =>
  /(?:不是|而不是|并非|而非|打成了?|写成了?|写错成|敲成|not|instead of|rather than|isn't|wasn't)\s*$/i.test(text.slice(Math.max(0, at - 12), at));

/** Whose a phone or an email is, just before its word, when it is not the user's: 客服电话, the hotel's email. */
const OTHERS_BEFORE = /(?:客服|售后|前台|公司|[\u4e00-\u9fff]{0,3}店里?|酒店|餐厅|医院|物业|快递|商家|卖家|官方|银行|学校|客户|用户|同事|房东|诊所|门诊|医生|快递员|值班|中介|师傅|司机|老师|负责人|对接人|工程师|经理|主管|保安|阿姨|(?:他|她|他们)的?|我?(?:爸|妈|爸爸|妈妈|老婆|老公|女儿|儿子|孩子|家人|爷爷|奶奶)的?|(?:供应商|厂商|厂家|对方|联系人)[^，。,.]{0,6}?的?|(?:supplier|contact|their contact)(?:'s)?|(?:my\s+)?(?:dad|mom|mum|father|mother|wife|husband|son|daughter|kid|parents)(?:'s)?|(?:support|hotel|office|company|bank|school|restaurant|landlord|vendor|customer|client|colleague|team|department|helpdesk|help desk|IT|dentist|doctor|clinic|vet|pharmacy|shop|store|plumber|electrician|mechanic|courier|driver|movers?|agent|realtor|contractor|tutor|teacher|nanny|lawyer|accountant)(?:'s)?|his|her|their|技术支持|部门|团队|运维组|IT\s*部?的?|牙医|维修|搬家|装修|教练|保姆|家政|律师|会计|代理)\s*(?:的\s*)?$/i;

/** A clause that names someone to contact (联系人 Lily, "contact person: Dan"): a bare number after it is theirs. */
const CONTACT_PERSON = /联系人|对接人|\bcontact(?:\s+person)?\b/i;
/**
 * A clause that hands something to a person named by a title (交给王经理, 合同找电信的刘工签, "send it to Dr. Lee"): a bare
 * contact word after it gives theirs.
 */
const TO_A_PERSON =
  /(?:交给|发给|递给|寄给|找|联系|问问?|约)\s*[^，,。；;]{0,8}?[\u4e00-\u9fff](?:经理|总监|总|工|老师|主管|先生|女士|小姐|师傅|律师|医生|主任|老板)|\b(?:to|contact|ask|call|email|with)\s+(?:Mr|Ms|Mrs|Dr|Prof)\.?\s+[A-Z]/;
/** A message the user writes to someone (给房东写封邮件, 给他发条短信, "write an email to my landlord"). */
const WRITING_TO = /给[^，,。；;]{1,8}?(?:写|发)(?:一)?(?:封|条|个)?\s*(?:邮件|email|e-mail|信|短信|消息|message)|\b(?:write|send|draft)\s+(?:an?\s+)?(?:email|e-mail|message|text|note)\s+to\b/i;

/** Alerts, then a word that sends them somewhere (the address follows): "alerts should go to", 告警邮件以后统一发到. */
const ALERTS_TO =
  /(?:\bsend\s+(?:all\s+|any\s+|the\s+|our\s+)?(?:alert(?:s|ing)?(?:\s+e-?mails?)?|pages)\s+to\b|\b(?:alert(?:s|ing)?(?:\s+e-?mails?)?|pages)\b[^,，.。;；]{0,24}?\b(?:go(?:es)?|be sent|sent|get sent|route[ds]?|routed)\s+(?:out\s+)?to\b|(?:告警|报警|\balerts?\b)\s*(?:邮件|通知)?[^,，.。;；]{0,12}?(?:发到|发给|发送到|推送到|转到|(?:收件|接收)?邮箱(?:地址)?\s*(?:改成|换成|改为|是|为|用)))/i;

/** A value the message says not to use: 别再建到 us-east-1 去了, don't deploy to eu-west-1. */
const avoided = (text: string, at: number): boolean =>
  /(?:别|不要|不再|别再|不能|禁止|千万别|don't|do not|never|not|avoid|stop)[^，。,.;；!！]{0,8}$/i.test(text.slice(Math.max(0, at - 16), at));

/** Before a region the user stops using: 别再用, 不用, stop using. */
const STOP_USING = /(?:别再用|不再用|不要再用|别用|不用|停用|弃用|stop using|no longer use|no longer using|not using|(?:not|no longer)\s+(?:on|in))\s*$/i;
/** A finished move away from a region: 从 A 换到 B 了, moved from A to B. */
const LEFT_FROM = /(?:从|由|\bfrom|\boff)\s*$/i;
const MOVED_TO = /^\s*(?:换到|迁到|迁移到|切到|切换到|改到|搬到|挪到|to\b|over to\b)/i;
const MOVE_DONE = /了|已经|\b(?:moved|migrated|switched|changed|went)\b/i;

/**
 * Whether the region at start…end is one the user leaves: `dropped` (别再用 X 了, moved from X to Y), `leaving` (a move
 * away only planned: X is neither set nor dropped), or null (not left: an ordinary mention).
 */
function regionLeft(text: string, start: number, end: number): 'dropped' | 'leaving' | null {
  const before = text.slice(Math.max(0, start - 20), start);
  if (STOP_USING.test(before)) return 'dropped';
  if (!LEFT_FROM.test(before) || !MOVED_TO.test(text.slice(end))) return null;
  return MOVE_DONE.test(text) ? 'dropped' : 'leaving';
}

/** Said of a value not known yet: 还没说, 还没定, not set yet, TBD. */
const UNSETTLED = /还没(?:说|定|确定|通知|出来|给|讲)|尚未(?:确定|通知)|待定|\b(?:not|isn't|hasn't been|haven't been)\s+(?:set|decided|announced|confirmed|fixed)\s+yet\b|\btbd\b/i;

/** A guess or a doubt: 觉得, 估计, 恐怕, I think, probably. */
const GUESS = /觉得|认为|估计|恐怕|怀疑|不一定|说不定|\b(?:i think|i don't think|i doubt|i guess|probably|hopefully|maybe|might)\b/i;

/** A schedule, not a one-off: nightly, every day, cron, 每天, 每晚. */
const RECURRING = /\b(?:nightly|daily|weekly|hourly|every\s+(?:night|day|morning|evening|week|hour|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|cron)\b|每天|每晚|每日|每周|每个?(?:工作日|晚上|早上)|定时/i;

/** Between a job's name and its time (English): "runs nightly at", "is scheduled for". */
const JOB_LINK_EN =
  /^\s*(?:job|jobs|script|task|cron)?\s*(?:runs?|starts?|kicks? off|happens?|(?:is|are) scheduled|(?:is|are) set)\s+(?:(?:nightly|daily|weekly|every\s+(?:night|day|morning|evening))\s+)?(?:at|for)\s*$/i;
/** Between a job's name and its time (Chinese), and what follows the time: 备份脚本每天凌晨 2 点跑. */
// (改到 / 挪到 / 调到: the job moved to that time, 备份改到每天凌晨3点半跑.)
const JOB_LINK_ZH = /^\s*(?:脚本|任务|作业|job|cron)?\s*(?:改到|改成|挪到|调到|换到|改在|定在)?\s*(?:每天|每晚|每日|每周[一二三四五六日天])?\s*(?:的)?\s*(?:凌晨|早上|晚上|上午|下午|中午)?\s*(?:在)?\s*$/;
const JOB_AFTER_ZH = /^\s*(?:跑|执行|开始|运行|启动|触发)/;

/** The job whose time `before` and `after` frame, as its slot's stem (backup, reindex), or null. */
function jobBefore(before: string, after: string, m: SpecialMatchers): string | null {
  // The job named last before the time, with only a link between them.
  const word = m.lexicon.words('jobNouns', before).at(-1);
  if (word === undefined) return null;
  const between = before.slice(word.end);
  if (!(JOB_LINK_ZH.test(between) && JOB_AFTER_ZH.test(after)) && !JOB_LINK_EN.test(between)) return null;
  const nouns = m.lexicon.vocabulary.subjects.jobNouns;
  return nouns[word.surface] ?? nouns[word.surface.toLowerCase()] ?? null;
}

/** What a clause's special facts depend on beyond the clause itself. */
export interface SpecialContext {
  /** The message names its budget somewhere, so a mere cap elsewhere in it (max $2,500) is not one. */
  readonly budgetNamed: boolean;
  /** The message names its deadline with a deadline word, so a date something is due before elsewhere is not it. */
  readonly deadlineNamed: boolean;
  /** The dates of the clause's sentence. */
  readonly sentenceDates: readonly EntitySpan[];
  /** The clause before in the same sentence. */
  readonly leadIn: string;
  /** A clause before in the same sentence names the answers (以后回答都用中文，…，简短一点). */
  readonly answersNamed: boolean;
}

/** A clause that gives the value instead of the one the clause before took back (…，不是 X，是 Y; "not X, it's Y"). */
const INSTEAD = /^\s*(?:而|其实|应该|实际上|实际)?是(?!不是)|^\s*(?:(?:but|it's|it is|it’s)\b)/i;
const TAKEN_BACK_BEFORE = /(?:不是|并不是|并非|\b(?:not|isn't|is not|wasn't)(?:\s+(?:on|the))?)\s*$/i;
/** A clause that gives the new value of what the message named: "The new one is…", 新的是…, "it's now…". */
const NEW_ONE = /^\s*(?:(?:the\s+)?new\s+(?:one|date|deadline)\s+(?:is|will be|'s)|(?:it|that)(?:'s| is| will be)\s+now|now\s+it(?:'s| is))\b|^\s*(?:新的|新日期|新的日期)\s*(?:是|定在|改成|为)/i;
const TAKEN_BACK = /不是|并非|\b(?:not|isn't|wasn't)\b/i;
/** A cap on the answers' length: under 200 words, no more than 5 sentences (the unit as said, plural). */
const ANSWER_CAP = /\b(?:under|within|below|no more than|not more than|at most|less than|fewer than|max(?:imum)?(?:\s+of)?)\s+(\d+)\s+(words|sentences|lines|paragraphs|bullet points)\b/i;
/** The answers themselves named (a cap said of a report or an essay is not theirs). */
const ANSWERS_NAMED = /\b(?:answers?|repl(?:y|ies)|responses?|keep (?:it|them|your))\b/i;
/** A form asked for on its own: "Bullet points only", 分点列出就好, bullet points 就好, 以后用表格形式给我. */
const FORM_ALONE = /\b(?:bullet(?:ed)?[ -]?points?|bullets|numbered list)\s+(?:only|please|are better)\b|(?:列表|分点|表格|要点|bullet points)\s*(?:就好|就行|就可以|即可|列出)|(?:以后|今后|之后|统一|一律)\s*(?:都)?\s*用\s*(?:列表|分点|表格|要点)(?:的)?\s*(?:形式|格式)?\s*(?:给我|发我|回我|列给我)/i;
/** Just before a form: it is refused (别用表格, "no tables", "don't use bullet points"). */
const REFUSED_BEFORE = /(?:别用?|不要用?|不用|不想要|避免|\b(?:no|not|don't use|do not use|without|stop using|avoid|instead of|rather than))\s*(?:(?:any|the|markdown|[\u4e00-\u9fff]{1,4}|太多的?)\s*)?$/i;
/** Earlier in the clause: the user dislikes it ("I don't like long answers full of bullet points", 受不了满屏的表格). */
const DISLIKED_BEFORE = /\b(?:don't like|do not like|dislike|hate|can't stand|tired of)\b|不喜欢|讨厌|受不了|烦/i;
/** After a form: allowed or limited, not asked for ("bullet points are fine", bullet points 不要太多). */
const ALLOWED_AFTER = /^\s*(?:are fine|is fine|are ok|are okay|are allowed|不要太多|别太多|不用太多|也行|也可以)/i;
/** After a length word: the answers described ("the short ones", "the long ones"), not asked for. */
const DESCRIBED_AFTER = /^\s*ones\b/i;
/** A word that opens an exception: what follows it is not the rule. */
const EXCEPTION = /除非|\b(?:unless|except(?:\s+when|\s+if)?)\b/i;

/** Before "up to": a rise, not a cap ("rent went up to $2,150"). */
const ROSE_BEFORE = /\b(?:went|goes|go|gone|going|rose|risen|jumped|climbed|increased|raised)\s*$/i;
/** Before the amount a sum moved from, and between it and the amount it moved to (从8000元提到1.2万元, from $5k to $8k). */
const SUM_MOVED_FROM = /(?:从|由|\bfrom)\s*$/i;
const SUM_MOVED_TO = /^[^\d，,。；;]{0,10}?(?:到|至|成|\bto)\s*$/i;
/** A word of change: without one, 从5000元到8000元 is a range. */
const SUM_CHANGED = /提|涨|升|降|加|砍|改|调|增|减|\b(?:rais|increas|cut|went|go|gone|mov|chang|bump|lower|reduc|drop|grew|grow|slash|trim)\w*/i;
/** "capping everything else at $3,000", "I limit it at 500": a cap set, a few words before its amount. */
const CAPPING_AT = /\b(?:capping|cap|capped|limiting|limit)\b[^.;,，。\d$€£¥]{0,32}?\bat\s*$/i;

export function findSpecialFacts(clause: Clause, entities: readonly EntitySpan[], m: SpecialMatchers, context: SpecialContext): Found<Fact>[] {
  const { budgetNamed, deadlineNamed, sentenceDates, leadIn, answersNamed } = context;
  const out: Found<Fact>[] = [];
  const text = clause.text;
  const lex = m.lexicon;
  const set = (subject: string, value: string, at: number): void => {
    out.push({ item: { subject, value, op: 'set' }, at: clause.start + at });
  };
  const amounts = entities.filter((e) => e.type === 'amount');
  const dates = entities.filter((e) => e.type === 'date');

  // Budget: an amount in a clause about the budget, or capped (不超过3000元, 3000元以内, under $500).
  const budgetWords = lex.words('budgetWords', text);
  const capsBefore = lex.words('budgetCapBefore', text);
  const capsAfter = lex.words('budgetCapAfter', text);
  // 预算不是8000元，是6500元: the amount said not to be it is not; the one after 是 in the next clause is.
  const meant = amounts.filter((a) => !corrected(text, a.start));
  const righted = budgetWords.length === 0 && lex.has('budgetWords', leadIn) && /(?:不是|isn't|is not)\s*\S+\s*$/i.test(leadIn) ? amounts.find((a) => /^\s*(?:而是|是|it's|it is)\s*$/i.test(text.slice(0, a.start))) : undefined;
  // 预算不变，还是8000元 / 预算批下来了，一年3万元 / "The budget stays the same, still $800": the clause before names the
  // budget, this one its amount.
  const restated =
    righted === undefined && budgetWords.length === 0 && lex.has('budgetWords', leadIn) && !/\d/.test(leadIn)
      ? amounts.find(
          (a) =>
            /^\s*(?:还是|仍然是|依然是|仍是|照旧是?|维持在?|保持在?|定在|就|是|still|it's|it is|stays at|remains|一年|每年|全年|每月|一个月|每个月|每季度|总共|总计|一共|大概|大约|约|per year|a year|per month|a month)?\s*$/i.test(text.slice(0, a.start)) ||
            // …，这个季度云资源一共 ¥150,000 / …，原来批的是20万元 (the old one: facts-self-corrected.ts follows it to the new).
            /^[^\d，,。；;]{0,12}?(?:一共|总共|总计|合计|共计)\s*$|^\s*(?:原来|原本|本来|之前|以前)[^\d，,。；;]{0,4}?是\s*$|^\s*(?:现在|目前)?(?:只剩下?|剩下|还剩)\s*$/.test(text.slice(0, a.start)),
        )
      : undefined;
  // 预算从8000元提到1.2万元 / "the budget went from $5,000 to $8,000": the amount it went to, also when the clause
  // before names the budget (预算改一下，从8000元提到1.2万元).
  const movedTo = !SUM_CHANGED.test(text) ? undefined : amounts.find((a, i) => i > 0 && SUM_MOVED_FROM.test(text.slice(0, amounts[i - 1]!.start)) && SUM_MOVED_TO.test(text.slice(amounts[i - 1]!.end, a.start)));
  const budget =
    righted ??
    restated ??
    (movedTo !== undefined && (budgetWords.length > 0 || lex.has('budgetWords', leadIn)) ? movedTo : undefined) ??
    meant.find((a) => budgetWords.some((w) => w.end <= a.start)) ??
    meant.find((a) => budgetWords.length > 0 && a.start >= 0) ??
    (budgetNamed ? undefined : amounts.find((a) => capsBefore.some((c) => c.end <= a.start && a.start - c.end <= 6 && !ROSE_BEFORE.test(text.slice(0, c.start))))) ??
    (budgetNamed ? undefined : amounts.find((a) => CAPPING_AT.test(text.slice(Math.max(0, a.start - 48), a.start)))) ??
    (budgetNamed ? undefined : amounts.find((a) => capsAfter.some((c) => c.start >= a.end && c.start - a.end <= 2)));
  if (budget !== undefined) set('budget', budget.value, budget.start);

  // Deadline: the date that follows a deadline word, else the clause's date, else its sentence's
  // (下下周二要交报告，截止时间是晚上6点).
  const deadlineWords = lex.words('deadlineWords', text);
  if (deadlineWords.length > 0) {
    // 截止时间老板还没说, the deadline isn't set yet: no date is the deadline.
    const known = !UNSETTLED.test(text);
    // (截止日期不是周五，是下周一; "not March 10 but March 13": a date said not to be it is not.)
    const said = dates.filter((d) => !TAKEN_BACK_BEFORE.test(text.slice(Math.max(0, d.start - 12), d.start)));
    const date = known ? (said.find((d) => deadlineWords.some((w) => w.end <= d.start)) ?? said[0]) : undefined;
    const fromSentence = known && sentenceDates.length === 1 ? sentenceDates[0] : undefined;
    if (date !== undefined) set('deadline', date.value, date.start);
    else if (fromSentence !== undefined)
      out.push({ item: { subject: 'deadline', value: fromSentence.value, op: 'set' }, at: fromSentence.start });
  } else {
    // A date something must happen before is a deadline too: 下周五之前把方案写出来, finish it by next Friday.
    // (A time of day may come between: 周五下午五点前.)
    const due = dates.find((d) => /^\s*(?:[^，。,.;；\s]{0,8}?(?:点|:\d{2})(?:半|钟|\d{1,2}分)?\s*|(?:下班|收工|中午|午饭|放学)\s*)?(?:之前|以前|前(?![天年])|为止)/.test(text.slice(d.end)) || /\b(?:by|before|no later than)\s*$/i.test(text.slice(Math.max(0, d.start - 16), d.start)));
    // "我不觉得周五之前能改完", "I doubt it's done before Friday": a guess about when, not when it is due.
    // 1月5号前到账, 4月25号前到货, "the lab will email results by Friday": when something reaches the user, not what
    // the user must do by then.
    const arrives = due !== undefined && (ARRIVES_AFTER.test(text.slice(due.end)) || SOMEONE_WILL.test(text.slice(0, due.start)));
    if (due !== undefined && !arrives && !GUESS.test(text) && !deadlineNamed) set('deadline', due.value, due.start);
    // deadline 改了，不是 3月10日，是 3月13日: the date said instead of the one the clause before took back.
    else if (deadlineNamed && dates.length === 1 && INSTEAD.test(text) && TAKEN_BACK.test(leadIn)) set('deadline', dates[0]!.value, dates[0]!.start);
    // "We had to move the launch deadline. The new one is December 4.": the date of the one the message named.
    else if (deadlineNamed && dates.length === 1 && NEW_ONE.test(text)) set('deadline', dates[0]!.value, dates[0]!.start);
  }

  // A region: set, or dropped (别再用 cn-hangzhou 了; region 从 A 换到 B 了 drops A); one the message only forbids
  // (别再建到 us-east-1 去了) is neither.
  for (const r of text.matchAll(m.region)) {
    if (corrected(text, r.index)) continue;
    const end = r.index + r[0].length;
    const left = regionLeft(text, r.index, end);
    if (left === 'dropped') out.push({ item: { subject: 'region', value: r[0], op: 'unset' }, at: clause.start + r.index });
    else if (left === null && !avoided(text, r.index)) set('region', r[0], r.index);
  }

  // A scheduled job's time: 备份脚本每天凌晨2点跑, "the backup runs nightly at 01:30" → `backup time`. Only a
  // recurring one is setup: "the deploy starts at 3pm" is an event, which the conventions leave out.
  const recurring = RECURRING.test(text);
  for (const t of entities) {
    if (t.type !== 'time' || !recurring) continue;
    const job = jobBefore(text.slice(0, t.start), text.slice(t.end), m);
    if (job !== null) set(`${job} time`, t.value, t.start);
  }

  // A port: `<what> port`, what being the service named just before (API 端口是 8443, the API's port is 8443, the
  // gateway listens on port 9443, 数据库端口 5432 → database port); `port` when nothing names it.
  for (const p of [...text.matchAll(m.port), ...text.matchAll(m.listenPort)]) {
    const number = Number(p[1]);
    const at = p.index + p[0].length - p[1]!.length;
    if (number < 1 || number > 65535 || corrected(text, at)) continue;
    // "The API is no longer on port 80", 不再监听 8080: where it is not.
    if (NOT_ON_PORT.test(text.slice(Math.max(0, p.index - 24), p.index))) continue;
    // The service is named just before: the last few words are enough (and keep a long paste linear).
    set(portSubject(text.slice(Math.max(0, p.index - 48), p.index), m, lex), p[1]!, p.index);
  }

  // An address: `<what> address` (an IP or host:port) or `<what> url`, said after an address word with the service
  // named before it (webhook 地址是 http://…, 主库地址是 10.8.3.21:3306, the registry's address is 10.0.4.2).
  for (const e of entities) {
    if (!ADDRESS_TYPES.has(e.type) || corrected(text, e.start)) continue;
    const word = m.addressBefore.exec(text.slice(Math.max(0, e.start - 32), e.start));
    if (word === null) continue;
    const wordStart = Math.max(0, e.start - 32) + word.index;
    const name = serviceName(text.slice(Math.max(0, wordStart - 48), wordStart), m, lex);
    // A base URL keeps its word (the API's base URL → `api base url`), and so do a host and an endpoint ("the bastion
    // host is …" → `bastion host`, as 11 of 13 helper labels of a host said so name it).
    const said = /\b(host|endpoint)\b/i.exec(word[0])?.[1]?.toLowerCase() ?? (/主机/.test(word[0]) ? 'host' : undefined);
    // The database's address is its host (主库地址是 …): of the blind labels that give the database an IP or host:port,
    // 11 of 13 name it `database host` (our own set said `database address`, and loses two).
    const kind = name === 'database' && e.type !== 'url' ? 'host' : said ?? (e.type !== 'url' ? 'address' : /^base\s*url/i.test(word[0]) ? 'base url' : 'url');
    // ("its v6 address": the kind of address, not a service.)
    if (name !== null && !/^(?:v[46]|ipv[46])$/i.test(name)) set(`${name} ${kind}`, e.value, wordStart);
  }

  const zoneWords = lex.words('timezoneWords', text);
  for (const z of text.matchAll(m.timezone)) {
    // (The zone word may come a few words before: "Timezone for all cron jobs is Asia/Tokyo".)
    const zone = { start: z.index, end: z.index + z[0].length };
    const named = zoneWords.some((w) => near(w, zone, 8) || (w.end <= zone.start && /^[\w\s-]{0,24}\b(?:is|are|should be|(?:should |must |to |always )?use|=|:)\s*$/i.test(text.slice(w.end, zone.start))));
    if (named && !corrected(text, z.index))
      set('timezone', z[0], z.index);
  }

  // Answer length: a length word said of the answers (keep replies brief, 回答简短一点).
  // (The answers may be named earlier in the sentence: 以后回答都用中文，代码注释也是，简短一点.)
  if (answersNamed || lex.has('answerLengthContext', text)) {
    const cap = ANSWER_CAP.exec(text);
    for (const w of lex.words('answerLengths', text)) {
      // "the short ones keep skipping…": answers described, not asked for.
      if (DESCRIBED_AFTER.test(text.slice(w.end))) continue;
      // 简短，除非我要求详细解释 / "short unless I ask for detail": the exception is not the length asked for.
      if (EXCEPTION.test(text.slice(0, w.start))) continue;
      const value =
        lex.vocabulary.subjects.answerLengths[w.surface] ??
        Object.entries(lex.vocabulary.subjects.answerLengths).find(
          ([k]) => k.toLowerCase() === w.surface.toLowerCase(),
        )?.[1];
      if (value !== undefined) {
        set('answer length', value, w.start);
        break;
      }
    }
    // "Keep answers under 200 words": a cap in words, sentences or lines is the length asked for.
    if (cap !== null && ANSWERS_NAMED.test(text)) set('answer length', `under ${cap[1]} ${cap[2]!.toLowerCase()}`, cap.index);
  }

  // Answer format: the form asked of the answers ("format your answers as bullet points", 用列表就行, "Bullet points
  // only"), never one refused (别用表格) or a table asked for once ("give me a table of the results").
  const formAsked = ANSWERS_NAMED.test(text) || lex.has('answerWords', text) || answersNamed || FORM_ALONE.test(text);
  if (formAsked) {
    for (const w of lex.words('answerFormats', text)) {
      if (REFUSED_BEFORE.test(text.slice(Math.max(0, w.start - 24), w.start)) || ALLOWED_AFTER.test(text.slice(w.end)) || DISLIKED_BEFORE.test(text.slice(0, w.start))) continue;
      const formats = lex.vocabulary.subjects.answerFormats;
      const value = formats[w.surface] ?? formats[w.surface.toLowerCase()];
      if (value !== undefined) {
        set('answer format', value, w.start);
        break;
      }
    }
  }

  // About the user: 我对花生过敏, I'm vegetarian, I live in Berlin.
  for (const re of m.allergies) for (const a of text.matchAll(re)) set('allergy', a[1]!.trim(), a.index);
  const diet = m.diet.exec(text);
  // "I'm not vegetarian", 我不吃素: a diet said not to be the user's is none.
  if (diet !== null && !NOT_DIET.test(diet[0].slice(0, diet[0].length - diet[1]!.length))) {
    const diets = lex.vocabulary.subjects.diets;
    const value = diets[diet[1]!] ?? diets[diet[1]!.toLowerCase()];
    if (value !== undefined) set('diet', value, diet.index);
  }
  for (const intro of lex.words('locationIntros', text)) {
    const rest = text.slice(intro.end);
    // "I'm based in Asia/Shanghai time", 我人在 UTC+8: where the user is, said as a time zone.
    const zone = new RegExp(`^\\s*(?:${m.timezone.source})`, 'i').exec(rest);
    if (zone !== null) {
      set('timezone', zone[0].trim(), intro.end);
      continue;
    }
    const place =
      /^\s*([A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+){0,2})/.exec(rest) ??
      /^\s*([\u4e00-\u9fff]{2,6}?)(?=$|[，。,.!！\s]|工作|上班|附近|这边|那边)/.exec(rest);
    // "We moved to Kafka": a product is no place.
    const at = intro.end + (place?.[0].length ?? 0) - (place?.[1]!.length ?? 0);
    if (place !== null && !lex.products(text).some((p) => p.start === at)) set('location', place[1]!, intro.end);
  }

  // Log level: a level just after a log-level word (log level in prod stays at WARN, 日志级别调成 debug), or just
  // before "level" (keep it at INFO level). A bare "level" needs the level in capitals: "error level" is prose.
  const levelWords = lex.words('logLevelWords', text);
  for (const l of text.matchAll(m.logLevel)) {
    const span = { start: l.index, end: l.index + l[0].length };
    const named = levelWords.some((w) => {
      if (!/^(?:level|级别)$/i.test(w.surface)) return w.end <= span.start && span.start - w.end <= 24;
      // A bare "level" or 级别: the level in capitals, just before or just after it.
      const before = w.end <= span.start && span.start - w.end <= 6;
      const after = w.start >= span.end && w.start - span.end <= 1;
      return l[0] === l[0].toUpperCase() && (before || after);
    });
    if (named && !corrected(text, l.index)) {
      set('log level', l[0].toUpperCase(), l.index);
      break;
    }
  }

  // The user's own phone and email: one given beside words that say it is theirs (call me at …, 我的手机 …), or the
  // only one of its clause when the clause before says so (手机号换了，新的是 …).
  const own = (type: 'phone' | 'email', list: 'phoneWords' | 'emailWords'): void => {
    // 客服电话, the hotel's email: a number or address named as someone else's is not the user's.
    // (电话打过 X，没人接: a number the user called is someone else's.)
    const words = lex.words(list, text).filter((w) => !OTHERS_BEFORE.test(text.slice(Math.max(0, w.start - 9), w.start)) && !CALLED_AFTER.test(text.slice(w.end)));
    // 帮我给房东写封邮件，邮箱是 X; 联系人 Lily，电话 Y: after a message to someone or a contact named, a bare contact word
    // gives theirs (我的邮箱 stays the user's).
    const mine = (w: Mark): boolean => /我|\bmy\b/i.test(w.surface) || /(?:我的?|\bmy)\s*$/i.test(text.slice(Math.max(0, w.start - 4), w.start));
    if ((WRITING_TO.test(leadIn) || CONTACT_PERSON.test(leadIn) || TO_A_PERSON.test(leadIn)) && !words.some(mine)) return;
    // …邮箱是 X，电话 Y: a bare contact word right after someone else's contact goes on about them.
    if (othersContact(leadIn, lex) && /^\s*(?:电话|手机|座机|邮箱|phone|tel|email|e-mail)/i.test(text)) return;
    // (旧的 linhao88@163.com 不用了, "the old one, …": a contact the user left is not theirs now.)
    const ofType = entities.filter((e) => e.type === type && !corrected(text, e.start) && !OLD_CONTACT_BEFORE.test(text.slice(Math.max(0, e.start - 12), e.start)));
    const found = ofType.find((e) => words.some((w) => near(w, e, 16))) ?? (ofType.length === 1 && lex.has(list, leadIn) ? ofType[0] : undefined);
    // (The number is `phone number`: `phone` is the handset, iPhone 15 or 小米14, and blind labellers named the
    // user's own number so.)
    if (found === undefined) return;
    // A number given to be called on ("call me at …", 有事打我手机 …) is for the moment: blind labellers filed the user's
    // number when it changed, was put right or was restated as still the same (手机号换了, my new number, 还是 … 没变),
    // or when a clause says what it is (我的手机号是 …, "My phone number is …").
    if (type === 'phone' && !NUMBER_CHANGED.test(`${leadIn} ${text}`) && !NUMBER_STATED.test(text)) return;
    set(type === 'phone' ? 'phone number' : type, found.value, found.start);
  };
  own('phone', 'phoneWords');
  own('email', 'emailWords');

  // Where alerts go: an address after alerts and a word of sending (alert emails go to …, 告警邮件都发到 …).
  const alertTo = ALERTS_TO.exec(text);
  if (alertTo !== null) {
    const to = entities.find((e) => e.type === 'email' && e.start >= alertTo.index + alertTo[0].length && e.start - (alertTo.index + alertTo[0].length) <= 12);
    if (to !== undefined && !corrected(text, to.start)) {
      // Where alerts go is not the user's own address (告警邮箱是 …).
      const own = out.findIndex((f) => f.item.subject === 'email' && f.item.value === to.value);
      if (own >= 0) out.splice(own, 1);
      set('alert email', to.value, to.start);
    }
  }

  // Indentation said with its width right after the word: 缩进 4 个空格, indentation is 2 spaces, indent with tabs.
  const indent = INDENTATION.exec(text) ?? WIDTH_THEN_INDENT.exec(text);
  if (indent !== null && !corrected(text, indent.index + indent[0].indexOf(indent[1]!))) set('indentation', indent[1]!, indent.index);

  // Name: 我叫小王, my name is Alex, call me Sam.
  for (const intro of lex.words('nameIntros', text)) {
    const rest = text.slice(intro.end);
    const name =
      /^\s*([A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)?)/.exec(rest) ??
      /^\s*([\u4e00-\u9fff]{2,4}?)(?=$|[，。,.!！\s]|就|吧|好了)/.exec(rest);
    if (name !== null) set('name', name[1]!, intro.end);
  }
  return out;
}

/** An indentation word, a link, and the width: 缩进 4 个空格, indentation is 2 spaces, indent with tabs. */
const INDENTATION =
  /(?:缩进|\bindentation|\bindent(?:ing)?)\s*(?:统一)?\s*(?:用|是|为|改成|改为|with|is|of|=|:|：)?\s*((?:\d+\s*个?|[一二两三四八]\s*个)\s*空格|\d+\s*spaces|\btabs?\b)/i;

/** The width before the word: 4 个空格缩进 (the labels keep the width, "4 个空格"). */
const WIDTH_THEN_INDENT = /((?:\d+\s*个?|[一二两三四八]\s*个)\s*空格)\s*(?:的)?\s*缩进/;

const ADDRESS_TYPES: ReadonlySet<string> = new Set(['ipv4', 'ipv6', 'hostport', 'url']);

/** Just before a port, says the service is not there: no longer, not, 不再. */
const NOT_ON_PORT = /(?:\b(?:no longer|not|never|isn't|aren't|doesn't|don't)\b(?:\s+\w+){0,2}|不再|不是|没在|不在)\s*$/i;

/** Names that are no service's, beside the function words (`FUNCTION_WORD`): kinds of port and Chinese fillers. */
const NOT_A_NAME = /^(?:default|new|old|same|也|都|就|那|这|新|旧|默认)$/i;

/** The subject of a port said after `before`: the service named at its end, as `<name> port`. */
function portSubject(before: string, m: SpecialMatchers, lex: Lexicon): string {
  const name = serviceName(before, m, lex);
  return name === null ? 'port' : `${name} port`;
}

/**
 * The service named at the end of `before` (verbs such as "listens on" and a possessive set aside): a Latin name
 * in lower case, or the slot of a Chinese name the vocabulary knows (数据库 → database); null when none is named.
 */
function serviceName(before: string, m: SpecialMatchers, lex: Lexicon): string | null {
  let rest = before.replace(/\s+$/, '');
  for (let guard = 0; guard < 3; guard++) {
    const verb = m.portVerbs.exec(rest);
    if (verb === null) break;
    rest = rest.slice(0, verb.index).replace(/\s+$/, '');
  }
  // "the Memcached box", "our Redis instance": the name is the word before what holds it.
  rest = rest.replace(/\s+(?:box|server|instance|host|machine|node|container|cluster|service|vm)$/i, '');
  const name = /(?:^|[^\w.-])([A-Za-z][\w.-]*[A-Za-z0-9])$/.exec(rest)?.[1] ?? /([\u4e00-\u9fff]{2,6})$/.exec(rest)?.[1];
  if (name === undefined || NOT_A_NAME.test(name) || FUNCTION_WORD.test(name)) return null;
  // 数据库端口 → database port; a Chinese name the vocabulary does not know names nothing.
  if (/[\u4e00-\u9fff]/.test(name)) return lex.subjects(name).find((s) => s.end === name.length)?.subject ?? null;
  // "the DB port" → database port: a Latin name that is a slot's word, whole, names that slot.
  return lex.subjects(name).find((x) => x.start === 0 && x.end === name.length)?.subject.toLowerCase() ?? name.toLowerCase();
}

/** After a phone word: the user called it (电话打过, 打了, 拨过). */
/** After a date and its 前: something arrives (到账, 到货, 发货). */
const ARRIVES_AFTER = /^\s*(?:之前|以前|前)\s*(?:能|会|就|可以|才能?)?\s*(?:到账|到货|发货|送到|送达|寄到|退回|退款|返还|出结果|到)/;
/** Before it: someone else will do it ("the lab will email results … by Friday", "they'll ship it by …"). */
const SOMEONE_WILL = /\b(?:they|he|she|it|the (?:lab|vendor|supplier|bank|shop|store|courier|seller|clinic|school|landlord))\s*(?:will|'ll|should|promised to|said they(?:'d| would))\b(?:[^.;!?]|\.(?=\S))*$/i;
/** Just before a contact the user no longer uses: 旧的, 原来的, old. */
const OLD_CONTACT_BEFORE = /(?:旧的?|老的|原来的|以前的|之前的|\bold(?:\s+(?:one|address|number|email))?\s*(?:is|was|:)?)\s*$/i;
/** Words that say the user's number changed or stands as before. */
const NUMBER_CHANGED = /新|换|改|变|更正|\bnew\b|changed|switched|wrong|correct|updated|from now on|instead|still|以后|今后/i;
/** A clause that says what the user's number is. */
const NUMBER_STATED = /^\s*(?:my|我的?)\s*(?:(?:phone|mobile|cell)(?:\s+number)?|number|手机号码?|电话号码?|手机|电话)\s*(?:is|是|:|：)/i;
const CALLED_AFTER = /^\s*(?:也|都|已经)?\s*(?:打过|打了|拨过|拨了|打不通)/;

/** A clause that gives someone else's contact (供应商的邮箱是 …, the hotel's phone is …). */
function othersContact(clause: string, lex: Lexicon): boolean {
  if (clause === '') return false;
  const words = [...lex.words('phoneWords', clause), ...lex.words('emailWords', clause)];
  return words.some((w) => OTHERS_BEFORE.test(clause.slice(Math.max(0, w.start - 9), w.start)));
}

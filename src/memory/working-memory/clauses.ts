/**
 * Sentences and clauses, and what kind they are. Facts come only from clauses that state something:
 * a question, a maybe or a hypothesis states nothing, and a clause about the past or a failure chooses nothing.
 */
import { alternation } from './text.ts';
import type { TriggerVocabulary } from './vocab-triggers.ts';

export interface Clause {
  readonly start: number;
  readonly end: number;
  /** The normalised text of the clause. */
  readonly text: string;
  readonly sentence: number;
  /** Asks rather than states: no facts, no deprecations. */
  readonly question: boolean;
  /** Undecided, or in a hypothetical sentence: no facts, no deprecations. */
  readonly tentative: boolean;
  /** Tells of the past or a failure: values in it are not chosen (drops still count). */
  readonly narrative: boolean;
  /** About someone else's setup or the user's past elsewhere: sets and drops nothing (a void topic still counts). */
  readonly notOurs: boolean;
}

export interface ClauseMatchers {
  readonly questionWords: RegExp;
  readonly questionStart: RegExp;
  readonly requestStart: RegExp;
  readonly questionTag: RegExp;
  readonly undecided: RegExp;
  readonly conditional: RegExp;
  readonly notConditional: RegExp;
  readonly commentStart: RegExp;
  readonly narrative: RegExp;
  readonly narrativePurposes: RegExp;
  readonly notOurs: RegExp;
  readonly hearsay: RegExp;
  readonly undecidedSentence: RegExp;
  readonly ownAgain: RegExp;
}

const REQUEST_STARTS = ['can you', 'could you', 'would you', 'will you', 'can u', 'pls', 'please', 'would you mind'];
const STATEMENT_START = /^(?:i|we|our|my|the team|they|i'm|we're|i've|we've|i'll|we'll|i am|we are)\b/i;
/**
 * A lead-in that states something of its own before the question: a reason ("Since our services run on Node 20,
 * is it safe…?") or a clause with its own verb ("The docs have to be out by June 19, so could you…?").
 */
const STATES = /^(?:since|because|as|given that|now that|seeing as)\b|\b(?:is|are|was|were|has|have|had|will|must|has to|have to|needs? to)\b/i;
/**
 * A topic named before 的话 at a clause's start ("editor 的话我现在用 GoLand", 数据库的话用 PostgreSQL): "as for", not "if"
 * (超了的话…, 下雨的话… stay conditions: the topic is a name, not a verb).
 */
const TOPIC_DEHUA = /^\s*(?:[A-Za-z][\w.+#-]*(?:\s+[A-Za-z][\w.+#-]*){0,2}|编辑器|数据库|缓存|前端|后端|框架|语言|系统|工具|监控|日志|网关|队列|消息队列|存储|住宿|酒店|交通|预算)\s*的话(?=\s*\S)/i;
/** An aside in brackets. */
const ASIDE = /\([^()]*\)|（[^（）]*）/g;
/** "trying to stick to it", "try hard": an effort, not a trial (trying Bun, try out Deno, trying to decide stay undecided). */
const EFFORT = /\b(?:try|trying|tries|tried)\s+(?:(?:really|very|so)\s+)*(?:hard(?:er)?\b|my best\b|to\s+(?!(?:use|decide|choose|pick|figure|switch|move|migrate|see|test|evaluate|compare)\b)[a-z]+)/gi;
const FILLERS = /^(?:\s|and|so|also|ok|okay|well|hmm|oh|btw|but)+\b/i;
/**
 * A clause whose subject is someone else's life or system: a relative or a friend ("My brother is flying to Rome",
 * 我妈下周去三亚), a client's or a vendor's system ("The vendor's API runs on Azure"). Only as the subject ("taking
 * my parents to Rome" is the user's trip), and only for its own clause. A manager or another team is left out: what
 * they decide is often the user's too ("my manager says the deadline is…", "the accounting team picked NetSuite").
 */
const OTHERS_AS_SUBJECT =
  /^(?:my\s+(?:brother|sister|mom|mum|mother|dad|father|parents|cousin|uncle|aunt|roommate|neighbou?r|friend)s?\b(?!'s)(?!\s+and\s+i\b)|(?:the|our|a)\s+(?:client|customer|vendor|supplier|partner|contractor|agency)(?:'s|s'|\s+team)|我(?:哥|姐|弟|妹|爸|妈|老爸|老妈|爸妈|父母)(?![和跟]))/i;
/**
 * A clause that says its own choice is made (数据库倒是已经定了 PostgreSQL, "the database is decided: …"): a sentence
 * undecided about something else (ORM 还在纠结…) leaves it standing.
 */
const DECIDED = /(?<![没不未])(?:已经|早就|倒是)\s*定(?:了|下来了|好了)|(?<![没不未])定下来了|拍板了|\b(?:(?:have|has|'ve)\s+decided|already decided|is decided|was decided|already settled|is settled)\b/i;
/**
 * A clause about him or her: its own facts are theirs (他的电脑是 Mac). Not a report of what they said (他说 deadline 是
 * 周五, "she says…"), which is often the user's own business.
 */
/** A clause that starts with him or her: after someone else's clause, still about them. */
const GOES_ON_ABOUT_THEM = /^(?:她|他)(?!们)|^(?:she|he)\b/i;
const THIRD_PERSON = /^(?:她|他)(?!们|说|讲|告诉|提醒|通知|建议|让)|^(?:she|he)(?:'s)?\b(?!\s+(?:says|said|told|tells|mentioned|thinks|suggested|wants us))/i;
/**
 * One that describes the person (她喜欢首饰，生日是下周六; "she loves jewellery, birthday is Saturday"): the clauses after
 * it go on about them until the user comes back. An opinion or a consent does not (他没意见，缓存就用 Redis 吧; "He's
 * right, let's use Redis"): what follows is the user's decision.
 */
const DESCRIBES_THEM = /^(?:她|他)(?:很|也|特别|比较|最|一直)?(?:喜欢|爱|是|有|今年|属|叫|对)|^(?:she|he)\s+(?:likes|loves|has|is\s+(?:allergic|vegetarian|vegan|\d+|into)|was born|lives)\b|^(?:she|he)'s\s+(?:allergic|vegetarian|vegan|\d+|into)\b/i;
/**
 * 的时候 before a standing instruction (写 code 的时候 please 用 TypeScript, 写代码的时候都用 Go): whenever, not a story of
 * one time (上次 deploy 的时候…).
 */
const HABIT_WHEN = /(?:的)?时候(?=\s*[，,]?\s*(?:也|都|请|please|一律|统一|一定|记得|always)\s*(?:要)?\s*(?:用|写|给|按))/gi;
/** A word that opens an exception to what was just said: unless, except when, 除非. */
const EXCEPTION_AT = /^(?:unless\b|except\s+(?:when|if)\b|除非)/i;
/** The characters such a word starts with (the clause cutter looks further only at these). */
const EXCEPTION_FIRST: ReadonlySet<string> = new Set(['u', 'U', 'e', 'E', '除']);
/** A request to find something out: "check whether…", "see if…", "let me know if…". */
const ASKS_WHETHER = /\bwhether\b|\b(?:check|see|know|tell me|find out|confirm|verify|look into)\s+if\b/i;
/** A clause that says what came before is someone else's: "…, but that's their setup, not ours", 跟我们后端没关系. */
const DISOWNS = /\bnot ours\b|\bnot (?:our|my) (?:setup|stack|system|code)\b|(?:跟|和|与)我(?:们)?(?:这边|后端|前端|团队|组)?(?:没|无)(?:有)?关系|不是我们(?:的)?(?:系统|环境|架构|项目)/i;

export function compileClauseMatchers(t: TriggerVocabulary): ClauseMatchers {
  return {
    questionWords: new RegExp(alternation(t.questionWords), 'i'),
    questionStart: new RegExp(`^(?:${alternation(t.questionStarts)})`, 'i'),
    requestStart: new RegExp(`^(?:${alternation(REQUEST_STARTS)})`, 'i'),
    questionTag: new RegExp(`^\\s*(?:${alternation(t.questionTags)})\\s*$`, 'i'),
    undecided: new RegExp(alternation(t.undecided), 'i'),
    conditional: new RegExp(alternation(t.conditional), 'i'),
    notConditional: new RegExp(alternation(t.notConditional), 'gi'),
    commentStart: new RegExp(`^\\s*(?:${alternation(t.commentStarts)})`, 'i'),
    narrative: new RegExp(alternation(t.narrative), 'i'),
    narrativePurposes: new RegExp(alternation(t.narrativePurposes), 'gi'),
    notOurs: new RegExp(alternation(t.notOurs), 'i'),
    ownAgain: new RegExp(alternation(t.ownAgain), 'i'),
    hearsay: new RegExp(`^\\s*(?:${alternation(t.hearsay)})`, 'i'),
    undecidedSentence: new RegExp(alternation(t.undecidedSentence), 'i'),
  };
}

interface Piece {
  start: number;
  end: number;
  /** The character that ended it: a sentence end, a clause separator, or '' at the end of the text. */
  terminator: string;
}

const SENTENCE_END = new Set(['。', '！', '？', '!', '?', '\n', '…']);
const CLAUSE_SEPARATORS = new Set(['，', ',', '；', ';']);

/** Cuts the raw text (full-width punctuation intact) into clauses grouped by sentence. */
function cut(raw: string): Piece[][] {
  const sentences: Piece[][] = [];
  let current: Piece[] = [];
  let start = 0;
  const close = (end: number, terminator: string, endsSentence: boolean): void => {
    if (end > start) current.push({ start, end, terminator });
    start = end + 1;
    if (endsSentence && current.length > 0) {
      sentences.push(current);
      current = [];
    }
  };
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (SENTENCE_END.has(c) || (c === '.' && /^(?:\s|$|[\u4e00-\u9fff])/.test(raw.slice(i + 1, i + 2)))) {
      close(i, c, true);
    } else if (CLAUSE_SEPARATORS.has(c) && !(c === ',' && /\d/.test(raw[i - 1] ?? '') && /\d/.test(raw[i + 1] ?? ''))) {
      close(i, c, false);
    } else if (EXCEPTION_FIRST.has(c) && i > start && EXCEPTION_AT.test(raw.slice(i, i + 12)) && /[\s\u4e00-\u9fff]/.test(raw[i - 1] ?? '')) {
      // "short unless I ask for detail", 用中文除非我说英文: the exception is a clause of its own.
      current.push({ start, end: i, terminator: '' });
      start = i;
    }
  }
  close(raw.length, '', true);
  return sentences;
}

export function splitClauses(raw: string, norm: string, m: ClauseMatchers): Clause[] {
  const clauses: Clause[] = [];
  cut(raw).forEach((pieces, sentence) => {
    // A hypothesis colours its whole sentence (如果换成 X，就要…); a maybe only its own clause (一直用 A，可能会迁到 B).
    // One that first appears in a clause commenting on the one before colours only from there on.
    // (A condition inside an aside in brackets is the aside's: "…at 10.0.0.5 (its v6 address too, if you need it)".)
    // (An exception, "unless I ask…", 除非…, is no condition on the rest: only its own clause states nothing.)
    const conditionText = (p: Piece): string => norm.slice(p.start, p.end).replace(TOPIC_DEHUA, ' ').replace(ASIDE, ' ').replace(m.notConditional, ' ');
    const conditionalAt = pieces.findIndex((p) => !EXCEPTION_AT.test(norm.slice(p.start, p.end).trimStart()) && m.conditional.test(conditionText(p)));
    const inComment = conditionalAt > 0 && m.commentStart.test(norm.slice(pieces[conditionalAt]!.start, pieces[conditionalAt]!.end));
    // A Chinese condition leads what it conditions (装修预算定在 15 万元，超了的话吊顶就不做了): the clauses before it
    // stand. ("We'll move to Kafka, if the load grows": an English one may condition the clause before it.)
    const conditionWord = conditionalAt < 0 ? undefined : m.conditional.exec(conditionText(pieces[conditionalAt]!))?.[0];
    const leadsWhatFollows = conditionWord !== undefined && /[\u4e00-\u9fff]/.test(conditionWord);
    const hypotheticalFrom = conditionalAt < 0 ? Infinity : inComment || leadsWhatFollows ? conditionalAt : 0;
    // Undecided colours the clauses up to the last one that says so (用 Kafka 还是 Pulsar，组里还在争), not one after it
    // that settles something of its own (还在讨论用不用 Istio，网关先用 Kong).
    const undecidedUpTo = pieces.findLastIndex((p) => m.undecidedSentence.test(norm.slice(p.start, p.end)));
    const undecidedWhole = undecidedUpTo < 0 && m.undecidedSentence.test(norm.slice(pieces[0]!.start, pieces[pieces.length - 1]!.end));
    const last = pieces[pieces.length - 1]!;
    const asks = last.terminator === '?' || last.terminator === '？';
    // …，可以吗？ / …, right? asks about the whole sentence.
    const tagged = pieces.length > 1 && asks && m.questionTag.test(norm.slice(last.start, last.end));
    // "Using Kubernetes, how do I…?": an English lead-in before a comma belongs to the question after it, unless it
    // states something of its own ("We use Postgres, should we switch?"). Chinese ，-clauses stand alone.
    const askedTail = new Set<Piece>();
    if (asks) {
      for (let i = pieces.length - 2; i >= 0 && pieces[i]!.terminator === ',' && raw[pieces[i]!.end] === ','; i--) {
        const lead = norm.slice(pieces[i]!.start, pieces[i]!.end).trim();
        if (STATEMENT_START.test(lead) || STATES.test(lead) || /[\u4e00-\u9fff]/.test(lead)) break;
        askedTail.add(pieces[i]!);
      }
    }
    // 听说 infra 组升到了 1.31，ingress 也换成了 Envoy: all of it is what the user heard.
    const heard = m.hearsay.test(norm.slice(pieces[0]!.start, pieces[0]!.end).replace(FILLERS, ''));
    let theirs = false;
    // The clause before was someone else's by its subject (我同事用的是 Arch Linux): one that goes on with 他 / she
    // (…，他说用 pacman 装特别方便) is theirs too, reported words included.
    let othersBefore = false;
    const disowned = pieces.some((p) => DISOWNS.test(norm.slice(p.start, p.end)));
    for (const [index, piece] of pieces.entries()) {
      const text = norm.slice(piece.start, piece.end);
      const trimmed = text.trim().replace(FILLERS, '').trim();
      // ("Can you check whether the cert expires before March 31?" asks about the date: a request to find out.)
      const politeRequest = m.requestStart.test(trimmed) && !m.questionWords.test(trimmed) && !ASKS_WHETHER.test(trimmed);
      const question =
        tagged ||
        askedTail.has(piece) ||
        m.questionWords.test(text) ||
        (!politeRequest && m.questionStart.test(trimmed)) ||
        (piece === last && asks && !politeRequest);
      // Someone else's clause, or one that goes on about them without bringing the user back (…，部署在 Heroku 上).
      theirs = heard || disowned || m.notOurs.test(text) || DESCRIBES_THEM.test(trimmed) || (theirs && !m.ownAgain.test(text));
      clauses.push({
        start: piece.start,
        end: piece.end,
        text,
        sentence,
        question,
        tentative: ((undecidedWhole || index <= undecidedUpTo) && !DECIDED.test(text)) || EXCEPTION_AT.test(trimmed) || index >= hypotheticalFrom || m.undecided.test(text.replace(EFFORT, ' ')),
        narrative: m.narrative.test(text.replace(m.narrativePurposes, ' ').replace(HABIT_WHEN, ' ')),
        notOurs: theirs || OTHERS_AS_SUBJECT.test(trimmed) || THIRD_PERSON.test(trimmed) || (othersBefore && GOES_ON_ABOUT_THEM.test(trimmed)),
      });
      othersBefore = clauses[clauses.length - 1]!.notOurs;
    }
  });
  return clauses;
}

/**
 * Quoted text: “…”, 「…」, 『…』, "…", and '…' between non-letters. It is someone's words (a log line, a colleague's
 * email), not the user stating their setup: facts said inside it do not count.
 */
const QUOTED = /“[^”\n]{1,300}”|「[^」\n]{1,300}」|『[^』\n]{1,300}』|"[^"\n]{1,300}"|(?<![A-Za-z])'[^'\n]{3,300}'(?![A-Za-z])/g;

/** A name in quotes ("Redis", 「飞书」) is the user's word for it, not a quotation. */
const JUST_A_NAME = /^.[^\s:：,，;；=]+(?:\s+[^\s:：,，;；=]+)?.$/;

export function quotedSpans(norm: string): Array<{ start: number; end: number }> {
  return [...norm.matchAll(QUOTED)].filter((q) => !JUST_A_NAME.test(q[0])).map((q) => ({ start: q.index, end: q.index + q[0].length }));
}

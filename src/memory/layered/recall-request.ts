/**
 * A message that asks about an earlier conversation: "do you remember…", "I told you…", "you recommended…",
 * 还记得…, 我曾经和你说过…, 上次…, or a day before this session began ("4月30号我做了什么菜？"). The warm start keeps
 * a new session from being hijacked by old ones (session-gate.ts); a user who asks about the past has asked for
 * them, so such a message opens the user's other sessions at once. Word lists are data; pure, no DOM.
 */

/** Asks for what was said before (matched as substrings; CJK has no word boundaries). */
const CUES_ZH = [
  '还记得', '记不记得', '记得吗', '记得我', '记得你', '你记得', '曾经', '上次', '上回', '之前我', '之前你', '之前我们', '以前我',
  '我们聊过', '我们谈过', '我们讨论过', '我跟你说过', '我和你说过', '我告诉过你', '我跟你提过', '我和你提过', '我提到过', '我说过',
  '我分享过', '我问过', '你说过', '你推荐过', '你告诉过', '你建议过', '你提过', '第一次对话', '第一次聊天', '那天我', '那天你',
];

/** Matched as whole words, case-blind. */
const CUES_EN = [
  'do you remember', 'you remember', 'remember when', 'remember what', 'remember that i', 'remember me', 'i told you',
  'i mentioned', 'i shared', 'i said earlier', 'i said before', 'as i said', 'did i tell you', 'have i told you',
  'you recommended', 'you suggested', 'you told me', 'you said', 'you mentioned', 'last time', 'we talked about',
  'we discussed', 'we chatted about', 'our first conversation', 'our last conversation', 'earlier you', 'earlier i',
  'previously', 'the other day', 'a few days ago', 'i once', 'you once',
];

const ZH = new RegExp(CUES_ZH.map(escape).join('|'));

/**
 * Questions the assistant can answer only from earlier conversations: what it said to the user (你给我推荐过…,
 * "what did you suggest"), and what the user likes, did or has (我喜欢哪些菜系？ "Where did I go…?", "What is my…?").
 * Advice for now ("How do I…", 我该怎么…) is none of these.
 */
const SAID_ZH = /你(?:曾|之前|以前|上次)?(?:给|跟|和|对|帮|向|替)?(?:了)?我(?:的)?(?:推荐|建议|说|讲|提|分享|告诉|介绍|出)(?:了|过)|你给了我|我(?:曾|之前|以前|上次)?(?:给|跟|和|对|向)你(?:推荐|说|讲|提|分享|介绍|聊)(?:了|过)/;
const ASKS_ZH = /[?？]|吗|呢|什么|哪|谁|几|多少|多久|是不是|对不对/;
const SELF_ZH =
  /我(?:们)?(?:最|最近|曾|以前|之前|那天|当时|平时|一直|经常|也|都|还|不|没|在)*(?:喜欢|爱|讨厌|尝试|计划|打算|有一个|有个|(?:去|做|看|读|听|买|养|学|参加|参观|遇到|玩|吃)(?:了|过)|在(?:读|看|听|学|玩|做|练))|我的[^，。？！,.?!]{1,10}?(?:是|叫|在)(?:什么|哪|谁|多少|几)/;
const SAID_EN =
  /\b(?:did|have|had)\s+you\s+(?:ever\s+)?(?:recommend|suggest|tell|give|mention|say|share)|\byou\s+(?:have\s+|had\s+|once\s+)?(?:gave|given|recommended|suggested|told|shared|mentioned)\b/i;
/** "I read a novel in the library, what was its name?": something the user did, and a question about what it was. */
const PAST_EN = /\bi\s+(?:have\s+|had\s+|once\s+)?(?:recommended|shared|told|mentioned|read|watched|saw|seen|went|visited|bought|made|cooked|tried|played|learned|met|ate|said|asked)\b/i;
const ASKS_WHAT_EN = /\b(?:what|which|who)\s+(?:was|were|did|had)\b|\b(?:when|where|how many|how long)\b[^?]*\?|\b(?:was|were)\s*\?/i;
/** "I don't like comedies, right?": the user checks what the assistant knows of them. */
const CHECKS_SELF_EN = /\bi\s+(?:do\s+not\s+|don't\s+|didn't\s+|did\s+not\s+|really\s+)?(?:like|love|enjoy|hate|dislike|prefer|play|own|have)\b[^?]*,\s*(?:right|correct|true|didn't i|don't i|isn't it)\s*\?/i;
const SELF_EN =
  /\b(?:did|have|had)\s+i\s+(?:ever\s+)?[a-z]+|\bdo\s+i\s+(?:really\s+)?(?:like|love|enjoy|hate|dislike|prefer|want|play|listen|watch|read|own|have)\b|\b(?:what|which|who|where|when)(?:'s|\s+is|\s+was|\s+are|\s+were)\s+my\b|\bwas\s+i\b/i;

const EN = new RegExp(`(?<![A-Za-z])(?:${CUES_EN.map((c) => escape(c).replace(/ /g, '\\s+')).join('|')})(?![A-Za-z])`, 'i');

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What in `message` asks about an earlier conversation, for the report (null: nothing). `dates` are the ISO days the
 * message names (resolved), `sessionDay` the ISO day the session began: a day before it points back too.
 */
export function recallCue(message: string, dates: readonly string[], sessionDay: string): string | null {
  // Each pattern, and what the message must also be for it to count (a question, for the ones about the user).
  const rules: ReadonlyArray<readonly [RegExp, boolean]> = [
    [ZH, true],
    [CHECKS_SELF_EN, true],
    [EN, true],
    [SAID_ZH, true],
    [SAID_EN, true],
    [SELF_ZH, ASKS_ZH.test(message)],
    [SELF_EN, message.includes('?')],
    [PAST_EN, ASKS_WHAT_EN.test(message)],
  ];
  for (const [pattern, applies] of rules) {
    const cue = applies ? pattern.exec(message) : null;
    if (cue !== null) return cue[0].replace(/\s+/g, ' ').slice(0, 40);
  }
  const earlier = dates.find((d) => d.slice(0, 10) < sessionDay);
  return earlier === undefined ? null : earlier.slice(0, 10);
}

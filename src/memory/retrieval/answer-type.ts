/**
 * The kind of answer a question asks for (issue 18, answer-type-aware ranking): when → a date or time, who → a
 * name, how many / how much → a number, where → a place. A candidate that holds something of that kind is more
 * likely to be the answer than one that only shares the question's words. Word lists are data, both languages;
 * Chinese entries match as substrings, English ones as whole words (case-insensitive). Pure, no DOM.
 */
import { escapeRegExp } from '../../shared/regexp.ts';
import { DATE_VOCABULARY } from '../working-memory/vocab-dates.ts';

export type AnswerKind = 'when' | 'who' | 'number' | 'where';

export const ANSWER_KINDS: readonly AnswerKind[] = ['when', 'who', 'number', 'where'];

/** What a question asking for each kind says. */
export const ASKING_WORDS: Readonly<Record<AnswerKind, { readonly zh: readonly string[]; readonly en: readonly string[] }>> = {
  when: { zh: ['什么时候', '什么时间', '啥时候', '几时', '何时', '哪天', '哪一天', '几号', '几月', '哪个月', '哪年', '哪一年', '哪周', '哪一周', '多久以前', '几点'], en: ['when', 'what date', 'what day', 'which day', 'what year', 'which year', 'what month', 'which month', 'what week', 'which week', 'what time', 'how long ago', 'since when'] },
  who: { zh: ['谁', '哪位', '什么人'], en: ['who', 'whom', 'whose'] },
  number: { zh: ['多少', '几个', '几次', '几年', '几天', '几台', '多大', '多长', '多高', '多远', '多久'], en: ['how many', 'how much', 'how long', 'how old', 'how far', 'how often', 'what number', 'what port', 'which port'] },
  where: { zh: ['哪里', '哪儿', '什么地方', '在哪', '去哪', '哪个城市', '哪个国家'], en: ['where', 'what city', 'which city', 'what country', 'which country', 'what place'] },
};

/** English month names and abbreviations, from the working memory's date vocabulary. */
const MONTHS = Object.keys(DATE_VOCABULARY.enMonths).join('|');
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';

/** What an answer of each kind looks like in a turn. */
const HOLDS: Readonly<Record<AnswerKind, RegExp>> = {
  when: new RegExp(
    `\\b(?:${MONTHS}|${WEEKDAYS}|yesterday|today|tonight|tomorrow|last (?:week|month|year|night|weekend)|next (?:week|month|year|weekend)|(?:19|20)\\d\\d|\\d{1,2}:\\d\\d|\\d+ (?:days?|weeks?|months?|years?) ago)\\b|\\d{4}-\\d\\d-\\d\\d|[昨今明前后]天|上周|下周|上个月|下个月|去年|今年|明年|\\d+月|\\d+日|\\d+号|周[一二三四五六日末]|星期[一二三四五六日天]`,
    'i',
  ),
  // A capitalised word inside a sentence (not the first word, not "I"), or a Chinese form of address.
  who: /(?<=[a-z,;:]\s)(?!I\b)[A-Z][a-z]+|(?:先生|女士|老师|经理|同事|朋友|老板)/,
  number: /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|dozen|once|twice)\b|[一二两三四五六七八九十百千万]+(?:个|次|年|天|台|人|岁|元|块)/i,
  where: /\b(?:in|at|to|from|near|visited|moved to)\s+(?:the\s+)?[A-Z][a-z]+|[\u4e00-\u9fff]{1,6}(?:市|省|区|县|镇|村|路|街|国|州|岛|山|湖|机场|车站|公园|大学|医院|酒店|机房)/,
};


const ASKING: ReadonlyArray<readonly [AnswerKind, RegExp, readonly string[]]> = ANSWER_KINDS.map((kind) => {
  const { zh, en } = ASKING_WORDS[kind];
  return [kind, new RegExp(`\\b(?:${en.map(escapeRegExp).join('|')})\\b`, 'i'), zh] as const;
});

/** The kinds of answer a message asks for (none for a statement). */
export function answerKinds(message: string): AnswerKind[] {
  const out: AnswerKind[] = [];
  for (const [kind, en, zh] of ASKING) if (en.test(message) || zh.some((w) => message.includes(w))) out.push(kind);
  // "How long ago" asks when, not for a number.
  if (out.includes('when') && out.includes('number') && /\bhow long ago\b|多久以前/i.test(message)) out.splice(out.indexOf('number'), 1);
  return out;
}

/** What a question asking for one value or name says, beyond the kinds above: what / which, 什么 / 哪 (not 为什么, 为啥). */
const ASKS_WHICH_EN = /\b(?:what|which|who|whom|whose|when|where)\b/i;
const ASKS_WHICH_ZH = /(?<!为)(?:什么|啥)|哪|谁/;
/** Why and how: asking for an explanation or a procedure, not a value. */
const ASKS_WHY_OR_HOW = /^\s*(?:why|how)\b|^\s*(?:为什么|为啥|怎么|如何)/i;

/**
 * Whether a message is a question that asks for a fact (a value, a name, a time, a place: "Sentry 的告警推到哪个飞书
 * 群？", "what model are the new shoes?"), whose answer may be any line memory finds, not only the best one. A
 * request ("Add a cancel() method") or a why / how question is not.
 */
export function asksForFact(message: string): boolean {
  if (!/[?？]/.test(message) && !/^\s*(?:what|which|who|when|where)\b/i.test(message)) return false;
  if (answerKinds(message).length > 0) return true;
  return !ASKS_WHY_OR_HOW.test(message) && (ASKS_WHICH_EN.test(message) || ASKS_WHICH_ZH.test(message));
}

/** Whether `text` holds an answer of one of `kinds`. */
export function holdsAnswerKind(text: string, kinds: readonly AnswerKind[]): boolean {
  return kinds.some((k) => HOLDS[k].test(text));
}

/** Words of a question about what was true before or how it changed (用过哪些, 换过吗, "what did it use before"). */
const PAST_WORDS = {
  zh: ['以前', '之前', '原来', '原先', '先后', '前后', '换过', '改过', '用过', '升过', '历史', '曾经', '最早', '一开始', '起初', '最初', '当初', '从前', '变过', '怎么变', '变化', '至今', '到目前为止', '迄今'],
  en: ['before', 'used to', 'previously', 'originally', 'at first', 'initially', 'earlier', 'history', 'ever', 'changed from', 'at the start', 'in the beginning', 'changed', 'first', 'so far', 'gone through', 'went through', 'over time', 'in order'],
};
const PAST_EN = new RegExp(`\\b(?:${PAST_WORDS.en.map(escapeRegExp).join('|')})\\b`, 'i');

/** Whether a question asks how something changed or what it was before (先后用过哪些, "what did we use before?"). */
export function asksAboutChanges(message: string): boolean {
  return PAST_EN.test(message) || PAST_WORDS.zh.some((w) => message.includes(w));
}

/**
 * Whether a question asks for values that no longer hold: when something happened, what was true before, or how it
 * changed. Such a question is answered by the statements a later one superseded (supersede.ts), so the retriever
 * keeps them in for it. (statements.ts `asksAboutThePast` is narrower and only stops the later-answer pairing.)
 */
export function asksForEarlierValues(message: string): boolean {
  if (PAST_EN.test(message) || PAST_WORDS.zh.some((w) => message.includes(w)) || ASKS_ALL_SO_FAR.test(message)) return true;
  // When something happened ("When did…", 哪天合进去的？), not when a standing rule has it ("On which day do deploys
  // happen?", 现在安排在哪一天？).
  return answerKinds(message).includes('when') && !PRESENT.test(message) && (PAST_TENSE_EN.test(message) || PAST_TENSE_ZH.test(message));
}

const PRESENT = /现在|目前|当前|\b(?:now|currently|these days|at the moment)\b/i;
/** Which ones, in the present perfect: every value so far ("Which Postgres versions has production run on?"). */
const ASKS_ALL_SO_FAR = /\b(?:which|what)\s+(?:[\w-]+\s+){0,3}?[\w-]+s\s+(?:has|have)\s+(?![\w-]+\s+(?:now|currently)\b)/i;
const PAST_TENSE_EN = /\b(?:did|was|were|had|happened|started|began)\b/i;
/** 是哪天合进去的？ / 什么时候升级了 / 哪天上过线. */
const PAST_TENSE_ZH = /的\s*[?？]?\s*$|了|过|发生/;

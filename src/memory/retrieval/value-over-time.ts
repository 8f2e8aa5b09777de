/**
 * Questions about a value over time, and the turns that state one (issue 18: the latest version of a changing value,
 * and its history). Marked for the reranker as `Features.stated`:
 * - asked what holds now ("对账任务现在每天几点执行？", "which version are we on now?"), a turn that sets a new value:
 *   the user's last word on it — "就改到 03:15", "EMQX 昨晚升到 5.7.1 了", "bumped the pool to 64" — is short and often
 *   repeats none of the question's words (the subject was named in the turn before);
 * - asked what it was, how it changed or when (先后用过哪些, 原来叫什么, "what did we use before?", "when did…"), a
 *   turn that states a value and shares the question's words: the first statement of a setting ("API 是 Django 4.2，
 *   gunicorn 跑在 8000 端口") is as much the answer as its changes, and is usually outranked by later talk of it.
 * Either way the turn must be by the person asked about: the user in the app's own chats, or the speaker the question
 * names. Word lists in both languages; pure.
 *
 * (Asking the new value to be of the kind the question asks for — a time for 几点, a version for 哪个版本 — was tried:
 * leave-one-conversation-out over the 18 Chinese chats it held out worse, 0.867 / 0.767 against 0.874 / 0.768.)
 */
import { asksForEarlierValues } from './answer-type.ts';
import { statementOfCached } from './statements.ts';

/**
 * Words of a question about what holds now: 现在 / 目前, "now", "currently", "these days", and the final word on it (最后定在
 * 哪天, 最终, "in the end", "ended up", "what did we finally pick"; not "lastly" opening a message, 最后一个问题, 最后，…):
 * answered-later.ts adds "still".
 */
export const NOW_WORDS =
  /现在|目前|如今|眼下|当前|最新|(?<!^\s*)最[后终](?![一个次]|\s*[，,:：])|\b(?:now|nowadays|currently|current|these days|at the moment|at present|latest|in the end|end(?:ed)? up|eventually)\b|(?<=\S\s+)finally\b/i;
/** …that asks (a statement with 现在 in it asks nothing). */
const ASKS = /[?？]|吗|呢|多少|几|哪|什么|\b(?:what|which|how|where|when|who)\b/i;

/** Whether a message asks what holds now. */
export function asksWhatHoldsNow(message: string): boolean {
  return NOW_WORDS.test(message) && ASKS.test(message);
}

/**
 * What a question asks of a value over time: `past` (what it was, how it changed, when: answer-type.ts
 * `asksForEarlierValues`, which also keeps superseded statements in for it), `now` (what holds now), or null.
 */
export function valueQuestion(message: string): 'past' | 'now' | null {
  if (asksForEarlierValues(message)) return 'past';
  return asksWhatHoldsNow(message) ? 'now' : null;
}

/** A verb that gives a setting a new value (the value, with a digit, follows it). */
const SETS_NEW_ZH = /改到|改成|改为|改用|推迟到|推到|延到|延期到|顺延到|提前到|改期到|升到|升级到|升完|降到|降级到|回退到|换成|换到|切到|切成|调到|调成|调整为|调整到|设成|设为|设置为|定成|定为|定在|迁到|挪到|扩到|缩到|加到|减到|统一成|统一为|统一到/g;
/**
 * "changed it to 64", "bumped the pool to 64", "pushed the move to the 5th", "is now 8443", "now on 1.22", "5 October
 * now".
 */
const SETS_NEW_EN =
  /\b(?:chang|mov|upgrad|bump|switch|rais|lower|increas|decreas|reduc|migrat|set|pinn|roll|push|postpon|delay|reschedul|extend)(?:e|ed|es|ing|ped|ping)?\s+(?:\S+\s+){0,4}?(?:to|at)\s+(?:the\s+)?\S*\d|\breschedul(?:e|ed|es|ing)\s+(?:\S+\s+){0,4}?for\s+(?:the\s+)?\S*\d|(?<!\bfor\s)\b\d[\d:./-]*(?:st|nd|rd|th)?(?:\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|\s*(?:am|pm|km|kg|gb|mb|ms|%))?\s+now\b|\b(?:go|goes|going|went|gone)\s+(?:up|down)\s+to\s+\S*\d|\b(?:is|are)\s+now\s+\S*\d|\bnow\s+(?:on|at|runs? on|uses?)\s+\S*\d|\b(?:switch|mov|migrat)(?:e|ed|es|ing)?\s+(?:over\s+)?to\s+(?!the\b|a\b|an\b|it\b|that\b|this\b)[a-z][\w.-]+/i;
/** How far after a Chinese verb of change its value's digit may stand (升到了 Node 20.12.1). */
const VALUE_WITHIN = 24;

/** Whether a turn sets a new value: a verb of change with a number, a version or a time after it. */
export function setsNewValue(text: string): boolean {
  if (SETS_NEW_EN.test(text)) return true;
  for (const m of text.matchAll(SETS_NEW_ZH)) if (/\d/.test(text.slice(m.index + m[0].length, m.index + m[0].length + VALUE_WITHIN))) return true;
  return false;
}

/** Whether a turn states a value (statements.ts: a name, a number, a version said of something). */
export function statesValue(text: string): boolean {
  return (statementOfCached(text, '')?.values.size ?? 0) > 0;
}

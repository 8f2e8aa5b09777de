/**
 * Languages: the answers' (用中文回答, reply in French, just use English) or a named piece of work's (代码注释也写中文
 * sets `code comment language`, commit messages in English `commit message language`). A language the clause
 * forbids (不要用中文回答, don't reply in English) is dropped: an unset, so that an earlier "answer in Chinese" no
 * longer stands. A message that forbids one language and sets another for the same slot keeps only the set
 * (提交信息统一写英文，不要写中文), which `withoutRedundantProhibitions` applies over the whole message.
 */
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import { near, negationBefore, type Lexicon, type Mark } from './lexicon.ts';
import { hasCjk } from '../../shared/cjk.ts';
import type { Fact } from './types.ts';

/** A language the message forbids, dropped unless the message sets another for its slot. */
export type LanguageFound = Found<Fact> & { readonly prohibition?: true };

const ANSWER_LANGUAGE = 'answer language';
/** Just before a language named alone: "just use English", "switch to Chinese". */
const SWITCHED_TO = /\b(?:use|speak|switch to|stick to|stay in)\s*$/i;
/** Links a language to the verb or object before it: 用中文, 写成英文, 保持 English, 改成英文, in French. */
const LINK_ZH = /(?:用|以|使用|说|讲|写|写成|全部|都用|保持|保留|统一|一律|改成|改为|换成|改用|换用|切到|切换到|切换成)\s*$/;
// "in plain English": a word on the register may come between.
const LINK_EN = /\b(?:in|prefer|use|speak|want|keep|stay in|stick to)(?:\s+(?:plain|simple|clear|proper|good|formal|casual|standard|british|american))?\s*$/i;

/**
 * The languages a clause states. `leadIn` is the clause before in the same sentence: a piece of work or the answers
 * named there are still what this clause speaks of (提交信息统一写英文，不要写中文).
 */
export function findLanguageFacts(clause: Clause, lex: Lexicon, leadIn: string): LanguageFound[] {
  const text = clause.text;
  const out: LanguageFound[] = [];
  // 说 inside a word is no verb: 日文小说 is a novel in Japanese, 说明 an explanation.
  const verbs = lex.words('answerVerbs', text).filter((v) => !(v.surface === '说' && (text[v.start - 1] === '小' || text[v.end] === '明')));
  const answerWords = lex.words('answerWords', text);
  const objects = lex.words('languageObjects', text);
  const unnamed = answerWords.length === 0 && objects.length === 0;
  const carried = unnamed ? lex.words('languageObjects', leadIn).at(-1) : undefined;
  // 别用英文回复我，用中文: a clause that names nothing speaks of the answers when the clause before did.
  const answersBefore = unnamed && carried === undefined && lex.has('answerWords', leadIn);
  for (const l of lex.words('languages', text)) {
    const name = languageName(lex, l.surface);
    if (name === undefined) continue;
    const before = text.slice(Math.max(0, l.start - 16), l.start);
    const after = text.slice(l.end, l.end + 4);
    const linked = LINK_ZH.test(before) || LINK_EN.test(before);
    // (A clause that names a thing of its own before the language — PR 描述可以中文 — does not carry the one before.)
    const object = objectOf(l, objects, answerWords, text) ?? (CARRY_LEAD.test(text.slice(0, l.start)) ? carried : undefined);
    let stated: boolean;
    if (object !== undefined) stated = linked || verbs.some((v) => v.start === l.end || v.start === l.end + 1);
    // (English puts an object between: "explain grammar points to me in Chinese".)
    else if (answersBefore || verbs.some((v) => near(v, l, hasCjk(l.surface) ? 16 : 28)))
      // 用中文回答, 中文回复, 回答用中文, reply in French.
      stated = linked || verbs.some((v) => v.start === l.end || v.start === l.end + 1) || /^\s*(?:来)?(?:回答|回复|答复)/.test(after) || SWITCHED_TO.test(text.slice(Math.max(0, l.start - 12), l.start));
    // "just use English" / "switch to English": a language alone is the answers' language in a chat.
    else stated = SWITCHED_TO.test(text.slice(Math.max(0, l.start - 12), l.start));
    if (!stated || CONDITION_BEFORE.test(text.slice(Math.max(0, l.start - 40), l.start))) continue;
    const subject = object === undefined ? ANSWER_LANGUAGE : lex.vocabulary.subjects.languageObjects[objectKey(lex, object.surface)]!;
    const at = clause.start + l.start;
    if (forbidden(text, l, lex)) out.push({ item: { subject, value: name, op: 'unset' }, at, prohibition: true });
    else out.push({ item: { subject, value: name, op: 'set' }, at });
  }
  return out;
}

/** Drops a prohibition whose slot the message also sets: the set already says which language it is. */
export function withoutRedundantProhibitions<T extends Found<Fact>>(facts: readonly T[]): T[] {
  return facts.filter(
    (f) => !('prohibition' in f) || !facts.some((g) => g.item.op === 'set' && g.item.subject === f.item.subject),
  );
}

/** The piece of work named before the language with no answer word between (代码注释也写中文, but 回答用中文). */
function objectOf(l: Mark, objects: readonly Mark[], answerWords: readonly Mark[], text: string): Mark | undefined {
  const object = objects.filter((o) => o.end <= l.start).at(-1);
  if (object === undefined) return undefined;
  if (answerWords.some((a) => a.start >= object.end && a.end <= l.start)) return undefined;
  // 中文回答 / in Chinese, please reply: an answer word right after the language makes it the answers'.
  if (answerWords.some((a) => a.start >= l.end && a.start - l.end <= 8) && !/[,，;；]/.test(text.slice(l.end, l.end + 8))) return undefined;
  return object;
}

/** A negation just before the language (不要用中文, don't reply in English), not one that only reminds (别忘了). */
function forbidden(text: string, l: Mark, lex: Lexicon): boolean {
  return negationBefore(text, l.start, hasCjk(l.surface) ? 8 : 28, lex);
}

function objectKey(lex: Lexicon, surface: string): string {
  const objects = lex.vocabulary.subjects.languageObjects;
  const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ');
  return Object.keys(objects).find((k) => norm(k) === norm(surface)) ?? surface;
}

function languageName(lex: Lexicon, surface: string): string | undefined {
  const languages = lex.vocabulary.subjects.languages;
  return languages[surface] ?? Object.entries(languages).find(([k]) => k.toLowerCase() === surface.toLowerCase())?.[1];
}

/** "…even when I ask in Chinese", 就算我用英文问: the language of a condition, not of the answers. */
const CONDITION_BEFORE =
  /(?:\b(?:when|whenever|if|even if|even when|though|although)\s+(?:i|we|you|they|someone)\s+[a-z]+(?:\s+[a-z]+)?\s+in|(?:即使|就算|哪怕|如果|当|要是)\s*(?:我|我们|别人|用户)\s*用)\s*$/i;

/** What may stand before a language in a clause that speaks of the thing named in the clause before: 也用中文, 都写英文. */
const CARRY_LEAD = /^(?:\s|[也都就还是用写得要请别不]|可以|全部|一律|统一|同样|\b(?:and|also|too|in|use|write|written|not|no|never|don't|do not)\b)*$/i;

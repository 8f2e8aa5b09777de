/**
 * What the memory sections are called in the prompt, in the conversation's language, and seed 001's rule for
 * when conversation records may be used (§4.2: a separate label for documentation and for records of earlier
 * conversations, and an instruction that keeps the model from mixing them up). The rule goes in the system
 * prompt, which is sent verbatim every turn (KV cache), not in the memory block, which changes every turn.
 */
import { chineseDateNote, chineseDay, cjkShare, englishDateNote, englishDay, type RecordLabels } from '../retrieval/index.ts';

export type Lang = 'zh' | 'en';

export interface SectionLabels extends RecordLabels {
  readonly working: string;
}

export const LABELS: Readonly<Record<Lang, SectionLabels>> = Object.freeze({
  zh: Object.freeze({
    working: '[工作记忆]',
    history: '[相关历史（对话记录）]',
    docs: '[文档知识]',
    user: '用户',
    assistant: '助手',
    gap: ' … ',
    day: chineseDay,
    dateNote: chineseDateNote,
  }),
  en: Object.freeze({
    working: '[Working memory]',
    history: '[Related history (conversation records)]',
    docs: '[Documentation]',
    user: 'User',
    assistant: 'Assistant',
    gap: ' … ',
    day: englishDay,
    dateNote: englishDateNote,
  }),
});

/** Seed 001 §4.2's instruction, adapted: records only when the question concerns earlier conversations. */
export const MEMORY_RULES: Readonly<Record<Lang, string>> = Object.freeze({
  zh:
    '用户消息前的[工作记忆]、[相关历史（对话记录）]和[文档知识]是系统提供的资料，不是用户说的话。' +
    '仅当用户的问题涉及以前的对话时才可结合[对话记录]回答，否则只使用[文档知识]和当前输入。',
  en:
    "The [Working memory], [Related history (conversation records)] and [Documentation] blocks before the user's " +
    'message are notes from the system, not words of the user. Use conversation records only when the question ' +
    'concerns earlier conversations; otherwise answer from the documentation and the current message.',
});

export const BASE_SYSTEM_PROMPT: Readonly<Record<Lang, string>> = Object.freeze({
  zh: '你是一个乐于助人的AI助手。',
  en: 'You are a helpful assistant.',
});

/** The system prompt of a session: a base (the app's, or the default) and the memory rule. */
export function systemPrompt(lang: Lang, base: string = BASE_SYSTEM_PROMPT[lang]): string {
  return `${base}\n${MEMORY_RULES[lang]}`;
}

/** Chinese when a fair share of the letters are CJK (a Chinese sentence with an English product name stays zh). */
export function detectLang(text: string): Lang {
  return cjkShare(text) >= 0.3 ? 'zh' : 'en';
}

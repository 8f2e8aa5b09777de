/**
 * What `npm run eval` reports per question and in total (issue 18):
 * - `lenient`: evidence turns held whole or by one informative sentence (recall.ts; LoCoMo's `recall_acc`);
 * - `whole`: evidence turns held verbatim and whole;
 * - `answer`: over short-answer questions (categories 1, 2 and 4; answer-match.ts), whether the prompt holds the
 *   gold answer outside the question itself;
 * - `answerShare`: the same over those whose answer occurs in the conversation as a prompt could render it (turn
 *   texts and session dates): the share a selector could have got;
 * - `blockLines`: records and doc chunks in the retrieved block.
 */
import { englishDay } from '../../src/memory/retrieval/render.ts';
import { haystack, holdsAnswer, isShortAnswer, type Haystack } from './answer-match.ts';
import type { LocomoConversation } from './locomo-data.ts';
import { evidenceRecall, normalise } from './recall.ts';
import type { PromptResult } from './strategies.ts';

/** Categories whose gold answers are facts to find (multi-hop, temporal, single-hop); 3 and 5 are inferred or absent. */
const ANSWER_CATEGORIES = new Set([1, 2, 4]);

export interface QuestionMeasures {
  readonly category: number;
  readonly lenient: number;
  readonly whole: number;
  /** null: not a short-answer question. */
  readonly answer: boolean | null;
  /** Whether the conversation holds the answer (for `answerShare`); false when `answer` is null. */
  readonly answerInConversation: boolean;
  readonly blockLines: number | null;
  /** Tokens of the retrieved block (the pipeline's; null for the other strategies). */
  readonly retrievalTokens: number | null;
  readonly promptTokens: number;
}

/** The conversation as a prompt could render it: every turn's text, and every session's date (`8 May 2023`). */
export function conversationHaystack(conv: LocomoConversation): Haystack {
  const dates = conv.sessions.filter((s) => s.time !== 0).map((s) => englishDay(new Date(s.time).toISOString().slice(0, 10), true));
  return haystack([...conv.sessions.flatMap((s) => s.turns.map((t) => t.text)), ...dates].join('\n'));
}

/** The prompt less the question's last occurrence: an answer counts only when something else brought it. */
function outsideQuestion(prompt: string, question: string): string {
  const at = prompt.lastIndexOf(question);
  return at < 0 ? prompt : prompt.slice(0, at) + prompt.slice(at + question.length);
}

export function measureQuestion(convHay: Haystack, turnText: ReadonlyMap<string, string>, r: PromptResult): QuestionMeasures {
  const evidence = r.question.evidence.map((id) => turnText.get(id)!);
  const prompt = normalise(r.prompt);
  const whole = evidence.filter((t) => normalise(t) !== '' && prompt.includes(normalise(t))).length / Math.max(1, evidence.length);
  const scored = ANSWER_CATEGORIES.has(r.question.category) && isShortAnswer(r.question.answer);
  const answer = scored ? holdsAnswer(haystack(outsideQuestion(r.prompt, r.question.question)), r.question.answer) : null;
  return {
    category: r.question.category,
    lenient: evidenceRecall(r.prompt, evidence),
    whole,
    answer,
    answerInConversation: scored && holdsAnswer(convHay, r.question.answer),
    blockLines: r.blockLines ?? null,
    retrievalTokens: r.turn?.report.memory.sections.retrieval.selected ?? null,
    promptTokens: r.promptTokens,
  };
}

export interface Totals {
  readonly n: number;
  readonly lenient: number;
  readonly whole: number;
  /** Short-answer questions, and the share whose answer the prompt holds (null when none). */
  readonly answerN: number;
  readonly answer: number | null;
  /** Of those, the ones whose answer the conversation holds, and the share the prompt holds. */
  readonly answerShareN: number;
  readonly answerShare: number | null;
  readonly blockLines: number | null;
  /** Mean tokens of the retrieved block (a compaction may lend it the input section's spare room). */
  readonly meanRetrievalTokens: number | null;
  readonly meanPromptTokens: number;
}

const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(4)));

export function totals(measures: readonly QuestionMeasures[]): Totals {
  const short = measures.filter((m) => m.answer !== null);
  const inConv = short.filter((m) => m.answerInConversation);
  const lines = measures.flatMap((m) => (m.blockLines === null ? [] : [m.blockLines]));
  const retrieval = measures.flatMap((m) => (m.retrievalTokens === null ? [] : [m.retrievalTokens]));
  return {
    n: measures.length,
    lenient: mean(measures.map((m) => m.lenient)) ?? 0,
    whole: mean(measures.map((m) => m.whole)) ?? 0,
    answerN: short.length,
    answer: mean(short.map((m) => (m.answer === true ? 1 : 0))),
    answerShareN: inConv.length,
    answerShare: mean(inConv.map((m) => (m.answer === true ? 1 : 0))),
    blockLines: lines.length === 0 ? null : Number(mean(lines)!.toFixed(2)),
    meanRetrievalTokens: retrieval.length === 0 ? null : Number(mean(retrieval)!.toFixed(1)),
    meanPromptTokens: Number((mean(measures.map((m) => m.promptTokens)) ?? 0).toFixed(1)),
  };
}

/**
 * "Not in the docs": when no doc chunk passes the memory's relevance gate — the same calibrated gate that decides
 * what enters a prompt (pack.ts) — the widget does not let the model guess. It says so
 * in the reader's language and shows the nearest sections. A follow-up to the conversation so far ("and then what
 * happens?") is left to the model, which has the exchange before it in its prompt — unless that exchange was itself
 * "not in the docs": only a question that stands on its own is held to the docs. Pure.
 */
import type { ChatEvent } from '../../engine/client.ts';
import { namesSomeone, type LayeredReport } from '../../memory/layered/index.ts';
import { terms } from '../../memory/retrieval/index.ts';
import type { ChatMessage } from '../../shared/chat.ts';
import type { WidgetLang } from './types.ts';

export const NOT_IN_DOCS: Readonly<Record<WidgetLang, string>> = {
  en: 'These docs do not seem to cover this, so I will not guess. The nearest sections are below.',
  zh: '这些文档里似乎没有讲到这个问题，我就不猜了。下面是最接近的章节。',
};

/** Whether the plan found a doc chunk past the relevance gate (in the prompt, or relevant and out of room). */
export function coversQuestion(report: LayeredReport): boolean {
  return report.memory.retrieval.candidates.some((c) => c.namespace === 'docs' && c.fate !== 'below-threshold');
}

/**
 * Whether a question stands on its own rather than following up the exchange before it (`messages`: the prompt,
 * its history included): it names something of its own, or it brings two or more words the conversation never
 * used (CJK bigrams count two-thirds each: a Chinese word of two characters in a run makes two or three of them).
 */
export function standsAlone(question: string, messages: readonly ChatMessage[]): boolean {
  const history = messages.filter((m) => m.role === 'user' || m.role === 'assistant').slice(0, -1);
  if (history.length === 0 || namesSomeone(question)) return true;
  // A follow-up to "not in the docs" has nothing to follow up: the exchange before it holds no answer.
  const lastReply = history.findLast((m) => m.role === 'assistant')?.content;
  if (lastReply !== undefined && Object.values(NOT_IN_DOCS).includes(lastReply)) return true;
  const said = new Set(history.flatMap((m) => terms(m.content)));
  let fresh = 0;
  for (const t of new Set(terms(question))) if (!said.has(t)) fresh += t.startsWith('~') ? 2 / 3 : 1;
  return fresh >= 2 - 1e-9;
}

/** Whether to answer "not in the docs" instead of asking the model (there are docs, and nothing of them fits). */
export function notInDocs(question: string, plan: { report: LayeredReport; messages: readonly ChatMessage[] }, docChunks: number): boolean {
  return docChunks > 0 && !coversQuestion(plan.report) && standsAlone(question, plan.messages);
}

/** That answer, as the engine's stream would give it (stored as the reply: the conversation shows what the reader saw). */
export async function* notInDocsReply(lang: WidgetLang): AsyncGenerator<ChatEvent> {
  const text = NOT_IN_DOCS[lang];
  yield { type: 'delta', text };
  yield { type: 'final', result: { finishReason: 'stop', promptTokens: 0, cachedTokens: 0, completionTokens: 0, text, timings: { ttftMs: 0, totalMs: 0, prefillMs: 0, decodeMs: 0 } } };
}

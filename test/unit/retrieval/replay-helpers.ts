/** Replays an eval set of our own (scripts/eval/data/) as the app stores turns (roles only) at a 1,024-token window. */
import { readFileSync } from 'node:fs';
import type { TokenCounter } from '../../../src/context/tokens.ts';
import { parseLocomo } from '../../../scripts/eval/locomo-data.ts';
import { conversationHaystack, measureQuestion, type QuestionMeasures } from '../../../scripts/eval/measures.ts';
import { runFull } from '../../../scripts/eval/strategies.ts';

/** Every question's measures, and its prompt with the question it answers. */
export async function replayRolesOnly(file: string, counter: TokenCounter): Promise<{ measures: QuestionMeasures[]; prompts: Array<{ question: string; prompt: string }> }> {
  const conversations = parseLocomo(JSON.parse(readFileSync(new URL(`../../../scripts/eval/data/${file}`, import.meta.url), 'utf8')));
  const measures: QuestionMeasures[] = [];
  const prompts: Array<{ question: string; prompt: string }> = [];
  for (const conv of conversations) {
    const turnText = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t.text] as const)));
    const hay = conversationHaystack(conv);
    for (const r of await runFull(conv, 1024, counter, {}, { rolesOnly: true })) {
      measures.push(measureQuestion(hay, turnText, r));
      prompts.push({ question: `${conv.id}: ${r.question.question}`, prompt: r.prompt });
    }
  }
  return { measures, prompts };
}

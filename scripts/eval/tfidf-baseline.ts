/**
 * `--baseline tfidf`: a fixed reference selector (issue 18), not the product. A conversation's turns are scored by
 * the sum of the IDF of the question's distinct terms they contain, IDF = log((N + 1) / (df + 0.5)) over the
 * conversation's N turns; terms are lower-cased word tokens and CJK bigrams. Whole turns are packed greedily, best
 * first, into the retrieval budget, with exact Qwen token counts of the block; the prompt is the system prompt,
 * then one user message: the block, a blank line, the question. Turns carry their speaker (or role), no dates.
 */
import { renderChatML } from '../../src/context/chatml.ts';
import type { TokenCounter } from '../../src/context/tokens.ts';
import type { ChatMessage } from '../../src/engine/protocol.ts';
import { BASE_SYSTEM_PROMPT } from '../../src/memory/layered/labels.ts';
import type { LocomoConversation } from './locomo-data.ts';
import type { PromptResult } from './strategies.ts';

const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+/g;

/** Lower-cased word tokens (letters and digits, CJK aside) and the bigrams of each CJK run (a lone character as itself). */
export function tfidfTerms(text: string): string[] {
  const lower = text.normalize('NFC').toLowerCase();
  const out: string[] = [];
  for (const run of lower.match(CJK_RUN) ?? []) {
    const chars = [...run];
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  out.push(...(lower.replace(CJK_RUN, ' ').match(/[\p{L}\p{N}]+/gu) ?? []));
  return out;
}

export interface TfidfOptions {
  /** Tokens the block of turns may take. */
  readonly retrievalBudget: number;
  /** Speakers as "User" / "Assistant" instead of their names. */
  readonly rolesOnly: boolean;
}

/** The turns' scores for one question, best first (score > 0 only; ties keep conversation order). */
export function rankTurns(turnTerms: readonly ReadonlySet<string>[], df: ReadonlyMap<string, number>, question: string): number[] {
  const n = turnTerms.length;
  const idf = new Map([...new Set(tfidfTerms(question))].map((t) => [t, Math.log((n + 1) / ((df.get(t) ?? 0) + 0.5))] as const));
  const scored: Array<{ i: number; score: number }> = [];
  turnTerms.forEach((terms, i) => {
    let score = 0;
    for (const [t, w] of idf) if (terms.has(t)) score += w;
    if (score > 0) scored.push({ i, score });
  });
  return scored.sort((a, b) => b.score - a.score || a.i - b.i).map((s) => s.i);
}

/** Lines packed greedily into `budget` tokens, exactly (the joined block is counted whenever a cheap bound fits). */
export function packWhole(lines: readonly string[], budget: number, counter: TokenCounter): string[] {
  const chosen: string[] = [];
  let bound = 0;
  for (const line of lines) {
    const lineTokens = counter.count(line) + (chosen.length > 0 ? 1 : 0);
    // The joined count is within a token or two of the sum; only a line the sum lets in is counted exactly.
    if (bound + lineTokens > budget + 2) continue;
    const trial = [...chosen, line].join('\n');
    if (counter.count(trial) > budget) continue;
    chosen.push(line);
    bound += lineTokens;
    if (budget - bound < 4) break;
  }
  return chosen;
}

export function runTfidf(conv: LocomoConversation, counter: TokenCounter, options: TfidfOptions): PromptResult[] {
  const turns = conv.sessions.flatMap((s) => s.turns).filter((t) => t.text.trim() !== '');
  const turnTerms = turns.map((t) => new Set(tfidfTerms(t.text)));
  const df = new Map<string, number>();
  for (const terms of turnTerms) for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  const speakerOf = (speaker: string): string => (!options.rolesOnly ? speaker : speaker === conv.speakerA ? 'User' : 'Assistant');
  return conv.questions.map((question) => {
    const lines = rankTurns(turnTerms, df, question.question).map((i) => `${speakerOf(turns[i]!.speaker)}: ${turns[i]!.text}`);
    const chosen = packWhole(lines, options.retrievalBudget, counter);
    const block = chosen.join('\n');
    const messages: ChatMessage[] = [
      { role: 'system', content: BASE_SYSTEM_PROMPT.en },
      { role: 'user', content: block === '' ? question.question : `${block}\n\n${question.question}` },
    ];
    const prompt = renderChatML(messages);
    return { question, prompt, promptTokens: counter.count(prompt), blockLines: chosen.length };
  });
}

/**
 * Floors on the Chinese ops and coding conversations (scripts/eval/data/zh-ops-*.json; README, "Chinese ops and coding
 * chats"), replayed roles only as the app stores turns, at a 1,024-token window: what the Chinese query changes and
 * the uncut block brought (dev 0.601 → 0.803, held out 0.559 → 0.700 `lenient`) stays.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { parseLocomo } from '../../../scripts/eval/locomo-data.ts';
import { conversationHaystack, measureQuestion, totals, type QuestionMeasures } from '../../../scripts/eval/measures.ts';
import { runFull } from '../../../scripts/eval/strategies.ts';
import { realCounter } from '../context/helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

/** Every question's measures, and the prompts whose newest message was cut with the truncation marker. */
async function replay(file: string): Promise<{ measures: QuestionMeasures[]; cut: string[] }> {
  const conversations = parseLocomo(JSON.parse(readFileSync(new URL(`../../../scripts/eval/data/${file}`, import.meta.url), 'utf8')));
  const measures: QuestionMeasures[] = [];
  const cut: string[] = [];
  for (const conv of conversations) {
    const turnText = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t.text] as const)));
    const hay = conversationHaystack(conv);
    for (const r of await runFull(conv, 1024, counter, {}, { rolesOnly: true })) {
      measures.push(measureQuestion(hay, turnText, r));
      if (r.prompt.includes('…[truncated]')) cut.push(`${conv.id}: ${r.question.question}`);
    }
  }
  return { measures, cut };
}

describe('Chinese ops and coding chats', () => {
  it('hand the model most evidence turns whole, and every memory block uncut, on the dev and the held-out conversations', async () => {
    const dev = await replay('zh-ops-dev.json');
    expect(totals(dev.measures).lenient).toBeGreaterThanOrEqual(0.78);
    expect(totals(dev.measures).answerShare ?? 0).toBeGreaterThanOrEqual(0.89);
    const heldOut = await replay('zh-ops-heldout.json');
    expect(totals(heldOut.measures).lenient).toBeGreaterThanOrEqual(0.68);
    expect(totals(heldOut.measures).answerShare ?? 0).toBeGreaterThanOrEqual(0.72);
    // Written last, scored once (0.615 / 0.771 on the session-start code).
    const second = await replay('zh-ops-heldout-2.json');
    expect(totals(second.measures).lenient).toBeGreaterThanOrEqual(0.7);
    expect(totals(second.measures).answerShare ?? 0).toBeGreaterThanOrEqual(0.83);
    // Scored once at its start (0.623 / 0.750), then read for the supersede fixes (changes of another thing).
    const third = await replay('zh-ops-heldout-3.json');
    expect(totals(third.measures).lenient).toBeGreaterThanOrEqual(0.69);
    expect(totals(third.measures).answerShare ?? 0).toBeGreaterThanOrEqual(0.85);
    // Written while those fixes were made, scored once after them (0.711 / 0.708 on the session-start code).
    const fourth = await replay('zh-ops-heldout-4.json');
    expect(totals(fourth.measures).lenient).toBeGreaterThanOrEqual(0.7);
    expect(totals(fourth.measures).answerShare ?? 0).toBeGreaterThanOrEqual(0.73);
    // A block that borrows the input section's spare room is sized for it: the context engine must not cut its end.
    expect([...dev.cut, ...heldOut.cut, ...second.cut, ...third.cut, ...fourth.cut]).toEqual([]);
  }, 120_000);
});

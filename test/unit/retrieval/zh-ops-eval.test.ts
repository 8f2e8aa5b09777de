/**
 * Floors on the Chinese ops and coding conversations (scripts/eval/data/zh-ops-*.json; README, "Chinese ops and coding
 * chats"), replayed roles only as the app stores turns, at a 1,024-token window: what the Chinese query changes
 * brought (dev 0.601 → 0.785, held out 0.559 → 0.660 `lenient`) stays.
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

async function replay(file: string): Promise<QuestionMeasures[]> {
  const conversations = parseLocomo(JSON.parse(readFileSync(new URL(`../../../scripts/eval/data/${file}`, import.meta.url), 'utf8')));
  const out: QuestionMeasures[] = [];
  for (const conv of conversations) {
    const turnText = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, t.text] as const)));
    const hay = conversationHaystack(conv);
    out.push(...(await runFull(conv, 1024, counter, {}, { rolesOnly: true })).map((r) => measureQuestion(hay, turnText, r)));
  }
  return out;
}

describe('Chinese ops and coding chats', () => {
  it('hand the model most evidence turns whole, on the dev and the held-out conversations', async () => {
    const dev = totals(await replay('zh-ops-dev.json'));
    expect(dev.lenient).toBeGreaterThanOrEqual(0.76);
    expect(dev.answerShare ?? 0).toBeGreaterThanOrEqual(0.85);
    const heldOut = totals(await replay('zh-ops-heldout.json'));
    expect(heldOut.lenient).toBeGreaterThanOrEqual(0.64);
    expect(heldOut.answerShare ?? 0).toBeGreaterThanOrEqual(0.68);
  }, 120_000);
});

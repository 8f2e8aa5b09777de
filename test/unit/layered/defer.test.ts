import { beforeAll, describe, expect, it } from 'vitest';
import { CachedTokenCounter } from '../../../src/context/tokens.ts';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { deferLowValue, needsAllMemory } from '../../../src/memory/layered/defer.ts';
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

describe('which messages need all their memory', () => {
  it('a question for a fact, a name or a time: its answer may be any line found, not only the best one held', () => {
    for (const q of [
      'Sentry 的崩溃告警会推到哪个飞书群？',
      '我新买的那双跑鞋是什么型号？',
      '备份现在几点跑？',
      'Which channel do the release notes go to?',
      'What model is the router in the office?',
      'When is the next on-call handover?',
      '负责数据库迁移的是谁？',
      'How many replicas does the search cluster run?',
    ]) expect(needsAllMemory(q), q).toBe(true);
  });

  it('a request, or a why / how question, may leave its weaker new lines for later', () => {
    for (const q of [
      'Add a cancel() method to the function above.',
      '帮我把这段配置改成 YAML。',
      '为什么这个接口偶尔会超时？',
      '这个接口为啥会超时？',
      '怎么给这个函数加单元测试？',
      'Why does the build fail on the CI runner only?',
      'How do I make the email shorter?',
      'Translate the last paragraph into English.',
    ]) expect(needsAllMemory(q), q).toBe(false);
  });
});

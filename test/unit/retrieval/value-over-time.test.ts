/**
 * The latest word on a changing value, and its history (issue 18; value-over-time.ts, `Features.stated`). Asked
 * what holds now, the user's terse "库存同步就改到 03:40" or "bumped it to 96" — which repeats few of the question's
 * words — outranks older talk of the same setting that holds more of them; asked what it was before, the user's
 * first statement of it does. Our own wording.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { asksWhatHoldsNow, setsNewValue, statesValue, valueQuestion } from '../../../src/memory/retrieval/value-over-time.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { DEFAULT_PACK_OPTIONS, isRelevant } from '../../../src/memory/retrieval/pack.ts';
import { DEFAULT_WEIGHTS, type Candidate } from '../../../src/memory/retrieval/rerank.ts';
import { retrieve, type RetrievalResult } from '../../../src/memory/retrieval/retriever.ts';
import { realCounter } from '../context/helpers.ts';

describe('what a question about now asks, and what sets a new value', () => {
  it('knows a question about what holds now', () => {
    expect(asksWhatHoldsNow('同步任务现在几点跑？')).toBe(true);
    expect(asksWhatHoldsNow('Which Terraform version are we on now?')).toBe(true);
    expect(asksWhatHoldsNow('同步任务几点跑？')).toBe(false);
    // A statement that says 现在 asks nothing.
    expect(asksWhatHoldsNow('现在开始迁移。')).toBe(false);
  });

  it('knows a turn that gives a setting a new value with a number, a version or a time', () => {
    expect(setsNewValue('就改到 03:40 吧，已经生效了。')).toBe(true);
    expect(setsNewValue('昨晚把 Nomad 升到 1.7.6 了。')).toBe(true);
    expect(setsNewValue('OK, bumped the pool size to 96 and the errors stopped.')).toBe(true);
    expect(setsNewValue('The sync job is now 04:10.')).toBe(true);
    expect(setsNewValue('我们在考虑改成别的方案。')).toBe(false);
    expect(setsNewValue('Changed my mind about the colour scheme.')).toBe(false);
  });

  it('reads the final word on a value as what holds now (最后定在, "ended up")', () => {
    expect(valueQuestion('发布会最后定在哪天？')).toBe('now');
    expect(valueQuestion('Which venue did we end up booking?')).toBe('now');
    expect(valueQuestion('What did the caterer quote in the end?')).toBe('now');
    // "Lastly" asks nothing about a value.
    expect(valueQuestion('最后一个问题：怎么导出聊天记录？')).toBeNull();
    expect(valueQuestion('Finally, how do I export the chat?')).toBeNull();
  });

  it('knows a date pushed back or brought forward, and a value followed by "now"', () => {
    expect(setsNewValue('The plumber got pushed to the 14th, nothing we can do.')).toBe(true);
    expect(setsNewValue('Kickoff is rescheduled for 9 June.')).toBe(true);
    expect(setsNewValue('Dentist 11 March now, they had a cancellation.')).toBe(true);
    expect(setsNewValue('交房推迟到 12 月 20 号了。')).toBe(true);
    // A duration up to now is no new value.
    expect(setsNewValue("I've been swimming for 6 weeks now.")).toBe(false);
    expect(setsNewValue('We pushed hard on the docs this week.')).toBe(false);
    expect(setsNewValue('I set aside some snacks for 20 kids.')).toBe(false);
  });

  it('knows a price that goes up, and a switch to a named thing', () => {
    expect(setsNewValue('Went over the plans with Ana: the Team plan goes up to €49 in June.')).toBe(true);
    expect(setsNewValue("Their API keeps timing out, so I'm switching to bunny.net for the CDN.")).toBe(true);
    expect(setsNewValue('We moved over to Forgejo last week.')).toBe(true);
    expect(setsNewValue('Then move to the next step and run the tests.')).toBe(false);
    expect(setsNewValue('Switching to it was easy.')).toBe(false);
  });

  it('knows a question about what a value was or how it changed, and a turn that states a value', () => {
    expect(valueQuestion('网关先后用过哪些端口？')).toBe('past');
    expect(valueQuestion('What did we use for the queue before?')).toBe('past');
    expect(valueQuestion('网关现在用哪个端口？')).toBe('now');
    expect(valueQuestion('网关怎么配置？')).toBeNull();
    expect(statesValue('网关跑在 8000 端口，前面挂了 Nginx。')).toBe(true);
    expect(statesValue('好的，谢谢！')).toBe(false);
  });
});

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 4, 4, 9);

function conversation(): RetrievalIndex {
  const index = new RetrievalIndex();
  const sessions: Array<Array<[string, 'user' | 'assistant']>> = [
    [
      ['库存同步任务每天凌晨 02:00 跑，把仓库系统的库存拉到商城。', 'user'],
      ['02:00 这个时间可以，注意和备份错开。同步任务建议加上失败重试和告警。', 'assistant'],
      ['同步任务的日志放在 /var/log/stock-sync 下面。', 'user'],
      ['好，日志记得加轮转，同步任务跑久了日志会很大。', 'assistant'],
    ],
    [
      ['同步任务这两天老是超时，正好撞上仓库那边的盘点任务。', 'user'],
      ['盘点会锁表。可以把同步挪到盘点结束以后，比如 03:40。', 'assistant'],
      ['库存同步就改到 03:40 吧，已经生效了，今天凌晨跑得很顺。', 'user'],
      ['好的。', 'assistant'],
    ],
    [
      ['同步任务每天跑完会发一封邮件给运营，运营说邮件太多了。', 'user'],
      ['可以只在失败或者库存差异超过阈值时才发，同步任务正常跑完就不发。', 'assistant'],
      ['同步任务的差异阈值先定 5%，超过才发邮件。', 'user'],
      ['库存同步任务每天跑多久我也统计了一下，一般十分钟左右。', 'user'],
      ['十分钟不算长，库存同步任务每天的耗时可以画个趋势图。', 'assistant'],
      ['好，同步任务这样改以后运营那边应该清净很多。', 'assistant'],
    ],
  ];
  sessions.forEach((lines, s) =>
    lines.forEach(([text, role], i) => {
      const turn: TurnEntry = { id: `s${s + 1}-${i + 1}`, userId: 'u', sessionId: `S${s + 1}`, seq: i + 1, role, time: T0 + s * 7 * DAY + i * 60_000, text, entities: [], dates: [], tags: [] };
      index.addTurn(turn);
    }),
  );
  return index;
}

const search = (index: RetrievalIndex, message: string, stated: number): RetrievalResult =>
  retrieve(index, {
    query: buildQuery({ message, entities: [], dates: [] }),
    scope: { userId: 'u', sessionId: 'S9', otherSessions: true, docs: false },
    exclude: new Set(),
    budget: 110,
    now: T0 + 30 * DAY,
    counter,
    labels: LABELS.zh,
    offsetMinutes: 0,
    rerank: { weights: { ...DEFAULT_WEIGHTS, stated } },
  });

describe('a question about now finds the latest value', () => {
  it('brings the terse turn that set the value, which the old talk of the setting left out', () => {
    const index = conversation();
    const now = search(index, '库存同步任务现在每天几点跑？', DEFAULT_WEIGHTS.stated);
    expect(now.text).toContain('库存同步就改到 03:40 吧');
    expect(now.text).not.toContain('每天凌晨 02:00 跑');
    const without = search(index, '库存同步任务现在每天几点跑？', 0);
    expect(without.text).not.toContain('库存同步就改到 03:40 吧');
  });
});



function gatewayChat(): RetrievalIndex {
  const index = new RetrievalIndex();
  const sessions: Array<Array<[string, 'user' | 'assistant']>> = [
    [
      ['报表网关跑在 7100 端口，前面挂了一层 Nginx。', 'user'],
      ['好的，记下了。', 'assistant'],
    ],
    [
      ['报表网关的端口经常被扫描，日志里全是奇怪的请求。', 'user'],
      ['网关端口不要直接暴露，只让 Nginx 转发，防火墙上只对内网开放。', 'assistant'],
      ['报表网关端口的健康检查怎么配比较好？', 'user'],
      ['健康检查直接打网关端口上的 /healthz，挂了 Nginx 会把它摘掉。', 'assistant'],
    ],
    [
      ['报表网关的端口跟新上的监控 agent 冲突了。', 'user'],
      ['那就给网关换个端口，比如 7300，Nginx 的 upstream 一起改。', 'assistant'],
      ['行，报表网关端口改成 7300 了。', 'user'],
    ],
  ];
  sessions.forEach((lines, s) =>
    lines.forEach(([text, role], i) => {
      index.addTurn({ id: `g${s + 1}-${i + 1}`, userId: 'u', sessionId: `S${s + 1}`, seq: i + 1, role, time: T0 + s * 7 * DAY + i * 60_000, text, entities: [], dates: [], tags: [] });
    }),
  );
  return index;
}

describe('the gate for a turn that states the value', () => {
  // "就改到 02:30 吧" holds no word of the question: its match is ¾ of the suggestion's before it, often under the
  // usual gate in a long chat where the question's words are common.
  const candidate = (match: number, stated: number): Candidate => ({
    id: 't',
    sources: ['lexical'],
    features: { lexical: 0, context: 1, sentence: 0, vector: 0, entities: 0, speaker: 0, date: 0, thread: 0, recency: 0, cold: 0, intent: 0, persona: 0, coverage: match, stated },
    score: 1,
    match,
    bestPiece: 0,
    slot: 0,
  });

  it('lets in a turn that states the value asked about at a lower match than any other', () => {
    expect(isRelevant(candidate(0.05, 1), DEFAULT_PACK_OPTIONS)).toBe(true);
    expect(isRelevant(candidate(0.05, 0), DEFAULT_PACK_OPTIONS)).toBe(false);
    expect(isRelevant(candidate(0.05, 1), { ...DEFAULT_PACK_OPTIONS, minMatchStated: 0.1 })).toBe(false);
    expect(isRelevant(candidate(0.01, 1), DEFAULT_PACK_OPTIONS)).toBe(false);
  });
});

describe('a question about what a value was finds its first statement', () => {
  it('brings the statement that first gave the value, beside the change', () => {
    const asked = search(gatewayChat(), '报表网关先后用过哪些端口？', DEFAULT_WEIGHTS.stated);
    expect(asked.text).toContain('报表网关跑在 7100 端口');
    expect(asked.text).toContain('报表网关端口改成 7300 了');
    const without = search(gatewayChat(), '报表网关先后用过哪些端口？', 0);
    expect(without.text).not.toContain('报表网关跑在 7100 端口');
  });
});

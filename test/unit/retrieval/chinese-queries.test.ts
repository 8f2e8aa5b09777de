/**
 * Chinese questions about a Chinese ops chat (issue 18's Chinese ops/coding measure): a question asks in other words
 * than the turn that holds its answer (PostgreSQL for PG, 命名空间 for namespace), and its bigrams hold words that
 * only ask (多少, 哪个) and pairs that span two words, which no turn holds. Examples are our own wording.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { retrieve } from '../../../src/memory/retrieval/retriever.ts';
import { terms } from '../../../src/memory/retrieval/text-terms.ts';
import { realCounter } from '../context/helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 3, 1, 2);

function turn(id: string, sessionId: string, seq: number, text: string, role: 'user' | 'assistant' = 'user'): TurnEntry {
  return { id, userId: 'u', sessionId, seq, role, time: T0 + Number(sessionId.slice(1)) * DAY + seq * 60_000, text, entities: [], dates: [], tags: [] };
}

describe('a concept in either language or spelling', () => {
  it('gives 端口 the term of port, PG the term of postgresql, and leaves English text as it was', () => {
    expect(terms('API 端口改成 9090')).toContain('port');
    expect(terms('主库在 PG 上')).toContain('postgresql');
    expect(terms('the port is 9090')).toEqual(['port', '9090']);
  });
});

describe('a Chinese question about a Chinese ops chat', () => {
  const index = new RetrievalIndex();
  const chat: Array<[string, string]> = [
    ['user', '我们的网关服务叫 edge-gw，跑在 k8s 里，namespace 是 infra-edge。'],
    ['assistant', '好的。edge-gw 前面有没有 Nginx？'],
    ['user', '有，Nginx 转发到 edge-gw 的 7400。PG 主库在 db-main-03 上，10.8.4.12。'],
    ['assistant', '明白，那连接池建议放在 db-main-03 旁边。'],
    ['user', '日志先都进 Loki，保留 14 天。'],
    ['assistant', '可以，Loki 的保留期在 limits_config 里配。'],
    ['user', '今天下午把 Redis 的 maxmemory 调到 4gb 了。'],
    ['assistant', '记得观察一下淘汰策略，allkeys-lru 比较稳。'],
  ];
  beforeAll(() => {
    chat.forEach(([role, text], i) => index.addTurn(turn(`t${i + 1}`, `S${1 + Math.floor(i / 4)}`, (i % 4) + 1, text, role as 'user' | 'assistant')));
  });
  const ask = (message: string) =>
    retrieve(index, {
      query: buildQuery({ message, entities: [], dates: [] }),
      scope: { userId: 'u', sessionId: 'S9', otherSessions: true, docs: false },
      exclude: new Set(),
      budget: 400,
      now: T0 + 20 * DAY,
      counter,
      labels: LABELS.zh,
      offsetMinutes: 480,
    });

  it('finds the turn that holds the answer, asked in other words', () => {
    expect(ask('PostgreSQL 主库那台机器的 IP 是多少？').records.map((r) => r.id)).toContain('t3');
    expect(ask('网关服务放在哪个命名空间？').records.map((r) => r.id)).toContain('t1');
  });

  it('gives a Chinese message unrelated to all that is stored no records', () => {
    expect(ask('帮我写一首关于秋天和桂花的诗。').records).toEqual([]);
    expect(ask('周末去爬山要带哪些装备？').records).toEqual([]);
  });
});

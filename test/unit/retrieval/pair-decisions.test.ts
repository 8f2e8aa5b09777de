/**
 * A suggestion and what the user decided (pack.ts `pairDecisions`): the user's short reply to an assistant turn that
 * goes in comes with it, since "就 3300 吧" or "OK, 64 it is" is the answer to "what is it now?" and shares no word
 * with the question.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { retrieve, type RetrievalResult } from '../../../src/memory/retrieval/retriever.ts';
import { realCounter } from '../context/helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 2, 9);

function turn(id: string, sessionId: string, seq: number, text: string, role: 'user' | 'assistant'): TurnEntry {
  return { id, userId: 'u', sessionId, seq, role, time: T0 + seq * 60_000 + (sessionId === 'S1' ? 0 : 3 * DAY), text, entities: [], dates: [], tags: [] };
}

function conversation(): RetrievalIndex {
  const index = new RetrievalIndex();
  const lines: Array<[string, 'user' | 'assistant']> = [
    ['监控面板准备自己搭，Grafana 用容器跑。', 'user'],
    ['可以，数据目录挂到宿主机上，升级时不会丢看板。', 'assistant'],
    ['Grafana 默认的 3000 端口跟前端的 dev server 撞了。', 'user'],
    ['换个不常用的端口，比如 3300，再把 nginx 反代的 upstream 一起改掉，书签也记得更新。', 'assistant'],
    ['就 3300 吧，已经改了，nginx 也重载了。', 'user'],
    ['好。看板建议按服务分文件夹，告警规则单独放一个。', 'assistant'],
    ['好的，谢谢！', 'user'],
    ['The ingest workers keep timing out under load.', 'user'],
    ['Start the Postgres connection pool for the ingest workers at 48, and watch the wait time on the pool.', 'assistant'],
    ['OK, set it to 48 and the timeouts stopped.', 'user'],
  ];
  lines.forEach(([text, role], i) => index.addTurn(turn(`t${i + 1}`, 'S1', i + 1, text, role)));
  // Other talk of ports, dashboards and changes, in later turns of the same day: they compete for the block.
  const others = [
    'Prometheus 的抓取端口 9090 只对内网开放，外面走 nginx 的 basic auth。',
    '对，9090 不要暴露到公网，反代那层加上 IP 白名单会更稳。',
    '日志看板也想放进 Grafana，Loki 的 3100 端口要不要改？',
    '3100 是 Loki 的默认端口，一般不用改，数据源里填内网地址就行。',
    '前端 dev server 现在跑在 3000，Vite 配了 strictPort。',
    'strictPort 开着的话端口被占会直接报错退出，不会悄悄换到 3001。',
    'Grafana 的管理员密码改了，放在团队的密码库里。',
    '好，也建议关掉匿名访问，再给只读的同事建一个 Viewer 账号。',
    'Grafana 升级到新版本以后看板的变量有几个不生效了。',
    '新版本把部分变量语法改了，看板 JSON 里的 $__interval 要检查一下。',
  ];
  others.forEach((text, i) => index.addTurn(turn(`o${i + 1}`, 'S1', 20 + i, text, i % 2 === 0 ? 'user' : 'assistant')));
  index.addTurn(turn('s2-1', 'S2', 1, '今天先看一下前端构建为什么变慢了。', 'user'));
  return index;
}

const search = (index: RetrievalIndex, message: string, pairDecisions: boolean): RetrievalResult =>
  retrieve(index, {
    query: buildQuery({ message, entities: [], dates: [] }),
    scope: { userId: 'u', sessionId: 'S2', otherSessions: true, docs: false },
    exclude: new Set(),
    budget: 200,
    now: T0 + 4 * DAY,
    counter,
    labels: LABELS.zh,
    offsetMinutes: 0,
    pack: { pairDecisions },
  });

describe('a suggestion brings what the user decided', () => {
  it('hands over the short reply that settles a suggestion the block shows, in Chinese and in English', () => {
    const index = conversation();
    const port = search(index, '现在 Grafana 改到哪个端口了？', true);
    expect(port.text).toContain('换个不常用的端口，比如 3300');
    expect(port.text).toContain('就 3300 吧，已经改了');
    const pool = search(index, 'What connection pool size did we give the ingest workers?', true);
    expect(pool.text).toContain('OK, set it to 48');
  });

  it('leaves the decision out with the pairing switched off (the measure this moves), and brings no reply without a value', () => {
    const index = conversation();
    expect(search(index, '现在 Grafana 改到哪个端口了？', false).text).not.toContain('就 3300 吧');
    // A reply that states nothing ("好的，谢谢！") is not brought by the suggestion it answers (it may still rank in).
    const folders = search(index, '看板按什么分文件夹比较好？', true);
    expect(folders.text).toContain('看板建议按服务分文件夹');
    expect(folders.candidates.find((c) => c.id === 't7')?.fate).not.toBe('paired');
  });
});

describe("the user's question, the suggestion, then the decision", () => {
  function gateways(): RetrievalIndex {
    const index = new RetrievalIndex();
    const lines: Array<[string, 'user' | 'assistant']> = [
      ['网关现在连 MQTT 走的是内网明文 1883，要不要换成加密的？', 'user'],
      ['如果网关都在专网里，明文可以接受；但只要有一台走公网，就应该统一上 TLS，省得以后两套配置混着管。', 'assistant'],
      ['确实有一批走 4G 的，那就统一改走 8883，明文只留给测试环境。', 'user'],
      ['好，那生产的安全组可以把明文端口关掉，证书轮换也要提前安排。', 'assistant'],
    ];
    lines.forEach(([text, role], i) => index.addTurn(turn(`g${i + 1}`, 'S1', i + 1, text, role)));
    const others = [
      'MQTT 的 Dashboard 端口还是默认的 18083，只能走堡垒机访问。',
      '18083 不要暴露出去，堡垒机上再加一层账号审计会更稳。',
      '网关的本地缓存最多留多久合适？存储只有 8G。',
      '按 72 小时上限，再加一个 2GB 的磁盘占用上限，哪个先到按哪个清。',
      '网关上报的 topic 要不要加一个 history 后缀区分补发数据？',
      '可以，补发走单独的 topic，规则引擎里也好区分。',
    ];
    others.forEach((text, i) => index.addTurn(turn(`x${i + 1}`, 'S1', 10 + i, text, i % 2 === 0 ? 'user' : 'assistant')));
    index.addTurn(turn('s2-1', 'S2', 1, '今天看一下告警规则。', 'user'));
    return index;
  }

  it('brings the decision after the suggestion that answered the question the block shows', () => {
    const found = search(gateways(), '网关现在连 MQTT 用的是哪个端口？', true);
    expect(found.text).toContain('要不要换成加密的');
    expect(found.text).toContain('统一改走 8883');
    // Off: the question and the suggestion, not what was decided.
    expect(search(gateways(), '网关现在连 MQTT 用的是哪个端口？', false).text).not.toContain('统一改走 8883');
  });
});

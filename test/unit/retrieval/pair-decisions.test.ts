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

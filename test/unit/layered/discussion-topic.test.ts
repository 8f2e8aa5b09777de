import { describe, expect, it } from 'vitest';
import { docNames, followsUp, namedIn, topicNamed } from '../../../src/memory/layered/discussion-topic.ts';
import { DEFAULT_QUERY_OPTIONS, RetrievalIndex, type DocEntry } from '../../../src/memory/retrieval/index.ts';
import { sessionKey } from '../../../src/memory/layered/session-key.ts';
import { SessionWorkingMemory } from '../../../src/memory/layered/working-memory.ts';
import { T0, chat, pipeline, smallTalk } from './helpers.ts';

/** Two fictional places and a service, each with the same kinds of facts, as a docs site would split them. */
const PLACES: ReadonlyArray<readonly [string, string, string]> = [
  ['临江灯塔', '门票', '成人票 35 元，学生半价'],
  ['临江灯塔', '开放时间', '每天 9:00-17:30，周二闭馆'],
  ['临江灯塔', '地址', '海宁市滨江路 88 号'],
  ['北坡茶园(云栖茶文化园)', '门票', '免费，采茶体验 60 元'],
  ['北坡茶园(云栖茶文化园)', '开放时间', '8:00-18:00，全年无休'],
  ['北坡茶园(云栖茶文化园)', '地址', '龙井村北坡 3 号'],
  ['石榴剧场', '门票', '演出票 180-480 元'],
  ['石榴剧场', '开放时间', '演出日 19:00 入场'],
  ['石榴剧场', '地址', '文三路 12 号'],
];

/** Thirty more places with the same kinds of facts: a bare "门票多少钱？" matches every one of them. */
const OTHERS: ReadonlyArray<readonly [string, string, string]> = Array.from({ length: 30 }, (_, i) => {
  const name = `${'东西南北中'[i % 5]}${'湖岭谷湾洲屿'[i % 6]}${['书院', '古镇', '公园', '码头', '花市'][Math.floor(i / 6) % 5]}`;
  return [
    [name, '门票', `${20 + i} 元`],
    [name, '开放时间', `${7 + (i % 3)}:00-${16 + (i % 4)}:00`],
  ] as const;
}).flat();

const docsOf = (rows: ReadonlyArray<readonly [string, string, string]>): DocEntry[] =>
  rows.map(([name, attr, value], i) => ({ id: `d${i}`, docId: name, source: `${name} · ${attr}`, part: i, text: `${name}（${attr}）：${value}` }));

function indexWith(docs: readonly DocEntry[]): RetrievalIndex {
  const index = new RetrievalIndex();
  for (const doc of docs) index.addDoc(doc);
  return index;
}

describe('what a message names', () => {
  const names = docNames(indexWith(docsOf(PLACES)));

  it("takes the docs' own names, and the part before a bracket", () => {
    expect(namedIn('你知道临江灯塔吗？', names)).toEqual(['临江灯塔']);
    expect(namedIn('北坡茶园几点开门', names)).toEqual(['北坡茶园']);
    expect(namedIn('北坡茶园(云栖茶文化园)的地址呢', names)).toEqual(['北坡茶园(云栖茶文化园)']);
    expect(namedIn('石榴剧场和临江灯塔哪个近？', names)).toEqual(['石榴剧场', '临江灯塔']);
  });

  it('never takes a path, a section word most docs share, or a Latin name inside a longer word', () => {
    const site = docNames(
      indexWith([
        ...Array.from({ length: 12 }, (_, i): DocEntry => ({ id: `p${i}`, docId: `guide/page-${i}.md`, source: `Overview › Part ${i}`, part: 0, text: `Overview ${i}` })),
        { id: 'v', docId: 'guide/vault.md', source: 'Vault › Setup', part: 0, text: 'Vault setup' },
      ]),
    );
    expect(site.names).not.toContain('guide/vault.md');
    expect(namedIn('Where is the overview?', site)).toEqual([]);
    expect(namedIn('How do I unseal Vault?', site)).toEqual(['Vault']);
    expect(namedIn('the vaulted ceiling', site)).toEqual([]);
  });

  it('reads a long paste for names at its start only (a name repeated 50,000 times is found once, in order)', () => {
    const paste = `石榴剧场 ${'临江灯塔 billing-api '.repeat(50_000)}`;
    expect(namedIn(paste, names)).toEqual(['石榴剧场', '临江灯塔', 'billing-api']);
  });

  it('takes the longer of two overlapping names, wherever each starts, and a one-letter-longer name over its stem', () => {
    const site = { names: ['east pier market', 'pier market', 'east pier', 'x'], written: new Map([['east pier market', 'East Pier Market'], ['pier market', 'Pier Market'], ['east pier', 'East Pier'], ['x', 'X']]) };
    expect(namedIn('Is the pier market or the East Pier Market open?', site)).toEqual(['Pier Market', 'East Pier Market']);
    expect(namedIn('east pier, then pier market', site)).toEqual(['East Pier', 'Pier Market']);
    expect(namedIn('box x', site)).toEqual(['X']);
  });

  it('takes code-like identifiers, not hyphenated prose words', () => {
    const none = docNames(new RetrievalIndex());
    expect(namedIn('billing-gateway 的 report_worker 挂了', none)).toEqual(['billing-gateway', 'report_worker']);
    expect(namedIn('a well-known, up-to-date follow-up by e-mail', none)).toEqual([]);
    expect(topicNamed('just checking in', none)).toBeNull();
  });
});

describe('a follow-up', () => {
  it('points back, or says too little to be about anything else', () => {
    for (const text of ['那它几点开门？', '这里能玩多久？', '门票多少钱？', 'what port does it use?', 'And the price?']) expect(followsUp(text)).toBe(true);
  });

  it('is not a question of its own, nor one naming someone', () => {
    for (const text of ['周末想去公园散步，顺便买点水果和面包，你觉得什么时间出门比较合适？', 'When did Maya see a heron at the lake?', 'Should I ask Ravi about it?']) {
      expect(followsUp(text)).toBe(false);
    }
  });
});

describe('the topic under discussion in the pipeline', () => {
  async function tour(topicWeight = DEFAULT_QUERY_OPTIONS.topicWeight) {
    const workingMemory = new SessionWorkingMemory();
    const { memory } = await pipeline(1024, { workingMemory, query: { ...DEFAULT_QUERY_OPTIONS, topicWeight, topicLooseWeight: topicWeight / 2 } });
    for (const doc of docsOf([...PLACES, ...OTHERS])) await memory.addDoc(doc);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('你知道临江灯塔吗？');
    await c.bot('知道，是江边一座老灯塔，可以登顶看江景。');
    return { c, workingMemory };
  }

  /** The docs the prompt carries, best first, as `name（attr）`. */
  const docsIn = (r: { report: { memory: { retrieval: { injected: readonly string[] } } } }, all = docsOf([...PLACES, ...OTHERS])): string[] =>
    r.report.memory.retrieval.injected.flatMap((id) => all.filter((d) => d.id === id).map((d) => d.text.slice(0, d.text.indexOf('：'))));

  it("a follow-up that names nothing gets the topic's docs first, and the report says which topic and why", async () => {
    const { c } = await tour();
    const asked = await c.user('门票多少钱？');
    expect(docsIn(asked)[0]).toBe('临江灯塔（门票）');
    expect(asked.memory).toContain('成人票 35 元');
    expect(asked.report.memory.query.topic).toEqual({ value: '临江灯塔', why: 'carried', sourceTurnId: 'S1/1' });

    // Naming another place makes it the topic; its follow-ups get its docs.
    const other = await c.user('那北坡茶园呢？');
    expect(other.report.memory.query.topic).toMatchObject({ value: '北坡茶园', why: 'named' });
    await c.bot('北坡茶园在龙井村。');
    const hours = await c.user('它几点开门？');
    expect(docsIn(hours).slice(0, 3).every((d) => d.startsWith('北坡茶园'))).toBe(true);
    expect(hours.memory).toContain('8:00-18:00');
  });

  it('without the topic, the same follow-up does not bring the place discussed first', async () => {
    const { c } = await tour(0);
    const asked = await c.user('门票多少钱？');
    expect(asked.report.memory.query.expandedWith).not.toContain('临江灯塔');
    expect(docsIn(asked)[0]).not.toBe('临江灯塔（门票）');
  });

  it('in a chat without docs, a product named earlier is what "what port does it use?" asks about', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    // (Said so that no working-memory port slot holds them: "listens on 6380" would set one, and answer without retrieval.)
    await c.user('The Memcached box answers on 11311.');
    await c.bot('Noted.');
    await c.user('Staging Redis answers on 6380.');
    await c.bot('Noted.');
    await smallTalk(c, 'en', 8);
    await c.user('Redis keeps evicting keys since the upgrade.');
    await c.bot('Check maxmemory-policy first.');
    const asked = await c.user('What port does it use?');
    expect(asked.report.memory.query.topic).toMatchObject({ value: 'Redis', why: 'carried' });
    const first = asked.report.memory.retrieval.injected.find((id) => id === 'S1/1' || id === 'S1/3');
    expect(first).toBe('S1/3');
    expect(asked.memory).toContain('6380');
  });

  it('a chat that moved on leaves the last host out of a short question about something else it discussed', async () => {
    const { memory } = await pipeline(1024);
    const c = chat(memory, 'u', 'S1', T0);
    await c.user('这周开始减脂，体重 92 公斤，目标是年底减到 80。');
    await c.bot('好，先把每天的热量缺口定在 500 左右。');
    await smallTalk(c, 'zh', 24);
    await c.user('kiln-worker-07 又挂了，磁盘满了，先把日志清掉。');
    await c.bot('好，先清 /var/log 下的旧日志，再加一个按天轮转。');
    await c.user('kiln-worker-07 清完了，起来了。');
    await c.bot('好，记得把轮转配置也推到别的机器。');
    const asked = await c.user('现在的目标体重是多少？');
    // Its words are met by the weight turn, not by the host's: the host is not searched for.
    expect(asked.report.memory.query.topic).toBeNull();
    expect(asked.report.memory.query.terms.map(([t]) => t)).not.toContain('kiln');
    expect(asked.memory).not.toContain('kiln-worker-07');
    // A question about the host still carries it.
    const again = await c.user('磁盘现在还剩多少？');
    expect(again.report.memory.query.topic).toMatchObject({ value: 'kiln-worker-07', why: 'carried' });
  });

  it('is a working-memory item with the message that named it, kept out of the prompt block', async () => {
    const { c, workingMemory } = await tour();
    const asked = await c.user('那里有什么好玩的？');
    const items = workingMemory.items(sessionKey('u', 'S1'), T0 + 10 * 60_000);
    expect(items.find((i) => i.kind === 'topic')).toMatchObject({ value: '临江灯塔', sourceTurnId: 'S1/1' });
    expect(asked.report.memory.working.text).not.toContain('临江灯塔');
  });
});

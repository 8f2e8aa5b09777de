import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { parseKdConv } from '../../../scripts/eval/kdconv-data.ts';
import { runDocsEval } from '../../../scripts/eval/docs-recall.ts';
import { DEFAULT_QUERY_OPTIONS } from '../../../src/memory/retrieval/index.ts';
import { realCounter } from '../context/helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const TICKET = { name: '青石湖公园', attrname: '门票', attrvalue: '成人票四十元，学生凭证件半价。' };
const HOURS = { name: '青石湖公园', attrname: '开放时间', attrvalue: '早上六点到晚上十点' };
const OTHER = { name: '白塔寺', attrname: '地址', attrvalue: '北京市西城区阜成门内大街171号' };

/** Two dialogues in KdConv's format, written for this test. */
function sample(): unknown {
  return [
    {
      messages: [
        { message: '青石湖公园的门票多少钱？学生有优惠吗？' },
        { message: '成人四十元，学生半价。', attrs: [TICKET] },
        { message: '谢谢，我周末去看看。' },
        { message: '好的，祝你玩得开心。' },
      ],
    },
    {
      messages: [
        { message: '白塔寺在哪里？' },
        { message: '在阜成门内大街。', attrs: [OTHER] },
        { message: '青石湖公园几点开门？' },
        { message: '早上六点。', attrs: [HOURS, TICKET] },
      ],
    },
  ];
}

describe('KdConv format', () => {
  it('makes one doc per distinct knowledge triple, named by its place and attribute', () => {
    const corpus = parseKdConv(sample());
    expect(corpus.dialogues).toHaveLength(2);
    expect(corpus.docs.map((d) => d.source)).toEqual(['青石湖公园 · 门票', '白塔寺 · 地址', '青石湖公园 · 开放时间']);
    expect(corpus.docs[0]!.text).toBe('青石湖公园（门票）：成人票四十元，学生凭证件半价。');
    // The same triple used twice is one doc.
    expect(corpus.dialogues[1]!.messages[3]!.knowledge[1]!.docId).toBe(corpus.dialogues[0]!.messages[1]!.knowledge[0]!.docId);
  });

  it('names what is wrong in a malformed file', () => {
    expect(() => parseKdConv({ messages: [] })).toThrow(/top level/);
    expect(() => parseKdConv([{ turns: [] }])).toThrow(/dialogue 0 has no "messages"/);
    expect(() => parseKdConv([{ messages: [{ message: 'hi', attrs: [{ name: 'x' }] }] }])).toThrow(/dialogue 0, message 0 .*attrvalue/);
  });
});

describe('docs recall through the pipeline', () => {
  it('scores the knowledge each reply uses against the docs the prompt before it carried', async () => {
    const result = await runDocsEval(parseKdConv(sample()), 1024, counter);
    // Three replies use knowledge: four items (the second dialogue's last reply uses two).
    expect(result.n).toBe(4);
    expect(result.prompts).toBe(3);
    // Asked by name and kind, each of these is in the prompt's docs.
    expect(result.perKind.get('门票')).toEqual({ n: 2, recalled: 2 });
    expect(result.perKind.get('地址')!.recalled).toBe(1);
  });

  it('counts nothing recalled when the docs are not searched', async () => {
    const result = await runDocsEval(parseKdConv(sample()), 1024, counter, { budgets: { window: 1024, system: 80, working: 64, retrieval: 0, input: 144, reserve: 736 } });
    expect(result.n).toBe(4);
    expect(result.recalled).toBe(0);
  });
});

describe('follow-ups that do not name what they ask about (scripts/eval/data/followups.json, our own dialogues)', () => {
  const followups = async () => parseKdConv(JSON.parse(await readFile(new URL('../../../scripts/eval/data/followups.json', import.meta.url), 'utf8')) as unknown);

  it("find the discussed thing's docs through the topic under discussion, and mostly do not without it", async () => {
    const corpus = await followups();
    const withTopic = await runDocsEval(corpus, 1024, counter);
    const without = await runDocsEval(corpus, 1024, counter, { query: { ...DEFAULT_QUERY_OPTIONS, topicWeight: 0, topicLooseWeight: 0 } });
    expect(withTopic.n).toBeGreaterThanOrEqual(60);
    // 63 of 66 when written; the misses are two-fact questions about the one product named only once.
    expect(withTopic.recalled / withTopic.n).toBeGreaterThanOrEqual(0.9);
    expect(without.recalled / without.n).toBeLessThan(0.7);
  });
});

describe('follow-ups written by others, blind to the code (scripts/eval/data/followups-heldout.json)', () => {
  it('find what film, music and travel dialogues ask about, in one pool of their docs', async () => {
    const corpus = parseKdConv(JSON.parse(await readFile(new URL('../../../scripts/eval/data/followups-heldout.json', import.meta.url), 'utf8')) as unknown);
    const result = await runDocsEval(corpus, 1024, counter);
    expect(result.n).toBeGreaterThanOrEqual(400);
    // 0.774 when written (film 0.817, music 0.778, travel 0.750 each on its own), 0.797 since the Chinese query
    // changes (words that only ask, unheld bigrams); issue 19 asks ≥ 0.60.
    expect(result.recalled / result.n).toBeGreaterThanOrEqual(0.76);
  });
});


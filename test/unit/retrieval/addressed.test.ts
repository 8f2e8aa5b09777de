/**
 * A name the question says, in turns that carry roles rather than names (the app's chat, a transcript replayed as
 * user and assistant): the side the other side addresses by that name. Examples are our own wording.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { rolesNamedBy } from '../../../src/memory/retrieval/addressed.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { realCounter } from '../context/helpers.ts';
import { searchConversation } from './search-conversation.ts';

const T0 = Date.UTC(2024, 4, 2, 9);
const said = (id: string, seq: number, role: 'user' | 'assistant', text: string): TurnEntry => ({
  id, userId: 'u', sessionId: 'S', seq, role, time: T0 + seq * 60_000, text, entities: [], dates: [], tags: [],
});

describe('rolesNamedBy', () => {
  const chat = [
    said('a', 1, 'user', 'I finally planted the tomatoes on the balcony.'),
    said('b', 2, 'assistant', 'Nice work, Maya! Tomatoes love that sun.'),
    said('c', 3, 'user', 'The basil came up too.'),
    said('d', 4, 'assistant', 'Thanks for the update, Maya. Keep them watered.'),
    said('e', 5, 'assistant', 'Hey Maya, how is the garden?'),
  ];

  it('names the side the other side addresses by that name', () => {
    expect([...rolesNamedBy('What did Maya plant on the balcony?', chat)]).toEqual(['user']);
    const theirs = chat.map((t) => ({ ...t, role: t.role === 'user' ? ('assistant' as const) : ('user' as const) }));
    expect([...rolesNamedBy('What did Maya plant on the balcony?', theirs)]).toEqual(['assistant']);
  });

  it('says nothing from one address, from a name both sides use, or from a first word', () => {
    expect(rolesNamedBy('What did Maya plant?', chat.slice(0, 2)).size).toBe(0);
    const both = [...chat, said('f', 6, 'user', 'Thanks, Maya, you are sweet.'), said('g', 7, 'user', 'Hey Maya!')];
    expect(rolesNamedBy('What did Maya plant?', both).size).toBe(0);
    expect(rolesNamedBy('Nice, what grew?', chat).size).toBe(0);
    // Turns with speaker names (a transcript) are left to the names themselves.
    expect(rolesNamedBy('What did Maya plant?', chat.map((t) => ({ ...t, speaker: t.role === 'user' ? 'Maya' : 'Sam' }))).size).toBe(0);
  });
});

describe('in retrieval', () => {
  let counter: CachedTokenCounter;
  beforeAll(async () => {
    counter = await realCounter();
  });

  it("brings the named person's own turn ahead of the turns that only address them", () => {
    const index = new RetrievalIndex();
    index.addTurn(said('t1', 1, 'user', 'We finally took the ferry out to the island for the lighthouse tour.'));
    index.addTurn(said('t2', 2, 'assistant', 'That sounds lovely, Maya! Was the island busy?'));
    index.addTurn(said('t3', 3, 'user', 'Quiet, mostly birds.'));
    index.addTurn(said('t4', 4, 'assistant', 'Thanks for sharing, Maya. Islands are the best.'));
    index.addTurn(said('t5', 5, 'assistant', 'Hey Maya, any island plans for the summer?'));
    const r = searchConversation(index, 'Which island tour did Maya take?', { now: T0 + 10 * 60_000, counter });
    const speaker = new Map(r.candidates.map((c) => [c.id, c.features.speaker]));
    expect(speaker.get('t1')).toBe(1);
    expect(speaker.get('t2')).toBe(0);
    expect(r.candidates[0]!.id).toBe('t1');
  });

  it('finds what was bought when asked in the base form of the verb', () => {
    const index = new RetrievalIndex();
    index.addTurn(said('k1', 1, 'user', 'The kayak club meets on Thursdays at the boathouse.'));
    index.addTurn(said('k2', 2, 'assistant', 'A weekly kayak club is a good way to build the habit.'));
    index.addTurn(said('k3', 3, 'user', 'Finally bought a kayak: the Kestrel 120, second-hand.'));
    index.addTurn(said('k4', 4, 'assistant', 'Kayak paddles come in different lengths; check yours fits.'));
    index.addTurn(said('k5', 5, 'user', 'The kayak paddles at the club are all too long for me.'));
    const r = searchConversation(index, 'Which kayak did I buy?', { now: T0 + 10 * 60_000, counter });
    expect(r.candidates[0]!.id).toBe('k3');
  });

  it('finds a rate said per hour when asked for the hourly one, and 每周 when asked weekly', () => {
    const index = new RetrievalIndex();
    index.addTurn(said('r1', 1, 'user', 'The new dog walker starts on Monday; she takes the dogs to the river path.'));
    index.addTurn(said('r2', 2, 'assistant', 'A river path walk is a nice routine for the dogs and the walker.'));
    index.addTurn(said('r3', 3, 'user', 'She charges 22 per hour, cash on the day.'));
    index.addTurn(said('r4', 4, 'user', 'The walker said the river path gets muddy after rain.'));
    index.addTurn(said('r5', 5, 'user', '遛狗的钱我们每周结一次。'));
    const rate = searchConversation(index, "What's her hourly rate?", { now: T0 + 10 * 60_000, counter });
    expect(rate.candidates[0]!.id).toBe('r3');
    const paid = searchConversation(index, 'Do we pay her weekly?', { now: T0 + 10 * 60_000, counter });
    expect(paid.candidates[0]!.id).toBe('r5');
  });

  it('finds an upgrade said by its version number when asked which version, and leaves decimals and addresses out', () => {
    const index = new RetrievalIndex();
    index.addTurn(said('v1', 1, 'user', 'Grafana 这边先装好了，dashboard 也导进去了。'));
    index.addTurn(said('v2', 2, 'assistant', 'Grafana 装好之后记得把 admin 密码改掉，dashboard 的数据源也检查一下。'));
    index.addTurn(said('v3', 3, 'user', '安全扫描报了漏洞，Grafana 要升到 11.2.1。'));
    index.addTurn(said('v4', 4, 'user', 'Grafana 的机器是 10.8.3.14，磁盘用了 72.5%。'));
    const asked = searchConversation(index, 'Grafana 现在是哪个版本？', { now: T0 + 10 * 60_000, counter });
    expect(asked.candidates[0]!.id).toBe('v3');
    const english = searchConversation(index, 'Which Grafana version are we on?', { now: T0 + 10 * 60_000, counter });
    expect(english.candidates[0]!.id).toBe('v3');
  });
});

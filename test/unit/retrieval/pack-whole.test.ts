import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { answerKinds, asksForEarlierValues, holdsAnswerKind } from '../../../src/memory/retrieval/answer-type.ts';
import { DEFAULT_PACK_OPTIONS, pack } from '../../../src/memory/retrieval/pack.ts';
import { closeOverCode, codeSpans } from '../../../src/memory/retrieval/pack-forms.ts';
import { splitPieces } from '../../../src/memory/retrieval/pieces.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { realCounter } from '../context/helpers.ts';
import { askIndex, packEnv, packItem, turnEntry } from './pack-helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 2, 1, 9);
const labels = LABELS.en;
const env = () => packEnv(counter, labels);

const turn = (id: string, seq: number, text: string, role: 'user' | 'assistant' = 'user', time = T0 + seq * 60_000): TurnEntry => turnEntry(id, seq, text, role, time);
const item = packItem;

describe('packing whole turns first', () => {
  it('puts the top candidates in whole before any sentence of a weaker one', () => {
    const a = turn('a', 1, 'The backup job moved to the NAS last week. It now runs at two in the morning. Logs go to /var/log/backup.');
    const b = turn('b', 2, 'Restores were tested on Friday. Both databases came back in under ten minutes.');
    const c = turn('c', 3, 'We also talked about backups for the laptops. Nobody has decided anything there yet. Maybe next quarter.');
    const items = [item(a, 1), item(b, 0.9), item(c, 0.8, { best: 0 })];
    const twoWhole = counter.count(`${labels.history}\n1 March 2024\nUser: ${a.text}\nUser: ${b.text}`) + 6;
    // A block this small would cap a whole turn at a third of it (below); here the order is what is tested.
    const options = { ...DEFAULT_PACK_OPTIONS, maxWholeShare: 1 };
    const result = pack(items, twoWhole, env(), options);
    expect(result.chosen.get('a')).toBe('all');
    expect(result.chosen.get('b')).toBe('all');
    expect(result.decisions.get('c')).toBe('over-budget');
    // With room for one more sentence, the weaker candidate comes in as that sentence, after the whole ones.
    const roomForOne = twoWhole + counter.count('User: We also talked about backups for the laptops.') + 2;
    const more = pack(items, roomForOne, env(), options);
    expect(more.chosen.get('a')).toBe('all');
    expect(more.chosen.get('b')).toBe('all');
    expect(more.chosen.get('c')).toEqual([0]);
    expect(more.decisions.get('c')).toBe('sentences');
    expect(pack(items, roomForOne, env(), { ...options, fragments: false }).decisions.get('c')).toBe('over-budget');
  });

  it('in a small block, gives a long turn as its passage so a second piece of evidence fits', () => {
    const long = turn('long', 1, 'The staging proxy was rebuilt on Monday. It listens on 8443 now. The old config lived in /etc/proxy. We kept the access logs for a week. Nobody has touched the rate limits since.');
    const other = turn('other', 2, 'The staging proxy sends its metrics to the shared Grafana.');
    const items = [item(long, 1, { best: 1 }), item(other, 0.9)];
    const budget = counter.count(`${labels.history}\n1 March 2024\nUser: ${long.text}`) + 8;
    // A whole turn may take the whole block: the long turn alone.
    const whole = pack(items, budget, env(), { ...DEFAULT_PACK_OPTIONS, maxWholeShare: 1 });
    expect(whole.chosen.get('long')).toBe('all');
    expect(whole.chosen.has('other')).toBe(false);
    // At most a third of it (the default): the long turn's passage around its best sentence, and the other turn.
    const shared = pack(items, budget, env());
    expect(shared.decisions.get('long')).toBe('passage');
    expect(shared.text).toContain('8443');
    expect(shared.chosen.get('other')).toBe('all');
  });

  it('brings the answer with a matched question', () => {
    const question = turn('q', 1, 'Which port should the staging proxy listen on?');
    const answer = turn('ans', 2, '8443, behind the load balancer; keep 80 closed.', 'assistant');
    const result = pack([item(question, 1, { next: answer })], 200, env());
    expect(result.paired).toEqual(['ans']);
    expect(result.decisions.get('ans')).toBe('paired');
    expect(result.text).toContain('Assistant: 8443, behind the load balancer; keep 80 closed.');
    // A statement brings no next turn.
    const statement = turn('s', 1, 'The staging proxy listens on 8443 now.');
    expect(pack([item(statement, 1, { next: answer })], 200, env()).paired).toEqual([]);
  });

  it('brings the user choosing among a suggestion, in words no statement rule reads', () => {
    // (A queue no vocabulary knows: the choice is read from its words alone.)
    const suggestion = turn('s', 1, 'For the bursts, Quillmq or Redpanda would both do; Quillmq is lighter to run on one box.', 'assistant');
    const options = { ...DEFAULT_PACK_OPTIONS, pairDecisions: true };
    for (const [id, reply] of [
      ['en', 'ok lets switch to quillmq then'],
      ['then', 'quillmq then.'],
      ['with', 'going with quillmq, thanks'],
      ['zh', '那就换成 quillmq 吧'],
    ] as const) {
      const result = pack([item(suggestion, 1, { next: turn(id, 2, reply) })], 200, env(), options);
      expect(result.paired, reply).toEqual([id]);
    }
    // A thank-you or a question of its own chooses nothing.
    for (const reply of ['ok thanks', 'which one is cheaper to host?']) {
      expect(pack([item(suggestion, 1, { next: turn('r', 2, reply) })], 200, env(), options).paired, reply).toEqual([]);
    }
  });

  it('holds at most maxLines records, however much room is left', () => {
    const items = Array.from({ length: 30 }, (_, i) => item(turn(`t${i}`, i, `Backup note ${i}: the job finished.`), 1 - i / 100));
    const result = pack(items, 2000, env());
    expect(result.chosen.size).toBe(DEFAULT_PACK_OPTIONS.maxLines);
    expect(result.text.split('\n').filter((l) => l.startsWith('User:'))).toHaveLength(DEFAULT_PACK_OPTIONS.maxLines);
  });

  it('leaves out candidates whose words hold too little of the query, and keeps the room unused', () => {
    const weak = turn('w', 1, 'The weather was fine and the tea was good.');
    const result = pack([item(weak, 1, { match: 0.05 })], 300, env());
    expect(result.decisions.get('w')).toBe('below-threshold');
    expect(result.text).toBe('');
    expect(result.tokens).toBe(0);
  });

  it('takes a long turn as a passage around its best sentence, verbatim', () => {
    const filler = Array.from({ length: 14 }, (_, i) => `Step ${i + 1} of the rollout plan is routine and needs no comment from anyone on the team.`).join(' ');
    const long = turn('long', 1, `${filler} The database password rotates every ninety days. ${filler}`);
    const best = splitPieces(long.text).findIndex((p) => p.text.includes('password rotates'));
    const result = pack([item(long, 1, { best })], 400, env());
    expect(result.decisions.get('long')).toBe('passage');
    const line = result.records[0]!.parts;
    expect(line).toHaveLength(1);
    expect(long.text).toContain(line[0]!);
    expect(line[0]).toContain('The database password rotates every ninety days.');
    expect(counter.count(line[0]!)).toBeLessThanOrEqual(DEFAULT_PACK_OPTIONS.maxWholeTokens);
  });

  it('shows the best candidate\'s one wide table row under its header before weaker candidates go in whole', () => {
    const rows = [
      '| **Day 1, Saturday** | Early flight out of the regional airport, taxi to the harbour hotel, rest in the afternoon | Dinner near the old fish market, early night | Airport shuttle, about 35 minutes door to door |',
      '| **Day 2, Sunday** | Cable car up to the monastery, benches every hundred metres for the climb at the top | Back down for a long lunch, then the botanical garden if legs allow | Harbour ferry to the funicular station, then the cable car up the hill, roughly 25 minutes each way with a short wait |',
      '| **Day 3, Monday** | Slow morning at the hotel pool and the covered market | Free afternoon for shopping and packing the bags | On foot around the old town |',
    ];
    const plan = turn('plan', 1, `Here is the week, one main sight a day:\n\n| Day | Morning | Afternoon | Transport |\n|---|---|---|---|\n${rows.join('\n')}\n\nKeep the afternoons light.`, 'assistant');
    const best = splitPieces(plan.text).findIndex((p) => p.text.includes('funicular'));
    const row = splitPieces(plan.text)[best]!.text;
    // The row alone is longer than any passage, but well within a whole turn.
    expect(counter.count(row)).toBeGreaterThan(DEFAULT_PACK_OPTIONS.maxPassageTokens);
    const other = turn('other', 2, 'The hotel by the harbour has a lift and a step-free entrance, which matters for my dad.');
    const third = turn('third', 3, 'We could also do a day trip to the wine villages, but that is a long drive and probably too much.');
    const items = [item(plan, 1, { best }), item(other, 0.9), item(third, 0.8)];
    const budget = counter.count(`${labels.history}\n1 March 2024\nAssistant: | Day | Morning | Afternoon | Transport |\n|---|---|---|---|\n${row}\nUser: ${other.text}`) + 12;
    // A block this small would cap a whole turn at a third of it; here the order is what is tested.
    const result = pack(items, budget, env(), { ...DEFAULT_PACK_OPTIONS, maxWholeShare: 1 });
    expect(result.decisions.get('plan')).toBe('passage');
    expect(result.text).toContain('Harbour ferry to the funicular station');
    expect(result.text).toContain('| Day | Morning | Afternoon | Transport |');
    expect(result.chosen.get('other')).toBe('all');
    expect(result.decisions.get('third')).toBe('over-budget');
  });
});

describe('code is never cut', () => {
  const text = 'Count the lines like this:\n```bash\ncat access.log | grep 502 | wc -l\n```\nThat gives the number of errors. Then compare it with yesterday.';

  it('finds fenced blocks and inline code', () => {
    const spans = codeSpans(`${text} Use \`tail -f\` too.`);
    expect(spans).toHaveLength(2);
    expect(text.slice(spans[0]![0], spans[0]![1])).toBe('```bash\ncat access.log | grep 502 | wc -l\n```');
  });

  it('a sentence inside a code block brings the whole block', () => {
    const pieces = splitPieces(text);
    const inside = pieces.findIndex((p) => p.text.includes('wc -l'));
    const closed = closeOverCode(pieces, [inside], codeSpans(text));
    const joined = text.slice(pieces[closed[0]!]!.start, pieces[closed.at(-1)!]!.end);
    expect(joined).toContain('```bash\ncat access.log | grep 502 | wc -l\n```');
  });

  it('a fragment of a turn with code holds the block whole or leaves it out', () => {
    const t = turn('code', 1, text);
    const pieces = splitPieces(text);
    const inside = pieces.findIndex((p) => p.text.includes('wc -l'));
    const other = turn('other', 2, 'The error budget for the proxy is 0.1 percent per month, measured weekly.');
    for (const budget of [40, 60, 80, 120, 400]) {
      const result = pack([item(other, 1), item(t, 0.9, { best: inside })], budget, { ...env() }, { ...DEFAULT_PACK_OPTIONS, maxWholeTokens: 20 });
      const line = result.records.find((r) => r.id === 'code');
      if (line === undefined) continue;
      const shown = line.parts.join('\n');
      const fences = shown.match(/```/g)?.length ?? 0;
      expect(fences % 2).toBe(0);
      if (shown.includes('wc -l')) expect(shown).toContain('```bash\ncat access.log | grep 502 | wc -l\n```');
    }
  });
});

describe('retrieval as a whole', () => {
  const index = new RetrievalIndex();
  beforeAll(() => {
    index.addTurn({ ...turn('a1', 1, 'The TLS certificate for api.example.org expires on 14 March.'), sessionId: 'A' });
    index.addTurn({ ...turn('a2', 2, 'Renewed it with certbot, the new one is valid until June.', 'assistant'), sessionId: 'A' });
    index.addTurn({ ...turn('b1', 1, 'Our kafka consumer lag grows every night around three.', 'user', T0 + 5 * DAY), sessionId: 'B' });
    index.addDoc({ id: 'd1', docId: 'runbook', source: 'runbook.md', part: 0, text: 'Certificates are renewed by certbot; check the timer with systemctl list-timers.' });
  });
  const ask = (message: string) => askIndex(index, message, { counter, labels, now: T0 + 10 * DAY });

  it('gives a message unrelated to all that is stored no records and no docs', () => {
    const r = ask('What is a good recipe for a lemon cake with poppy seeds?');
    expect(r.text).toBe('');
    expect(r.records).toEqual([]);
    expect(r.docs).toEqual([]);
  });

  it('finds what a related message asks about, docs labelled apart', () => {
    const r = ask('When does the certificate for api.example.org expire, and who renews it with certbot?');
    expect(r.records.map((l) => l.id)).toContain('a1');
    expect(r.docs.map((l) => l.id)).toContain('d1');
    expect(r.records.map((l) => l.id)).not.toContain('b1');
  });

  it('heads every day with its year for a question about when', () => {
    const when = ask('When did the kafka consumer lag and the certificate come up?');
    expect(when.text).toContain('1 March 2024');
    expect(when.text).toContain('6 March 2024');
    const what = ask('What about the kafka consumer lag and the certificate?');
    expect(what.text).toContain('1 March 2024');
    expect(what.text).toMatch(/\n6 March\n/);
  });
});

describe('answer kinds', () => {
  it('reads what a question asks for, in both languages', () => {
    expect(answerKinds('When did we renew the certificate?')).toEqual(['when']);
    expect(answerKinds('How long ago did the outage start?')).toEqual(['when']);
    expect(answerKinds('In which month did we move the blog?')).toEqual(['when']);
    expect(answerKinds('数据库是哪个月迁的？')).toEqual(['when']);
    expect(answerKinds('证书啥时候续的？')).toEqual(['when']);
    expect(answerKinds('备份什么时间跑？')).toEqual(['when']);
    expect(answerKinds('How many replicas does the cluster run?')).toEqual(['number']);
    expect(answerKinds('证书什么时候到期？')).toEqual(['when']);
    expect(answerKinds('服务部署在哪里？')).toEqual(['where']);
    expect(answerKinds('谁负责值班？')).toEqual(['who']);
    expect(answerKinds('The proxy is fine now.')).toEqual([]);
  });

  it('tells a question about earlier values (what was true before, when something happened) from one about now', () => {
    expect(asksForEarlierValues('网关端口前后用过哪几个？')).toBe(true);
    expect(asksForEarlierValues('FastAPI 是哪天升级的？')).toBe(true);
    expect(asksForEarlierValues('Which region did we use before the move?')).toBe(true);
    expect(asksForEarlierValues('When did the nightly job start failing?')).toBe(true);
    expect(asksForEarlierValues('磁盘写满的故障发生在哪天？')).toBe(true);
    expect(asksForEarlierValues('生产发布现在安排在哪一天？')).toBe(false);
    expect(asksForEarlierValues('On which day of the week do deploys happen?')).toBe(false);
    expect(asksForEarlierValues('What port does the gateway listen on?')).toBe(false);
  });

  it('tells a turn that holds such an answer', () => {
    expect(holdsAnswerKind('We renewed it last week.', ['when'])).toBe(true);
    expect(holdsAnswerKind('We renewed it.', ['when'])).toBe(false);
    expect(holdsAnswerKind('It runs three replicas.', ['number'])).toBe(true);
    expect(holdsAnswerKind('I talked to Priya about it.', ['who'])).toBe(true);
    expect(holdsAnswerKind('Sure, sounds good.', ['who'])).toBe(false);
    expect(holdsAnswerKind('服务在上海机房。', ['where'])).toBe(true);
  });
});

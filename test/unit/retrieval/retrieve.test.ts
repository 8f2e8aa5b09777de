import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { DEFAULT_PACK_OPTIONS, pack, type PackCandidate } from '../../../src/memory/retrieval/pack.ts';
import { splitPieces } from '../../../src/memory/retrieval/pieces.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import type { Candidate, Features } from '../../../src/memory/retrieval/rerank.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { retrieve } from '../../../src/memory/retrieval/retriever.ts';
import { realCounter, realTokenizer } from '../context/helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 2, 1, 9);

function turn(id: string, sessionId: string, seq: number, text: string, time: number, role: 'user' | 'assistant' = 'user'): TurnEntry {
  return { id, userId: 'u', sessionId, seq, role, time, text, entities: [], dates: [], tags: [] };
}

function scope(sessionId: string, otherSessions = true) {
  return { userId: 'u', sessionId, otherSessions, docs: true };
}

const labels = LABELS.en;

describe('retrieve', () => {
  const index = new RetrievalIndex();
  beforeAll(() => {
    index.addTurn(turn('a1', 'A', 1, 'The nginx server at 192.168.1.20 returns 502 errors since the upgrade.', T0));
    index.addTurn(turn('a2', 'A', 2, 'Restart php-fpm and check the upstream socket path in the nginx config.', T0 + 60_000, 'assistant'));
    index.addTurn(turn('a3', 'A', 3, 'We are also planning a birthday party for Anna next week.', T0 + 120_000));
    index.addTurn(turn('b1', 'B', 1, 'My cat likes tuna more than chicken.', T0 + 2 * DAY));
    index.addTurn(turn('c1', 'C', 1, 'Is the nginx 502 fixed now?', T0 + 5 * DAY));
  });

  it('finds the thread, reports features for every candidate, and injects in time order with dates', () => {
    const r = retrieve(index, {
      query: buildQuery({ message: 'Is the nginx 502 fixed now?', entities: [], dates: [] }),
      scope: scope('C'),
      exclude: new Set(['c1']),
      budget: 200,
      now: T0 + 5 * DAY,
      counter,
      labels,
      offsetMinutes: 0,
    });
    expect(r.candidates[0]!.id).toBe('a1');
    expect(r.candidates.every((c) => c.features.lexical >= 0 && typeof c.score === 'number')).toBe(true);
    expect(r.injected).toEqual(expect.arrayContaining(['a1', 'a2']));
    expect(r.injected).not.toContain('b1');
    expect(r.text.startsWith(`${labels.history}\n1 March 2024\n`)).toBe(true);
    expect(r.text.indexOf('502 errors')).toBeLessThan(r.text.indexOf('Restart php-fpm'));
    expect(counter.count(r.text)).toBe(r.tokens);
    expect(r.tokens).toBeLessThanOrEqual(200);
  });

  it('never reads other sessions while they are closed, and never what is excluded', () => {
    const r = retrieve(index, {
      query: buildQuery({ message: 'nginx 502', entities: [], dates: [] }),
      scope: scope('C', false),
      exclude: new Set(['c1']),
      budget: 200,
      now: T0 + 5 * DAY,
      counter,
      labels,
      offsetMinutes: 0,
    });
    expect(r.candidates).toEqual([]);
    expect(r.text).toBe('');
  });

  it('keeps the exact token budget however small', () => {
    for (const budget of [0, 12, 30, 45, 80]) {
      const r = retrieve(index, {
        query: buildQuery({ message: 'nginx 502 php-fpm birthday party cat tuna', entities: [], dates: [] }),
        scope: scope('C'),
        exclude: new Set(),
        budget,
        now: T0 + 5 * DAY,
        counter,
        labels,
        offsetMinutes: 0,
      });
      expect(r.text === '' ? 0 : counter.count(r.text)).toBeLessThanOrEqual(budget);
    }
  });
});

const ZERO: Features = { lexical: 0, context: 0, sentence: 0, vector: 0, entities: 0, speaker: 0, date: 0, thread: 0, recency: 0, cold: 0, intent: 0, persona: 0, coverage: 0, stated: 0 };

function item(id: string, text: string, score: number, time: number, cold = false): PackCandidate {
  const candidate: Candidate = { id, sources: ['lexical'], features: { ...ZERO, cold: cold ? 1 : 0 }, score, match: 1, bestPiece: 0, slot: -1 };
  return { candidate, turn: turn(id, 'S', 1, text, time), text, pieces: splitPieces(text) };
}

describe('pack', () => {
  const env = () => ({ counter, labels, offsetMinutes: 0, speakerOf: () => 'User' });

  it('leaves out candidates far below the best, and grows sentences into turns when room allows', () => {
    const long = 'We moved the cluster to k8s last week. The ingress was the hard part. Certificates are next on the list.';
    const items = [item('top', long, 2, T0), item('weak', 'Unrelated small talk about the weather.', 0.1, T0)];
    const roomy = pack(items, 400, env());
    expect(roomy.decisions.get('weak')).toBe('below-threshold');
    expect(roomy.chosen.get('top')).toBe('all');
    const tight = pack(items, counter.count(`${labels.history}\n1 March 2024\nUser: We moved the cluster to k8s last week.`) + 3, env());
    expect(tight.chosen.get('top')).toEqual([0]);
  });

  it('rules candidates out by a cheap lower bound only where counting would too: the same block, less tokenizing', async () => {
    const tokenizer = await realTokenizer();
    let boundedChars = 0;
    let plainChars = 0;
    const words = ['nginx', 'upstream', 'timeout', 'the', 'backup', '服务器', '证书', 'runs', 'at', '2:00', 'every', 'night', 'and', 'fails', 'twice'];
    const candidates = fc.array(
      fc.record({ words: fc.array(fc.constantFrom(...words), { minLength: 2, maxLength: 40 }), score: fc.double({ min: 0.2, max: 1, noNaN: true }), day: fc.nat(40) }),
      { minLength: 1, maxLength: 60 },
    );
    fc.assert(
      fc.property(candidates, fc.integer({ min: 20, max: 300 }), (specs, budget) => {
        const items = specs
          .map((c, i) => item(`c${i}`, `${c.words.slice(0, 8).join(' ')}. ${c.words.slice(8).join(' ')}.`, c.score, T0 + c.day * DAY))
          .sort((a, b) => b.candidate.score - a.candidate.score);
        // Fresh counters: one that can bound without tokenizing (the real Qwen one), one that cannot.
        const bounded = new CachedTokenCounter(tokenizer);
        const plain = new CachedTokenCounter({ encode: (t) => tokenizer.encode(t), decode: (ids) => tokenizer.decode(ids) });
        const a = pack(items, budget, { counter: bounded, labels, offsetMinutes: 0, speakerOf: () => 'User' });
        const b = pack(items, budget, { counter: plain, labels, offsetMinutes: 0, speakerOf: () => 'User' });
        expect(a.text).toBe(b.text);
        expect([...a.decisions]).toEqual([...b.decisions]);
        expect(bounded.stats.encodedChars).toBeLessThanOrEqual(plain.stats.encodedChars);
        boundedChars += bounded.stats.encodedChars;
        plainChars += plain.stats.encodedChars;
      }),
      { numRuns: 60, seed: 7 },
    );
    // Over all the runs, candidates that could not fit were not tokenized.
    expect(boundedChars).toBeLessThan(plainChars);
  });

  it('bounds a record by the sentence asked now, not the one a search asked before', () => {
    const text =
      'Everything about the quarterly infrastructure migration is in the plan: the databases, the caches, the message queues, the search cluster, the object storage buckets, and every other storage cluster we still run in production. The NAS is fine.';
    const shared = item('t', text, 1, T0);
    const asking = (bestPiece: number): PackCandidate => ({ ...shared, candidate: { ...shared.candidate, bestPiece } });
    // Room for the short sentence, not the long one.
    const budget = counter.count(`${labels.history}\n1 March 2024\nUser: The NAS is fine.`) + 4;
    expect(pack([asking(0)], budget, env()).decisions.get('t')).toBe('over-budget');
    const short = pack([asking(1)], budget, env());
    expect(short.chosen.get('t')).toEqual([1]);
    expect(short.tokens).toBeLessThanOrEqual(budget);
    expect(pack([asking(0)], budget, env()).decisions.get('t')).toBe('over-budget');
  });

  it('still takes a short line late in the list when a few tokens are left', () => {
    const first = 'The database backup runs every night at two.';
    const long = 'Everything about the quarterly infrastructure migration is in the plan, from the databases to the caches.';
    const items = [item('first', first, 1, T0), item('l1', long, 0.9, T0), item('l2', `${long} Again.`, 0.8, T0), item('short', 'OK.', 0.5, T0)];
    // Exactly the room the two lines need (heading, date, each line and its newline): the short one fills it.
    const budget = counter.count(labels.history) + 2 + counter.count('1 March 2024') + 1 + counter.count(`User: ${first}`) + 1 + counter.count('User: OK.') + 1;
    const result = pack(items, budget, env(), DEFAULT_PACK_OPTIONS);
    expect(Object.fromEntries(result.decisions)).toEqual({ first: 'whole', l1: 'over-budget', l2: 'over-budget', short: 'whole' });
    expect(result.tokens).toBeLessThanOrEqual(budget);
  });

  it('packs the same whatever it measured before: remembered bounds rule out only what fresh counting would', async () => {
    const tokenizer = await realTokenizer();
    const texts = [
      'Everything about the quarterly infrastructure migration is in the plan: the databases, the caches, the message queues, the search cluster, the object storage buckets, and every other storage cluster we still run in production. The NAS is fine.',
      'We moved the cluster to k8s last week. The ingress was the hard part. Certificates are next on the list.',
      'Backups run at two. They go to the NAS box in the basement and to the cloud bucket every Sunday night.',
      'OK.',
      '服务器的证书下周到期。我们需要提前更新 nginx 配置。',
      'Is the upstream timeout still thirty seconds? It was raised last spring after the outage.',
    ];
    // Records measured over and over with one counter, and each search again on records never measured.
    const turns = texts.map((text, i) => turn(`t${i}`, 'S', i, text, T0 + (i % 3) * DAY, i % 2 === 0 ? 'user' : 'assistant'));
    const speakerOf = (t: TurnEntry): string => (t.role === 'user' ? labels.user : labels.assistant);
    const warm = new CachedTokenCounter(tokenizer);
    const search = fc.record({
      picks: fc.uniqueArray(fc.record({ at: fc.nat(texts.length - 1), best: fc.integer({ min: -2, max: 3 }), score: fc.double({ min: 0, max: 1, noNaN: true }) }), { selector: (p) => p.at, maxLength: texts.length }),
      budget: fc.integer({ min: 0, max: 120 }),
      maxLines: fc.constantFrom(2, 12),
      fragments: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(search, { minLength: 1, maxLength: 6 }), (searches) => {
        for (const { picks, budget, maxLines, fragments } of searches) {
          const candidates = (source: (i: number) => TurnEntry): PackCandidate[] =>
            picks.map(({ at, best, score }) => {
              const t = source(at);
              return { candidate: { id: t.id, sources: ['lexical'], features: ZERO, score, match: 1, bestPiece: best, slot: -1 }, turn: t, text: t.text, pieces: splitPieces(t.text) };
            });
          const options = { ...DEFAULT_PACK_OPTIONS, maxLines, fragments };
          const a = pack(candidates((i) => turns[i]!), budget, { counter: warm, labels, offsetMinutes: 0, speakerOf }, options);
          const fresh = new CachedTokenCounter(tokenizer);
          const b = pack(candidates((i) => ({ ...turns[i]! })), budget, { counter: fresh, labels, offsetMinutes: 0, speakerOf }, options);
          expect([a.text, a.tokens, [...a.decisions], a.paired, [...a.chosen]]).toEqual([b.text, b.tokens, [...b.decisions], b.paired, [...b.chosen]]);
        }
      }),
      { numRuns: 40, seed: 11 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { Bm25Index, Bm25Scores } from '../../../src/memory/retrieval/bm25.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { prng } from '../../../src/shared/prng.ts';

/** The textbook formula over a plain list of documents: what the index's postings must reproduce. */
class ReferenceBm25 {
  readonly docs = new Map<string, { scope: string; terms: string[] }>();

  score(id: string, query: ReadonlyMap<string, number>): number {
    const doc = this.docs.get(id);
    if (doc === undefined) return 0;
    const all = [...this.docs.values()];
    const avg = all.reduce((n, d) => n + d.terms.length, 0) / all.length || 1;
    let total = 0;
    for (const [term, weight] of query) {
      if (weight <= 0) continue;
      const tf = doc.terms.filter((t) => t === term).length;
      if (tf === 0) continue;
      const df = all.filter((d) => d.terms.includes(term)).length;
      const idf = Math.max(0.05, Math.log(1 + (all.length - df + 0.5) / (df + 0.5)));
      total += (idf * weight * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * doc.terms.length) / avg));
    }
    return total;
  }
}

function randomCorpus(seed: number): { index: Bm25Index; reference: ReferenceBm25; vocabulary: string[]; rand: () => number } {
  const rand = prng(seed);
  // A Zipf-like vocabulary: a few very common terms, a long tail.
  const vocabulary = Array.from({ length: 60 }, (_, i) => `t${i}`);
  const word = (): string => vocabulary[Math.min(59, Math.floor(Math.exp(rand() * Math.log(60))) - 1)]!;
  const index = new Bm25Index();
  const reference = new ReferenceBm25();
  for (let i = 0; i < 300; i++) {
    const id = `d${Math.floor(rand() * 220)}`; // some ids come back: a rewrite replaces the document
    const scope = `s${Math.floor(rand() * 6)}`;
    const terms = Array.from({ length: 1 + Math.floor(rand() * 25) }, word);
    index.add(id, scope, terms);
    reference.docs.set(id, { scope, terms });
    if (rand() < 0.1) {
      const gone = `d${Math.floor(rand() * 220)}`;
      index.remove(gone);
      reference.docs.delete(gone);
    }
  }
  return { index, reference, vocabulary, rand };
}

describe('BM25 postings against a reference scorer', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`scores and ranks a random corpus the same way (seed ${seed})`, () => {
      const { index, reference, vocabulary, rand } = randomCorpus(seed);
      expect(index.size).toBe(reference.docs.size);
      for (let q = 0; q < 20; q++) {
        const query = new Map<string, number>();
        for (let i = 0; i < 1 + Math.floor(rand() * 6); i++) query.set(vocabulary[Math.floor(rand() * 60)]!, rand() < 0.3 ? 0.3 : 1);
        query.set('absent-term', 1);
        const allow = (scope: string): boolean => scope !== 's2';
        const expected = new Map<string, number>();
        for (const [id, doc] of reference.docs) {
          const score = reference.score(id, query);
          if (score > 0 && allow(doc.scope)) expected.set(id, score);
        }
        // Every document sharing a term, and only those, with its score.
        const all = index.scoreAll(query, allow);
        const got = all.toMap();
        expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [id, score] of expected) {
          expect(got.get(id)).toBeCloseTo(score, 9);
          expect(all.get(id)).toBe(got.get(id));
          expect(index.scoreAll(query).get(id)).toBeCloseTo(score, 9);
        }
        // The top k: best first, and no document left out scores higher than one kept.
        const k = 7;
        const hits = index.search(query, k, allow);
        const ranked = [...expected.values()].sort((a, b) => b - a);
        expect(hits.length).toBe(Math.min(k, ranked.length));
        hits.forEach((hit, i) => {
          expect(hit.score).toBeCloseTo(ranked[i]!, 9);
          expect(reference.docs.get(hit.id)!.scope).toBe(hit.scope);
        });
      }
    });
  }

  it('adds terms to a search (feedback) with the same scores, bit for bit, and slot order as searching the whole query', () => {
    for (const seed of [6, 7, 8]) {
      const { index, vocabulary, rand } = randomCorpus(seed);
      for (let q = 0; q < 30; q++) {
        const pick = (): string => vocabulary[Math.floor(rand() * 60)]!;
        const first = new Map<string, number>();
        for (let i = 0; i < 1 + Math.floor(rand() * 4); i++) first.set(pick(), 1);
        const added = new Map<string, number>();
        for (let i = 0; i < 1 + Math.floor(rand() * 4); i++) {
          const t = pick();
          if (!first.has(t)) added.set(t, 0.3);
        }
        added.set('absent-term', 0.3);
        // A scope filter: slots it drops in the first search come back only if the added terms reach them.
        const allow = q % 2 === 0 ? (scope: string): boolean => scope !== 's1' && scope !== 's4' : undefined;
        const whole = index.scoreAll(new Map([...first, ...added]), allow);
        const more = index.scoreMore(index.scoreAll(first, allow), added, allow);
        expect([...more.slots]).toEqual([...whole.slots]);
        expect([...more.bySlot]).toEqual([...whole.bySlot]);
      }
    }
  });

  it('keeps ties in the order documents were first reached, as a stable sort would', () => {
    const index = new Bm25Index();
    for (const id of ['a', 'b', 'c', 'd']) index.add(id, 's', ['x', 'y']);
    expect(index.search(new Map([['x', 1]]), 2).map((h) => h.id)).toEqual(['a', 'b']);
    index.remove('a');
    index.add('a', 's', ['x', 'y']); // re-added: now reached last
    expect(index.search(new Map([['x', 1]]), 4).map((h) => h.id)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('takes the k best slots, ties to the slot reached first, the same from a heap (small k) and by selection (deep k)', () => {
    const names = { slotOf: () => undefined, idOf: (slot: number) => `d${slot}` };
    for (const seed of [11, 12, 13, 14]) {
      const rand = prng(seed);
      for (let round = 0; round < 25; round++) {
        // Scores from a few levels, so that many tie, across the floor of a deep k too.
        const n = Math.floor(rand() * 900);
        const bySlot = new Float64Array(1000);
        const order = [...bySlot.keys()].sort(() => rand() - 0.5).slice(0, n);
        for (const slot of order) bySlot[slot] = rand() < 0.02 ? Number.NaN : 1 + Math.floor(rand() * (round % 2 === 0 ? 6 : 400)) / 4;
        const scores = new Bm25Scores(names, bySlot, Int32Array.from(order));
        // The reference: a stable sort of the slots in the order reached, NaN left out.
        const reference = order.filter((slot) => !Number.isNaN(bySlot[slot])).sort((a, b) => bySlot[b]! - bySlot[a]!);
        for (const k of [1, 5, 63, 64, 65, Math.floor(n / 3), n - 1, n, n + 7].filter((x) => x > 0)) {
          const best = Bm25Index.best(scores, k);
          expect(best.map((h) => h.slot)).toEqual(reference.slice(0, k));
          best.forEach((h) => expect(h.score).toBe(bySlot[h.slot]));
        }
      }
    }
  });

  it('forgets a term once the last document holding it is gone', () => {
    const index = new Bm25Index();
    index.add('a', 's', ['rare', 'common']);
    index.add('b', 's', ['common']);
    index.remove('a');
    expect(index.df('rare')).toBe(0);
    expect(index.search(new Map([['rare', 1]]), 5)).toEqual([]);
    index.add('c', 's', ['rare']);
    expect(index.search(new Map([['rare', 1]]), 5).map((h) => h.id)).toEqual(['c']);
  });

  it("measures a document's coverage of a query as the plain sum of the query weights it holds, over a vocabulary larger than coverage's filter", () => {
    // 9,000 distinct terms: many pairs share a bit of the query's 4,096-bit filter, so a document term that only
    // collides with a query term must still count nothing.
    const rand = prng(11);
    const index = new Bm25Index();
    const docs: string[][] = [];
    for (let d = 0; d < 600; d++) {
      const terms = Array.from({ length: 5 + Math.floor(rand() * 40) }, () => `w${Math.floor(rand() * 9000)}`);
      docs.push(terms);
      index.add(`d${d}`, 's', terms);
    }
    const prior = 50;
    for (let q = 0; q < 40; q++) {
      const query = new Map<string, number>();
      for (let k = 0; k < 3 + Math.floor(rand() * 30); k++) query.set(`w${Math.floor(rand() * 9100)}`, rand() < 0.3 ? 0.5 : 1);
      const prepared = index.prepareCoverage(query, prior);
      const n = docs.length + prior;
      const weightOf = (term: string, weight: number): number => {
        const df = index.df(term);
        return weight * Math.log(1 + (n - df + 0.5) / (df + 0.5));
      };
      const total = [...query].reduce((t, [term, weight]) => t + weightOf(term, weight), 0);
      for (let d = 0; d < docs.length; d++) {
        const held = new Set(docs[d]);
        const expected = [...query].filter(([term]) => held.has(term)).reduce((t, [term, weight]) => t + weightOf(term, weight), 0) / total;
        expect(index.coverage(d, prepared)).toBeCloseTo(expected, 12);
      }
    }
  });
});

describe('turn links', () => {
  it('give each turn the same neighbours as the session order, through inserts and rewrites', () => {
    const rand = prng(9);
    const index = new RetrievalIndex({ createEmbedder: () => null });
    const turn = (session: number, seq: number, text: string): TurnEntry => ({
      id: `S${session}:${seq}`, userId: 'u', sessionId: `S${session}`, seq, role: seq % 2 === 0 ? 'user' : 'assistant',
      time: seq * 1000, text, entities: [], dates: [], tags: [],
    });
    for (let i = 0; i < 200; i++) {
      const session = Math.floor(rand() * 4);
      const seq = 1 + Math.floor(rand() * 40); // out of order, and sometimes a rewrite of a turn already there
      index.addTurn(turn(session, seq, `words ${Math.floor(rand() * 1000)} here`));
    }
    const memory = index.user('u');
    const turns = memory.shard.turns;
    for (const id of memory.turns.keys()) {
      const slot = turns.slotOf(id)!;
      const prev = memory.neighbour(id, -1);
      const next = memory.neighbour(id, 1);
      expect(memory.links.prev(slot)).toBe(prev === undefined ? -1 : turns.slotOf(prev.id));
      expect(memory.links.next(slot)).toBe(next === undefined ? -1 : turns.slotOf(next.id));
    }
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { buildQuery } from '../../../src/memory/retrieval/query.ts';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex } from '../../../src/memory/retrieval/retrieval-index.ts';
import { retrieve, type RetrieveRequest } from '../../../src/memory/retrieval/retriever.ts';
import { prng } from '../../../src/shared/prng.ts';
import { realCounter } from '../context/helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const WORDS = ['nginx', 'upstream', 'timeout', 'postgres', 'backup', 'garden', 'tomatoes', 'painting', 'camping', 'lake', 'adoption', 'policy', 'career', 'counseling'];

function build(sessions = 6): RetrievalIndex {
  const rand = prng(3);
  const index = new RetrievalIndex();
  for (let s = 0; s < sessions; s++) {
    for (let i = 1; i <= 12; i++) {
      const text = Array.from({ length: 4 + Math.floor(rand() * 10) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ') + '. Then more about it.';
      const turn: TurnEntry = { id: `S${s}:${i}`, userId: 'u', sessionId: `S${s}`, seq: i, role: i % 2 === 0 ? 'assistant' : 'user', time: Date.UTC(2024, 0, 1 + s, 9, i), text, entities: [], dates: [], tags: [] };
      index.addTurn(turn);
    }
  }
  index.addDoc({ id: 'd1', docId: 'guide', source: 'guide.md', part: 0, text: 'Raise the nginx upstream timeout when postgres backups run.' });
  return index;
}

/** A request for user `u` in session S5 with other sessions open, asked on 8 Jan 2024; `fields` change the rest. */
function ask(query: ReturnType<typeof buildQuery>, fields: Partial<RetrieveRequest> = {}): RetrieveRequest {
  return {
    query,
    scope: { userId: 'u', sessionId: 'S5', otherSessions: true, docs: false },
    exclude: new Set(),
    budget: 120,
    now: Date.UTC(2024, 0, 8),
    counter,
    labels: LABELS.en,
    offsetMinutes: 0,
    ...fields,
  };
}

const WITH_DOCS = { userId: 'u', sessionId: 'S5', otherSessions: true, docs: true };

describe('a repeated search (same query, other exclusions)', () => {
  it('gives exactly what a fresh index gives, though it reuses the first search', () => {
    const query = buildQuery({ message: 'what about the nginx upstream timeout during the backup?', entities: [], dates: [] });
    const request = (exclude: string[]): RetrieveRequest => ask(query, { scope: WITH_DOCS, exclude: new Set(exclude) });
    const reused = build();
    const first = retrieve(reused, request([]));
    expect(first.injected.length).toBeGreaterThan(2);
    // The second pass leaves out what the first injected: other candidates must come up, as on a fresh index.
    const second = retrieve(reused, request(first.injected.slice(0, 3)));
    const fresh = retrieve(build(), request(first.injected.slice(0, 3)));
    expect(second.text).toBe(fresh.text);
    expect(second.candidates).toEqual(fresh.candidates);
    expect(second.injected).not.toContain(first.injected[0]);
  });

  it('asked again at another time, scores recency for that time, as a fresh index does', () => {
    const query = buildQuery({ message: 'what about the nginx upstream timeout during the backup?', entities: [], dates: [] });
    const request = (now: number): RetrieveRequest => ask(query, { now });
    const reused = build();
    const soon = retrieve(reused, request(Date.UTC(2024, 0, 8)));
    const later = retrieve(reused, request(Date.UTC(2024, 5, 8)));
    const fresh = retrieve(build(), request(Date.UTC(2024, 5, 8)));
    expect(later.candidates).toEqual(fresh.candidates);
    expect(later.candidates[0]!.features.recency).toBeLessThan(soon.candidates[0]!.features.recency);
  });

  it('searched once as deep as a later, larger pass needs, answers both passes as fresh searches would', () => {
    const query = buildQuery({ message: 'the garden tomatoes and the lake camping trip', entities: [], dates: [] });
    const request = (budget: number, exclude: string[], searchDepthBudget?: number): RetrieveRequest =>
      ask(query, { budget, exclude: new Set(exclude), ...(searchDepthBudget === undefined ? {} : { searchDepthBudget }) });
    const reused = build(24);
    // Pools of 40 and 100 candidates a search (160 and 400 sentences), over 288 turns: the deeper lists reach
    // past the first pass's pools.
    const first = retrieve(reused, request(60, [], 1200));
    const second = retrieve(reused, request(1200, first.injected.slice(0, 2)));
    const freshFirst = retrieve(build(24), request(60, []));
    const freshSecond = retrieve(build(24), request(1200, first.injected.slice(0, 2)));
    expect(first.text).toBe(freshFirst.text);
    expect(first.candidates).toEqual(freshFirst.candidates);
    expect(second.text).toBe(freshSecond.text);
    expect(second.candidates).toEqual(freshSecond.candidates);
    expect(second.candidates.length).toBeGreaterThan(first.candidates.length);
  });

  it('leaving out more turns than the first search ranked spare, still answers as a fresh search would', () => {
    const query = buildQuery({ message: 'the garden tomatoes and the lake camping trip', entities: [], dates: [] });
    const request = (exclude: string[]): RetrieveRequest => ask(query, { budget: 60, exclude: new Set(exclude) });
    const reused = build(24);
    const first = retrieve(reused, request([]));
    // Seven turns in eight: far more of the best ones than a pass usually leaves out.
    const many = Array.from({ length: 21 }, (_, s) => Array.from({ length: 12 }, (_, i) => `S${s + 3}:${i + 1}`)).flat();
    const second = retrieve(reused, request(many));
    const fresh = retrieve(build(24), request(many));
    expect(second.candidates).toEqual(fresh.candidates);
    expect(second.text).toBe(fresh.text);
    expect(second.candidates.some((c) => first.candidates.some((d) => d.id === c.id))).toBe(true);
    expect(second.candidates.every((c) => !many.includes(c.id))).toBe(true);
  });

  it('searches again once the index has changed', () => {
    const index = build();
    const query = buildQuery({ message: 'tell me about the kayak', entities: [], dates: [] });
    const request = ask(query);
    expect(retrieve(index, request).text).not.toContain('kayak');
    index.addTurn({ id: 'S5:13', userId: 'u', sessionId: 'S5', seq: 13, role: 'user', time: Date.UTC(2024, 0, 6, 10), text: 'We rented a kayak on the lake.', entities: [], dates: [], tags: [] });
    expect(retrieve(index, request).text).toContain('kayak');
  });
});

describe('the docs ranking of a second pass', () => {
  const docsRequest = (query: ReturnType<typeof buildQuery>, budget: number, docsPoolBudget?: number): RetrieveRequest =>
    ask(query, { scope: WITH_DOCS, budget, ...(docsPoolBudget === undefined ? {} : { docsPoolBudget }) });
  const docsOf = (r: ReturnType<typeof retrieve>) => r.candidates.filter((c) => c.namespace === 'docs');

  function withDocs(): RetrievalIndex {
    const index = build();
    for (let i = 0; i < 300; i++) index.addDoc({ id: `g${i}`, docId: `page${i}`, source: `page${i}.md`, part: 0, text: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} notes, part ${i}.` });
    return index;
  }

  it('with the first pass’s docs pool, is the docs ranking a fresh index makes, though the budget grew', () => {
    const query = buildQuery({ message: 'nginx upstream timeout and postgres backup', entities: [], dates: [] });
    const reused = withDocs();
    retrieve(reused, docsRequest(query, 120));
    const second = retrieve(reused, docsRequest(query, 400, 120));
    const fresh = retrieve(withDocs(), docsRequest(query, 400, 120));
    expect(docsOf(second)).toEqual(docsOf(fresh));
    expect(second.text).toBe(fresh.text);
    // The pool is the first pass's: fewer docs than a pool sized for the larger budget would bring.
    expect(docsOf(second).length).toBeLessThan(docsOf(retrieve(withDocs(), docsRequest(query, 400))).length);
  });

  it('is ranked again after a heat update or a new doc', () => {
    const query = buildQuery({ message: 'nginx upstream timeout', entities: [], dates: [] });
    const index = withDocs();
    const first = retrieve(index, docsRequest(query, 120));
    // Six misses in a row make the best doc cold: it must lose its place, not keep the remembered one.
    const best = docsOf(first)[0]!.id;
    index.docs.setHeat(best, { chances: 6, recalls: 0, missStreak: 6, lastRecalledAt: 0 });
    expect(docsOf(retrieve(index, docsRequest(query, 120))).find((c) => c.id === best)!.features.cold).toBe(1);
    index.addDoc({ id: 'new', docId: 'new', source: 'new.md', part: 0, text: 'nginx upstream timeout: raise proxy_read_timeout.' });
    expect(docsOf(retrieve(index, docsRequest(query, 120))).map((c) => c.id)).toContain('new');
  });
});

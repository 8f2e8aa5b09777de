import { describe, expect, it } from 'vitest';
import type { TurnEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex, Shard } from '../../../src/memory/retrieval/retrieval-index.ts';
import { embedderKey } from '../../../src/memory/embedders/embedder.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { prng } from '../../../src/shared/prng.ts';

const SENTENCES = ['Raise the upstream timeout.', 'Back up the database first.', 'Then restart nginx.', 'Is the replica in sync?', 'Check the logs for errors.'];

describe('a shard’s sentences by chunk slot', () => {
  it('name the slots of each live chunk’s pieces, through rewrites that change how many it has', () => {
    const rand = prng(11);
    const shard = new Shard(null);
    for (let i = 0; i < 200; i++) {
      const id = `c${Math.floor(rand() * 40)}`; // ids come back: a rewrite replaces the chunk
      const text = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => SENTENCES[Math.floor(rand() * SENTENCES.length)]).join(' ');
      shard.add(id, `s${i % 3}`, text, []);
    }
    for (const chunk of shard.chunks.values()) {
      const slot = shard.turns.slotOf(chunk.id)!;
      // What a search reads without touching the chunk: its pieces' slots run on from the first.
      expect(shard.pieceCount[slot]).toBe(chunk.pieces.length);
      const pieceSlots = chunk.pieces.map((_, i) => shard.pieces.slotOf(`${chunk.id}#${i}`)!);
      expect(pieceSlots).toEqual(pieceSlots.map((_, i) => shard.firstPiece[slot]! + i));
      for (const [i, pieceSlot] of pieceSlots.entries()) {
        expect(shard.pieceTurn[pieceSlot]).toBe(slot);
        expect(shard.pieceIndex[pieceSlot]).toBe(i);
      }
    }
  });

  it('read a chunk’s misses in a row by slot as its heat says, whether the heat came before the chunk, after it, or across a rewrite', () => {
    const shard = new Shard(null);
    const heat = (missStreak: number) => ({ chances: missStreak, recalls: 0, missStreak, lastRecalledAt: 0 });
    shard.setHeat('a', heat(3)); // loaded before its chunk (start-up reads heat with the turns)
    shard.add('a', 's', 'Raise the upstream timeout.', []);
    shard.add('b', 's', 'Back up the database first.', []);
    shard.setHeat('b', heat(6));
    shard.add('b', 's', 'Back up the database first. Then restart nginx.', []); // rewritten: a new slot
    for (const id of ['a', 'b']) expect(shard.missStreakAt(shard.turns.slotOf(id)!)).toBe(shard.heatOf(id).missStreak);
    expect(shard.missStreakAt(shard.turns.slotOf('b')!)).toBe(6);
  });
});

describe('records by slot', () => {
  const turn = (id: string, seq: number, text: string, extra: Partial<TurnEntry> = {}): TurnEntry => ({
    id, userId: 'u', sessionId: 's', seq, role: 'user', time: seq * 1000, text, entities: [], dates: [], tags: [], ...extra,
  });

  it('give the record written last for each live slot: through a flag change (same slot) and a rewrite (a new slot)', () => {
    const index = new RetrievalIndex({ createEmbedder: () => null });
    index.addTurn(turn('a', 1, 'Raise the upstream timeout.'));
    index.addTurn(turn('b', 2, 'Back up the database first.'));
    const memory = index.user('u');
    const slotOf = (id: string): number => memory.shard.turns.slotOf(id)!;
    const voided = turn('a', 1, 'Raise the upstream timeout.', { deprecatedAt: 5000 });
    index.addTurn(voided);
    expect(memory.turnAt(slotOf('a'))).toBe(voided);
    const rewritten = turn('b', 2, 'Back up the database first. Then restart nginx.');
    const before = slotOf('b');
    index.addTurn(rewritten);
    expect(slotOf('b')).not.toBe(before);
    expect(memory.turnAt(slotOf('b'))).toBe(rewritten);
    for (const id of ['a', 'b']) expect(memory.turnAt(slotOf(id))).toBe(memory.turns.get(id));

    const doc = { id: 'd1', docId: 'page', source: 'docs/page.md', part: 0, text: 'Set proxy_read_timeout in the location block.' };
    index.addDoc(doc);
    const again = { ...doc, text: 'Set proxy_read_timeout in the http block.' };
    index.addDoc(again);
    expect(index.docAt(index.docs.turns.slotOf('d1')!)).toBe(again);
  });
});

describe('a doc chunk with its stored vector', () => {
  const embedder = new HashedNgramEmbedder();
  const key = embedderKey(embedder);
  const vectorOf = (text: string): Float32Array => embedder.embedOne(text);
  const doc = { id: 'd1', docId: 'guide', source: 'Guide', part: 0, text: 'Rotate the TLS certificate on the gateway every ninety days.' };
  const nearest = (index: RetrievalIndex, query: string): number => index.docs.vectorSearch(query, 1, undefined, undefined).get('d1') ?? 0;

  it('is indexed with the vector it came with (the docs index shipped it), not embedded again', () => {
    // A vector of another text stands in for the shipped one: the search follows it, not the chunk's own words.
    const shipped = new RetrievalIndex();
    shipped.addDoc(doc, { embedder: key, vector: vectorOf('harbour museum opening hours') });
    const embedded = new RetrievalIndex();
    embedded.addDoc(doc);
    expect(nearest(shipped, 'rotate the TLS certificate')).toBeLessThan(0.1);
    expect(nearest(embedded, 'rotate the TLS certificate')).toBeGreaterThan(0.5);
    expect(nearest(shipped, 'harbour museum opening hours')).toBeGreaterThan(3 * nearest(embedded, 'harbour museum opening hours'));
  });

  it("is embedded again when the vector is another embedder's or of another width", () => {
    for (const stored of [{ embedder: 'engine@1', vector: vectorOf('harbour museum opening hours') }, { embedder: key, vector: new Float32Array(8).fill(0.35) }]) {
      const index = new RetrievalIndex();
      index.addDoc(doc, stored);
      expect(nearest(index, 'rotate the TLS certificate')).toBeGreaterThan(0.5);
    }
  });
});


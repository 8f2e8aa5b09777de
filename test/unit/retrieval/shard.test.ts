import { describe, expect, it } from 'vitest';
import { Shard } from '../../../src/memory/retrieval/retrieval-index.ts';
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

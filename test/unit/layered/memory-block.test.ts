import { beforeAll, describe, expect, it } from 'vitest';
import { CachedTokenCounter } from '../../../src/context/tokens.ts';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { blockDelta, blockText, fitToRoom, missesAny, type BlockParts } from '../../../src/memory/layered/memory-block.ts';
import { loadNodeQwenTokenizer } from '../../../scripts/prepare-tokenizer.ts';
import { T0 } from './helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = new CachedTokenCounter(await loadNodeQwenTokenizer());
});

const labels = LABELS.en;
const record = (id: string, seq: number, text: string) => ({ id, time: T0 + seq * 60_000, seq, speaker: 'User', parts: [text] });
const parts = (over: Partial<BlockParts> = {}): BlockParts => ({
  labels,
  offsetMinutes: 0,
  working: [{ head: 'Entities', items: ['10.0.0.7 (ipv4)', '#A123456 (order_id)'], sep: '; ' }],
  records: [
    record('a', 1, 'The order #A123456 ships from the Shanghai warehouse on Friday.'),
    record('b', 2, 'Thanks, that helps.'),
    record('c', 3, 'Thanks, that helps.'),
    record('d', 4, 'The server 10.0.0.7 runs nginx behind the office firewall.'),
  ],
  docs: [],
  rank: new Map([['d', 0], ['a', 1], ['b', 2], ['c', 3]]),
  ...over,
});
const user = (content: string): ChatMessage => ({ role: 'user', content });

describe('memory block deltas', () => {
  it('sends everything to an empty prompt, a line that reads like another only once', () => {
    const d = blockDelta(parts(), [], counter);
    expect(d.text).toBe(
      '[Working memory]\nEntities: 10.0.0.7 (ipv4); #A123456 (order_id)\n\n[Related history (conversation records)]\n1 March 2024\n' +
        'User: The order #A123456 ships from the Shanghai warehouse on Friday.\nUser: Thanks, that helps.\n' +
        'User: The server 10.0.0.7 runs nginx behind the office firewall.',
    );
    expect(d.sent.records).toEqual(['a', 'b', 'd']);
  });

  it('leaves out the items and lines an earlier message carries, whole or sentence by sentence', () => {
    const earlier = user('[Working memory]\nEntities: 10.0.0.7 (ipv4)\n\n[Related history (conversation records)]\n1 March 2024\nUser: The server 10.0.0.7 runs nginx behind the office firewall. It restarts nightly.\n\nhi');
    const d = blockDelta(parts(), [{ role: 'system', content: 'sys' }, earlier], counter);
    expect(d.held).toEqual({ records: ['d'], working: ['10.0.0.7 (ipv4)'] });
    expect(d.text).not.toContain('10.0.0.7');
    expect(d.text).toContain('Entities: #A123456 (order_id)');
    // An item is only held whole: "0.0.7 (ipv4)" inside "10.0.0.7 (ipv4)" is not the same item.
    // What the assembler sends (no counting) is the delta's text.
    expect(blockText(parts(), [{ role: 'system', content: 'sys' }, earlier])).toBe(d.text);
    expect(blockText(parts(), [])).toBe(blockDelta(parts(), [], counter).text);
    const other = blockDelta(parts({ working: [{ head: 'Entities', items: ['0.0.7 (ipv4)'], sep: '; ' }] }), [earlier], counter);
    expect(other.sent.working).toEqual(['0.0.7 (ipv4)']);
  });

  it('fits new lines best first into the room, keeping what the prompt holds, and tells when the best one is missing', () => {
    const held = [user('[Related history (conversation records)]\n1 March 2024\nUser: The server 10.0.0.7 runs nginx behind the office firewall.\n\nq')];
    expect(missesAny(parts(), held, new Set(['d']))).toBe(false);
    expect(missesAny(parts(), held, new Set(['d', 'a']))).toBe(true);
    expect(missesAny(parts(), [], new Set(['d']))).toBe(true);
    const kept = (room: number): string[] => fitToRoom(parts(), held, room, counter).records.map((r) => r.id);
    expect(kept(1000)).toEqual(['a', 'b', 'c', 'd']);
    expect(kept(0)).toEqual(['d']);
    // Never over the room: the new records fit in what the working-memory items (always sent) leave.
    for (let room = 0; room <= 120; room += 5) {
      const sent = blockDelta(fitToRoom(parts(), held, room, counter), held, counter);
      expect(sent.retrievalTokens).toBeLessThanOrEqual(Math.max(0, room - sent.workingTokens));
    }
    // Best first: the order line (rank 1) takes the room before the small talk (ranks 2, 3) fills what is left.
    const some = kept(90);
    expect(some).toContain('a');
    expect(some.length).toBeLessThan(4);
  });
});

import { describe, expect, it } from 'vitest';
import { DAY, T0, chat, injected, pipeline } from './helpers.ts';

/** T0 is 1 March 2024: the kitchen talk happens that day, the question comes a week later. */
describe('a question that names a day', () => {
  it('finds what was said that day even when it shares no word with the question', async () => {
    const { memory } = await pipeline();
    const first = chat(memory, 'u', 'S1', T0);
    await first.user('Spent the whole afternoon in the kitchen and finally pulled off a lemon tart from scratch.');
    await first.bot('That sounds delicious! Shortcrust pastry is tricky, well done.');
    await first.user('Also renewed my library card on the way home.');
    await first.bot('Handy, the branch near you has a good film section too.');
    // Another day's talk shares the question's words but not its day.
    const second = chat(memory, 'u', 'S2', T0 + 2 * DAY);
    await second.user('I bake bread for the neighbours most weekends, nothing fancy.');
    await second.bot('Home-baked bread is a lovely habit.');

    const later = chat(memory, 'u', 'S3', T0 + 7 * DAY);
    const asked = await later.user('What did I bake on 1 March?');
    expect(asked.report.memory.query.dates).toContain('2024-03-01');
    expect(injected(asked)).toContain('S1/1');
    expect(asked.extras).toContain('lemon tart');
    const tart = asked.report.memory.retrieval.candidates.find((c) => c.id === 'S1/1')!;
    expect(tart.sources).toContain('day');
  });

});

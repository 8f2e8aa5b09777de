import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/context/config.ts';
import { selectTurns, turnFeatures } from '../../../src/context/select.ts';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { SEED_INPUT, SEED_TURNS } from './helpers.ts';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const bot = (content: string): ChatMessage => ({ role: 'assistant', content });
const config = resolveConfig();

describe('back-reference detection', () => {
  const back = (text: string): string | null => turnFeatures(user(text), config).backReference;

  it('finds Chinese back-references as substrings', () => {
    expect(back('上面那个函数有bug')).toBe('上面');
    expect(back('刚才说的第三种方法')).toBe('刚才');
    expect(back('把这段改一下')).toBe('这段');
    expect(back('今天天气怎么样')).toBeNull();
  });

  it('ignores words that merely contain one (因此, 此外, 彼此)', () => {
    expect(back('因此我们需要一个新方案')).toBeNull();
    expect(back('此外还有别的吗')).toBeNull();
    expect(back('因此，此函数不对')).toBe('此');
  });

  it('matches English words whole and case-insensitively', () => {
    expect(back('Is it correct?')).toBe('it');
    expect(back('As shown ABOVE')).toBe('ABOVE');
    expect(back('rename that function')).toBe('that function');
    expect(back('Add an item to the list, then quit')).toBeNull();
    expect(back('What time is  it')).toBe('it');
  });

  it('tells code references from generic ones', () => {
    expect(turnFeatures(user('上面那个函数有bug'), config).aboutCode).toBe(true);
    expect(turnFeatures(user('刚才说的第三种方法'), config).aboutCode).toBe(false);
    expect(turnFeatures(user('is the code above right?'), config).aboutCode).toBe(true);
  });

  it('marks assistant answers with code fences', () => {
    expect(turnFeatures(bot('```js\nx\n```'), config).hasCode).toBe(true);
    expect(turnFeatures(bot('~~~\nx\n~~~'), config).hasCode).toBe(true);
    expect(turnFeatures(bot('no code'), config).hasCode).toBe(false);
    expect(turnFeatures(user('```user code```'), config).hasCode).toBe(false);
  });

  it('word lists are configuration', () => {
    const custom = resolveConfig({ backReferences: { zh: ['改成'], en: [] } });
    expect(turnFeatures(user(SEED_INPUT), custom).backReference).toBe('改成');
    expect(turnFeatures(user('Is it correct?'), custom).backReference).toBeNull();
    const units = selectTurns(SEED_TURNS, SEED_INPUT, custom).units;
    expect(units[0]).toMatchObject({ kind: 'input-reference' });
  });
});

describe('selectTurns', () => {
  const history = [
    user('q0'), bot('```py\ncode0\n```'), // 0, 1: code
    user('q2'), bot('a3'),
    user('上面的代码能再解释一下吗'), bot('a5'), // 4: back-reference to the code at 1, 5 its answer
    user('q6'), bot('a7'),
    user('q8'), bot('a9'),
    user('q10'), bot('a11'),
  ];

  it('orders units: input reference, last exchange, key turns newest first, older recent exchanges', () => {
    const { units } = selectTurns(history, '刚才那个回答再短一点', config);
    expect(units.map((u) => `${u.kind}:${u.picks.map((p) => p.index).join(',')}`)).toEqual([
      'input-reference:11',
      'recent:10,11',
      'back-reference:1,4,5',
      'code:1',
      'recent:8,9',
      'recent:6,7',
    ]);
    const refs = units[2]!.picks.map((p) => p.reason);
    expect(refs).toEqual(['referenced', 'back-reference', 'answer-to-reference']);
  });

  it('respects recentExchanges, including 0 (key turns only)', () => {
    const none = selectTurns(history, 'next', resolveConfig({ recentExchanges: 0 })).units;
    expect(none.map((u) => u.kind)).toEqual(['back-reference', 'code']);
    const one = selectTurns(history, 'next', resolveConfig({ recentExchanges: 1 })).units;
    expect(one.filter((u) => u.kind === 'recent')).toHaveLength(1);
  });

  it('skips empty and system turns and never selects them', () => {
    const h = [user('q'), bot('  '), { role: 'system' as const, content: 's' }, user('q2'), bot('a2')];
    const s = selectTurns(h, 'x', config);
    expect([...s.skipped]).toEqual([[1, 'empty'], [2, 'system-in-history']]);
    expect(s.units.flatMap((u) => u.picks.map((p) => p.index))).not.toContain(1);
  });

  it('handles a history that starts with an assistant greeting', () => {
    const s = selectTurns([bot('Hi! How can I help?'), user('q'), bot('a')], 'x', config);
    expect(s.units.map((u) => u.picks.map((p) => p.index))).toEqual([[1, 2], [0]]);
  });
});

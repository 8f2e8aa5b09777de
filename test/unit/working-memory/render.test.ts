import { describe, expect, it } from 'vitest';
import { WorkingMemory } from '../../../src/memory/working-memory/working-memory.ts';
import { loadNodeQwenTokenizer } from '../../../scripts/prepare-tokenizer.ts';

const T0 = '2026-03-04T10:00:00+08:00';
const later = (minutes: number): string =>
  new Date(Date.parse(T0) + minutes * 60_000).toISOString().replace('Z', '+00:00');

function conversation(maxTokens = 200): WorkingMemory {
  const wm = new WorkingMemory(undefined, { render: { maxTokens } });
  wm.observe('我们计划用Nginx，上游是10.0.3.15:8080。', { turnId: 't1', at: T0 });
  wm.observe('算了还是用Apache。数据库换成PostgreSQL，下周三前迁完。', {
    turnId: 't2',
    at: '2026-03-04T10:05:00+08:00',
  });
  wm.observe('之前说的 Kafka 方案先放弃。Redis 不用了。', { turnId: 't3', at: '2026-03-04T10:07:00+08:00' });
  return wm;
}

describe('render', () => {
  it('writes one line per item in Chinese: facts, void topics, entities, newest first, with source time', () => {
    expect(conversation().render('zh', '2026-03-04T10:10:00+08:00')).toBe(
      [
        '工作记忆（2026-03-04 周三 10:10）：',
        '- cache：不再用 Redis（10:07）',
        '- database：PostgreSQL（10:05）',
        '- web server：Apache（10:05，原为 Nginx）',
        '- 已作废：Kafka 方案（10:07）',
        '- 日期：2026-03-11 周三（10:05）',
        '- 地址：10.0.3.15:8080（10:00）',
      ].join('\n'),
    );
  });

  it('writes the same in English; the header in the reader’s offset, items in the speaker’s', () => {
    expect(conversation().render('en', later(10))).toBe(
      [
        'Working memory (2026-03-04 Wed 02:10):',
        '- cache: no longer Redis (10:07)',
        '- database: PostgreSQL (10:05)',
        '- web server: Apache (10:05; was Nginx)',
        '- void: Kafka 方案 (10:07)',
        '- date: 2026-03-11 Wed (10:05)',
        '- host: 10.0.3.15:8080 (10:00)',
      ].join('\n'),
    );
  });

  it('is empty when nothing is active, and leaves expired items out', () => {
    expect(new WorkingMemory().render('zh', T0)).toBe('');
    expect(conversation().render('en', '2026-03-05T10:06:00+08:00').split('\n')).toEqual([
      'Working memory (2026-03-05 Thu 10:06):',
      '- cache: no longer Redis (03-04 10:07)',
      '- void: Kafka 方案 (03-04 10:07)',
    ]);
  });

  it('stays within its budget: lines and tokens (counted by the real Qwen2.5 tokenizer)', async () => {
    const wm = new WorkingMemory();
    for (let i = 0; i < 30; i++) {
      wm.observe(`服务器 10.0.${i}.1 的工单 #${4000 + i}，截止到 ${(i % 28) + 1} 号，数据库用 MySQL ${i}.0。`, {
        turnId: `t${i}`,
        at: later(i),
      });
    }
    const block = wm.render('zh', later(40));
    const lines = block.split('\n');
    expect(lines.length).toBeLessThanOrEqual(9);
    expect(lines[1]).toMatch(/^- database：MySQL 29\.0/);
    const tokenizer = await loadNodeQwenTokenizer();
    expect(tokenizer.encode(block).length).toBeLessThanOrEqual(150);
    for (const lang of ['zh', 'en'] as const) {
      const text = conversation(150).render(lang, later(10));
      expect(tokenizer.encode(text).length).toBeLessThanOrEqual(150);
      expect(tokenizer.encode(text).length).toBeGreaterThanOrEqual(80);
    }
    const tight = new WorkingMemory(wm.state, { render: { maxTokens: 60 } }).render('en', later(40));
    expect(tokenizer.encode(tight).length).toBeLessThanOrEqual(60);
    expect(tight.split('\n').length).toBeGreaterThan(1);
  });

  it('shows the day of older items, and counts with a counter it is given', () => {
    const wm = conversation();
    expect(wm.render('en', '2026-03-05T09:00:00+08:00')).toContain('- database: PostgreSQL (03-04 10:05)');
    const oneLine = new WorkingMemory(wm.state, { render: { countTokens: () => 10, maxTokens: 21 } });
    expect(oneLine.render('en', later(10)).split('\n')).toHaveLength(2);
  });
});

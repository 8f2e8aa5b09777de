import { describe, expect, it } from 'vitest';
import { renderChatML } from '../../../src/context/chatml.ts';
import { BUDGET_ANCHORS, sectionBudgets, validateBudgets } from '../../../src/memory/layered/budgets.ts';
import { DAY, HOUR, T0, chat, pipeline } from './helpers.ts';
import { prng } from '../../../src/shared/prng.ts';

describe('section budgets', () => {
  it('add up to the window, keep the anchors, and interpolate between them', () => {
    for (const window of [256, 768, 1024, 1500, 2048, 3000, 4096, 8192, 32768]) {
      const b = sectionBudgets(window);
      expect(b.system + b.working + b.retrieval + b.input + b.reserve).toBe(window);
      expect(() => validateBudgets(b)).not.toThrow();
    }
    expect(sectionBudgets(1024)).toEqual(BUDGET_ANCHORS[0]);
    expect(sectionBudgets(1024).retrieval).toBeGreaterThanOrEqual(450);
    const mid = sectionBudgets(1500);
    expect(mid.retrieval).toBeGreaterThan(480);
    expect(mid.retrieval).toBeLessThan(1104);
    expect(() => sectionBudgets(100)).toThrow(/at least 256/);
    expect(() => validateBudgets({ ...sectionBudgets(1024), reserve: 1 })).toThrow(/add up/);
  });
});


const WORDS = [
  'nginx', '502', 'php-fpm', '10.0.0.7', 'order #A123456', 'Kafka', 'Redis', 'deadline 2024-03-20', 'tomorrow',
  '证书过期', '服务器', '排查', '订单号', '明天', '数据库迁移', 'Postgres 15.2', 'backup', 'the cat', 'pizza', 'hike',
];

describe('the pipeline keeps every section within its budget', () => {
  for (const window of [1024, 2048, 4096]) {
    it(`at a ${window}-token window, over random mixed conversations`, async () => {
      const { memory, counter } = await pipeline(window);
      const rand = prng(window);
      const b = memory.budgets;
      for (let s = 0; s < 3; s++) {
        const c = chat(memory, 'u', `S${s}`, T0 + s * DAY);
        for (let i = 0; i < 12; i++) {
          const n = 3 + Math.floor(rand() * 30);
          const text = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(rand() < 0.5 ? ' ' : '，');
          const r = await c.user(i === 5 ? text.repeat(12) : text);
          const m = r.report.memory.sections;
          expect(m.working.tokens).toBeLessThanOrEqual(b.working);
          // Retrieval may take what a compaction left unused of the input section, never more.
          expect(m.retrieval.selected!).toBeLessThanOrEqual(m.retrieval.budget);
          expect(m.retrieval.tokens).toBeLessThanOrEqual(m.retrieval.budget);
          expect(m.retrieval.budget).toBeLessThanOrEqual(b.retrieval + b.input);
          expect(m.system.tokens).toBeLessThanOrEqual(b.system);
          expect(r.report.promptTokens).toBeLessThanOrEqual(window - b.reserve);
          expect(counter.count(renderChatML(r.messages))).toBe(r.report.promptTokens);
          await c.bot(Array.from({ length: 10 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' '));
        }
      }
    });
  }
});

describe('cache-aware layout', () => {
  it('stays append-only across turns when only the memory block changes', async () => {
    const { memory } = await pipeline(4096);
    const c = chat(memory, 'u', 'S1', T0);
    const inputs = [
      '我们的服务器 10.0.0.7 上跑着 Nginx。',
      '订单号 #A123456 明天到货。',
      '数据库用 Postgres 15.2。',
      '截止日期是3月20日。',
      'Nginx 的 502 是怎么回事？',
    ];
    let previous: string | null = null;
    let extras: string | null = null;
    let changed = 0;
    for (const [i, text] of inputs.entries()) {
      c.at(T0 + i * HOUR);
      const r = await c.user(text);
      const prompt = renderChatML(r.messages);
      if (previous !== null) {
        expect(r.report.mode).toBe('append');
        expect(r.report.prefix.appendOnly).toBe(true);
        // The previous prompt, minus its generation prompt, is the start of this one.
        expect(prompt.startsWith(previous.slice(0, -'<|im_start|>assistant\n'.length))).toBe(true);
      }
      expect(r.messages.at(-1)!.content.endsWith(text)).toBe(true);
      if (extras !== null && r.extras !== extras) changed += 1;
      extras = r.extras;
      previous = prompt;
      await c.bot(`收到第${i + 1}条。`);
    }
    expect(changed).toBeGreaterThanOrEqual(3);
  });
});

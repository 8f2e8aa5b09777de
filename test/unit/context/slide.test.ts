import { beforeAll, describe, expect, it } from 'vitest';
import { assemble, type AssembleResult, type ContextState, type ExtrasFor } from '../../../src/context/assemble.ts';
import { renderChatML } from '../../../src/context/chatml.ts';
import { resolveConfig } from '../../../src/context/config.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { realCounter } from './helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const same = (a: ChatMessage, b: ChatMessage): boolean => a.role === b.role && a.content === b.content;
const config = resolveConfig({ systemPrompt: 'You are a helpful assistant.', budgetTokens: 600, reserveTokens: 150, compaction: 'slide' });

/** Memory notes: each turn wants its own note and the one of turn 0; a note the prompt holds is not sent again. */
const note = (i: number): string => `[Note ${i}] The deploy of service ${i} needs the token from vault path secret/app-${i} and a restart.`;
const memoryFor = (i: number): ExtrasFor => (held) => {
  const text = held.map((m) => m.content).join('\n');
  return [...new Set([note(0), note(i)])].filter((n) => !text.includes(n)).join('\n');
};

function drive(turns: number, memory = true): AssembleResult[] {
  const history: ChatMessage[] = [];
  const results: AssembleResult[] = [];
  let state: ContextState | null = null;
  for (let i = 0; i < turns; i++) {
    const input = `Question ${i}: how do I roll out version ${i}.0 of the billing service without downtime?`;
    const result = assemble(state, memory ? { history: [...history], input, extras: memoryFor(i) } : { history: [...history], input }, config, counter);
    results.push(result);
    state = result.nextState;
    history.push({ role: 'user', content: input }, { role: 'assistant', content: `Roll out ${i}.0 behind the load balancer, one node at a time, and watch the error rate.` });
  }
  return results;
}

describe('sliding compaction and memory built for what the prompt holds', () => {
  it('sends a memory note only while the prompt does not hold it', () => {
    const [r0, r1, r2] = drive(3);
    expect(r0!.messages.at(-1)!.content).toContain(note(0));
    // Turn 0's note is in the prompt already (in the first user message, kept verbatim): only the new note goes.
    expect(r1!.report.mode).toBe('append');
    expect(r1!.messages.at(-1)!.content).not.toContain(note(0));
    expect(r1!.messages.at(-1)!.content).toContain(note(1));
    const prompt = renderChatML(r2!.messages);
    expect(prompt.split(note(0)).length - 1).toBe(1);
  });

  it('keeps every message it keeps exactly as sent, in order, and never drops the newest exchange', () => {
    const results = drive(14);
    const slid = results.filter((r) => r.report.compaction === 'over-budget');
    expect(slid.length).toBeGreaterThan(0);
    for (let i = 1; i < results.length; i++) {
      const before = [...results[i - 1]!.messages];
      const now = results[i]!;
      expect(now.report.promptTokens).toBeLessThanOrEqual(now.report.budget.promptLimit);
      expect(counter.encode(renderChatML(now.messages))).toHaveLength(now.report.promptTokens);
      if (now.report.mode !== 'compact') continue;
      // Everything but the reply and the new message comes from the previous prompt, in its order.
      const kept = now.messages.slice(0, -2);
      let at = 0;
      for (const m of kept) {
        while (at < before.length && !same(before[at]!, m)) at++;
        expect(at, `message "${m.content.slice(0, 40)}" was not sent before`).toBeLessThan(before.length);
      }
      // The previous request's user message (with its memory) and its reply are still there.
      expect(now.messages.some((m) => same(m, before.at(-1)!))).toBe(true);
      expect(now.messages.at(-2)!.role).toBe('assistant');
      expect(now.report.warnings.some((w) => w.startsWith('slid out'))).toBe(true);
    }
  });

  it('keeps the exchange that carries memory the new turn still wants, and slides out one that carries none', () => {
    const results = drive(14);
    for (const r of results.filter((x) => x.report.compaction === 'over-budget')) {
      // Turn 0's note is wanted on every turn: the first user message, which carries it, outlives compactions.
      expect(r.messages[1]!.content).toContain(note(0));
      expect(r.messages.at(-1)!.content).not.toContain(note(0));
      const out = r.report.turns.filter((t) => !t.included && t.reason === 'over-budget');
      expect(out.length).toBeGreaterThan(0);
      expect(out.every((t) => t.index > 1)).toBe(true);
    }
  });

  it('keeps a stretch too short to reuse when dropping it would bring back memory that overflows the prompt', () => {
    const words = (n: number, word: string): string => Array.from({ length: n }, (_, k) => `${word}${k}`).join(' ');
    let memory = 'memory';
    while (counter.count(memory) < 139) memory += ' memory';
    // Request 4 slides out the exchanges around the short "KEY ok" one; dropping that too (it cannot be reused)
    // would make the memory block come back, 139 tokens, and the prompt go over the limit.
    const turns = [[words(20, 'alpha'), words(10, 'beta')], ['KEY ok', 'fine'], [words(20, 'gamma'), words(10, 'delta')], [words(60, 'eps'), words(60, 'zeta')]];
    const history: ChatMessage[] = [];
    let state: ContextState | null = null;
    let last: AssembleResult | null = null;
    for (let i = 0; i <= turns.length; i++) {
      const input = turns[i]?.[0] ?? 'And now?';
      const extras: ExtrasFor = (held) => (i >= 2 && !held.some((m) => m.content.includes('KEY')) ? memory : '');
      last = assemble(state, { history: [...history], input, extras }, config, counter);
      state = last.nextState;
      expect(last.report.promptTokens).toBeLessThanOrEqual(last.report.budget.promptLimit);
      if (turns[i] !== undefined) history.push({ role: 'user', content: turns[i]![0]! }, { role: 'assistant', content: turns[i]![1]! });
    }
    expect(last!.report.compaction).toBe('over-budget');
    expect(last!.messages.some((m) => m.content === 'KEY ok')).toBe(true);
    expect(last!.messages.at(-1)!.content).not.toContain('memory');
    expect(counter.encode(renderChatML(last!.messages))).toHaveLength(last!.report.promptTokens);
  });

  it('re-selects from the plain history by default', () => {
    const reselect = resolveConfig({ ...config, compaction: 'reselect' });
    let state: ContextState | null = null;
    const history: ChatMessage[] = [];
    let compacted: AssembleResult | null = null;
    for (let i = 0; i < 14 && compacted === null; i++) {
      const input = `Question ${i}: how do I roll out version ${i}.0 of the billing service without downtime?`;
      const r = assemble(state, { history: [...history], input, extras: memoryFor(i) }, reselect, counter);
      if (r.report.compaction === 'over-budget') compacted = r;
      state = r.nextState;
      history.push({ role: 'user', content: input }, { role: 'assistant', content: `Roll out ${i}.0 one node at a time.` });
    }
    expect(compacted).not.toBeNull();
    // Earlier user messages come back as their own text, without the memory they were sent with.
    for (const m of compacted!.messages.slice(1, -1)) expect(m.content.startsWith('[Note')).toBe(false);
    expect(compacted!.messages.at(-1)!.content).toContain(note(0));
  });

  it('rejects an unknown compaction mode', () => {
    expect(() => resolveConfig({ compaction: 'drop-all' as 'slide' })).toThrow(/compaction/);
  });
});

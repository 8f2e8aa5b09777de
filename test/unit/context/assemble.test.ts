import { beforeAll, describe, expect, it } from 'vitest';
import { assemble, type ContextState } from '../../../src/context/assemble.ts';
import { ContextAssembler } from '../../../src/context/assembler.ts';
import { renderChatML } from '../../../src/context/chatml.ts';
import { resolveConfig, type ContextConfig } from '../../../src/context/config.ts';
import { formatReport } from '../../../src/context/report.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { realCounter } from './helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const user = (content: string): ChatMessage => ({ role: 'user', content });
const bot = (content: string): ChatMessage => ({ role: 'assistant', content });

/** Drives a conversation: each step sends `inputs[i]`, then the "model" answers `replies[i]`. */
function drive(config: ContextConfig, inputs: readonly string[], replies: readonly string[], extras?: (i: number) => string) {
  const history: ChatMessage[] = [];
  const results = [];
  let state: ContextState | null = null;
  for (let i = 0; i < inputs.length; i++) {
    const request = extras ? { history: [...history], input: inputs[i]!, extras: extras(i) } : { history: [...history], input: inputs[i]! };
    const result = assemble(state, request, config, counter);
    results.push(result);
    state = result.nextState;
    history.push(user(inputs[i]!), bot(replies[i]!));
  }
  return { results, history };
}

describe('cache-aware assembly', () => {
  it('puts extras in the newest user message only and keeps what was sent verbatim', () => {
    const config = resolveConfig({ systemPrompt: 'Be brief.' });
    const { results } = drive(config, ['第一个问题', '第二个问题', '第三个问题'], ['答一', '答二', '答三'], (i) => `[相关历史] 记忆 ${i}`);
    const [r1, r2, r3] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0]];
    expect(r1.messages.at(-1)!.content).toBe('[相关历史] 记忆 0\n\n第一个问题');
    expect(r2.messages.at(-1)!.content).toBe('[相关历史] 记忆 1\n\n第二个问题');
    // The earlier user message still carries the extras it was sent with: the prompt only grew.
    expect(r3.messages[1]!.content).toBe('[相关历史] 记忆 0\n\n第一个问题');
    expect(r3.messages.slice(0, r2.messages.length)).toEqual(r2.messages);
    expect(r3.report).toMatchObject({ mode: 'append', compaction: null, extras: 'sent' });
    expect(r3.report.sections.extras.tokens).toBeGreaterThan(0);
    expect(renderChatML(r3.messages).startsWith(renderChatML(r2.messages))).toBe(true);
  });

  it('re-tokenizes nothing it has seen: each request counts only its new messages', () => {
    const config = resolveConfig();
    const history: ChatMessage[] = [];
    let state: ContextState | null = null;
    for (let i = 0; i < 12; i++) {
      const misses = counter.stats.misses;
      const input = `Question number ${i}: what is ${i} squared?`;
      const r = assemble(state, { history: [...history], input }, config, counter);
      state = r.nextState;
      // At most the previous reply and the new input are new to the counter.
      if (r.report.mode === 'append') expect(counter.stats.misses - misses).toBeLessThanOrEqual(2);
      history.push(user(input), bot(`${i} squared is ${i * i}.`));
    }
    // A fresh compaction over the same history tokenizes only the one reply never counted before.
    const misses = counter.stats.misses;
    assemble(null, { history: history.slice(0, -2), input: history.at(-2)!.content }, config, counter);
    expect(counter.stats.misses).toBe(misses);
    assemble(null, { history, input: 'Question number 11: what is 11 squared?' }, config, counter);
    expect(counter.stats.misses).toBe(misses + 1);
  });

  it('compacts rarely: down to the low-water mark, then appends until the limit', () => {
    const config = resolveConfig({ systemPrompt: 'You are a helpful assistant.' });
    const inputs = Array.from({ length: 40 }, (_, i) => `请解释第${i}个概念，简单说说它的用途和注意事项。`);
    const replies = inputs.map((_, i) => `第${i}个概念的用途很多。`.repeat(4));
    const { results } = drive(config, inputs, replies);
    const compactions = results.filter((r) => r.report.mode === 'compact');
    expect(compactions[0]!.report.compaction).toBe('first-request');
    for (const r of results) {
      expect(r.report.promptTokens).toBeLessThanOrEqual(r.report.budget.promptLimit);
      expect(counter.encode(renderChatML(r.messages))).toHaveLength(r.report.promptTokens);
    }
    for (const r of compactions.slice(1)) {
      expect(r.report.compaction).toBe('over-budget');
      expect(r.report.promptTokens).toBeLessThanOrEqual(r.report.budget.lowWater);
    }
    // Most requests reuse the whole previous prompt.
    expect(compactions.length).toBeLessThan(results.length / 3);
    for (let i = 1; i < results.length; i++) {
      const r = results[i]!;
      if (r.report.mode !== 'append') continue;
      expect(r.messages.slice(0, results[i - 1]!.messages.length)).toEqual(results[i - 1]!.messages);
      expect(r.report.prefix.appendOnly).toBe(true);
      expect(r.report.prefix.tokens).toBe(results[i - 1]!.report.promptTokens);
    }
  });

  it('compacts when the history was edited, the config changed, or cacheAware is off', () => {
    const config = resolveConfig();
    const history = [user('a question'), bot('an answer')];
    const r1 = assemble(null, { history, input: 'next' }, config, counter);
    const edited = [user('a question, edited'), bot('an answer'), user('next'), bot('ok')];
    expect(assemble(r1.nextState, { history: edited, input: 'more' }, config, counter).report.compaction).toBe('history-changed');
    const same = [...history, user('next'), bot('ok')];
    expect(assemble(r1.nextState, { history: same, input: 'more' }, config, counter).report.mode).toBe('append');
    const other = resolveConfig({ systemPrompt: 'Different.' });
    expect(assemble(r1.nextState, { history: same, input: 'more' }, other, counter).report.compaction).toBe('config-changed');
    const off = resolveConfig({ cacheAware: false });
    expect(assemble(r1.nextState, { history: same, input: 'more' }, off, counter).report.compaction).toBe('cache-off');
    // Regenerating (same history, the previous input not in it) re-selects.
    expect(assemble(r1.nextState, { history, input: 'next' }, config, counter).report.compaction).toBe('history-changed');
  });

  it('handles an empty (aborted) reply and system messages in the history, with reasons', () => {
    const config = resolveConfig();
    const r1 = assemble(null, { history: [{ role: 'system', content: 'old system' }], input: 'hello' }, config, counter);
    expect(r1.report.turns[0]).toMatchObject({ reason: 'system-in-history', included: false });
    const r2 = assemble(r1.nextState, { history: [{ role: 'system', content: 'old system' }, user('hello'), bot('')], input: 'again' }, config, counter);
    // Appending keeps even an empty reply, so the prompt stays a string extension of the previous one.
    expect(r2.report.mode).toBe('append');
    expect(r2.report.turns[2]).toMatchObject({ reason: 'appended', included: true });
    expect(r2.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(renderChatML(r2.messages).startsWith(renderChatML(r1.messages))).toBe(true);
    expect(r2.report.prefix.tokens).toBe(r1.report.promptTokens);
    // A compaction leaves it out.
    const r3 = assemble(null, { history: [user('hello'), bot('')], input: 'again' }, config, counter);
    expect(r3.report.turns[1]).toMatchObject({ reason: 'empty', included: false });
  });

  it('cuts a reply that alone exceeds the history room, at a sentence end, with the marker', () => {
    const config = resolveConfig();
    const long = Array.from({ length: 120 }, (_, i) => `这是第${i}句很长的回答内容。`).join('');
    const history = [user('写一篇长文'), bot(long)];
    const { messages, report } = assemble(null, { history, input: '总结一下上面的内容' }, config, counter);
    const cutTurn = report.turns[1]!;
    expect(cutTurn).toMatchObject({ included: true, reason: 'referenced-by-input' });
    expect(cutTurn.cut!.originalTokens).toBeGreaterThan(report.budget.promptLimit);
    const sent = messages.find((m) => m.role === 'assistant')!.content;
    expect(sent.endsWith(config.truncationMarker)).toBe(true);
    const kept = sent.slice(0, -config.truncationMarker.length);
    expect(long.startsWith(kept)).toBe(true);
    expect(kept.endsWith('。')).toBe(true);
    expect(report.promptTokens).toBeLessThanOrEqual(report.budget.lowWater);
    expect(report.warnings.join()).toMatch(/cut from/);
  });

  it('follows a back-reference far back to the code it means, with its own answer', () => {
    const config = resolveConfig({ recentExchanges: 1 });
    const history = [
      user('write a function to add numbers'),
      bot('```python\ndef add(a, b):\n    return a + b\n```'),
      user('tell me a joke'),
      bot('Why did the chicken cross the road?'),
      user('and the weather?'),
      bot('I cannot check the weather.'),
    ];
    const { report } = assemble(null, { history, input: 'rename that function to plus' }, config, counter);
    expect(report.turns.map((t) => `${t.index}:${t.reason}`)).toEqual([
      '0:superseded-by-code',
      '1:referenced-by-input',
      '2:outside-window',
      '3:outside-window',
      '4:recent',
      '5:recent',
      '6:current-input',
    ]);
    const withRef = [...history, user('is the code above correct?'), bot('Yes.'), user('thanks'), bot('You are welcome.')];
    const r2 = assemble(null, { history: withRef, input: 'bye' }, config, counter);
    expect(r2.report.turns.slice(6, 8).map((t) => t.reason)).toEqual(['back-reference', 'answer-to-reference']);
    expect(r2.report.turns[1]!.reason).toBe('referenced'); // pointed to by #6 ("the code above")
  });

  it('ContextAssembler keeps the state between calls and formats a readable report', () => {
    const assembler = new ContextAssembler(counter, resolveConfig());
    const a = assembler.next([], 'hi');
    const b = assembler.next([user('hi'), bot('hello!')], 'how are you?', 'memory: none');
    expect(b.report.mode).toBe('append');
    expect(assembler.state?.requests).toBe(2);
    expect(b.messages.slice(0, 2)).toEqual(a.messages);
    const text = formatReport(b.report);
    expect(text).toMatch(/request 2: append/);
    expect(text).toMatch(/#2 +user +in/);
    assembler.reset();
    expect(assembler.state).toBeNull();
    expect(() => assembler.next([], '   ')).toThrow(/empty/);
  });

  it('state is plain data: it survives a JSON round trip', () => {
    const config = resolveConfig();
    const r1 = assemble(null, { history: [], input: '你好' }, config, counter);
    const revived = JSON.parse(JSON.stringify(r1.nextState)) as ContextState;
    const r2 = assemble(revived, { history: [user('你好'), bot('你好！')], input: '再见' }, config, counter);
    expect(r2.report.mode).toBe('append');
  });
});

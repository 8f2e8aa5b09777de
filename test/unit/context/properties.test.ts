/**
 * Property tests on random Chinese / English conversations, driven turn by turn with the real Qwen2.5 counter:
 * never over budget (exactly counted), turns never split except the marked oversize case, time order kept,
 * the current input always present, consecutive prompts share their prefix except at compactions.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { assemble, type AssembleResult, type ContextState } from '../../../src/context/assemble.ts';
import { renderChatML } from '../../../src/context/chatml.ts';
import { resolveConfig, type ContextConfig } from '../../../src/context/config.ts';
import { sanitizeText } from '../../../src/shared/sanitize.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import type { ChatMessage } from '../../../src/engine/protocol.ts';
import { realCounter } from './helpers.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await realCounter();
});

const ZH = ['帮我写一个函数', '把列表里的奇数平方', '上面那个函数', '刚才说的方法', '因此', '此外', '输出应该是什么？', '改成只处理正数。', '谢谢！', '这段代码有问题', '之前的需求'];
const EN = ['Write a function', 'that sorts a list.', 'Is it correct?', 'the code above', 'previous answer', 'Thanks!', 'Explain earlier steps.', 'item', 'quit'];
const CODE = ['```python\ndef f(x):\n    return x * 2\n```', '```js\nconst a = [1, 2, 3].map((x) => x ** 2);\n```'];
const ODD = ['😀👍🏽', '👨‍👩‍👧', 'e\u0301', '<|im_start|>', '\uD800', '  ', '\n\n', '3.14159', '。', '…'];

const phrase = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ZH) },
  { weight: 4, arbitrary: fc.constantFrom(...EN) },
  { weight: 1, arbitrary: fc.constantFrom(...CODE) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
);
const text = (maxPhrases: number) => fc.array(phrase, { minLength: 1, maxLength: maxPhrases }).map((p) => p.join(' '));
/** Mostly short texts, sometimes a long one (to force cuts and oversize turns). */
const message = fc.oneof(
  { weight: 12, arbitrary: text(8) },
  { weight: 1, arbitrary: text(6).map((t) => t.repeat(40)) },
);
const exchange = fc.record({ input: message, reply: fc.oneof({ weight: 10, arbitrary: message }, { weight: 1, arbitrary: fc.constant('') }), extras: fc.option(text(5), { nil: undefined }) });

const configArb = fc
  .record({
    budgetTokens: fc.integer({ min: 160, max: 1400 }),
    reserveFraction: fc.double({ min: 0, max: 0.6, noNaN: true }),
    lowWaterRatio: fc.double({ min: 0.3, max: 1, noNaN: true }),
    recentExchanges: fc.integer({ min: 0, max: 4 }),
    cacheAware: fc.boolean(),
    maxExtrasTokens: fc.integer({ min: 0, max: 80 }),
    systemPrompt: fc.constantFrom('You are a helpful assistant.', '你是一个乐于助人的AI助手，专注Python编程帮助。', ''),
  })
  .map(({ reserveFraction, ...c }): ContextConfig =>
    resolveConfig({ ...c, reserveTokens: Math.floor(c.budgetTokens * reserveFraction), lowWaterRatio: Math.max(0.3, Math.min(1, c.lowWaterRatio)) }),
  );

function checkRequest(
  config: ContextConfig,
  history: readonly ChatMessage[],
  input: string,
  result: AssembleResult,
  previous: AssembleResult | null,
): void {
  const { messages, report, nextState } = result;
  const marker = config.truncationMarker;
  // Never over budget, counted exactly.
  expect(report.promptTokens).toBeLessThanOrEqual(report.budget.promptLimit);
  expect(counter.encode(renderChatML(messages))).toHaveLength(report.promptTokens);
  expect(messages[0]).toEqual({ role: 'system', content: sanitizeText(config.systemPrompt) });
  // Order kept; every turn accounted for.
  const from = nextState.sentFrom;
  for (let j = 1; j < from.length; j++) expect(from[j]!).toBeGreaterThan(from[j - 1]!);
  expect(report.turns).toHaveLength(history.length + 1);
  expect(report.turns.filter((t) => t.included)).toHaveLength(messages.length - 1);
  // Turns whole, except a marked cut; the current input always present and last.
  const byIndex = new Map(report.turns.map((t) => [t.index, t]));
  for (let j = 1; j < messages.length; j++) {
    const index = from[j]!;
    const source = index === history.length ? sanitizeText(input) : sanitizeText(history[index]!.content);
    const content = messages[j]!.content;
    expect(messages[j]!.role).toBe(index === history.length ? 'user' : history[index]!.role);
    if (byIndex.get(index)!.cut !== undefined) {
      expect(content.endsWith(marker)).toBe(true);
      expect(source.startsWith(content.slice(0, -marker.length))).toBe(true);
    } else {
      // Whole: alone, or (a user message) after the extras it was sent with.
      expect(content === source || (messages[j]!.role === 'user' && content.endsWith(`\n\n${source}`))).toBe(true);
    }
  }
  expect(report.turns.at(-1)).toMatchObject({ index: history.length, included: true, reason: 'current-input' });
  // Consecutive prompts share their prefix except at compactions.
  if (report.mode === 'append') {
    expect(previous).not.toBeNull();
    expect(messages.slice(0, previous!.messages.length)).toEqual(previous!.messages);
    expect(renderChatML(messages).startsWith(renderChatML(previous!.messages))).toBe(true);
    expect(report.prefix.appendOnly).toBe(true);
  } else {
    expect(report.compaction).not.toBeNull();
    const fixed = report.sections.system.tokens + report.sections.input.tokens + report.budget.generationPrompt;
    const ceiling = config.cacheAware ? report.budget.lowWater : report.budget.promptLimit;
    expect(report.promptTokens).toBeLessThanOrEqual(Math.max(ceiling, fixed));
  }
}

/** How often each interesting case came up, so the property is known to reach them. */
const seen: Record<string, number> = {};
function tally({ report }: AssembleResult): void {
  const keys = [report.mode === 'append' ? 'append' : `compact:${report.compaction}`, `extras:${report.extras}`];
  for (const t of report.turns) {
    if (t.cut) keys.push(t.reason === 'current-input' ? 'cut:input' : 'cut:history');
    if (!t.included) keys.push(`out:${t.reason}`);
  }
  for (const k of keys) seen[k] = (seen[k] ?? 0) + 1;
}

/** 120 runs keep the unit suite fast; CONTEXT_PROPERTY_RUNS=5000 for a long soak. */
const RUNS = Number(process.env['CONTEXT_PROPERTY_RUNS'] ?? 120);

describe('assembly properties (real tokenizer)', () => {
  it('holds its invariants on random conversations', () => {
    fc.assert(
      fc.property(configArb, fc.array(exchange, { minLength: 1, maxLength: 10 }), (config, exchanges) => {
        const history: ChatMessage[] = [];
        let state: ContextState | null = null;
        let previous: AssembleResult | null = null;
        for (const { input, reply, extras } of exchanges) {
          let result: AssembleResult;
          try {
            result = assemble(state, extras === undefined ? { history: [...history], input } : { history: [...history], input, extras }, config, counter);
          } catch (error) {
            // The only allowed refusals: a blank message, or a system prompt too big for a tiny budget.
            const code = (error as { code?: string }).code;
            expect(code === 'invalid_input' || code === 'invalid_config').toBe(true);
            if (code === 'invalid_input') expect(sanitizeText(input).trim().replace(/\u200B/g, '')).toBe('');
            return;
          }
          checkRequest(config, history, input, result, previous);
          tally(result);
          state = result.nextState;
          previous = result;
          history.push({ role: 'user', content: input }, { role: 'assistant', content: reply });
        }
      }),
      { numRuns: RUNS },
    );
    if (process.env['CONTEXT_PROPERTY_STATS']) console.log(seen);
    for (const k of ['append', 'compact:first-request', 'compact:over-budget', 'cut:input', 'out:over-budget', 'out:outside-window']) {
      expect(seen[k] ?? 0, k).toBeGreaterThan(0);
    }
  }, 30_000 + RUNS * 20);
});

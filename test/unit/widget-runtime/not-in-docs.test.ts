/** When the widget holds a question to the docs (not-in-docs.ts): a question on its own, not a follow-up. */
import { describe, expect, it } from 'vitest';
import { NOT_IN_DOCS, standsAlone } from '../../../src/widget/runtime/not-in-docs.ts';

const exchange = [
  { role: 'system' as const, content: 'You answer from the docs.' },
  { role: 'user' as const, content: 'When does the gateway restart?' },
  { role: 'assistant' as const, content: 'The gateway restarts every night at two.' },
];
const asking = (question: string) => [...exchange, { role: 'user' as const, content: question }];

describe('a question that stands on its own', () => {
  it('the first question of a conversation always does', () => {
    expect(standsAlone('And then?', [{ role: 'system', content: 'x' }, { role: 'user', content: 'And then?' }])).toBe(true);
  });

  it('a follow-up to the exchange before does not: the model has that exchange in its prompt', () => {
    expect(standsAlone('And what happens then?', asking('And what happens then?'))).toBe(false);
    expect(standsAlone('Why at two?', asking('Why at two?'))).toBe(false);
    const zh = [
      { role: 'user' as const, content: '网关什么时候重启？' },
      { role: 'assistant' as const, content: '网关每天凌晨两点重启。' },
      { role: 'user' as const, content: '那要多久？' },
    ];
    expect(standsAlone('那要多久？', zh)).toBe(false);
  });

  it('a new subject does: it names something, or brings words the conversation never used', () => {
    expect(standsAlone('What is the capital of Peru?', asking('What is the capital of Peru?'))).toBe(true);
    expect(standsAlone('how do I bake sourdough bread', asking('how do I bake sourdough bread'))).toBe(true);
    expect(standsAlone('怎么烤面包？', asking('怎么烤面包？'))).toBe(true);
  });

  it('a follow-up to "not in the docs" stands alone: there is no answer to follow up', () => {
    const refused = [
      { role: 'user' as const, content: 'What is a good recipe for lemon tart?' },
      { role: 'assistant' as const, content: NOT_IN_DOCS.en },
      { role: 'user' as const, content: 'And with meringue?' },
    ];
    expect(standsAlone('And with meringue?', refused)).toBe(true);
  });
});

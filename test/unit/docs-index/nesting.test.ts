import { describe, expect, it } from 'vitest';
import { MAX_NESTING, markdownDepth } from '../../../src/docs-index/nesting.ts';
import { parseDoc } from '../../../src/docs-index/page.ts';
import { skipOf } from './skip-of.ts';
import { cpuMs } from '../cpu-time.ts';

const nestedList = (depth: number): string => Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}- level ${i + 1}`).join('\n');

describe('markdownDepth', () => {
  it('counts indentation and markers of lines that open a container, not fenced code or plain indentation', () => {
    expect(markdownDepth('# Title\n\ntext')).toBe(0);
    expect(markdownDepth(nestedList(3))).toBe(3);
    expect(markdownDepth('> - 1. x')).toBe(3);
    expect(markdownDepth('```\n' + ' '.repeat(400) + '- inside code\n```\n- after')).toBe(1);
    expect(markdownDepth(' '.repeat(400) + 'indented code, no marker')).toBe(0);
    expect(markdownDepth('-not a marker\n*emphasis*')).toBe(0);
  });
});

describe('parseDoc on deeply nested Markdown (found by fuzzing)', () => {
  it('skips 2,000 nested quotes with a reason (marked overflowed the stack: an uncoded RangeError)', () => {
    expect(skipOf(() => parseDoc('quotes.md', '>'.repeat(2_000) + ' x'))).toMatchObject({ code: 'invalid_input', reason: 'too_deep', params: { max: MAX_NESTING } });
  });

  it('skips an 800-level nested list at once (marked took 12 s: cubic in the depth)', () => {
    const started = cpuMs();
    expect(skipOf(() => parseDoc('list.md', nestedList(800))).reason).toBe('too_deep');
    expect(cpuMs() - started).toBeLessThan(1_000);
  });

  it('still parses nesting up to the limit', () => {
    const page = parseDoc('list.md', `# Deep\n\n${nestedList(MAX_NESTING)}`).page;
    expect(page.sections[0]!.blocks[0]!.text).toContain(`level ${MAX_NESTING}`);
  });
});

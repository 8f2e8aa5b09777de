/**
 * A Markdown run with no blank line, longer than any real paragraph (a pasted log continuing a list item), is broken
 * with blank lines before marked lexes it: marked is quadratic on such runs, which a fuzzed page of 43 KB once took
 * past the fuzz test's 2 s bound on a loaded machine. The text stays; fenced code is never touched.
 */
import { describe, expect, it } from 'vitest';
import { RUN_CHARS, breakLongRuns } from '../../../src/docs-index/long-runs.ts';
import { parseMarkdownPage } from '../../../src/docs-index/markdown.ts';

const logLines = (n: number): string => Array.from({ length: n }, (_, i) => `  retry ${i}: upstream timed out after 30 s`).join('\n');

describe('long runs without a blank line', () => {
  it('leaves a page without one as it is', () => {
    const page = `# Setup\n\nInstall it:\n\n- run the installer\n- restart\n\n${'A normal paragraph. '.repeat(20)}\n`;
    expect(breakLongRuns(page)).toBe(page);
  });

  it('breaks a list item continued by thousands of lines into parts of at most RUN_CHARS, keeping every line', () => {
    const page = `# Incident\n\n- the gateway log:\n${logLines(3_000)}\n\n## After\n\nAll good.\n`;
    const broken = breakLongRuns(page);
    expect(broken.replace(/\n\n+/g, '\n')).toBe(page.replace(/\n\n+/g, '\n'));
    for (const run of broken.split(/\n[ \t]*\n/)) expect(run.length).toBeLessThanOrEqual(RUN_CHARS + 60);
    const parsed = parseMarkdownPage(page);
    const text = parsed.sections.flatMap((s) => s.blocks.map((b) => b.text)).join('\n');
    for (const i of [0, 1_500, 2_999]) expect(text).toContain(`retry ${i}: upstream timed out after 30 s`);
    expect(parsed.sections.map((s) => s.heading)).toEqual(['Incident', 'After']);
  });

  it('never adds a blank line inside fenced code, however long', () => {
    const code = '```text\n' + logLines(3_000) + '\n```';
    const page = `# Log\n\n${code}\n\nThe end.\n`;
    expect(breakLongRuns(page)).toContain(code);
    const block = parseMarkdownPage(page).sections[0]!.blocks.find((b) => b.code)!;
    expect(block.text).toBe(code);
  });
});

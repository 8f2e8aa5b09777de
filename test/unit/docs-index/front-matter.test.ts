import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from '../../../src/docs-index/front-matter.ts';
import { decodeDocBytes } from '../../../src/docs-index/decode.ts';
import { publishedUrl } from '../../../src/docs-index/page.ts';
import { skipOf } from './skip-of.ts';
import { cpuMs } from '../cpu-time.ts';

describe('parseFrontMatter', () => {
  it('removes the block and keeps its title (quoted or not, CRLF or LF)', () => {
    const fm = parseFrontMatter('---\r\n# a comment\r\ntitle: "Install: the quick way"\r\ntags:\r\n  - setup\r\nsummary: >\r\n  folded text\r\n---\r\n# Body\r\n');
    expect(fm).toEqual({ title: 'Install: the quick way', body: '# Body\r\n' });
    expect(parseFrontMatter("---\ntitle: 'Single'\n---\ntext")).toEqual({ title: 'Single', body: 'text' });
    expect(parseFrontMatter('---\nlayout: page\n...\ntext')).toEqual({ title: null, body: 'text' });
  });

  it('leaves a page without front matter as it is', () => {
    expect(parseFrontMatter('# Title\n\n---\n\ntext')).toEqual({ title: null, body: '# Title\n\n---\n\ntext' });
  });

  it('refuses an unterminated block or a line that is not key: value, with a reason code', () => {
    expect(skipOf(() => parseFrontMatter('---\ntitle: x\n# Heading\n')).reason).toBe('front_matter_unterminated');
    const bad = skipOf(() => parseFrontMatter('---\ntitle: x\njust words\n---\nbody'));
    expect(bad).toMatchObject({ reason: 'front_matter_line', code: 'invalid_input', params: { line: 3 } });
    expect(bad.message).toBe('front matter line 3 is not "key: value": "just words"');
  });

  it('reads a line of a megabyte of blanks in linear time (found by fuzzing: the key pattern backtracked)', () => {
    const blanks = ' '.repeat(1_000_000);
    const started = cpuMs();
    expect(skipOf(() => parseFrontMatter(`---\na${blanks}x\n---\nbody`)).reason).toBe('front_matter_line');
    expect(skipOf(() => parseFrontMatter(`---\n-${blanks}x\ry\n---\nbody`)).reason).toBe('front_matter_line');
    expect(skipOf(() => parseFrontMatter(`---\nkey:${blanks}x\ry\n---\nbody`)).reason).toBe('front_matter_line');
    expect(parseFrontMatter(`---\ntitle${blanks}:  "Spaced"\n---\nbody`)).toEqual({ title: 'Spaced', body: 'body' });
    expect(cpuMs() - started).toBeLessThan(1_000);
  });
});

describe('decodeDocBytes', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  it('decodes UTF-8 and drops a byte-order mark', () => {
    expect(decodeDocBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('中文 ok')]))).toBe('中文 ok');
  });
  it('names the reason for binary, non-UTF-8 and oversized input', () => {
    expect(skipOf(() => decodeDocBytes(new Uint8Array([0x41, 0x00])))).toMatchObject({ reason: 'binary', params: { offset: 1 } });
    expect(skipOf(() => decodeDocBytes(new Uint8Array([0x63, 0x61, 0x66, 0xe9])))).toMatchObject({ reason: 'not_utf8' });
    expect(skipOf(() => decodeDocBytes(bytes('x'.repeat(11)), 10)).reason).toBe('too_large');
  });
});

describe('publishedUrl', () => {
  it('publishes Markdown as .html and keeps HTML paths', () => {
    expect(publishedUrl('index.md')).toBe('index.html');
    expect(publishedUrl('guide\\install.markdown')).toBe('guide/install.html');
    expect(publishedUrl('./api/page.htm')).toBe('api/page.htm');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { loadNodeQwenCounter } from '../../../scripts/prepare-tokenizer.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { parseMarkdownPage } from '../../../src/docs-index/markdown.ts';
import { chunkDoc } from '../../../src/docs-index/page.ts';
import { splitPage } from '../../../src/docs-index/split.ts';
import { renderMarkdownPage } from '../../../scripts/site/render-page.ts';

let counter: CachedTokenCounter;
beforeAll(async () => {
  counter = await loadNodeQwenCounter();
});

const sentence = (i: number): string => `Sentence ${i} explains how the widget loads its docs index lazily and searches it locally.`;
const paragraph = (from: number, n: number): string => Array.from({ length: n }, (_, k) => sentence(from + k)).join(' ');

describe('splitPage (real Qwen tokenizer)', () => {
  it('splits by heading, keeps every chunk within 400 tokens with an exact count, and keeps the heading path', () => {
    const long = Array.from({ length: 12 }, (_, p) => paragraph(p * 10, 10)).join('\n\n');
    const md = `# Guide\n\nIntro text.\n\n## Install\n\nRun npm install.\n\n## Long part\n\n${long}\n\n### Deeper\n\nA short note.\n`;
    const chunks = chunkDoc('guide.md', md, counter).chunks;
    for (const c of chunks) {
      expect(c.tokens).toBe(counter.count(c.text));
      expect(c.tokens).toBeLessThanOrEqual(400);
    }
    expect(chunks[0]).toMatchObject({ anchor: 'guide', heading: 'Guide' });
    expect(chunks[0]!.text).toBe('Guide\n\nIntro text.');
    expect(chunks[1]).toMatchObject({ anchor: 'install', heading: 'Guide › Install', text: 'Guide › Install\n\nRun npm install.' });
    const longChunks = chunks.filter((c) => c.anchor === 'long-part');
    expect(longChunks.length).toBeGreaterThanOrEqual(4);
    for (const c of longChunks) expect(c.text.startsWith('Guide › Long part\n\n')).toBe(true);
    // Nothing lost, nothing reordered, and cuts fall between paragraphs (each paragraph is under the limit).
    const body = longChunks.map((c) => c.text.slice('Guide › Long part\n\n'.length)).join('\n\n');
    expect(body).toBe(long);
    expect(chunks.at(-1)).toMatchObject({ anchor: 'deeper', heading: 'Guide › Long part › Deeper' });
  });

  it('cuts a paragraph over the limit at sentence boundaries', () => {
    const chunks = chunkDoc('p.md', `## One paragraph\n\n${paragraph(0, 60)}\n`, counter).chunks;
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.tokens).toBeLessThanOrEqual(400);
      expect(c.text).toMatch(/locally\.$/);
    }
  });

  it('never cuts a code block that fits, and fences each piece of one that does not', () => {
    const code = Array.from({ length: 20 }, (_, i) => `const value${i} = compute(${i}, "docs");`).join('\n');
    const md = `## Example\n\n${paragraph(0, 12)}\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAfter the code.\n`;
    const chunks = chunkDoc('c.md', md, counter).chunks;
    expect(counter.count(code)).toBeGreaterThan(200);
    const withCode = chunks.filter((c) => c.text.includes('const value0 ='));
    expect(withCode).toHaveLength(1);
    expect(withCode[0]!.text).toContain('```ts\n' + code + '\n```');

    const huge = Array.from({ length: 200 }, (_, i) => `const value${i} = compute(${i}, "docs");`).join('\n');
    const pieces = chunkDoc('h.md', `## Huge\n\n\`\`\`ts\n${huge}\n\`\`\`\n`, counter).chunks;
    expect(pieces.length).toBeGreaterThan(2);
    for (const p of pieces) {
      expect(p.tokens).toBeLessThanOrEqual(400);
      expect(p.text).toMatch(/^Huge\n\n```ts\n[\s\S]*\n```$/);
    }
    const lines = pieces.flatMap((p) => p.text.split('\n').filter((l) => l.startsWith('const ')));
    expect(lines).toEqual(huge.split('\n'));
  });

  it('re-opens the pieces of a cut code block with a short fence line when its own is huge', () => {
    const huge = Array.from({ length: 200 }, (_, i) => `const value${i} = compute(${i}, "docs");`).join('\n');
    // One long word (Markdown keeps only an info string's first word, so a long second word never gets here).
    const info = 'ts' + '-a1b2'.repeat(1200);
    const pieces = chunkDoc('i.md', `## Huge\n\n\`\`\`${info}\n${huge}\n\`\`\`\n`, counter).chunks;
    // About as many pieces as without the long line (each piece did repeat it, leaving a 1-token budget per piece).
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.length).toBeLessThan(12);
    for (const p of pieces) {
      expect(p.tokens).toBeLessThanOrEqual(400);
      expect(p.text.startsWith(`Huge\n\n\`\`\`${info.slice(0, 40)}\n`)).toBe(true);
      expect(p.text.endsWith('\n```')).toBe(true);
    }
    expect(pieces.flatMap((p) => p.text.split('\n').filter((l) => l.startsWith('const ')))).toEqual(huge.split('\n'));
  });

  it('splits a Chinese page at 。 and gives CJK anchors', () => {
    const zh = Array.from({ length: 80 }, (_, i) => `第${i}句说明文档知识与对话记录分开保存，小部件只从站点自己的文档回答。`).join('');
    const md = `# 小部件指南\n\n## 安装 与 配置\n\n${zh}\n\n## 隐私\n\n所有数据都留在浏览器里。\n`;
    const chunks = chunkDoc('zh.md', md, counter).chunks;
    const install = chunks.filter((c) => c.anchor === '安装-与-配置');
    expect(install.length).toBeGreaterThan(1);
    for (const c of install) {
      expect(c.heading).toBe('小部件指南 › 安装 与 配置');
      expect(c.tokens).toBeLessThanOrEqual(400);
      expect(c.text).toMatch(/。$/);
    }
    expect(chunks.at(-1)).toMatchObject({ anchor: '隐私', text: '小部件指南 › 隐私\n\n所有数据都留在浏览器里。' });
  });

  it('gives GitHub-style anchors, unique within the page, from the heading’s visible text', () => {
    const md = '## Usage\n\na\n\n## Usage\n\nb\n\n## `<qwen-assistant>` *attributes*\n\nc\n\n## [Linked](https://x.example) & more\n\nd\n';
    const page = parseMarkdownPage(md);
    expect(page.sections.map((s) => s.anchor)).toEqual(['usage', 'usage-1', 'qwen-assistant-attributes', 'linked--more']);
    expect(page.sections[2]!.heading).toBe('<qwen-assistant> attributes');
    const chunks = splitPage({ ...page, title: 'T' }, counter);
    expect(new Set(chunks.map((c) => c.anchor)).size).toBe(4);
  });

  it('follows a site generator’s heading ids: its slug rule, explicit `{#id}`s, and only ids its built page has', () => {
    const md = '# Guide\n\n## Install & run\n\na\n\n## Storage {#where-data-lives}\n\nb\n\n## Gone\n\nc\n';
    const dashes = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    const { chunks } = chunkDoc('g.md', md, counter, undefined, { slugify: dashes, anchors: new Set(['guide', 'install-run', 'where-data-lives']) });
    expect(chunks.map((c) => [c.anchor, c.heading])).toEqual([
      ['install-run', 'Guide › Install & run'],
      ['where-data-lives', 'Guide › Storage'],
      ['', 'Guide › Gone'],
    ]);
    // The demo site renders the same ids (GitHub's rule, the explicit id kept), so its links land.
    const rendered = renderMarkdownPage(md).html;
    expect(rendered).toContain('<h2 id="install--run">');
    expect(rendered).toContain('<h2 id="where-data-lives"><a class="anchor" href="#where-data-lives" aria-hidden="true">#</a>Storage</h2>');
    expect(parseMarkdownPage(md).sections.map((x) => x.anchor)).toEqual(['guide', 'install--run', 'where-data-lives', 'gone']);
  });

  it('keeps a code span’s text as written (no entity decoding inside backticks), and decodes entities outside', () => {
    const page = parseMarkdownPage('## Use `a &amp; b`\n\nWrite `&lt;br&gt;` &amp; `&#42;`, not &lt;br&gt;.\n');
    expect(page.sections[0]!.heading).toBe('Use a &amp; b');
    expect(page.sections[0]!.blocks.map((b) => b.text)).toEqual(['Write &lt;br&gt; & &#42;, not <br>.']);
  });

  it('turns lists, tables and inline markup into plain text', () => {
    const md = '## Options\n\n- **model**: a GGUF [URL](https://x.example)\n- `lang`: zh or en\n  1. nested\n\n| Name | Default |\n| --- | --- |\n| window | 4096 |\n';
    const [chunk] = chunkDoc('o.md', md, counter).chunks;
    expect(chunk!.text).toBe('Options\n\n- model: a GGUF URL\n- lang: zh or en\n  1. nested\n\nName | Default\nwindow | 4096');
  });

  it('splits a page with one huge heading over many sections in work linear in the page, with the same chunks', () => {
    // A page whose top heading is 1,500 words long, over 400 short sections: every section repeats that path.
    const huge = Array.from({ length: 1500 }, (_, k) => `term${k}`).join(' ');
    const md = `# ${huge}\n\n${Array.from({ length: 400 }, (_, k) => `## Part ${k}\n\nStep ${k} of the setup.\n`).join('\n')}`;
    let counted = 0;
    const measuring = { count: (text: string): number => ((counted += text.length), counter.count(text)) };
    const chunks = chunkDoc('huge.md', md, measuring).chunks;
    expect(chunks).toHaveLength(400);
    // The path is too long to lead each chunk: the section's own heading does, and nothing else is lost.
    expect(chunks[7]).toMatchObject({ anchor: 'part-7', text: 'Part 7\n\nStep 7 of the setup.' });
    for (const c of chunks) expect(c.tokens).toBe(counter.count(c.text));
    // Counting the 1,500-word path for each of the 400 sections would read it 400 times over.
    expect(counted).toBeLessThan(10 * md.length);
  });
});

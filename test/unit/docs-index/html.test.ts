import { describe, expect, it } from 'vitest';
import { parseHtmlPage } from '../../../src/docs-index/html.ts';

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head><title>Widget &amp; Embedding</title><style>h1 { color: red }</style>
<script>var notText = "<h2>fake</h2>";</script></head>
<body>
  <header><h1>Site header, outside main</h1></header>
  <nav><ul><li><a href="/">Home</a></li><li>Docs</li></ul></nav>
  <main>
    <h1 id="top">Embedding the widget</h1>
    <p>Add <code>&lt;qwen-assistant&gt;</code> to any page.<!-- a comment --></p>
    <h2>Attributes<a class="headerlink" href="#attributes">¶</a></h2>
    <ul><li><b>model</b>: a GGUF URL</li><li>lang: zh or en</li></ul>
    <script>document.write('not docs')</script>
    <h2>Attributes</h2>
    <pre><code>&lt;qwen-assistant
  model="/m.gguf"&gt;&lt;/qwen-assistant&gt;</code></pre>
    <p>Works with 1 &lt; 2 &#x4E2D;&#25991; text.</p>
  </main>
  <footer>Footer, outside main</footer>
</body></html>`;

describe('parseHtmlPage', () => {
  it('takes the title, and only the text of <main>, split at headings', () => {
    const page = parseHtmlPage(PAGE);
    expect(page.title).toBe('Widget & Embedding');
    expect(page.sections.map((s) => [s.depth, s.heading, s.anchor])).toEqual([
      [1, 'Embedding the widget', 'top'],
      [2, 'Attributes', 'attributes'],
      [2, 'Attributes', 'attributes-1'],
    ]);
    expect(page.sections[0]!.blocks).toEqual([{ text: 'Add <qwen-assistant> to any page.', code: false }]);
    expect(page.sections[1]!.blocks.map((b) => b.text)).toEqual(['- model: a GGUF URL', '- lang: zh or en']);
    expect(page.sections[2]!.blocks).toEqual([
      { text: '```\n<qwen-assistant\n  model="/m.gguf"></qwen-assistant>\n```', code: true },
      { text: 'Works with 1 < 2 中文 text.', code: false },
    ]);
    const all = JSON.stringify(page);
    for (const gone of ['Home', 'not docs', 'fake', 'color: red', 'Footer', 'Site header', 'a comment']) expect(all).not.toContain(gone);
  });

  it('keeps generators’ permalink marks out of headings: a hash link’s zero-width space, a pilcrow', () => {
    const page = parseHtmlPage(
      '<main><h2 class="anchor" id="paper-sizes--margins">Paper sizes &amp; margins<a href="#paper-sizes--margins" class="hash-link">&#8203;</a></h2><p>A4.</p>' +
        '<h2 id="upgrading">Upgrading<a class="headerlink" href="#upgrading">&para;</a></h2><p>Stop first.</p></main>',
    );
    expect(page.sections.map((s) => [s.heading, s.anchor])).toEqual([
      ['Paper sizes & margins', 'paper-sizes--margins'],
      ['Upgrading', 'upgrading'],
    ]);
  });

  it('falls back to <body>, then to the whole document, and to the first h1 for the title', () => {
    const body = parseHtmlPage('<html><body><nav>menu</nav><h1>Only body</h1><p>Text</p></body></html>');
    expect(body.title).toBe('Only body');
    expect(body.sections[0]!.blocks[0]!.text).toBe('Text');
    const fragment = parseHtmlPage('<h2>Bare</h2>text with a stray < sign');
    expect(fragment.title).toBeNull();
    expect(fragment.sections[0]!.blocks[0]!.text).toBe('text with a stray < sign');
  });

  it('lexes unclosed tags in linear time (found by fuzzing: each `<` rescanned to the end of the file)', () => {
    const started = performance.now();
    const open = parseHtmlPage('<h2>Tags</h2>' + '<a x'.repeat(100_000));
    expect(open.sections[0]!.blocks[0]!.text.startsWith('<a x<a x')).toBe(true);
    expect(parseHtmlPage('<p>end</p>' + '</a'.repeat(100_000)).sections[0]!.blocks[0]!.text).toBe('end');
    expect(parseHtmlPage('<p>x</p><a' + ' y="<"'.repeat(100_000)).sections[0]!.blocks[0]!.text).toBe('x');
    // Linear takes ~0.4 s here; the quadratic lexer took minutes. The bound is loose so a loaded CI machine passes.
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});

describe('parseHtmlPage list items', () => {
  it('attaches an item whose text sits in a nested block to its marker', () => {
    const page = parseHtmlPage('<body><h2>Steps</h2><ul><li><p>Install it</p></li><li><p>Run it</p></li></ul></body>');
    expect(page.sections[0]!.blocks.map((b) => b.text)).toEqual(['- Install it', '- Run it']);
    const spaced = parseHtmlPage('<body><h2>Steps</h2><ul>\n  <li>\n    <div><p>Install it</p></div>\n  </li>\n</ul></body>');
    expect(spaced.sections[0]!.blocks.map((b) => b.text)).toEqual(['- Install it']);
  });
  it('keeps a code block whose blank lines run on for tens of thousands of characters, its trailing blanks dropped', () => {
    // Found by the docs fuzz: trimming with /\s+$/ was quadratic in such a run (4.6 s for 90 KB).
    const page = parseHtmlPage(`<main><h2>ask()</h2><pre><code>${'\n'.repeat(60_000)}ask("hi")${' \n'.repeat(20_000)}</code></pre></main>`);
    const blocks = page.sections.flatMap((s) => s.blocks);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.text.endsWith('ask("hi")\n```')).toBe(true);
  });
});

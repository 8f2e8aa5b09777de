/**
 * The renderer's allow-list in the browser: ordinary Markdown keeps its formatting (so the list is not so tight
 * that replies break), the allow-list is really in force (an ignored option would leave SVG in), and the watch the
 * path tests rely on does see a leak and an execution when something is not made inert.
 */
import { describe, expect, it } from 'vitest';
import { EVIL_HOST, EXFIL_FUNCTION, EXFILTRATION_CORPUS } from '../../fixtures/exfiltration-corpus.ts';
import DOMPurify from 'dompurify';
import { renderMarkdown } from '../../../src/ui/markdown.ts';
import { SANITIZE_CONFIG } from '../../../src/ui/sanitize-config.ts';
import { RenderWatch, findActiveContent } from './audit.ts';

const LABELS = { copy: 'Copy code', image: 'Image' };

function rendered(text: string): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = renderMarkdown(text, LABELS);
  return box;
}

describe('the reply renderer', () => {
  it('keeps ordinary Markdown: headings, lists, tables, code with its Copy button, links, quotes', () => {
    const box = rendered(
      [
        '## Steps',
        '3. third\n4. fourth',
        '| name | size |\n|:--|--:|\n| a | 1 |',
        '```python\nprint("hi")\n```',
        'See [the guide](https://example.org/guide "Guide") or [below](#setup); `inline` ~~old~~ <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O.',
        '> quoted',
      ].join('\n\n'),
    );
    expect(box.querySelector('h2')!.textContent).toBe('Steps');
    expect(box.querySelector('ol')!.getAttribute('start')).toBe('3');
    expect([...box.querySelectorAll('th')].map((th) => th.getAttribute('align'))).toEqual(['left', 'right']);
    expect(box.querySelector('.code-block .code-lang')!.textContent).toBe('python');
    expect(box.querySelector('button.copy-code')!.hasAttribute('data-copy-code')).toBe(true);
    expect(box.querySelector('pre code.language-python span.hljs-built_in')!.textContent).toBe('print');
    const [guide, below] = [...box.querySelectorAll('a')];
    expect([guide!.getAttribute('href'), guide!.getAttribute('title'), guide!.target, guide!.rel]).toEqual(['https://example.org/guide', 'Guide', '_blank', 'noopener noreferrer nofollow']);
    expect([below!.getAttribute('href'), below!.hasAttribute('target')]).toEqual(['#setup', false]);
    expect(box.querySelectorAll('code:not(pre code), del, kbd, sub, blockquote').length).toBe(6);
    expect(findActiveContent([box])).toEqual([]);
  });

  it('removes what the old profile let through: SVG, MathML, and every non-http(s) link', () => {
    const box = rendered(
      `<svg><image href="https://${EVIL_HOST}/a"/></svg><math href="https://${EVIL_HOST}/b"><mi>x</mi></math> [x](mailto:a@b.c) [y](/relative) [z](//${EVIL_HOST}/c) <a href="ftp://h/f">f</a> <div href="https://example.org/">d</div>`,
    );
    expect(box.querySelector('svg, math, image')).toBeNull();
    expect([...box.querySelectorAll('[href]')].map((a) => a.getAttribute('href'))).toEqual([]);
    expect(box.textContent).toContain('y');
  });

  it('shows raw HTML as the text it is, keeping only bare formatting tags', () => {
    const box = rendered(`Embed it with <img src="https://${EVIL_HOST}/x" onerror="alert(1)"> or <b>bold</b>.\n\n<div style="color:red">block</div>`);
    expect(box.textContent).toContain(`<img src="https://${EVIL_HOST}/x" onerror="alert(1)">`);
    expect(box.textContent).toContain('<div style="color:red">block</div>');
    expect(box.querySelector('b')!.textContent).toBe('bold');
    expect(box.querySelectorAll('img, div[style]').length).toBe(0);
  });

  it('every corpus payload renders to nothing active (the same check each rendering path makes)', () => {
    for (const payload of EXFILTRATION_CORPUS) expect(findActiveContent([rendered(payload.text)]), payload.id).toEqual([]);
  });

  it('the allow-list alone, given each payload as HTML, also leaves nothing active (the second layer holds by itself)', () => {
    const purifier = DOMPurify(window);
    for (const payload of EXFILTRATION_CORPUS) {
      const box = document.createElement('div');
      box.innerHTML = String(purifier.sanitize(payload.text, SANITIZE_CONFIG));
      expect(findActiveContent([box]), payload.id).toEqual([]);
    }
  });

  it('the watch sees a request and an execution when markup is not made inert', async () => {
    const watch = new RenderWatch();
    await watch.start();
    const box = document.createElement('div');
    box.innerHTML = `<img src="https://${EVIL_HOST}/self-test" onerror="top.${EXFIL_FUNCTION}('self-test')">`;
    document.body.append(box);
    expect(findActiveContent([box])).toEqual(['<img> element', `<img src="https://${EVIL_HOST}/self-test">`, '<img onerror>']);
    await expect.poll(async () => (await new Promise((resolve) => setTimeout(resolve, 50)), box.querySelector('img')!.complete)).toBe(true);
    const seen = await watch.stop();
    box.remove();
    expect(seen.offOrigin).toEqual([`https://${EVIL_HOST}/self-test`]);
    expect(seen.ran).toEqual(['self-test']);
  });
});

import type { UserConfig } from 'vitepress';
import { describe, expect, it } from 'vitest';
import { assistantTags, withQwenAssistant } from '../../../scripts/package/vitepress.ts';

describe('withQwenAssistant', () => {
  it('writes the element’s attributes from the options, escaped, under the site’s base', () => {
    const tags = assistantTags('/docs/', { lang: 'zh', window: 2048, suggestions: ['Which "port"?', 'A & B'], scope: '/docs/guide/', widgetPath: 'assets/qa' });
    expect(tags.script).toBe('<script type="module" src="/docs/assets/qa/qwen-assistant.js"></script>');
    expect(tags.element).toBe(
      '<qwen-assistant docs-index="/docs/docs-index/manifest.json" lang="zh" window="2048" scope="/docs/guide/" suggestions="Which &quot;port&quot;? | A &amp; B"></qwen-assistant>',
    );
  });

  it('refuses output folders outside the site when the config is made, not after a build', () => {
    expect(() => withQwenAssistant({}, { widgetPath: '../elsewhere' })).toThrow(/widgetPath "..\/elsewhere" is not a folder below the site/);
    expect(() => withQwenAssistant({}, { indexPath: '/' })).toThrow(/indexPath/);
  });

  it('adds the script and the element to each page after the config’s own transformHtml, which still runs', async () => {
    const own: UserConfig = { base: '/docs', title: 'T', transformHtml: (code) => code.replace('<body>', '<body data-own="1">') };
    const config = withQwenAssistant(own, { mode: 'search' });
    expect(config.title).toBe('T');
    const page = '<html><head><title>T</title></head><body><div id="app"></div><script>/* </body> in a string */</script></body></html>';
    const html = (await config.transformHtml!(page, '/out/index.html', {} as never)) as string;
    expect(html).toContain('<body data-own="1">');
    expect(html).toContain('<script type="module" src="/docs/qwen-assistant/qwen-assistant.js"></script></head>');
    expect(html.endsWith('<qwen-assistant docs-index="/docs/docs-index/manifest.json" mode="search"></qwen-assistant></body></html>')).toBe(true);
    expect(html.match(/<qwen-assistant /g)).toHaveLength(1);
  });
});

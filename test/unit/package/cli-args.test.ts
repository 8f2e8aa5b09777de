import { describe, expect, it } from 'vitest';
import { isExcluded, parseArgs } from '../../../scripts/index-docs/index-docs.ts';
import { tidyManifest } from '../../../scripts/package/custom-elements.ts';

describe('index-docs --exclude', () => {
  it('takes paths and folders below the docs folder, and leaves out exactly those', () => {
    const args = parseArgs(['build', '--out', 'o', '--exclude', './404.html', '--exclude', 'search/', '--exclude', 'blog\\tags']);
    expect(args.exclude).toEqual(['404.html', 'search', 'blog/tags']);
    expect(isExcluded('404.html', args.exclude)).toBe(true);
    expect(isExcluded('search/index.html', args.exclude)).toBe(true);
    expect(isExcluded('blog/tags/x.html', args.exclude)).toBe(true);
    expect(isExcluded('searching.html', args.exclude)).toBe(false);
    expect(isExcluded('docs/404.html', args.exclude)).toBe(false);
    expect(() => parseArgs(['build', '--out', 'o', '--exclude'])).toThrow(/--exclude needs a path/);
  });
});

describe('the custom-elements manifest', () => {
  const manifest = (attributes: string[]) => ({
    schemaVersion: '2.1.0',
    modules: [
      {
        path: 'src/widget/qwen-assistant.ts',
        declarations: [
          {
            name: 'QwenAssistant',
            attributes: attributes.map((name) => ({ name })),
            members: [{ name: 'modelAttr', kind: 'field' }, { name: 'show', kind: 'method' }, { name: '_send', kind: 'method', privacy: 'private' }],
          },
        ],
        exports: [{ declaration: { module: 'src/widget/qwen-assistant.ts' } }],
      },
    ],
  });
  const all = ['model', 'mlc-model', 'backend', 'docs-index', 'lang', 'position', 'window', 'shortcut', 'mode', 'scope', 'suggestions', 'open'];

  it('keeps the documented attributes and public members, and names the built module', () => {
    const tidied = tidyManifest(manifest([...all, 'modelAttr']));
    const [module] = tidied.modules;
    expect(module!.path).toBe('widget/qwen-assistant.js');
    expect(module!.exports![0]!.declaration.module).toBe('widget/qwen-assistant.js');
    expect(module!.declarations[0]!.members!.map((m) => m.name)).toEqual(['show']);
    expect(module!.declarations[0]!.attributes!.map((a) => a.name)).toEqual(all);
  });

  it('fails when an attribute of the element is not documented', () => {
    expect(() => tidyManifest(manifest(all.filter((a) => a !== 'scope')))).toThrow(/a JSDoc @attr is missing or stale/);
  });
});

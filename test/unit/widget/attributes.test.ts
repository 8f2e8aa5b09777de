import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseAttributes, problemText, resolveLang, type RawAttributes } from '../../../src/widget/attributes.ts';

const none: RawAttributes = { model: null, mlcModel: null, backend: null, docsIndex: null, lang: null, position: null, window: null, shortcut: null, mode: null, scope: null, suggestions: null };

describe('widget attributes', () => {
  it('absent attributes give the defaults, with no problem', () => {
    expect(parseAttributes(none)).toEqual({ settings: DEFAULT_SETTINGS, problems: [] });
  });

  it('takes valid values', () => {
    const { settings, problems } = parseAttributes({
      model: 'https://models.example/q.gguf',
      mlcModel: 'models/mlc/',
      backend: 'WebGPU',
      docsIndex: '/docs-index/manifest.json',
      lang: 'ZH',
      position: 'bottom-left',
      window: '32768',
      shortcut: 'none',
      mode: 'Search',
      scope: '/guide/',
      suggestions: ' How do I install it? | |Which port?| a | b | c | d | e ',
    });
    expect(problems).toEqual([]);
    expect(settings).toEqual({ model: 'https://models.example/q.gguf', mlcModel: 'models/mlc/', backend: 'webgpu', docsIndex: '/docs-index/manifest.json', lang: 'zh', position: 'bottom-left', window: 32768, shortcut: '', mode: 'search', scope: '/guide/', suggestions: ['How do I install it?', 'Which port?', 'a', 'b', 'c', 'd'] });
  });

  it.each([
    ['window', { window: '511' }, '"511" is not an integer from 512 to 32768; using 1024'],
    ['window', { window: '1e3' }, '"1e3" is not an integer from 512 to 32768; using 1024'],
    ['window', { window: '' }, '"" is not an integer from 512 to 32768; using 1024'],
    ['position', { position: 'top-left' }, '"top-left" is not one of bottom-right, bottom-left; using "bottom-right"'],
    ['lang', { lang: 'fr' }, '"fr" is not one of zh, en, auto; using "auto"'],
    ['model', { model: 'javascript:alert(1)' }, '"javascript:alert(1)" is not an http(s) URL; using ""'],
    ['docs-index', { docsIndex: 'http://[::1' }, '"http://[::1" is not a URL; using ""'],
    ['mlc-model', { mlcModel: 'ftp://models.example/mlc/' }, '"ftp://models.example/mlc/" is not an http(s) URL; using ""'],
    ['mlc-model', { mlcModel: 'models/qwen.gguf' }, '"models/qwen.gguf" is a file; give the MLC model folder written by npm run fetch-model (public/models/mlc/); using ""'],
    ['mlc-model', { mlcModel: 'models/mlc/?v=2' }, '"models/mlc/?v=2" is a folder URL and cannot have a query or fragment; using ""'],
    ['backend', { backend: 'gpu' }, '"gpu" is not one of auto, webgpu, wasm; using "auto"'],
    ['backend', { backend: 'webgpu' }, '"webgpu" needs an mlc-model folder (written by npm run fetch-model); using "auto" (the CPU)'],
    ['shortcut', { shortcut: 'ctrl+k' }, '"ctrl+k" is not a single key or "none"; using "/"'],
    ['mode', { mode: 'chat' }, '"chat" is not one of auto, search, assistant; using "auto"'],
    ['scope', { scope: 'guide/' }, '"guide/" is not a path starting with "/" (such as "/guide/"); using ""'],
    ['suggestions', { suggestions: `ok | ${'x'.repeat(201)}` }, 'has a suggestion over 200 characters; using []'],
    ['scope', { scope: '/guide/?x' }, '"/guide/?x" is not a path starting with "/" (such as "/guide/"); using ""'],
  ] as const)('a bad %s is named, and its default used', (attribute, raw, message) => {
    const { settings, problems } = parseAttributes({ ...none, ...raw });
    expect(problems).toEqual([{ attribute, message }]);
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(problemText(problems[0]!)).toBe(`qwen-assistant: invalid attribute "${attribute}": ${message}`);
  });

  it('takes an MLC model folder with or without its trailing slash, absolute or relative; blank is none', () => {
    for (const value of ['models/mlc', 'models/mlc/', '/models/mlc/', 'https://models.example/mlc/']) {
      expect(parseAttributes({ ...none, mlcModel: value })).toEqual({ settings: { ...DEFAULT_SETTINGS, mlcModel: value }, problems: [] });
    }
    expect(parseAttributes({ ...none, mlcModel: '  ' })).toEqual({ settings: DEFAULT_SETTINGS, problems: [] });
  });

  it('reports every bad attribute and keeps the good ones', () => {
    const { settings, problems } = parseAttributes({ ...none, window: 'big', position: 'middle', lang: 'en' });
    expect(problems.map((p) => p.attribute)).toEqual(['position', 'window']);
    expect(settings.lang).toBe('en');
  });

  it('auto language follows the page, then the browser', () => {
    expect(resolveLang('auto', 'zh-CN', ['en-US'])).toBe('zh');
    expect(resolveLang('auto', 'en', ['zh-CN'])).toBe('en');
    expect(resolveLang('auto', '', ['zh-TW', 'en'])).toBe('zh');
    expect(resolveLang('auto', '', [])).toBe('en');
    expect(resolveLang('en', 'zh', ['zh'])).toBe('en');
  });
});

import { describe, expect, it } from 'vitest';
import { pageHref } from '../../../src/docs-index/href.ts';
import { parseDocsManifest, parseDocsPageFile } from '../../../src/docs-index/parse.ts';
import { Slugger, slug } from '../../../src/docs-index/slug.ts';
import { decodeVector, encodeVector } from '../../../src/docs-index/vector-codec.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { thrown } from '../thrown.ts';

const HASH = 'a'.repeat(64);

function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    embedder: { id: 'hashed-ngram', version: 1, dimensions: 256 },
    baseUrl: '/',
    pages: [{ url: 'guide/install.html', title: 'Install', hash: HASH, file: `pages/${HASH}.json`, chunks: 2 }],
    ...overrides,
  };
}

function pageFile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    url: 'guide/install.html',
    title: 'Install',
    hash: HASH,
    chunks: [{ anchor: 'from-npm', heading: 'Install › From npm', text: 'npm i x', tokens: 4, vector: encodeVector(new Float32Array([0.6, -0.8])) }],
    ...overrides,
  };
}

const errorOf = (fn: () => unknown): AssistantError => thrown(fn, AssistantError);

describe('parseDocsManifest / parseDocsPageFile', () => {
  it('round-trips a manifest and a page file through JSON', () => {
    const m = manifest();
    expect(parseDocsManifest(JSON.parse(JSON.stringify(m)))).toEqual(m);
    const p = pageFile();
    expect(parseDocsPageFile(JSON.parse(JSON.stringify(p)))).toEqual(p);
    // With the built docs memory the indexer ships.
    const withMemory = manifest({ memory: { file: `memory/${HASH}.bin`, key: '4|1|widget-docs', bytes: 3400 } });
    expect(parseDocsManifest(JSON.parse(JSON.stringify(withMemory)))).toEqual(withMemory);
  });

  it.each([
    ['a wrong version', manifest({ version: 2 }), 'version'],
    ['pages not an array', manifest({ pages: {} }), 'pages'],
    ['a bad hash', manifest({ pages: [{ url: 'a.html', title: 'A', hash: 'xyz', file: 'pages/xyz.json', chunks: 1 }] }), 'pages[0].hash'],
    ['a file outside pages/', manifest({ pages: [{ url: 'a.html', title: 'A', hash: HASH, file: 'https://evil.example/x.json', chunks: 1 }] }), 'pages[0].file'],
    ['a javascript: page URL', manifest({ pages: [{ url: 'javascript:alert(1)', title: 'A', hash: HASH, file: `pages/${HASH}.json`, chunks: 1 }] }), 'pages[0].url'],
    ['a missing embedder', manifest({ embedder: null }), 'embedder'],
    ['a data: base URL', manifest({ baseUrl: 'data:text/html,' }), 'baseUrl'],
    ['a memory file outside memory/', manifest({ memory: { file: 'https://evil.example/m.bin', key: 'k', bytes: 1 } }), 'memory.file'],
    ['a memory entry without its key', manifest({ memory: { file: `memory/${HASH}.bin`, bytes: 1 } }), 'memory.key'],
    ['a negative chunk count', manifest({ pages: [{ url: 'a.html', title: 'A', hash: HASH, file: `pages/${HASH}.json`, chunks: -1 }] }), 'pages[0].chunks'],
  ])('rejects a manifest with %s, naming %s', (_name, json, field) => {
    const error = errorOf(() => parseDocsManifest(json));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain(field);
  });

  it('rejects a page file whose chunk is broken, naming the chunk and field', () => {
    const bad = pageFile({ chunks: [{ anchor: 'a', heading: 'A', text: 'x', tokens: 1, vector: { scale: 0.1, q: '***' } }] });
    const error = errorOf(() => parseDocsPageFile(bad));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('chunks[0].vector.q');
    expect(errorOf(() => parseDocsPageFile(pageFile({ chunks: [{ anchor: 'a' }] }))).message).toContain('chunks[0].heading');
    expect(errorOf(() => parseDocsPageFile('nope')).message).toContain('not an object');
  });
});

describe('encodeVector / decodeVector', () => {
  const cosine = (a: Float32Array, b: Float32Array): number => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let i = 0; i < a.length; i++) {
      dot += a[i]! * b[i]!;
      na += a[i]! ** 2;
      nb += b[i]! ** 2;
    }
    return dot / Math.sqrt(na * nb);
  };

  it('decodes close to the embedder’s own vectors, in a few hundred characters', () => {
    const embedder = new HashedNgramEmbedder();
    for (const text of ['How do I install the widget?', '文档知识与对话记录分开保存。', 'x']) {
      const v = embedder.embedOne(text);
      const encoded = encodeVector(v);
      expect(encoded.q.length).toBeLessThanOrEqual(344);
      const back = decodeVector(JSON.parse(JSON.stringify(encoded)) as typeof encoded);
      expect(back.length).toBe(v.length);
      expect(cosine(v, back)).toBeGreaterThan(0.99);
    }
  });

  it('keeps signs and extremes, and a zero vector stays zero', () => {
    const back = decodeVector(encodeVector(new Float32Array([1, -1, 0.5, 0])));
    expect(Array.from(back)).toEqual([1, -1, expect.closeTo(0.5, 2), 0]);
    expect(Array.from(decodeVector(encodeVector(new Float32Array(3))))).toEqual([0, 0, 0]);
  });

  it('refuses bad input with a code', () => {
    expect(errorOf(() => encodeVector(new Float32Array([Number.NaN]))).code).toBe('invalid_input');
    expect(errorOf(() => decodeVector({ scale: 1, q: 'not base64!' })).code).toBe('invalid_input');
    expect(errorOf(() => decodeVector({ scale: -1, q: '' })).code).toBe('invalid_input');
  });
});

describe('pageHref', () => {
  const page = { url: 'guide/install.html' };
  it('resolves the base URL against the manifest URL and adds the anchor', () => {
    expect(pageHref('https://docs.example/index/manifest.json', { baseUrl: '/' }, page, 'from-npm')).toBe('https://docs.example/guide/install.html#from-npm');
    expect(pageHref('https://docs.example/site/index/manifest.json', { baseUrl: '../' }, page, '')).toBe('https://docs.example/site/guide/install.html');
    expect(pageHref('https://docs.example/index/manifest.json', { baseUrl: 'https://other.example/v2/' }, page, 'a')).toBe('https://other.example/v2/guide/install.html#a');
  });

  it('keeps a non-ASCII anchor, percent-encoded', () => {
    const href = pageHref('https://docs.example/manifest.json', { baseUrl: '/' }, { url: 'zh.html' }, '安装');
    expect(decodeURIComponent(new URL(href).hash)).toBe('#安装');
  });

  it('refuses a relative manifest URL', () => {
    expect(errorOf(() => pageHref('index/manifest.json', { baseUrl: '/' }, page, '')).code).toBe('invalid_input');
  });
});

describe('slug', () => {
  it('follows GitHub: lower case, punctuation dropped, spaces to dashes, CJK kept', () => {
    expect(slug('Getting Started!')).toBe('getting-started');
    expect(slug('`<qwen-assistant>` attributes')).toBe('qwen-assistant-attributes');
    expect(slug('What’s new in v1.2?')).toBe('whats-new-in-v12');
    expect(slug('snake_case and  two spaces')).toBe('snake_case-and--two-spaces');
    expect(slug('安装 与 配置')).toBe('安装-与-配置');
  });

  it('makes repeats unique the way GitHub does', () => {
    const s = new Slugger();
    expect(['Usage', 'Usage', 'Usage-1', 'Usage'].map((h) => s.slug(h))).toEqual(['usage', 'usage-1', 'usage-1-1', 'usage-2']);
  });

  it('takes a site generator’s rule for one heading, and still numbers repeats', () => {
    const s = new Slugger((text) => text.toUpperCase().replace(/ /g, '_'));
    expect(['Two words', 'Two words'].map((h) => s.slug(h))).toEqual(['TWO_WORDS', 'TWO_WORDS-1']);
  });

  it('takes an explicit `{#id}` as the id and drops it from the heading’s text', () => {
    const s = new Slugger();
    expect(s.heading('Storage folders {#where-notes-live}')).toEqual({ id: 'where-notes-live', text: 'Storage folders' });
    expect(s.heading('Where notes live')).toEqual({ id: 'where-notes-live-1', text: 'Where notes live' });
    expect(s.heading('Braces {not an id}')).toEqual({ id: 'braces-not-an-id', text: 'Braces {not an id}' });
    // Looked for from the end: a regex scan of this took ~80 s (quadratic backtracking), past the test's timeout.
    expect(s.heading(`${' '.repeat(200_000)}x`).id).toBe('x');
  });
});

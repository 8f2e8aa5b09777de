import { describe, expect, it } from 'vitest';
import { ARCTIC_QUERY_PREFIX, DEFAULT_EMBEDDING_GGUF, DEFAULT_GGUF_URL, embeddingPrefixesFor, resolveModelSource } from '../../../src/engine/model-sources.ts';

const q = (s: string) => new URLSearchParams(s);

describe('resolveModelSource', () => {
  it('defaults to Hugging Face for both engines', () => {
    const r = resolveModelSource({ query: q('') });
    expect(r.origin).toBe('huggingface');
    expect(r.source.ggufUrl).toBe(DEFAULT_GGUF_URL);
    expect(r.source.mlc?.urlF16).toBe('https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
  });
  it('takes ?model= first, with the short name for the generated test model', () => {
    const r = resolveModelSource({ query: q('model=test'), buildGguf: '/b.gguf', manifest: { ggufUrl: '/m.gguf' } });
    expect(r).toEqual({ origin: 'query', source: { ggufUrl: '/models/test/qwen2-tiny.gguf', embeddingGguf: DEFAULT_EMBEDDING_GGUF } });
    expect(resolveModelSource({ query: q('model=https://h/x.gguf') }).source).toEqual({ ggufUrl: 'https://h/x.gguf', embeddingGguf: DEFAULT_EMBEDDING_GGUF });
  });
  it('then the saved setting, the build variable, the self-hosted manifest', () => {
    expect(resolveModelSource({ query: q(''), saved: { ggufUrl: '/s.gguf' }, buildGguf: '/b.gguf' }).origin).toBe('setting');
    expect(resolveModelSource({ query: q(''), buildGguf: '/b.gguf', manifest: { ggufUrl: '/m.gguf' } }).source.ggufUrl).toBe('/b.gguf');
    const hosted = resolveModelSource({ query: q(''), manifest: { ggufUrl: '/models/q.gguf', mlcBase: 'http://localhost/models/mlc/' } });
    expect(hosted.origin).toBe('self-hosted');
    expect(hosted.source.mlc?.urlF32).toBe('http://localhost/models/mlc/Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
  });
  it('ignores empty values', () => {
    expect(resolveModelSource({ query: q('model=&mlc='), buildGguf: ' ' }).origin).toBe('huggingface');
  });
});

describe('the CPU embedding model', () => {
  it('is chosen on its own: ?embedding= (a URL, or test), then the build variable, then the self-hosted copy, then Hugging Face', () => {
    const all = { buildEmbedding: '/b-e5.gguf', manifest: { embeddingGgufUrl: '/models/hosted-e5.gguf' } };
    expect(resolveModelSource({ query: q('embedding=test&model=test'), ...all }).source.embeddingGguf).toEqual({ url: '/models/test/qwen2-embed-tiny.gguf' });
    expect(resolveModelSource({ query: q('embedding=https://h/nomic-embed-text-v1.5.Q8_0.gguf'), ...all }).source.embeddingGguf).toEqual({
      url: 'https://h/nomic-embed-text-v1.5.Q8_0.gguf',
      queryPrefix: 'search_query: ',
      documentPrefix: 'search_document: ',
    });
    expect(resolveModelSource({ query: q(''), ...all }).source.embeddingGguf?.url).toBe('/b-e5.gguf');
    expect(resolveModelSource({ query: q(''), manifest: all.manifest }).source.embeddingGguf).toEqual({ url: '/models/hosted-e5.gguf', queryPrefix: 'query: ', documentPrefix: 'passage: ' });
    expect(resolveModelSource({ query: q('') }).source.embeddingGguf).toEqual(DEFAULT_EMBEDDING_GGUF);
  });

  it("each known family gets its model card's prefixes; an unknown model gets none", () => {
    expect(embeddingPrefixesFor('https://h/multilingual-e5-small-q8_0.gguf')).toEqual({ queryPrefix: 'query: ', documentPrefix: 'passage: ' });
    expect(embeddingPrefixesFor('/x/snowflake-arctic-embed-s-f16.gguf?download=1')).toEqual({ queryPrefix: ARCTIC_QUERY_PREFIX });
    expect(embeddingPrefixesFor('/x/bge-small-zh-v1.5-q8_0.gguf')).toEqual({});
    // "e5" must be its own word in the name, not a part of one.
    expect(embeddingPrefixesFor('/x/model-e55.gguf')).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_GGUF_URL, resolveModelSource } from '../../../src/engine/model-sources.ts';

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
    expect(r).toEqual({ origin: 'query', source: { ggufUrl: '/models/test/qwen2-tiny.gguf' } });
    expect(resolveModelSource({ query: q('model=https://h/x.gguf') }).source).toEqual({ ggufUrl: 'https://h/x.gguf' });
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

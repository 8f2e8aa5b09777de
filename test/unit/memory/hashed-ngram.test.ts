import { describe, expect, it } from 'vitest';
import { embedderKey } from '../../../src/memory/embedders/embedder.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { extractFeatures, featureKind, KIND } from '../../../src/memory/embedders/ngram-features.ts';
import { dot } from '../../../src/memory/vector-index/vector-index.ts';
import { GOLDEN_FINGERPRINTS, GOLDEN_TEXTS, fingerprint } from '../../fixtures/embedder-golden.ts';
import { cpuMs } from '../cpu-time.ts';

const norm = (v: Float32Array): number => Math.sqrt(dot(v, v));
const kinds = (text: string): number[] => [...new Set(Array.from(extractFeatures(text).features, featureKind))].sort();

describe('hashed n-gram embedder', () => {
  const embedder = new HashedNgramEmbedder();

  it('is the default: 256 dimensions, id@version, no weights', () => {
    expect(embedder.dimensions).toBe(256);
    expect(embedderKey(embedder)).toBe('hashed-ngram@1');
  });

  it('gives the golden vectors (the browser test checks the same fingerprints)', () => {
    expect(GOLDEN_TEXTS.map((t) => fingerprint(embedder.embedOne(t)))).toEqual(GOLDEN_FINGERPRINTS);
  });

  it('is deterministic and unit length; empty text gives the zero vector', async () => {
    const [a, b] = await embedder.embed(['同一句话', '同一句话']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(norm(embedder.embedOne(''))).toBe(0);
  });

  it('uses character n-grams for Chinese/Japanese and words plus subwords for Latin scripts', () => {
    expect(kinds('服务器到期')).toEqual([KIND.cjkChar, KIND.cjkBigram]);
    expect(kinds('サーバー')).toEqual([KIND.cjkChar, KIND.cjkBigram]);
    expect(kinds('renewing certificates')).toEqual([KIND.word, KIND.wordPair, KIND.wordTrigram]);
    expect(kinds('ok 42')).toEqual([KIND.word, KIND.wordPair]);
  });

  it('ranks related text above unrelated text, in Chinese and in English, and across word forms', () => {
    const sim = (a: string, b: string): number => dot(embedder.embedOne(a, true), embedder.embedOne(b));
    expect(sim('服务器证书到期', '证书下个月到期，记得续费')).toBeGreaterThan(sim('服务器证书到期', '今天午饭吃什么'));
    expect(sim('renew certificate', 'how to renew the TLS certificate')).toBeGreaterThan(sim('renew certificate', 'the cat sat on the mat'));
    expect(sim('sorting lists', 'sort a list in python')).toBeGreaterThan(sim('sorting lists', 'the weather is nice today') + 0.05);
  });

  it('weighs queries by IDF: a rare word counts for more than a common one, documents do not change', () => {
    const e = new HashedNgramEmbedder();
    const corpus = Array.from({ length: 50 }, (_, i) => `the server log ${i}`);
    const rare = 'the kubernetes migration plan';
    e.stats.add([...corpus, rare]);
    const before = Array.from(e.embedOne(rare));
    const q = e.embedOne('the kubernetes', true);
    const common = e.embedOne('the server log 3');
    expect(dot(q, e.embedOne(rare))).toBeGreaterThan(dot(q, common));
    e.stats.add(Array.from({ length: 50 }, () => 'kubernetes everywhere'));
    // Document vectors do not depend on the statistics: stored vectors never go stale.
    expect(Array.from(e.embedOne(rare))).toEqual(before);
  });

  it('statistics survive a snapshot and refuse a malformed one', () => {
    const e = new HashedNgramEmbedder();
    e.stats.add(['a b c', 'c d e']);
    const snapshot = e.stats.snapshot();
    const f = new HashedNgramEmbedder();
    expect(f.stats.restore(snapshot)).toBe(true);
    expect(f.stats.documents).toBe(2);
    expect(f.stats.restore({ documents: 'x', df: [] })).toBe(false);
    expect(f.stats.documents).toBe(2);
    f.stats.remove(['a b c']);
    expect(f.stats.documents).toBe(1);
  });

  it('embeds a 10,000-turn import quickly (well under a second of CPU here)', () => {
    const texts = Array.from({ length: 5_000 }, (_, i) => `用户问题 ${i}：服务器的磁盘满了怎么办？\n\nAssistant: clean /var/log and rotate logs (${i}).`);
    const started = cpuMs();
    embedder.embedSync(texts);
    embedder.stats.add(texts);
    expect(cpuMs() - started).toBeLessThan(2_000);
  });
});

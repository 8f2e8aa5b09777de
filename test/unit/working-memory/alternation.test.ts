/**
 * `alternation` (text.ts) builds every word list's pattern. It shares one whole-word end check among neighbouring
 * words; these pin that it still finds what one check per word found: the longest word first, a word only whole,
 * and words that end in a symbol (C++, Node.js-style names, CJK) in their place in the order.
 */
import { describe, expect, it } from 'vitest';
import { alternation, escapeRegExp } from '../../../src/memory/working-memory/text.ts';

/** The pattern with one end check per word, as it was written before: the reference. */
function perWord(words: readonly string[]): RegExp {
  const unique = [...new Set(words)].sort((a, b) => b.length - a.length);
  const body = (w: string): string => escapeRegExp(w).replace(/\s+/g, '\\s*') + (/[A-Za-z0-9_]$/.test(w) ? '(?![A-Za-z0-9_])' : '');
  const latin = unique.filter((w) => /^[A-Za-z0-9_]/.test(w)).map(body);
  const other = unique.filter((w) => !/^[A-Za-z0-9_]/.test(w)).map(body);
  return new RegExp(`(?:(?<![A-Za-z0-9_])(?:${latin.join('|')})|(?:${other.join('|')}))`, 'gi');
}

const found = (re: RegExp, text: string): string[] => [...text.matchAll(re)].map((m) => `${m.index}:${m[0]}`);

describe('alternation', () => {
  const words = ['C', 'C++', 'C#', 'Go', 'Golang', 'Node', 'Node.js', 'Next.js', 'Vue 3', 'Vue', 'Redis Cluster', 'Redis', '数据库', '库', 'k8s', 'F#'];
  const texts = [
    'We use C++ and C# with Go, not Golang or Gopher.',
    'Node.js, Nodes, Node; Next.js and Vue 3 or Vue3 or Vue',
    'redis cluster vs Redis Clusters vs rediscluster, 数据库和库, k8s8 and k8s.',
    'C++C#C F# F#m',
  ];

  it('finds the same words at the same places as one end check per word', () => {
    const shared = new RegExp(alternation(words), 'gi');
    for (const text of texts) expect(found(shared, text)).toEqual(found(perWord(words), text));
  });

  it('takes the longest word, and a Latin word only whole', () => {
    const re = new RegExp(alternation(words), 'gi');
    expect(found(re, 'Golang and Gopher')).toEqual(['0:Golang']);
    expect(found(re, 'Redis Cluster')).toEqual(['0:Redis Cluster']);
  });
});

import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../../src/memory/retrieval/bm25.ts';
import { measure } from '../../../src/memory/retrieval/derivation.ts';
import { intentFit, intentTags } from '../../../src/memory/retrieval/intent.ts';
import { keyTerms } from '../../../src/memory/retrieval/key-terms.ts';
import { cjkShare, searchTerms, stem, terms } from '../../../src/memory/retrieval/text-terms.ts';

describe('lexical terms', () => {
  it('stems English inflections together and drops stopwords', () => {
    expect(stem('researching')).toBe(stem('research'));
    expect(stem('hiking')).toBe(stem('hike'));
    expect(stem('agencies')).toBe(stem('agency'));
    expect(stem('stopped')).toBe(stem('stop'));
    expect(stem('boxes')).toBe(stem('box'));
    expect(terms('What did you do with the servers?')).toEqual([stem('servers')]);
  });

  it('reads an irregular past form as its verb, and leaves forms that are words of their own', () => {
    // "What did we buy?" is answered by "we bought…".
    expect(terms('We bought a canoe and met the seller.')).toEqual(terms('buy a canoe, meet the seller'));
    expect(stem('paid')).toBe(stem('pay'));
    expect(stem('written')).toBe(stem('write'));
    // "left" (the side) and "rose" (the flower) stay themselves.
    expect(stem('left')).toBe('left');
    expect(stem('rose')).toBe('ros');
  });

  it('joins derivations (Porter steps 2–4) without shortening short words', () => {
    expect(stem('political')).toBe(stem('politics'));
    expect(stem('education')).toBe(stem('educational'));
    expect(stem('educating')).toBe(stem('education'));
    expect(stem('adoption')).toBe(stem('adopted'));
    expect(stem('happiness')).toBe(stem('happy'));
    expect(stem('creativity')).toBe(stem('creative'));
    expect(stem('career')).toBe('career');
    expect(stem('station')).toBe('station');
    expect(stem('onion')).toBe('onion');
    expect(stem('painting')).not.toBe(stem('painter'));
    expect(measure('tr')).toBe(0);
    expect(measure('trouble')).toBe(1);
    expect(measure('oaten')).toBe(2);
  });

  it('keeps numbers and identifiers, strips possessives', () => {
    expect(terms("Marguerite's order 12345 on v2.1")).toEqual(['marguerit', 'order', '12345', 'v2', '1']);
  });

  it('splits Chinese into bigrams and skips pairs of function characters', () => {
    const t = terms('服务器的证书过期了');
    expect(t).toContain('~服务');
    expect(t).toContain('~证书');
    expect(t).toContain('~过期');
    expect(terms('我们的')).toEqual([]);
    // …and the English term of a concept it names (服务器: server, 证书: certificate; term-aliases.ts).
    expect(t.filter((x) => !x.startsWith('~'))).toEqual(['server', 'certif']);
  });

  it('mixed text gives both kinds, and the language share follows the letters', () => {
    const t = terms('排查 Nginx 的 502 错误');
    expect(t).toEqual(expect.arrayContaining(['~排查', 'nginx', '502', '~错误']));
    expect(cjkShare('排查 Nginx 的 502 错误')).toBeGreaterThan(0.5);
    expect(cjkShare('Restart the nginx service')).toBe(0);
  });
});

describe('BM25', () => {
  it('ranks the document with the rarer shared term first and honours scopes and removal', () => {
    const index = new Bm25Index();
    index.add('a', 's1', terms('the nginx server returns 502 errors'));
    index.add('b', 's1', terms('the server is fine today'));
    index.add('c', 's2', terms('nginx config reload'));
    const query = new Map(terms('nginx 502').map((t) => [t, 1] as const));
    expect(index.search(query, 3).map((h) => h.id)).toEqual(['a', 'c']);
    expect(index.search(query, 3, (scope) => scope === 's2').map((h) => h.id)).toEqual(['c']);
    index.remove('a');
    expect(index.search(query, 3).map((h) => h.id)).toEqual(['c']);
    expect(index.size).toBe(2);
    expect(index.scoreAll(query).get('c')).toBeGreaterThan(0);
  });
});

describe('intent tags and key terms', () => {
  it('tags troubleshooting, procedure and resolution in both languages', () => {
    expect(intentTags('Nginx 报错 502，怎么修复？')).toEqual(expect.arrayContaining(['troubleshooting', 'procedure']));
    expect(intentTags('Restarting php-fpm fixed it, it works now')).toContain('resolved');
    expect(intentTags('still failing after the restart')).toContain('unresolved');
    expect(intentFit(['troubleshooting'], ['troubleshooting', 'resolved'])).toBeGreaterThan(intentFit(['troubleshooting'], ['troubleshooting', 'unresolved']));
  });

  it('finds names and identifiers, not sentence starts', () => {
    const keys = keyTerms('Yesterday I met Marguerite at the YMCA center. Then we fixed k8s on node-7.');
    expect(keys).toEqual(expect.arrayContaining(['n:marguerite', 'n:ymca', 'i:k8s']));
    expect(keys).not.toContain('n:yesterday');
    expect(keys).not.toContain('n:then');
    expect(keyTerms('排查 Nginx 的问题')).toContain('n:nginx');
  });
});

describe('the terms a text is searched by', () => {
  it('reads a version number as the concept version, and no decimal, date or address', () => {
    const version = (text: string): number => searchTerms(text).filter((t) => t === 'version').length;
    expect(version('要升到 11.2.1 了')).toBe(1);
    expect(version('pinned to v1.30 for now')).toBe(1);
    expect(version('磁盘用了 72.5%，体重 68.4')).toBe(0);
    expect(version('the host is 10.8.3.14')).toBe(0);
    expect(version('on 2024.05.01 we moved')).toBe(0);
    // Its words are the plain terms' (a statement's subject is read from those).
    expect(searchTerms('要升到 11.2.1 了').slice(0, -1)).toEqual(terms('要升到 11.2.1 了'));
  });
});

import { describe, expect, it } from 'vitest';
import type { LayeredReport } from '../../../src/memory/layered/report.ts';
import { MAX_SOURCES, sourcesOf } from '../../../src/widget/runtime/sources.ts';
import type { DocSource } from '../../../src/widget/runtime/types.ts';

/** Only the part of the report `sourcesOf` reads: the ids the turn's memory selected, best first. */
const reportWith = (injected: string[]): LayeredReport => ({ memory: { retrieval: { injected } } }) as unknown as LayeredReport;

const link = (page: string, anchor: string): DocSource => ({ href: `https://docs.example/${page}.html#${anchor}`, title: page, heading: anchor });

describe('the sources under an answer', () => {
  it('lists doc chunks best-ranked first, one link per page and heading, never a conversation record', () => {
    const links = new Map([
      ['d:install:0', link('install', 'npm')],
      ['d:install:1', link('install', 'npm')], // a second piece of the same section
      ['d:faq:3', link('faq', 'license')],
    ]);
    const sources = sourcesOf(reportWith(['d:faq:3', 'turn-17', 'd:install:1', 'd:install:0']), links);
    expect(sources.map((s) => s.href)).toEqual(['https://docs.example/faq.html#license', 'https://docs.example/install.html#npm']);
  });

  it(`shows at most ${MAX_SOURCES} links, the best ranked`, () => {
    const ids = Array.from({ length: 12 }, (_, i) => `d:page${i}:0`);
    const links = new Map(ids.map((id, i) => [id, link(`page${i}`, 'top')]));
    const sources = sourcesOf(reportWith(ids), links);
    expect(sources).toHaveLength(MAX_SOURCES);
    expect(sources.map((s) => s.title)).toEqual(['page0', 'page1', 'page2', 'page3', 'page4']);
  });
});

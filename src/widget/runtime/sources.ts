/**
 * The links under an answer: the doc chunks the turn's memory selected, mapped to their pages and headings. Pure
 * (no store, no DOM), so Node tests import it.
 */
import type { LayeredReport } from '../../memory/layered/index.ts';
import type { DocSource } from './types.ts';

/**
 * Links shown under an answer: seed 001 reranks to a top 5, and a reader scans a handful of links, not the dozen
 * sentence-sized pieces a 1,024-token block can hold.
 */
export const MAX_SOURCES = 5;

/**
 * The doc chunks this turn's memory selected (sent now or already in the prompt), as links: one per page and
 * heading, best-ranked first, at most `MAX_SOURCES`.
 */
export function sourcesOf(report: LayeredReport, links: ReadonlyMap<string, DocSource>, max = MAX_SOURCES): DocSource[] {
  const out: DocSource[] = [];
  const seen = new Set<string>();
  for (const id of report.memory.retrieval.injected) {
    if (out.length >= max) break;
    const source = links.get(id);
    if (source === undefined || seen.has(source.href)) continue;
    seen.add(source.href);
    out.push(source);
  }
  return out;
}

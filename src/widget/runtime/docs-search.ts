/**
 * Searching the docs as a reader types, before (and without) any model: the assistant's own retrieval index and
 * scoring (BM25 over sections and sentences, the built-in embedder's vectors, the reranker), and the same relevance
 * gate the memory applies before it hands the model a doc chunk (pack.ts's `isRelevant` and relative cut). No
 * tokenizer, no engine: it runs on the docs index alone, offline. One result per section (page and heading), best
 * first, with a snippet around its best sentence; and the sections an empty panel or an answer suggests next.
 * Pure, no DOM.
 */
import { allowOf, buildQuery, DEFAULT_PACK_OPTIONS, DEFAULT_RERANK_OPTIONS, isRelevant, rankCandidates, terms, type Candidate, type DocScope } from '../../memory/retrieval/index.ts';
import { docScopeOf, type DocsMemory } from './docs-memory.ts';
import { inScope } from './docs-scope.ts';
import { snippetOf, type SnippetPart } from './snippet.ts';
import type { DocSource } from './types.ts';

export { inScope } from './docs-scope.ts';
export type { SnippetPart } from './snippet.ts';

export interface DocSearchHit extends DocSource {
  /** The doc chunk this section's best match is in. */
  readonly id: string;
  readonly snippet: readonly SnippetPart[];
  readonly score: number;
}

export interface DocSearchOptions {
  /** Results at most (default 8). */
  readonly limit?: number;
  /** Only sections whose link's path starts with this (the widget's `scope`, e.g. `/guide/`). */
  readonly scope?: string;
  /** For the reranker's recency and dates (default: now). */
  readonly now?: number;
  /** The nearest sections, past the relevance gate or not (what "not in the docs" shows); still none without any tie. */
  readonly nearest?: boolean;
}

export const SEARCH_LIMIT = 8;

/** Candidates ranked per search: enough for a page of distinct sections. */
const POOL = 40;

/** A scope's doc ids, worked out once per docs memory (a search runs on every keystroke). */
const scopes = new WeakMap<DocsMemory, Map<string, DocScope | null>>();
function scopeIn(docs: DocsMemory, scope: string): DocScope | null {
  let known = scopes.get(docs);
  if (known === undefined) scopes.set(docs, (known = new Map()));
  if (!known.has(scope)) known.set(scope, docScopeOf(docs, scope));
  return known.get(scope)!;
}

/** The sections of the docs that answer `text`, best first; [] for nothing relevant (or an empty query). */
export function searchDocs(docs: DocsMemory, text: string, options: DocSearchOptions = {}): DocSearchHit[] {
  const message = text.trim();
  if (message === '' || docs.chunks === 0) return [];
  const { index } = docs;
  const query = buildQuery({ message, entities: [], dates: [] });
  // The scope goes into the searches themselves (not a filter after them), so its sections fill the pool.
  const only = scopeIn(docs, options.scope ?? '');
  const ranked = rankCandidates(
    query,
    {
      shard: index.docs,
      allow: only === null ? undefined : allowOf(only),
      scopes: only?.ids,
      scopeKey: only === null ? 'docs' : `docs\u0000${only.key}`,
      exclude: new Set(),
      now: options.now ?? Date.now(),
      tags: (slot) => index.docTagsAt(slot),
    },
    { ...DEFAULT_RERANK_OPTIONS, poolSize: POOL },
  );
  const best = ranked[0]?.score ?? 0;
  const relevant = options.nearest === true ? ranked.filter((c) => c.score > 0) : ranked.filter((c) => isRelevant(c, DEFAULT_PACK_OPTIONS) && c.score >= DEFAULT_PACK_OPTIONS.minRelativeScore * best);
  const queryTerms = new Set(terms(message));
  const limit = options.limit ?? SEARCH_LIMIT;
  const seen = new Set<string>();
  const hits: DocSearchHit[] = [];
  for (const candidate of relevant) {
    const link = docs.links.get(candidate.id);
    if (link === undefined || seen.has(link.href) || !inScope(link.href, options.scope ?? '')) continue;
    seen.add(link.href);
    hits.push({ id: candidate.id, ...link, snippet: snippetOf(bestText(docs, candidate), queryTerms), score: candidate.score });
    if (hits.length >= limit) break;
  }
  return hits;
}

/** The candidate's best sentence and what follows it in its chunk (a snippet reads from there). */
function bestText(docs: DocsMemory, candidate: Candidate): string {
  const chunk = docs.index.docs.chunks.get(candidate.id);
  if (chunk === undefined) return docs.index.docEntries.get(candidate.id)?.text ?? '';
  const piece = chunk.pieces[candidate.bestPiece];
  return piece === undefined ? chunk.text : chunk.text.slice(piece.start);
}

/** A link's page (its URL without the fragment). */
const pageOf = (href: string): string => href.split('#')[0]!;

/**
 * What an empty panel suggests: the docs' pages by their titles, in the index's order (the order the docs index
 * lists its pages), one section each — the page's top — at most `limit`, within `scope`.
 */
export function topSections(docs: DocsMemory, limit = 4, scope = ''): DocSource[] {
  const out: DocSource[] = [];
  const pages = new Set<string>();
  for (const link of docs.links.values()) {
    const page = pageOf(link.href);
    if (pages.has(page) || !inScope(link.href, scope)) continue;
    pages.add(page);
    out.push({ href: page, title: link.title, heading: '' });
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Follow-ups after an answer: the other sections of the pages it cited (the reader's next question is often the
 * section after), in page order, none of those cited, at most `limit`.
 */
export function relatedSections(docs: DocsMemory, cited: readonly DocSource[], limit = 3, scope = ''): DocSource[] {
  const pages = new Set(cited.map((s) => pageOf(s.href)));
  const seen = new Set(cited.map((s) => s.href));
  const out: DocSource[] = [];
  for (const link of docs.links.values()) {
    if (!pages.has(pageOf(link.href)) || seen.has(link.href) || link.heading === '' || !inScope(link.href, scope)) continue;
    seen.add(link.href);
    out.push(link);
    if (out.length >= limit) break;
  }
  return out;
}

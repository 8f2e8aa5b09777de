/** What bench/widget-docs-page.ts reports (shared with its Node runner, scripts/bench/widget-docs.ts). Types only. */

export interface DocsOpenTiming {
  /** syncDocsIndex: manifest + changed page files fetched, written, and indexed for the layered memory. */
  sync: number;
  /** The store's own docs search answering, after the rest (its index built at that point; not in docsReady). */
  storeSearchable: number;
  /**
   * After the sync: the widget's layered memory restored from the saved index (a later visit with nothing new) or
   * finished from the store (the pages the sync did not write), until a probe answers.
   */
  layered: number;
  /** From open until the widget can plan a prompt from the docs (sync + layered). */
  docsReady: number;
  fetched: number;
  chunks: number;
  pages: number;
}

/** Where a cold sync's time goes: the same work split into its parts. */
export interface SyncBreakdown {
  /** Fetching and parsing every page file (6 at a time), nothing else. */
  fetchParse: number;
  /** Decoding their vectors and building the store's inputs. */
  decode: number;
  /** Writing them into an empty store (putDocs, 1,000 chunks a transaction), with the store's index and IDF. */
  write: number;
}

export interface WidgetDocsBench {
  breakdown: SyncBreakdown;
  cold: DocsOpenTiming;
  warm: DocsOpenTiming;
  /** The later visit again, its saved docs index deleted first (what a later visit did before it was saved). */
  warmRebuilt: DocsOpenTiming;
  tokenizerMs: number;
  hits: number;
  userAgent: string;
  crossOriginIsolated: boolean;
}

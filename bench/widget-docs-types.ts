/** What bench/widget-docs-page.ts reports (shared with its Node runner, scripts/bench/widget-docs.ts). Types only. */

export interface DocsOpenTiming {
  /** Where the docs memory came from (docs-load.ts): restored, shipped (built by index-docs) or built here. */
  origin: 'restored' | 'shipped' | 'built';
  /** loadWidgetDocs: the store opened, the manifest fetched, then the memory restored, fetched or built. */
  load: number;
  /** The first prompt planned from the docs (a probe question), after the load. */
  layered: number;
  /** From open until the widget can plan a prompt from the docs (load + layered). */
  docsReady: number;
  /** After that, in the background: the page files stored (a shipped load) and the memory saved. Not in docsReady. */
  background: number;
  /** The store's own docs search answering, after the rest (its index built at that point; not in docsReady). */
  storeSearchable: number;
  /** Page files fetched (in the background for a shipped load). */
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
  /** A first visit (empty store, fresh profile), with the docs memory the index ships. */
  cold: DocsOpenTiming;
  /** A first visit that indexes the pages itself (the manifest's memory left out; page files HTTP-cached by then). */
  coldIndexed: DocsOpenTiming;
  warm: DocsOpenTiming;
  /** The later visit again, its saved docs index deleted first (what a later visit did before it was saved). */
  warmRebuilt: DocsOpenTiming;
  tokenizerMs: number;
  hits: number;
  userAgent: string;
  crossOriginIsolated: boolean;
}

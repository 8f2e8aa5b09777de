/**
 * The docs widget searching before any model, in real Chromium: the real `<qwen-assistant mode="search">` over the
 * 10,000-chunk corpus index (scripts/bench/widget-search.ts passes its manifest as `?manifest=`), from the production
 * widget build a docs site serves (`?widget=`: its `qwen-assistant.js`; without it, the source through the dev
 * server). Each visit is a new document (the runner reloads the page):
 * - visit 0 (first visit): the store is emptied, the panel opened, one search waited for, and the docs memory the
 *   widget saves for later visits waited for;
 * - later visits: `firstResultsMs`, from `show()` (the query typed at once) to the first results rendered (the
 *   element's `qwen-assistant:search` event fires after it rendered them); then a reader typing queries a character
 *   at a time, each keystroke timed to its results rendered (`keystrokes`); then every resource the page fetched,
 *   and the bytes of those that belong to the engine (weights, wasm, worker, tokenizer, engine code), which must
 *   be none before consent.
 * Sets `window.__benchResult`.
 */
import { openDB } from 'idb';
import { deleteMemoryDB } from '../src/memory/store/db.ts';
import type { QwenAssistant } from '../src/widget/qwen-assistant.ts';

export interface SearchVisit {
  visit: number;
  firstResultsMs: number;
  results: number;
  /** Keystroke → results rendered, ms, one per prefix typed (later visits). */
  keystrokes: number[];
  /** Engine assets fetched so far in this document: their paths and bytes (encoded body sizes). */
  engineAssets: string[];
  engineBytes: number;
  resources: number;
}

const params = new URLSearchParams(location.search);
const manifest = new URL(params.get('manifest')!, location.href).href;
const visit = Number(params.get('visit') ?? 0);
const storeDb = `qwen-widget:qwen-assistant|${manifest}`;
const QUERIES = ['cache the model in the browser', 'how do I configure the port', 'offline service worker', 'theme colours'];
const ENGINE_ASSET = /\.gguf|\.wasm|\/tokenizer\/|wllama|web-llm|webllm|worker/i;
const round = (n: number): number => Math.round(n * 10) / 10;

function nextSearch(element: QwenAssistant, query: string): Promise<{ results: number }> {
  return new Promise((resolve) => {
    const on = (event: Event): void => {
      const detail = (event as CustomEvent<{ query: string; results: unknown[] }>).detail;
      if (detail.query !== query) return;
      element.removeEventListener('qwen-assistant:search', on);
      resolve({ results: detail.results.length });
    };
    element.addEventListener('qwen-assistant:search', on);
  });
}

async function type(element: QwenAssistant, text: string): Promise<{ ms: number; results: number }> {
  await element.updateComplete;
  const input = element.shadowRoot!.querySelector('textarea')!;
  const done = nextSearch(element, text);
  const started = performance.now();
  input.value = text;
  input.dispatchEvent(new Event('input'));
  const { results } = await done;
  return { ms: performance.now() - started, results };
}

async function savedDocs(): Promise<boolean> {
  const db = await openDB(storeDb);
  try {
    return db.objectStoreNames.contains('meta') && (await db.get('meta', 'layered:snapshot:docs')) !== undefined;
  } finally {
    db.close();
  }
}

async function run(): Promise<SearchVisit> {
  if (visit === 0) await deleteMemoryDB(storeDb);
  const widget = params.get('widget');
  await (widget === null ? import('../src/widget/index.ts') : import(/* @vite-ignore */ widget));
  const element = document.createElement('qwen-assistant') as QwenAssistant;
  element.setAttribute('docs-index', manifest);
  element.setAttribute('mode', 'search');
  element.setAttribute('lang', 'en');
  document.body.append(element);
  await element.updateComplete;
  const first = QUERIES[visit % QUERIES.length]!;
  const started = performance.now();
  element.show();
  const shown = await type(element, first);
  const firstResultsMs = performance.now() - started;
  const keystrokes: number[] = [];
  if (visit === 0) {
    // The first visit saves the docs memory a little after it loaded: later visits restore it.
    while (!(await savedDocs())) await new Promise((resolve) => setTimeout(resolve, 200));
  } else {
    for (const query of QUERIES) for (let n = 2; n <= query.length; n++) keystrokes.push(round((await type(element, query.slice(0, n))).ms));
  }
  const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  const engine = resources.filter((r) => ENGINE_ASSET.test(new URL(r.name).pathname));
  return {
    visit,
    firstResultsMs: round(firstResultsMs),
    results: shown.results,
    keystrokes,
    engineAssets: engine.map((r) => new URL(r.name).pathname),
    engineBytes: engine.reduce((n, r) => n + (r.encodedBodySize || r.transferSize), 0),
    resources: resources.length,
  };
}

run().then(
  (result) => ((window as unknown as { __benchResult: unknown }).__benchResult = result),
  (error: unknown) => ((window as unknown as { __benchError: string }).__benchError = error instanceof Error ? `${error.message}\n${error.stack}` : String(error)),
);

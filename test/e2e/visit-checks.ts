/**
 * Checks several e2e files make over one visit (moved here from csp.test.ts and tokenizer-fetch.test.ts, so a
 * single fresh profile can carry several of them instead of paying for a model load each):
 * - the shipped Content-Security-Policy: the page's meta, parsed and held to what README.md promises, and a watch
 *   that counts violations in every page and worker of a context;
 * - how often a file went to the network, and whether a page got it from the service worker's cache.
 */
import type { BrowserContext, Page } from 'playwright';
import { expect } from 'vitest';
import type { RequestLog } from './harness.ts';

export interface CspWatch {
  /** Violation events seen by pages, and CSP console lines from pages and workers. */
  found(): Promise<string[]>;
}

/**
 * Starts counting violations in every page and worker of `context` (before any page script runs): a
 * `securitypolicyviolation` listener in every page, and the browser's "Content Security Policy" console lines (pages
 * and workers). Call it before the context opens its first page. Closed pages no longer count: ask before closing.
 */
export async function watchCsp(context: BrowserContext): Promise<CspWatch> {
  const lines: string[] = [];
  const pages: Page[] = [];
  context.on('page', (page) => pages.push(page));
  context.on('console', (message) => {
    if (/content.security.policy|csp violation/i.test(message.text())) lines.push(`console: ${message.text()}`);
  });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    // Capture on the document: violations target the element (composed, so through shadow roots) or the document.
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`), true);
  });
  return {
    async found() {
      const events = await Promise.all(
        pages.filter((p) => !p.isClosed()).map((p) => p.evaluate(() => (globalThis as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])),
      );
      return [...events.flat().map((e) => `event: ${e}`), ...lines];
    },
  };
}

/** The page's CSP meta, parsed: directive → sources. Fails when there is none or it is not the first thing that can load. */
export async function metaPolicy(page: Page): Promise<Map<string, string[]>> {
  const found = await page.evaluate(() => {
    const metas = [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]')];
    const meta = metas[0];
    const firstLoading = document.head.querySelector('script, style, link:not([rel="icon"])');
    return {
      count: metas.length,
      content: meta?.getAttribute('content') ?? '',
      inHead: meta?.parentElement === document.head,
      beforeLoads: meta !== undefined && firstLoading !== null && (meta.compareDocumentPosition(firstLoading) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
    };
  });
  expect(found).toMatchObject({ count: 1, inHead: true, beforeLoads: true });
  return new Map(
    found.content
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values] as [string, string[]]),
  );
}

/** What every shipped policy must hold, whatever its model hosts. */
export function expectStrictPolicy(policy: Map<string, string[]>): void {
  expect(policy.get('default-src')).toEqual(["'none'"]);
  const scripts = policy.get('script-src') ?? [];
  expect(scripts.slice(0, 2)).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  // Nothing else but hashes: no 'unsafe-inline', no 'unsafe-eval', no host.
  expect(scripts.slice(2).every((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s))).toBe(true);
  expect((policy.get('style-src') ?? []).filter((s) => !s.startsWith("'sha256-"))).toEqual(["'self'"]);
  expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(policy.get('worker-src')).toEqual(["'self'", 'blob:']);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('form-action')).toEqual(["'none'"]);
  expect(policy.get('connect-src')?.[0]).toBe("'self'");
}

/** How many times `url` went to the network (the page's, its workers' or the service worker's request). */
export const networkFetches = (requests: readonly RequestLog[], url: string): number => requests.filter((r) => r.url === url).length;

/** Responses to `url` seen by the page, each marked with whether the service worker answered it from its cache. */
export function pageResponses(page: Page, url: string): boolean[] {
  const fromWorker: boolean[] = [];
  page.on('response', (response) => {
    if (response.url() === url) fromWorker.push(response.fromServiceWorker());
  });
  return fromWorker;
}

/** Waits until the service worker's cache `cacheName` holds `url`. */
export async function waitUntilCached(page: Page, cacheName: string, url: string): Promise<void> {
  await page.waitForFunction(async ([name, href]) => (await (await caches.open(name)).match(href, { ignoreVary: true })) !== undefined, [cacheName, url] as const, {
    timeout: 20_000,
    polling: 200,
  });
}

/**
 * Waits until the service worker's cache holds every same-origin file under `folder` that the page loaded: its
 * background caching (the files the page loaded before it took control, fetched one by one) is over. Closing
 * the page earlier can abort those fetches (the worker may go with the page's renderer), which a test that
 * counts failed requests reads as a failure; a user loses nothing by it (the next visit caches them).
 */
export async function waitUntilAllCached(page: Page, cacheName: string, folder: string): Promise<void> {
  await page.waitForFunction(
    async ([name, prefix]) => {
      const cached = new Set((await (await caches.open(name)).keys()).map((r) => r.url));
      return (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .map((e) => new URL(e.name))
        .filter((u) => u.origin === location.origin && u.pathname.startsWith(prefix))
        .every((u) => cached.has(u.href));
    },
    [cacheName, folder] as const,
    { timeout: 30_000, polling: 200 },
  );
}

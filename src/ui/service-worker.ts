/**
 * Registers the offline service worker (public/sw.js) in production builds only: the dev server and the test
 * runner serve modules that must never come from a cache. The page then hands it the files it loaded before the
 * worker took control, so the very first visit is enough to work offline.
 */
const enabled = (): boolean => import.meta.env.PROD && typeof navigator !== 'undefined' && 'serviceWorker' in navigator;

export function registerServiceWorker(): void {
  if (!enabled()) return;
  const base = import.meta.env.BASE_URL;
  navigator.serviceWorker.register(`${base}sw.js`, { scope: base }).catch(() => {
    // No service worker (private mode in some browsers): the app still works online.
  });
  void navigator.serviceWorker.ready.then(() => cacheLoadedFiles());
}

/** Resolves once the service worker is active (at most `timeoutMs`), so workers started after it are controlled. */
export async function whenServiceWorkerReady(timeoutMs = 3_000): Promise<void> {
  // A page it controls already (every visit after the first): its workers are controlled too.
  if (!enabled() || navigator.serviceWorker.controller !== null) return;
  await Promise.race([navigator.serviceWorker.ready.then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]);
}

/**
 * Same-origin files this page loaded without the worker (before it took control), sent to it to cache. A file that
 * went through the worker (`workerStart` set) is in its cache already: asking again would download it twice.
 */
export function cacheLoadedFiles(): void {
  if (!enabled()) return;
  const urls = new Set<string>([location.href]);
  for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
    const url = new URL(entry.name);
    if (url.origin === location.origin && !url.pathname.includes('/models/') && entry.workerStart === 0) urls.add(url.href);
  }
  const worker = navigator.serviceWorker.controller ?? null;
  if (worker !== null) worker.postMessage({ type: 'cache-urls', urls: [...urls] });
  else void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: 'cache-urls', urls: [...urls] }));
}

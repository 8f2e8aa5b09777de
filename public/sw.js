/**
 * The app's service worker: keeps the app shell (the page, its hashed assets, the engine's worker and wasm,
 * the tokenizer) so the app starts with the network off once the model is on the device. Model weights are
 * left alone: wllama keeps them in the origin-private file system and web-llm in its own caches.
 *
 * - navigations and models/manifest.json: network first (an update arrives at once), the cached copy offline;
 * - /assets/* (content-hashed) and tokenizer/*: cache first. The tokenizer is 4 MB that never changes under its
 *   folder name (tokenizer/qwen2.5/): refreshing it in the background would download it again on every visit.
 *   New tokenizer files need a new file or folder name (tokenizer.tables-v1.json) or a new SHELL cache name;
 * - other app files: the cached copy at once, refreshed in the background;
 * - model files, range requests, other origins: not touched.
 * Plain JavaScript in public/ so it is served at the site root as written, with no build step.
 */
const SHELL = 'qwen-shell-v1';
/** `ignoreVary`: the server varies on Origin (CORS), and a module script is asked for with one, a copy without. */
const MATCH = { ignoreVary: true };
const scope = new URL(self.registration.scope);

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(caches.open(SHELL).then((cache) => cache.add(new Request(scope.href, { cache: 'reload' })).catch(() => {})));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('qwen-shell-') && name !== SHELL) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** Where the page is told which self-hosted model to use: offline, the last answer must still hold. */
const MANIFEST = 'models/manifest.json';
/** Folders whose files never change under their name (see the header): served cache first. */
const KEPT = ['assets/', 'tokenizer/'];

function appPath(request) {
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  return url.pathname.slice(scope.pathname.length);
}

/** Same-origin app files only; models are cached by the engines themselves. */
function handled(request) {
  if (request.method !== 'GET' || request.headers.has('range')) return false;
  const path = appPath(request);
  if (path === null) return false;
  return path === MANIFEST || (!path.startsWith('models/') && !path.endsWith('.gguf') && path !== 'sw.js');
}

/**
 * Keeps a copy of a good same-origin response and hands the response on at once: the page reads the body while
 * the cache writes its copy (the 4 MB tokenizer no longer waits for the write), and `event.waitUntil` keeps this
 * worker alive until the copy is stored.
 */
function put(event, request, response) {
  if (!response.ok || response.type !== 'basic') return response;
  const copy = response.clone();
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.put(request, copy))
      .catch(() => {}),
  );
  return response;
}

async function networkFirst(request, event) {
  try {
    return put(event, request, await fetch(request));
  } catch (error) {
    const cached = await caches.match(request, MATCH);
    if (cached) return cached;
    throw error;
  }
}

async function navigation(request, event) {
  try {
    const response = await fetch(request);
    // One page for every query string (?model=…): keep it under the scope's URL too.
    if (response.ok) put(event, new Request(scope.href), response.clone());
    return put(event, request, response);
  } catch (error) {
    const cached = (await caches.match(request, { ignoreSearch: true, ignoreVary: true })) ?? (await caches.match(scope.href, { ignoreVary: true }));
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request, event) {
  const cached = await caches.match(request, MATCH);
  if (cached) return cached;
  return put(event, request, await fetch(request));
}

async function staleWhileRevalidate(request, event) {
  const cached = await caches.match(request, MATCH);
  const fresh = fetch(request).then((response) => put(event, request, response));
  if (cached) {
    event.waitUntil(fresh.catch(() => {}));
    return cached;
  }
  return fresh;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (!handled(request)) return;
  if (request.mode === 'navigate') event.respondWith(navigation(request, event));
  else if (appPath(request) === MANIFEST) event.respondWith(networkFirst(request, event));
  else if (KEPT.some((folder) => appPath(request).startsWith(folder))) event.respondWith(cacheFirst(request, event));
  else event.respondWith(staleWhileRevalidate(request, event));
});

/** The page lists what it loaded before this worker controlled it: cache those too. */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'cache-urls' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      for (const url of data.urls) {
        if (typeof url !== 'string') continue;
        const request = new Request(url);
        if (!handled(request) || (await cache.match(request, MATCH))) continue;
        const response = await fetch(request).catch(() => null);
        if (response?.ok && response.type === 'basic') await cache.put(request, response).catch(() => {});
      }
    })(),
  );
});

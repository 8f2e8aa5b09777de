/**
 * The widget's optional service worker: keeps a docs site readable and the widget working offline after one visit.
 * A host serves it from its site root (a worker controls only the pages below its own folder) and registers it
 * with the widget folder as a parameter:
 *
 *   navigator.serviceWorker.register('/qwen-assistant-sw.js?widget=/widget/');
 *
 * - the widget's own files (the build writes their list below; the entry and its static imports are precached at
 *   install): content-hashed ones and the tokenizer cache first, the others (qwen-assistant.js) network first with
 *   the cached copy offline. The tokenizer is 4 MB that never changes under its folder name (tokenizer/qwen2.5/):
 *   network first would download it again on every page of the site; new tokenizer files need a new file or folder name (tokenizer.tables-v1.json);
 * - the site's pages and the docs index: network first, the cached copy offline; but not the docs index's built
 *   memory (`memory/<hash>.bin`): a visit that used it saved it in the widget's IndexedDB, so a copy here would
 *   only store it twice;
 * - models (.gguf, MLC shards, web-llm's model libraries `*-webgpu.wasm`), range requests, other origins, non-GET:
 *   not touched. wllama keeps the model it downloaded in the origin-private file system and web-llm in its own Cache
 *   Storage, so caching them here would only store them twice.
 * Plain JavaScript, copied by the widget build as it is, with the file list filled in.
 */
const CACHE = 'qwen-assistant-offline-v1';
/** Files of the widget build, relative to the widget folder. */
const WIDGET_FILES = self.__QWEN_WIDGET_FILES__;
/** The entry and its static imports (what a page loads before the widget opens): precached at install. */
const EAGER_FILES = self.__QWEN_WIDGET_EAGER__;
/** ignoreVary: a module script is asked for with an Origin header, a cached copy may be without. */
const MATCH = { ignoreVary: true };
const scope = new URL(self.registration.scope);
const widgetBase = new URL(new URL(self.location.href).searchParams.get('widget') ?? './', self.location.href);
const widgetUrls = new Set(WIDGET_FILES.map((file) => new URL(file, widgetBase).href));
/** Vite names chunks `name-<8 base64url chars>.ext`: such a file never changes. */
const HASHED = /-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;
/** The prepared tokenizer's folder: its files never change either (see the header). */
const TOKENIZER = new URL('tokenizer/', widgetBase).href;

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(EAGER_FILES.map((file) => cache.add(new Request(new URL(file, widgetBase), { cache: 'reload' })).catch(() => {}))),
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('qwen-assistant-offline-') && name !== CACHE) await caches.delete(name);
      // The page that registered this worker was loaded before it existed: keep a copy of it now.
      const cache = await caches.open(CACHE);
      for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) {
        if (client.url.startsWith(scope.href)) await cache.add(new Request(client.url, { cache: 'reload' })).catch(() => {});
      }
      await self.clients.claim();
    })(),
  );
});

function handled(request) {
  if (request.method !== 'GET' || request.headers.has('range')) return false;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.href.startsWith(scope.href)) return false;
  return !/\.gguf$|\/resolve\/main\/|params_shard_\d+\.bin$|(?:tensor|ndarray)-cache\.json$|-webgpu\.wasm$|\/memory\/[0-9a-f]{64}\.bin$/.test(url.pathname);
}

async function put(request, response) {
  if (response.ok && response.type === 'basic') {
    const copy = response.clone();
    await caches
      .open(CACHE)
      .then((cache) => cache.put(request, copy))
      .catch(() => {});
  }
  return response;
}

async function networkFirst(request) {
  try {
    return await put(request, await fetch(request));
  } catch (error) {
    const cached = await caches.match(request, request.mode === 'navigate' ? { ...MATCH, ignoreSearch: true } : MATCH);
    if (cached !== undefined) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request, MATCH);
  return cached ?? put(request, await fetch(request));
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (!handled(request)) return;
  const url = request.url.split('#')[0].split('?')[0];
  const kept = widgetUrls.has(url) && (HASHED.test(url) || url.startsWith(TOKENIZER));
  event.respondWith(kept ? cacheFirst(request) : networkFirst(request));
});

/// <reference lib="webworker" />
/**
 * Serves the synthetic MLC folder (mlc-layout-fixture.ts) inside the engine worker and reports every request for it.
 * web-llm reaches the network two ways: `fetch`, and the Cache API's `Cache.prototype.add` (its `ArtifactCache`,
 * node_modules/@mlc-ai/web-llm/lib/index.js:6554–6565, used for the config, a library on an http(s) host other than
 * localhost, the tokenizer, the tensor cache and the shards). Both are wrapped here; `add` keeps its contract (a
 * response that is not ok rejects with a TypeError and stores nothing). Everything else passes through untouched.
 */
import { FIXTURE_ORIGIN, REQUEST_CHANNEL, fixtureResponse, type ServedRequest } from './mlc-layout-fixture.ts';

const channel = new BroadcastChannel(REQUEST_CHANNEL);

function serve(request: Request, via: ServedRequest['via']): Response | null {
  const response = fixtureResponse(request.url);
  if (response === null) return null;
  const served: ServedRequest = { url: request.url, via, range: request.headers.get('range'), status: response.status, at: Date.now() };
  channel.postMessage(served);
  return response;
}

const realFetch = globalThis.fetch.bind(globalThis);
globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  if (request.url.startsWith(`${FIXTURE_ORIGIN}/`)) return serve(request, 'fetch')!;
  return realFetch(input, init);
};

const realAdd = Cache.prototype.add;
Cache.prototype.add = async function add(this: Cache, info: RequestInfo | URL): Promise<void> {
  const request = info instanceof Request ? info : new Request(info);
  const response = serve(request, 'cache.add');
  if (response === null) return realAdd.call(this, info);
  if (!response.ok) throw new TypeError(`Failed to execute 'add' on 'Cache': Request failed (HTTP ${response.status})`);
  await this.put(request, response);
};

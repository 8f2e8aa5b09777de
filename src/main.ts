/** Entry of the static chat page: resolves the model source, then mounts the app. No engine code loads here. */
import { parseBackend, resolveModelSource, type SelfHostedManifest } from './engine/model-sources.ts';
import { BACKEND_STORAGE_KEY } from './ui/qwen-chat-app.ts';
import { registerServiceWorker } from './ui/service-worker.ts';

/**
 * Whether this build ships public/models/manifest.json (written by `npm run fetch-model`), decided at build time by
 * scripts/self-hosted-manifest.ts: a build without one does not ask, so a normal load logs no 404. A config without
 * that plugin leaves it undefined, and the page asks as it always did.
 */
declare const __QWEN_SELF_HOSTED_MANIFEST__: boolean | undefined;
const shipsManifest = typeof __QWEN_SELF_HOSTED_MANIFEST__ === 'boolean' ? __QWEN_SELF_HOSTED_MANIFEST__ : true;

async function readSelfHostedManifest(): Promise<SelfHostedManifest | undefined> {
  if (!shipsManifest) return undefined;
  try {
    const response = await fetch(`${import.meta.env.BASE_URL}models/manifest.json`, { cache: 'no-cache' });
    return response.ok ? ((await response.json()) as SelfHostedManifest) : undefined;
  } catch {
    return undefined;
  }
}

function savedBackend(): string | null {
  try {
    return localStorage.getItem(BACKEND_STORAGE_KEY);
  } catch {
    return null;
  }
}

async function start(): Promise<void> {
  registerServiceWorker();
  const query = new URLSearchParams(location.search);
  const resolved = resolveModelSource({
    query,
    buildGguf: import.meta.env.VITE_MODEL_GGUF_URL as string | undefined,
    buildMlc: import.meta.env.VITE_MODEL_MLC_URL as string | undefined,
    buildEmbedding: import.meta.env.VITE_EMBEDDING_GGUF_URL as string | undefined,
    manifest: await readSelfHostedManifest(),
  });
  const app = document.createElement('qwen-chat-app');
  app.source = resolved.source;
  app.sourceOrigin = resolved.origin;
  // The address bar wins over the choice saved in the model manager.
  app.backend = parseBackend(query.get('backend')) ?? parseBackend(savedBackend()) ?? 'auto';
  app.autoload = query.get('autoload') === '1';
  document.querySelector('#app')?.replaceChildren(app);
}

void start();

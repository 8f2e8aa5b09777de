/** Entry of the static chat page: resolves the model source, then mounts the app. No engine code loads here. */
import { parseBackend, resolveModelSource, type SelfHostedManifest } from './engine/model-sources.ts';
import './ui/qwen-chat-app.ts';

async function readSelfHostedManifest(): Promise<SelfHostedManifest | undefined> {
  try {
    const response = await fetch(`${import.meta.env.BASE_URL}models/manifest.json`, { cache: 'no-cache' });
    return response.ok ? ((await response.json()) as SelfHostedManifest) : undefined;
  } catch {
    return undefined;
  }
}

async function start(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const resolved = resolveModelSource({
    query,
    buildGguf: import.meta.env.VITE_MODEL_GGUF_URL as string | undefined,
    buildMlc: import.meta.env.VITE_MODEL_MLC_URL as string | undefined,
    manifest: await readSelfHostedManifest(),
  });
  const app = document.createElement('qwen-chat-app');
  app.source = resolved.source;
  app.backend = parseBackend(query.get('backend')) ?? 'auto';
  app.autoload = query.get('autoload') === '1';
  document.querySelector('#app')?.replaceChildren(app);
}

void start();

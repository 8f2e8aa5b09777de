import { defineConfig, loadEnv } from 'vite';
import { appConnectSources } from './scripts/csp.ts';
import { cspMeta } from './scripts/csp-plugin.ts';
import { isolationHeaders } from './scripts/isolation-headers.ts';
import { memoryTreeshake } from './scripts/pure-modules.ts';
import { selfHostedManifest } from './scripts/self-hosted-manifest.ts';

// COOP/COEP make the page cross-origin isolated: SharedArrayBuffer, and so wllama's
// multi-thread build. Without them the app still works, single-threaded.
export default defineConfig(({ mode }) => {
  // The build-time model (VITE_MODEL_GGUF_URL / VITE_MODEL_MLC_URL, from the environment or .env files) is
  // resolved as the app resolves it, and its hosts join the defaults in the Content-Security-Policy's connect-src.
  const env = loadEnv(mode, process.cwd(), 'VITE_MODEL_');
  return {
    // A static site, not an SPA: unknown paths answer 404 (a missing model file must not come back as index.html).
    appType: 'mpa',
    // selfHostedManifest: the page asks for models/manifest.json only when the build ships one (no 404 on a normal load).
    plugins: [selfHostedManifest(), cspMeta(appConnectSources(env.VITE_MODEL_GGUF_URL, env.VITE_MODEL_MLC_URL))],
    server: { headers: isolationHeaders },
    preview: { headers: isolationHeaders },
    worker: { format: 'es' },
    // Engines stay out of dependency pre-bundling: they ship wasm and inline workers that must load as published.
    optimizeDeps: { exclude: ['@wllama/wllama', '@mlc-ai/web-llm', 'voy-search'] },
    build: { target: 'es2022', rolldownOptions: { treeshake: memoryTreeshake } },
  };
});

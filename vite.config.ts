import { defineConfig } from 'vite';
import { isolationHeaders } from './scripts/isolation-headers.ts';

// COOP/COEP make the page cross-origin isolated: SharedArrayBuffer, and so wllama's
// multi-thread build. Without them the app still works, single-threaded.
export default defineConfig({
  // A static site, not an SPA: unknown paths answer 404 (a missing model file must not come back as index.html).
  appType: 'mpa',
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  worker: { format: 'es' },
  // Engines stay out of dependency pre-bundling: they ship wasm and inline workers that must load as published.
  optimizeDeps: { exclude: ['@wllama/wllama', '@mlc-ai/web-llm', 'voy-search'] },
  build: { target: 'es2022' },
});

/**
 * Loads voy-search in the browser by instantiating its wasm by hand (its entry uses the wasm ESM integration,
 * which the dev server does not do): the same route ARCHITECTURE.md describes for Node. Loaded once, on demand.
 */
import * as bindings from 'voy-search/voy_search_bg.js';
import wasmUrl from 'voy-search/voy_search_bg.wasm?url';
import type { VoyModule } from './voy-index.ts';

let loading: Promise<VoyModule> | null = null;

export function loadVoy(): Promise<VoyModule> {
  loading ??= (async () => {
    const imports = { './voy_search_bg.js': bindings as unknown as WebAssembly.ModuleImports };
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`voy-search wasm: HTTP ${response.status} for ${wasmUrl}`);
    const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), imports);
    bindings.__wbg_set_wasm(instance.exports);
    return bindings;
  })();
  loading.catch(() => (loading = null));
  return loading;
}

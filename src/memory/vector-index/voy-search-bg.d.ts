/** voy-search ships types for its entry only; the wasm-bindgen glue we instantiate by hand has the same exports. */
declare module 'voy-search/voy_search_bg.js' {
  export * from 'voy-search';
  export function __wbg_set_wasm(exports: WebAssembly.Exports): void;
}

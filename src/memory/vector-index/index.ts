/**
 * Vector indexes behind one `VectorIndex` interface: the flat index (int8 rows, a SIMD dot kernel, exact) and
 * voy-search (selectable; its wasm is loaded lazily, from `voy-loader.ts` and `voy-index.ts`, which callers import
 * dynamically so that it stays out of the first load). The public entry: code outside this folder imports from here.
 */
export { exactSearch, TopK, type IndexEntry, type Namespace, type SearchHit, type VectorIndex } from './vector-index.ts';
export { FlatIndex, type QuantizedRows } from './flat-index.ts';
export { kthLargest } from './kth-largest.ts';

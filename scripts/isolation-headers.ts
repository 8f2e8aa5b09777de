/** Headers that make a page cross-origin isolated (needed for SharedArrayBuffer, so for wllama threads). */
export const isolationHeaders: Record<string, string> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

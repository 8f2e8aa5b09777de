/**
 * A note, kept in localStorage, that this source's weights were loaded here before: the next visit starts the
 * engine at once instead of first listing the browser's storage (~120 ms on the start's critical path). The note
 * never allows a download: such a load asks the engine for weights already on the device (`allowDownload: false`),
 * so evicted weights end in the usual question. It is dropped when the weights are deleted, turn out to be missing,
 * or everything is wiped (localStorage cleared).
 */
import type { ModelSource } from '../../engine/protocol.ts';

const KEY = 'qwen.weights-loaded';

const keyOf = (source: ModelSource): string => JSON.stringify([source.ggufUrl ?? null, source.mlc?.modelId ?? null, source.mlc?.urlF16 ?? null]);

export function rememberWeights(source: ModelSource): void {
  try {
    localStorage.setItem(KEY, keyOf(source));
  } catch {
    // Private mode or storage full: the next visit checks first, as a first visit does.
  }
}

export function weightsRemembered(source: ModelSource): boolean {
  try {
    return localStorage.getItem(KEY) === keyOf(source);
  } catch {
    return false;
  }
}

export function forgetWeights(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}

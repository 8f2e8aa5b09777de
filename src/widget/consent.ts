/**
 * The reader's choice to download the model, remembered per site (this origin's localStorage: a UI preference, not
 * memory). Until it is given, the widget fetches none of the engine's assets — weights, wasm, worker, tokenizer,
 * model library — and only searches the docs. Storage that cannot be read (a sandboxed frame, a privacy mode)
 * remembers nothing: the reader is asked again on the next visit.
 */
export const CONSENT_KEY = 'qwen-assistant:model-consent';

export function hasModelConsent(): boolean {
  try {
    return globalThis.localStorage?.getItem(CONSENT_KEY) === 'granted';
  } catch {
    return false;
  }
}

export function rememberModelConsent(granted: boolean): void {
  try {
    if (granted) globalThis.localStorage?.setItem(CONSENT_KEY, 'granted');
    else globalThis.localStorage?.removeItem(CONSENT_KEY);
  } catch {
    // Not remembered: asked again next visit.
  }
}

/**
 * What the scripted UI engine (ui-worker.ts) answers, shared with the tests that drive it. It stands in for the
 * two generated test models in tests whose subject is the app around the model (conversations, settings, export,
 * rendering, the keyboard), so they need not download and run the real one:
 * - `SCRIPTED_MODEL_URL`: like `qwen2-tiny.gguf`, every prompt gets `SCRIPTED_REPLY`, streamed in several chunks;
 * - `SCRIPTED_ENDLESS_URL`: like `qwen2-tiny-loop.gguf`, a reply that goes on until it is stopped (or runs out of
 *   room: `length`).
 * The real engine (wllama on the generated models) stays in the tests that check it: test/browser/engine-wllama,
 * chat-app, app/inspector, app/model-manager.
 */
export const SCRIPTED_MODEL_URL = 'scripted://ui/reply.gguf';
export const SCRIPTED_ENDLESS_URL = 'scripted://ui/endless.gguf';

/** Plain text (no Markdown), so what a message shows is exactly this; "scripted engine" is only ever in a reply. */
export const SCRIPTED_REPLY = 'This reply comes from the scripted engine of the UI tests, in several chunks.';

/** Starts the scripted engine's worker, as `EngineClient`'s `createWorker` option would. */
export const createScriptedUiWorker = (): Worker => new Worker(new URL('./ui-worker.ts', import.meta.url), { type: 'module', name: 'qwen-engine-scripted-ui' });

/** What the liveness test worker (liveness-worker.ts) answers to, shared with the tests that drive it. */
export const CLOSE = '[[close]]';
export const HANG = '[[hang]]';
export const prefillFor = (ms: number): string => `[[prefill:${ms}]]`;
export const CLOSING_MARKER = '[closing]';
export const HANGING_MARKER = '[hanging]';
export const PREFILLED_REPLY = 'Prefilled and answered.';

/** Starts the test worker, as `EngineClient`'s `createWorker` option would. */
export const createLivenessWorker = (): Worker => new Worker(new URL('./liveness-worker.ts', import.meta.url), { type: 'module', name: 'qwen-engine-liveness' });

/// <reference lib="webworker" />
/**
 * The worker side of a test engine: the real handler (src/engine/handler.ts) serving a scripted backend, on a
 * machine with no WebGPU, exactly as src/engine/worker.ts serves the real ones. Test worker entries call this.
 */
import type { Backend } from '../../../src/engine/backends/backend.ts';
import { EngineHandler } from '../../../src/engine/handler.ts';
import { NO_GPU } from '../../../src/engine/probe-gpu.ts';
import type { ChatResult, WorkerMessage } from '../../../src/engine/protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

/** The engine counters a scripted reply reports (their values do not matter to these tests). */
export const SCRIPTED_RESULT: ChatResult = { finishReason: 'stop', promptTokens: 1, cachedTokens: 0, completionTokens: 1, timings: { ttftMs: 1, totalMs: 1, prefillMs: 1, decodeMs: 1 } };

export function serveBackend(backend: Backend): void {
  const handler = new EngineHandler({
    createBackend: async () => backend,
    probeGpu: async () => NO_GPU,
    post: (message: WorkerMessage, transfer: Transferable[] = []) => self.postMessage(message, transfer),
  });
  self.addEventListener('message', (event) => handler.handle(event.data));
}

/// <reference lib="webworker" />
/**
 * The engine worker: owns the model and nothing else. Engines are imported lazily,
 * so only the one that runs is ever fetched.
 */
import type { Backend } from './backends/backend.ts';
import { EngineHandler } from './handler.ts';
import { deleteModelCache, readModelCache } from './model-cache.ts';
import { probeWebGpu } from './probe-gpu.ts';
import type { BackendKind, ClientMessage, WorkerMessage } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

async function createBackend(kind: BackendKind): Promise<Backend> {
  if (kind === 'webllm') {
    const { WebLlmBackend } = await import('./backends/webllm.ts');
    return new WebLlmBackend();
  }
  const { WllamaBackend } = await import('./backends/wllama.ts');
  return new WllamaBackend();
}

const handler = new EngineHandler({
  createBackend,
  cache: { read: readModelCache, delete: deleteModelCache },
  probeGpu: probeWebGpu,
  post: (message: WorkerMessage, transfer: Transferable[] = []) => self.postMessage(message, transfer),
});

self.addEventListener('message', (event: MessageEvent<ClientMessage>) => handler.handle(event.data));

/// <reference lib="webworker" />
/**
 * An engine worker whose GPU fails the way web-llm 0.2.86 does: the real handler, the real WebGPU backend
 * (src/engine/backends/webllm.ts) over the web-llm double (test/fixtures/webllm-double.ts, written from web-llm's
 * source), a capable adapter, and the scripted CPU engine of the UI tests. The double answers the first question;
 * during the second reply the device is lost, and web-llm unloads itself (index.js ~18303–18310), so the next
 * decode step meets a disposed pipeline.
 */
import { WebLlmBackend } from '../../../src/engine/backends/webllm.ts';
import { EngineHandler } from '../../../src/engine/handler.ts';
import type { WorkerMessage } from '../../../src/engine/protocol.ts';
import { STOP, WebLlmDouble } from '../../fixtures/webllm-double.ts';
import { GPU_REPLY_TOKENS } from './gpu-loss-script.ts';
import { ScriptedUiBackend } from './ui-backend.ts';
import { CAPABLE_GPU } from '../../fixtures/gpu.ts';

declare const self: DedicatedWorkerGlobalScope;

const GPU = { ...CAPABLE_GPU, description: 'the test GPU' };

const double = new WebLlmDouble({ script: () => [...GPU_REPLY_TOKENS, STOP], stepMs: 20 });
double.onDecode = (step) => {
  if (double.turns.length === 1 && step === 3) double.engine.loseDevice();
};

const handler = new EngineHandler({
  createBackend: async (kind) => (kind === 'webllm' ? new WebLlmBackend({ webllm: async () => double.module(), probeGpu: async () => GPU }) : new ScriptedUiBackend()),
  probeGpu: async () => GPU,
  post: (message: WorkerMessage, transfer: Transferable[] = []) => self.postMessage(message, transfer),
});
self.addEventListener('message', (event) => handler.handle(event.data));

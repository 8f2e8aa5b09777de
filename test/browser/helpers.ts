/** Shared helpers for tests in real Chromium. */
import { EngineClient, HEARTBEAT_TIMEOUT_MS, createEngineWorker } from '../../src/engine/client.ts';
import type { ChatEvent } from '../../src/engine/client.ts';
import type { LoadPayload } from '../../src/engine/protocol.ts';

export const TINY_MODEL_URL = '/models/test/qwen2-tiny.gguf';
export const LOOP_MODEL_URL = '/models/test/qwen2-tiny-loop.gguf';
/** The generated tiny embedding model (scripts/test-model/embedding-model.ts): its vectors follow a concept table. */
export const EMBED_MODEL_URL = '/models/test/qwen2-embed-tiny.gguf';

export const wasmLoad = (ggufUrl = TINY_MODEL_URL): LoadPayload => ({
  backend: 'wasm',
  source: { ggufUrl },
  contextWindow: 1024,
});

/**
 * A client whose workers the test can reach, to kill one as a crash would; `createWorker`: the real engine's by default.
 * The heartbeat is the app's own unless a test about crash detection passes a shorter one: a shorter one can declare a
 * busy worker dead on a loaded machine.
 */
export function clientWithWorkers(heartbeatTimeoutMs = HEARTBEAT_TIMEOUT_MS, createWorker: () => Worker = createEngineWorker, loadStallMs?: number): { client: EngineClient; workers: Worker[] } {
  const workers: Worker[] = [];
  const client = new EngineClient({
    heartbeatTimeoutMs,
    ...(loadStallMs === undefined ? {} : { loadStallMs }),
    createWorker: () => {
      const worker = createWorker();
      workers.push(worker);
      return worker;
    },
  });
  return { client, workers };
}

export async function collectChat(stream: AsyncIterable<ChatEvent>): Promise<{ deltas: string[]; final: Extract<ChatEvent, { type: 'final' }>['result'] }> {
  const deltas: string[] = [];
  for await (const event of stream) {
    if (event.type === 'delta') deltas.push(event.text);
    else return { deltas, final: event.result };
  }
  throw new Error('the stream ended without a final record');
}

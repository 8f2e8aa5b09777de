/// <reference lib="webworker" />
/**
 * An engine worker whose model load reports one step and then nothing, while its thread stays free (it answers every
 * ping): a download whose bytes stopped coming, or an engine that never settles. Everything else is the scripted UI
 * engine's (ui-backend.ts).
 */
import type { LoadPayload, LoadProgress } from '../../../src/engine/protocol.ts';
import type { BackendLoadInfo } from '../../../src/engine/backends/backend.ts';
import { serveBackend } from './serve-backend.ts';
import { ScriptedUiBackend } from './ui-backend.ts';

class StallingBackend extends ScriptedUiBackend {
  override load(_payload: LoadPayload, onProgress: (p: LoadProgress) => void): Promise<BackendLoadInfo> {
    onProgress({ phase: 'download', step: 'weights-open', loadedBytes: 65_536, totalBytes: 16_000_000, fraction: 0.004, text: 'Downloading the model' });
    return new Promise<BackendLoadInfo>(() => {});
  }
}

serveBackend(new StallingBackend());

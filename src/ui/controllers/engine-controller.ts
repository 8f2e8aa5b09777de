/**
 * Loading state of the engine for the UI: idle → loading (with progress) → ready, or error.
 * Owns the EngineClient; after a worker crash the next `ensureReady()` starts a fresh worker and reloads.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { EngineClient } from '../../engine/client.ts';
import type { BackendPreference, LoadProgress, LoadResult, ModelSource } from '../../engine/protocol.ts';
import { AssistantError, toAssistantError } from '../../shared/errors.ts';

export type EngineStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface EngineSettings {
  source: ModelSource;
  backend: BackendPreference;
  contextWindow: number;
  kvChunkReuse: number;
}

export class EngineController implements ReactiveController {
  status: EngineStatus = 'idle';
  progress: LoadProgress | null = null;
  loaded: LoadResult | null = null;
  error: AssistantError | null = null;
  private _loading: Promise<LoadResult> | null = null;

  constructor(
    private readonly _host: ReactiveControllerHost,
    readonly client: EngineClient,
    private readonly _settings: () => EngineSettings,
  ) {
    _host.addController(this);
    client.onCrash = (error) => {
      this.status = 'error';
      this.error = error;
      this.loaded = null;
      this._loading = null;
      this._host.requestUpdate();
    };
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.client.terminate('The page closed the chat.');
  }

  /** Loads the model once; concurrent callers share the same load. */
  ensureReady(): Promise<LoadResult> {
    if (this.status === 'ready' && this.loaded !== null && this.client.hasWorker) return Promise.resolve(this.loaded);
    this._loading ??= this._load();
    return this._loading;
  }

  private async _load(): Promise<LoadResult> {
    this.status = 'loading';
    this.error = null;
    this.progress = null;
    this._host.requestUpdate();
    try {
      const settings = this._settings();
      const result = await this.client.load(
        { source: settings.source, backend: settings.backend, contextWindow: settings.contextWindow, kvChunkReuse: settings.kvChunkReuse },
        {
          onProgress: (progress) => {
            this.progress = progress;
            this._host.requestUpdate();
          },
        },
      );
      this.loaded = result;
      this.status = 'ready';
      return result;
    } catch (error) {
      this.error = toAssistantError(error, 'load_failed');
      this.status = 'error';
      this.loaded = null;
      throw this.error;
    } finally {
      this._loading = null;
      this._host.requestUpdate();
    }
  }
}

/**
 * Loading state of the engine for the UI: idle → loading (with progress, speed and time left) → ready, or error.
 * Owns the EngineClient; after a worker crash the next `ensureReady()` starts a fresh worker and reloads. A change
 * of backend preference, window or source reloads the model at the next request.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { EngineClient, LOAD_STALL_MS } from '../../engine/client.ts';
import type { BackendPreference, LoadProgress, LoadResult, ModelSource } from '../../engine/protocol.ts';
import { assertModelAllowed } from '../../engine/model-urls.ts';
import { AssistantError, toAssistantError } from '../../shared/errors.ts';
import { t } from '../i18n/index.ts';
import { wallNow } from '../../engine/start-steps.ts';
import { StartTimeline } from './start-timeline.ts';

export type EngineStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface EngineSettings {
  source: ModelSource;
  backend: BackendPreference;
  contextWindow: number;
  kvChunkReuse: number;
}

/** Download rate over the last few seconds, and what it means for the rest. */
export interface DownloadRate {
  bytesPerSecond: number;
  /** Seconds left at that rate; null when unknown. */
  secondsLeft: number | null;
}

const RATE_WINDOW_MS = 3_000;

/** What to do about a model host that the built page's Content-Security-Policy leaves out (see README). */
export const allowModelHostHint = (origin: string): string =>
  `To use it, rebuild the app with VITE_MODEL_GGUF_URL (or VITE_MODEL_MLC_URL) set to this model's URL, which adds ${origin} to connect-src, ` +
  `or add ${origin} to connect-src in the Content-Security-Policy meta of index.html (and in the header, if your host sends one).`;

export class EngineController implements ReactiveController {
  status: EngineStatus = 'idle';
  progress: LoadProgress | null = null;
  rate: DownloadRate | null = null;
  loaded: LoadResult | null = null;
  error: AssistantError | null = null;
  /** Runs before a load starts a worker (the app waits for its service worker, so the engine's files are cached). */
  beforeLoad: (() => Promise<void>) | null = null;
  /** Runs after the worker died (pending requests already failed): the app checks what is still on the device. */
  afterCrash: ((error: AssistantError) => void) | null = null;
  /**
   * Whether a load may download the weights unasked (set by the app: the page said to load at once). Otherwise only a
   * load the user agreed to (`agreeToDownload`) may fetch them, and any other load asks the engine for weights
   * already on this device (`allowDownload: false`): weights the browser evicted behind the app's back are not
   * downloaded again (hundreds of MB) because a message was sent or the engine restarted — the engine answers
   * `model_not_downloaded` and the app asks again.
   */
  mayDownloadUnasked: (() => boolean) | null = null;
  /**
   * Before a load with no leave to download, the page looks whether the weights are here (set by the app), so a
   * missing model costs no engine worker; a caller that knows better skips it once (`trustWeightsOnce`).
   */
  weightsOnDevice: (() => Promise<boolean>) | null = null;
  private _trustOnce = false;
  /**
   * The GPU lost its device in this visit (web-llm's backend reported `webgpu_unavailable` mid-request): every
   * later load, in this worker or a new one, runs on the CPU. The notice says so until the page closes.
   */
  webgpuLost = false;
  /** Runs each time a load made the engine ready (the app warms the open conversation's prompt then). */
  onReady: ((result: LoadResult) => void) | null = null;
  /** Hears the load's progress (the app starts the memory's load when the engine reads its weights). */
  onProgress: ((progress: LoadProgress) => void) | null = null;
  /** Each step of the last start, timed (the model panel shows it). */
  readonly timeline: StartTimeline;
  private _downloadAgreed = false;
  private _loading: Promise<LoadResult> | null = null;
  private _loadedKey = '';
  private _samples: Array<{ at: number; bytes: number }> = [];

  constructor(
    private readonly _host: ReactiveControllerHost,
    readonly client: EngineClient,
    private readonly _settings: () => EngineSettings,
    timeline = new StartTimeline(),
  ) {
    this.timeline = timeline;
    _host.addController(this);
    client.onCrash = (error) => {
      this.status = 'error';
      this.error = error;
      this.loaded = null;
      this._loading = null;
      this._host.requestUpdate();
      this.afterCrash?.(error);
    };
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.client.terminate('The page closed the chat.');
  }

  private _key(): string {
    const s = this._settings();
    return JSON.stringify([s.source, s.backend, s.contextWindow, s.kvChunkReuse, this.webgpuLost]);
  }

  /** Loads the model once (again when its settings changed); concurrent callers share the same load. */
  ensureReady(): Promise<LoadResult> {
    if (this._loading !== null) return this._loading;
    if (this.status === 'ready' && this.loaded !== null && this.client.hasWorker && this._key() === this._loadedKey) {
      return Promise.resolve(this.loaded);
    }
    this._loading = this._load();
    return this._loading;
  }

  /**
   * The engine's WebGPU device was lost during a request: the worker already dropped that backend, so the engine
   * is not ready; the next `ensureReady()` loads the CPU engine (under the usual rule for downloads it was not
   * asked for: see `canLoadWithoutAsking`).
   */
  noteWebGpuLost(): void {
    this.webgpuLost = true;
    this.status = 'idle';
    this.loaded = null;
    this._host.requestUpdate();
  }

  /**
   * The next load starts the engine without the page's look first: the caller just looked, or the weights were loaded
   * here before (weights-hint.ts). The engine still loads only what is on the device.
   */
  trustWeightsOnce(): void {
    this._trustOnce = true;
  }

  /** The user said go (or the page was told to load at once): the next load may download the weights. */
  agreeToDownload(): void {
    this._downloadAgreed = true;
  }

  /** Frees the model (before its files are deleted); the next request loads it again. */
  async unload(): Promise<void> {
    await this._loading?.catch(() => {});
    await this.client.unload().catch(() => {});
    this.client.terminate('The model was unloaded.');
    this.status = 'idle';
    this.loaded = null;
    this.progress = null;
    this.rate = null;
    this.error = null;
    this._host.requestUpdate();
  }

  private _track(progress: LoadProgress): void {
    this.onProgress?.(progress);
    this.progress = progress;
    if (progress.phase !== 'download' || progress.totalBytes <= 0) return;
    const now = performance.now();
    this._samples.push({ at: now, bytes: progress.loadedBytes });
    while (this._samples.length > 2 && now - this._samples[0]!.at > RATE_WINDOW_MS) this._samples.shift();
    const first = this._samples[0]!;
    const seconds = (now - first.at) / 1000;
    if (seconds < 0.2) return;
    const bytesPerSecond = (progress.loadedBytes - first.bytes) / seconds;
    const left = progress.totalBytes - progress.loadedBytes;
    this.rate = { bytesPerSecond, secondsLeft: bytesPerSecond > 0 ? left / bytesPerSecond : null };
  }

  private async _load(): Promise<LoadResult> {
    // Settings changed under a loaded model: free it first (one model in memory at a time).
    const replacing = this.loaded !== null && this.client.hasWorker;
    this.status = 'loading';
    this.error = null;
    this.progress = null;
    this.rate = null;
    this._samples = [];
    this._host.requestUpdate();
    try {
      // A host the page's CSP leaves out: say so now, rather than a blocked or silently allowed download.
      assertModelAllowed(this._settings().source, allowModelHostHint);
      const timeline = this.timeline;
      const allowDownload = this._downloadAgreed || this.mayDownloadUnasked?.() === true;
      const trusted = this._trustOnce;
      this._trustOnce = false;
      if (!allowDownload && !trusted && this.weightsOnDevice !== null && !(await this.weightsOnDevice())) throw new AssistantError('model_not_downloaded', t('load.notOnDevice'));
      this.loaded = null;
      if (replacing) await this.client.unload().catch(() => {});
      if (this.beforeLoad !== null) await timeline.time('service-worker', () => this.beforeLoad!().catch(() => {}));
      const key = this._key();
      const settings = this._settings();
      const load = (): Promise<LoadResult> =>
        this.client.load(
          {
            source: settings.source,
            backend: settings.backend,
            contextWindow: settings.contextWindow,
            kvChunkReuse: settings.kvChunkReuse,
            ...(this.webgpuLost ? { webgpuLost: true } : {}),
            requestedAt: wallNow(),
            allowDownload,
          },
          {
            onProgress: (progress) => {
              this._track(progress);
              this._host.requestUpdate();
            },
          },
        );
      // A load that stopped making progress starts again once, in a fresh worker; a second stall is reported.
      const result = await load().catch((error: unknown) => {
        if (!(error instanceof AssistantError && error.code === 'load_stalled')) throw error;
        this.progress = null;
        this._samples = [];
        this._host.requestUpdate();
        return load();
      });
      this.loaded = result;
      this._loadedKey = key;
      this.status = 'ready';
      timeline.engineReady(result.steps ?? []);
      // Agreed for this download only: weights evicted later are asked for again.
      this._downloadAgreed = false;
      this.onReady?.(result);
      return result;
    } catch (error) {
      this.error = error instanceof AssistantError ? error : toAssistantError(error, 'load_failed');
      // The engine's words are for developers; the user reads what to do, in their language.
      if (this.error.code === 'model_not_downloaded') this.error = new AssistantError('model_not_downloaded', t('load.notOnDevice'), { cause: this.error });
      if (this.error.code === 'load_stalled') this.error = new AssistantError('load_stalled', t('load.stalled', { seconds: LOAD_STALL_MS / 1000 }), { cause: this.error });
      // Nothing failed, the weights are just not here: back to the first-run question (the download card).
      this.status = this.error.code === 'model_not_downloaded' ? 'idle' : 'error';
      this.loaded = null;
      throw this.error;
    } finally {
      this._loading = null;
      this._host.requestUpdate();
    }
  }
}

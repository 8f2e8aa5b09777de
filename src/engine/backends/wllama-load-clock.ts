/**
 * Times the inside of `Wllama.loadModel` (wllama 3.13, node_modules/@wllama/wllama/esm/index.js ~3104), which is
 * one call doing three things: start its worker and compile its wasm (`proxy.moduleInit`), start llama.cpp
 * (`wllamaStart`), and load the model (the `load` action, during which llama.cpp asks for the weights a tensor at a
 * time: `fileReadResponse` ~1630 calls `blob.slice(offset, end).arrayBuffer()` on the blobs we handed it).
 *
 * The boundaries come from wllama's own debug lines ("Calling wllamaStart...", "Loading model...", logged through
 * the configured logger just before each call); the weights' reads are timed on the blobs. A wllama that stops
 * logging those lines still gets its load timed: as one `model-load` step from the start of `loadModel`.
 */
import type { LoadProgress } from '../protocol.ts';
import { wallNow, type EngineStep } from '../start-steps.ts';

export interface WllamaLogger {
  debug: typeof console.debug;
  log: typeof console.log;
  warn: typeof console.warn;
  error: typeof console.error;
}

/** wllama's default: everything but debug (which is chatty) goes to the console. */
export const quietLogger: WllamaLogger = { debug: () => {}, log: console.log, warn: console.warn, error: console.error };

/** Fewer progress events than reads: one per this share of the weights. */
const PROGRESS_STEP = 0.02;

export class LoadClock {
  private _wasmStart = 0;
  private _modelStart = 0;
  private _readBytes = 0;
  private _readMs = 0;
  private _totalBytes = 0;
  private _reported = -1;

  constructor(
    private readonly _steps: EngineStep[],
    private readonly _onProgress: (progress: LoadProgress) => void,
  ) {}

  readonly logger: WllamaLogger = {
    ...quietLogger,
    debug: (...args: unknown[]) => {
      const line = typeof args[0] === 'string' ? args[0] : '';
      if (line.startsWith('Calling wllamaStart')) this._wasmDone();
      else if (line.startsWith('Loading model')) this._modelLoading();
    },
  };

  /** A step is under way (the load panel names it). */
  enter(step: EngineStep['name']): void {
    this._onProgress({ phase: 'init', step, loadedBytes: 0, totalBytes: 0, fraction: 0, text: step });
  }

  /**
   * Called as `loadModel` begins: times every read llama.cpp makes of `blobs` once the model loads (wllama's own
   * look at the first 128 KB before that is not the model's load).
   */
  watchReads<B extends Blob>(blobs: B[]): B[] {
    this._wasmStart = wallNow();
    this._totalBytes = blobs.reduce((sum, b) => sum + b.size, 0);
    this.enter('wasm');
    for (const blob of blobs) {
      const slice = blob.slice.bind(blob);
      blob.slice = (start?: number, end?: number, type?: string): Blob => {
        const part = slice(start, end, type);
        if (this._modelStart === 0) return part;
        const read = part.arrayBuffer.bind(part);
        part.arrayBuffer = async () => {
          const began = performance.now();
          const buffer = await read();
          this._readMs += performance.now() - began;
          this._readBytes += buffer.byteLength;
          this._progress();
          return buffer;
        };
        return part;
      };
    }
    return blobs;
  }

  /** `loadModel` resolved: the model step ends. */
  loaded(): void {
    const end = wallNow();
    if (this._modelStart === 0) this._modelStart = this._wasmStart;
    this._steps.push({ name: 'model-load', start: this._modelStart, end, readBytes: this._readBytes, readMs: Math.round(this._readMs) });
  }

  private _wasmDone(): void {
    if (this._wasmStart === 0) return;
    this._steps.push({ name: 'wasm', start: this._wasmStart, end: wallNow() });
  }

  private _modelLoading(): void {
    this._modelStart = wallNow();
    this.enter('model-load');
  }

  /** Reading the weights is most of a load: its share read so far, as the step's progress. */
  private _progress(): void {
    if (this._totalBytes <= 0) return;
    // llama.cpp reads the header again after its first look, so the bytes read can pass the file's size a little.
    const fraction = Math.min(1, this._readBytes / this._totalBytes);
    if (fraction - this._reported < PROGRESS_STEP && fraction < 1) return;
    this._reported = fraction;
    this._onProgress({ phase: 'init', step: 'model-load', loadedBytes: Math.min(this._readBytes, this._totalBytes), totalBytes: this._totalBytes, fraction, text: 'model-load' });
  }
}

/**
 * One error type for the whole app. Every failure a user can meet carries a code,
 * so the UI can say what happened and what to do, and errors survive the worker boundary as data.
 */
export type ErrorCode =
  | 'aborted'
  | 'worker_crashed'
  | 'model_not_found'
  /** The weights are not on this device (never downloaded, or evicted by the browser) and the user has not agreed to download them. */
  | 'model_not_downloaded'
  | 'network'
  | 'load_failed'
  /** A model load made no progress for a while (LOAD_STALL_MS): the worker was stopped; the load may start again. */
  | 'load_stalled'
  | 'webgpu_unavailable'
  | 'out_of_memory'
  | 'not_loaded'
  | 'busy'
  | 'context_overflow'
  | 'inference_failed'
  | 'invalid_input'
  | 'invalid_config'
  | 'storage_full'
  /** Another tab holds the database open at an older version, so it cannot be upgraded until that tab closes. */
  | 'storage_blocked'
  /** A docs index (manifest or page file) that is not in the index format. */
  | 'docs_index_invalid'
  /** No docs index at the configured URL (HTTP 404/410). */
  | 'docs_index_not_found'
  | 'internal';

/** The plain-data form that crosses `postMessage`. */
export interface ErrorData {
  code: ErrorCode;
  message: string;
  stack?: string;
}

export class AssistantError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    // Aborts look like DOM aborts so `signal`-aware code treats them the usual way.
    this.name = code === 'aborted' ? 'AbortError' : 'AssistantError';
  }

  toData(): ErrorData {
    return this.stack === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, stack: this.stack };
  }

  static fromData(data: ErrorData): AssistantError {
    const error = new AssistantError(data.code, data.message);
    if (data.stack !== undefined) error.stack = data.stack;
    return error;
  }
}

export function isAbortError(error: unknown): boolean {
  return (
    (error instanceof AssistantError && error.code === 'aborted') ||
    (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError')
  );
}

/** Wraps anything thrown into an AssistantError, keeping a code it already has. */
export function toAssistantError(error: unknown, fallback: ErrorCode = 'internal'): AssistantError {
  if (error instanceof AssistantError) return error;
  if (isAbortError(error)) return new AssistantError('aborted', 'The request was stopped.', { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new AssistantError(fallback, message, { cause: error });
}

export function abortedError(): AssistantError {
  return new AssistantError('aborted', 'The request was stopped.');
}

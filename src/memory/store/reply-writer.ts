/**
 * Persists an assistant reply while it streams: every delta is kept in memory and written at most every
 * `flushMs` (one write in flight at a time, the latest text wins), so a closed tab or a crash loses at most the
 * last few tokens. The writer holds a Web Lock named after the turn for as long as it lives: a turn found
 * `streaming` whose lock is free was cut off, and the next start marks it `interrupted`. A write that fails (a full
 * quota) changes nothing stored: the store keeps the last write that fit, the whole text stays here for the next
 * try, and `flush`/`complete`/`interrupt` reject with the error (`storage_full`) so the caller can say so.
 */
import { AssistantError } from '../../shared/errors.ts';
import type { TurnRecord } from './records.ts';

export interface ReplySink {
  /** Writes the partial text; false when the turn is gone or no longer streaming (deleted, finished elsewhere). */
  persistPartial(turnId: string, content: string): Promise<boolean>;
  finish(turnId: string, status: 'complete' | 'interrupted', content: string, tokenCount?: number): Promise<TurnRecord | null>;
}

export class ReplyWriter {
  readonly turnId: string;
  readonly sessionId: string;
  private readonly _sink: ReplySink;
  private readonly _flushMs: number;
  private readonly _release: () => void;
  private _content: string;
  private _dirty = false;
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _flushing: Promise<void> | null = null;
  private _finished = false;
  private _gone = false;
  private _error: unknown = null;

  constructor(turn: TurnRecord, sink: ReplySink, release: () => void, flushMs: number) {
    this.turnId = turn.id;
    this.sessionId = turn.sessionId;
    this._content = turn.content;
    this._sink = sink;
    this._release = release;
    this._flushMs = flushMs;
  }

  get content(): string {
    return this._content;
  }

  /** True once the turn was deleted (by this or another tab) under the writer: further text is dropped. */
  get gone(): boolean {
    return this._gone;
  }

  append(delta: string): void {
    this.set(this._content + delta);
  }

  /** Replaces the whole text (e.g. after a sanitiser). */
  set(content: string): void {
    if (this._finished) throw new AssistantError('invalid_input', `Reply ${this.turnId} is already finished.`);
    if (this._gone || content === this._content) return;
    this._content = content;
    this._dirty = true;
    this._schedule();
  }

  /** Resolves once everything appended so far is stored; rejects with the storage error if a write failed. */
  async flush(): Promise<void> {
    this._clearTimer();
    while (this._dirty || this._flushing !== null) {
      if (this._flushing !== null) await this._flushing;
      else this._write();
      if (this._error !== null) break;
    }
    this._throwIfFailed();
  }

  /** The reply is done: stores the final text, marks it complete and makes its chunks. */
  complete(options: { content?: string; tokenCount?: number } = {}): Promise<TurnRecord | null> {
    return this._finish('complete', options.content, options.tokenCount);
  }

  /** The user stopped it (or the engine failed): what arrived is kept, marked interrupted. */
  interrupt(): Promise<TurnRecord | null> {
    return this._finish('interrupted');
  }

  private async _finish(status: 'complete' | 'interrupted', content?: string, tokenCount?: number): Promise<TurnRecord | null> {
    if (this._finished) throw new AssistantError('invalid_input', `Reply ${this.turnId} is already finished.`);
    if (content !== undefined) this._content = content;
    this._clearTimer();
    this._dirty = false;
    try {
      if (this._flushing !== null) await this._flushing.catch(() => undefined);
      this._finished = true;
      if (this._gone) return null;
      return await this._sink.finish(this.turnId, status, this._content, tokenCount);
    } finally {
      this._finished = true;
      this._release();
    }
  }

  private _schedule(): void {
    if (this._timer !== null || this._flushing !== null) return;
    this._timer = setTimeout(() => {
      this._timer = null;
      this._write();
    }, this._flushMs);
  }

  private _clearTimer(): void {
    if (this._timer !== null) clearTimeout(this._timer);
    this._timer = null;
  }

  private _write(): void {
    if (!this._dirty || this._flushing !== null) return;
    this._dirty = false;
    this._error = null;
    const content = this._content;
    this._flushing = this._sink
      .persistPartial(this.turnId, content)
      .then(
        (stored) => {
          if (!stored) this._gone = true;
        },
        (error: unknown) => {
          // Keep the text: the next delta (or the final write) tries again.
          this._error = error;
          this._dirty = true;
        },
      )
      .finally(() => {
        this._flushing = null;
        if (this._dirty && this._error === null && !this._finished) this._schedule();
      });
  }

  private _throwIfFailed(): void {
    if (this._error !== null) {
      const error = this._error;
      this._error = null;
      throw error;
    }
  }
}

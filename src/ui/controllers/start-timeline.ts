/**
 * The page's (or the widget's) account of its last start: every step (the engine's, from its worker, and the page's own: model check,
 * tokenizer, memory), each in ms since the page's navigation start, and when the engine became ready. The model
 * panel draws it; `bench:start` reads it. A step timed again (a reload of the model) replaces its earlier time.
 */
import { pageStep, wallNow, type EngineStep, type PageStepName, type StartStep, type TimedStep } from '../../engine/start-steps.ts';

export class StartTimeline {
  private _steps: StartStep[] = [];
  /** When the engine was last ready, in ms since navigation start (null before). */
  readyMs: number | null = null;
  /** Something changed (the panel draws again). */
  onChange: (() => void) | null = null;

  /** In the order they started. */
  get steps(): readonly StartStep[] {
    return this._steps;
  }

  add(step: TimedStep): void {
    const shown = pageStep(step);
    this._steps = [...this._steps.filter((s) => s.name !== shown.name), shown].sort((a, b) => a.startMs - b.startMs);
    this.onChange?.();
  }

  /** Times a page step (also one that fails: its time was spent). */
  async time<T>(name: PageStepName, run: () => Promise<T>): Promise<T> {
    const start = wallNow();
    try {
      return await run();
    } finally {
      this.add({ name, start, end: wallNow() });
    }
  }

  /** The engine is loaded: its steps, and the moment it was ready. */
  engineReady(steps: readonly EngineStep[]): void {
    for (const step of steps) this.add(step);
    this.markReady();
  }

  /** Ready now (the widget's assistant: engine, docs and tokenizer all in). */
  markReady(): void {
    this.readyMs = Math.round(performance.now() * 10) / 10;
    this.onChange?.();
  }
}

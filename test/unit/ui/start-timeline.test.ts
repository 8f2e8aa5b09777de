import { describe, expect, it } from 'vitest';
import { wallNow } from '../../../src/engine/start-steps.ts';
import { StartTimeline } from '../../../src/ui/controllers/start-timeline.ts';

describe('StartTimeline', () => {
  it('shows steps in the order they began, in ms since the page opened, and a step timed again replaces the old one', () => {
    const timeline = new StartTimeline();
    const now = wallNow();
    timeline.add({ name: 'model-load', start: now - 300, end: now - 100, readBytes: 2048, readMs: 40 });
    timeline.add({ name: 'wasm', start: now - 600, end: now - 300 });
    timeline.add({ name: 'wasm', start: now - 500, end: now - 350 });

    expect(timeline.steps.map((s) => s.name)).toEqual(['wasm', 'model-load']);
    const [wasm, load] = timeline.steps;
    expect(wasm!.endMs - wasm!.startMs).toBeCloseTo(150, 0);
    // Page-relative: the same clock as performance.now().
    expect(load!.endMs).toBeCloseTo(performance.now() - 100, -1);
    expect(load).toMatchObject({ readBytes: 2048, readMs: 40 });
  });

  it('times a page step that fails too, and marks the moment the engine was ready', async () => {
    const timeline = new StartTimeline();
    let changes = 0;
    timeline.onChange = () => changes++;
    await expect(timeline.time('tokenizer', () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(timeline.steps.map((s) => s.name)).toEqual(['tokenizer']);
    expect(timeline.readyMs).toBeNull();

    timeline.engineReady([{ name: 'worker', start: wallNow() - 20, end: wallNow() }]);
    expect(timeline.steps.map((s) => s.name).sort()).toEqual(['tokenizer', 'worker']);
    expect(timeline.readyMs).toBeGreaterThan(0);
    expect(changes).toBeGreaterThanOrEqual(2);
  });
});

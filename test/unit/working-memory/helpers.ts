/** Short forms of extractions for readable assertions: `date=2026-03-05`, `cache=Redis`, `cache≠Redis`. */
import { createExtractor } from '../../../src/memory/working-memory/extract.ts';
import type { Extraction } from '../../../src/memory/working-memory/types.ts';

/** A Wednesday morning in China. */
export const NOW = '2026-03-04T10:00:00+08:00';

const extractor = createExtractor();

export function run(text: string, now: string = NOW): Extraction {
  return extractor.extract(text, now);
}

export function entities(text: string, now: string = NOW): string[] {
  return run(text, now).entities.map((e) => `${e.type}=${e.value}`);
}

export function values(text: string, type: string, now: string = NOW): string[] {
  return run(text, now)
    .entities.filter((e) => e.type === type)
    .map((e) => e.value);
}

export function facts(text: string, now: string = NOW): string[] {
  return run(text, now).facts.map((f) => `${f.subject}${f.op === 'set' ? '=' : '≠'}${f.value}`);
}

/** Events and their time, kept apart from the labelled facts: `standup=2026-03-06 09:30`. */
export function events(text: string, now: string = NOW): string[] {
  return (run(text, now).events ?? []).map((f) => `${f.subject}=${f.value}`);
}

export function deprecated(text: string, now: string = NOW): string[] {
  return [...run(text, now).deprecate];
}

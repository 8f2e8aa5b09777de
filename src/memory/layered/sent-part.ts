/**
 * How much of a long message the model got: the context engine cuts a message that alone exceeds its room, and
 * the app and the widget both say so on the message itself.
 */
import type { SentPart } from '../store/index.ts';
import type { LayeredReport } from './report.ts';

/** The part of `content` the prompt of `report` carried, or null when all of it was sent. */
export function sentPartOf(report: LayeredReport, content: string): SentPart | null {
  const cut = report.turns.at(-1)?.cut;
  if (cut === undefined) return null;
  return { chars: Math.min(content.length, cut.keptChars ?? 0), tokens: cut.keptTokens };
}

export const sameSentPart = (a: SentPart | null, b: SentPart | null): boolean =>
  a === b || (a !== null && b !== null && a.chars === b.chars && a.tokens === b.tokens);

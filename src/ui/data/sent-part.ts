/**
 * How much of a long message the model got. The context engine cuts a message that alone exceeds its room; the
 * chat says so on the message itself, and keeps the fact with the stored turn (it depends on the settings of the
 * moment, so it cannot be worked out again after a reload).
 */
import type { SentPart } from '../../memory/store/index.ts';

/** Worked out from a prompt's report where the widget's runtime can use it too. */
export { sameSentPart, sentPartOf } from '../../memory/layered/index.ts';

/** A stored value read back: a `SentPart` only when it is one (records may be old or damaged). */
export function readSentPart(value: unknown): SentPart | null {
  if (typeof value !== 'object' || value === null) return null;
  const { chars, tokens } = value as Partial<Record<keyof SentPart, unknown>>;
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  // `+ 0` turns a `-0` (which JSON can spell and `>= 0` lets through) into 0.
  return whole(chars) && whole(tokens) ? { chars: chars + 0, tokens: tokens + 0 } : null;
}

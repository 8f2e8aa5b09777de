/** The state one entity pass shares between its rules: the text, what is claimed, what was found. */
import { SpanClaims } from './text.ts';
import type { EntitySpan, EntityType, LocalTime } from './types.ts';

export class EntityScan {
  readonly text: string;
  readonly now: LocalTime;
  readonly found: EntitySpan[] = [];
  private readonly _claims: SpanClaims;

  constructor(text: string, now: LocalTime) {
    this.text = text;
    this.now = now;
    this._claims = new SpanClaims(text.length);
  }

  isFree(start: number, end: number): boolean {
    return this._claims.isFree(start, end);
  }

  /**
   * Adds an entity unless its span overlaps one found before (no nesting); `claimFrom` claims less than it spans.
   * `relative` marks a date said relative to the day of writing (yesterday, last Friday).
   */
  add(type: EntityType, value: string, start: number, end: number, claimFrom = start, relative = false): boolean {
    if (end <= start || !this._claims.isFree(claimFrom, end)) return false;
    this._claims.claim(claimFrom, end);
    this.found.push(relative ? { type, value, start, end, relative: true } : { type, value, start, end });
    return true;
  }
}

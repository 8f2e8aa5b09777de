/**
 * A relative time a message names ("yesterday", "last Friday", 上周, 去年), resolved in the calendar of the day it
 * was written. Working memory finds them (working-memory/date-mentions.ts); retrieval notes them beside a record
 * when a question asks when, so that a small model can read the answer off the prompt instead of counting days.
 */
export type MentionedTime =
  /** One day, `YYYY-MM-DD`. */
  | { readonly kind: 'day'; readonly iso: string }
  /** The week or weekend before (-1) or after (+1) the day the message was written (`anchor`, `YYYY-MM-DD`). */
  | { readonly kind: 'week' | 'weekend'; readonly offset: -1 | 1; readonly anchor: string }
  /** A month, `YYYY-MM`. */
  | { readonly kind: 'month'; readonly iso: string }
  | { readonly kind: 'year'; readonly year: number };

export interface DateMention {
  /** The words as written. */
  readonly phrase: string;
  readonly when: MentionedTime;
}

/**
 * The data working memory is made of: what one message yields (an Extraction, in the labelled format of
 * wm-dev.jsonl) and the spans the extractors find on the way there.
 */

export const ENTITY_TYPES = [
  'ipv4',
  'ipv6',
  'hostport',
  'url',
  'email',
  'date',
  'time',
  'order_id',
  'version',
  'path',
  'phone',
  'amount',
] as const;

export type EntityType = (typeof ENTITY_TYPES)[number];

export interface Entity {
  readonly type: EntityType;
  /** The normal form of the conventions: ISO date, 24 h time, compressed IPv6, `<number> <ISO currency>`… */
  readonly value: string;
}

export type FactOp = 'set' | 'unset';

export interface Fact {
  /** A short English slot name: `web server`, `database`, `deadline`, `answer language`… */
  readonly subject: string;
  readonly value: string;
  readonly op: FactOp;
}

/** What one user message says, in the format (and key order) of the labelled set. */
export interface Extraction {
  readonly entities: readonly Entity[];
  readonly facts: readonly Fact[];
  /** Topics the message declares void, as written (这个问题, Kafka idea). */
  readonly deprecate: readonly string[];
  /** The message asks to keep what it says (记住, remember this): its items are pinned. Not part of the labels. */
  readonly pin?: true;
  /**
   * A bare correction that names no slot ("Actually it's 8444, not 8443.", 更正一下，是 9091): the value, and the
   * one it replaces when said. Working memory gives it to the fact it corrects. Not part of the labels.
   */
  readonly correction?: { readonly value: string; readonly replaces?: string };
  /**
   * Events and when they are (standup = 2026-10-13 09:30): slots that working memory keeps and overwrites like facts
   * when an event moves. Not part of the labels: the conventions count a statement about the user's setup as a fact,
   * not the time of a meeting (../shared/eval/README.md).
   */
  readonly events?: readonly Fact[];
  /** Known products the message names, in text order (Redis, Caddy): what it may be about. Not part of the labels. */
  readonly mentions?: readonly string[];
  /**
   * Today said in passing (今天好累, "since this morning"), ISO: no entity, as labellers write it (entities-today.ts),
   * but still a day the message names, which retrieval indexes beside its dates (a question about that day finds it).
   * Not part of the labels.
   */
  readonly passingDates?: readonly string[];
}

/** An entity found in the text, with where: spans keep entities from nesting and feed the fact rules. */
export interface EntitySpan extends Entity {
  readonly start: number;
  readonly end: number;
  /** A date said relative to the day it was written (yesterday, last Friday, 3天前), not read off a calendar. */
  readonly relative?: true;
}

/** When a message was written: the instant, and the UTC offset its relative dates are read in. */
export interface LocalTime {
  readonly epochMs: number;
  readonly offsetMinutes: number;
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** 1 = Monday … 7 = Sunday. */
  readonly weekday: number;
  readonly hour: number;
  readonly minute: number;
}

/** An ISO 8601 string (its offset is kept), a Date or epoch milliseconds (read as UTC). */
export type Instant = string | number | Date;

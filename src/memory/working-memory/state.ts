/**
 * Working memory as plain data: what the conversation has established, with where and when it was said.
 * Every function returns a new state and leaves its input alone, so a state can be stored, compared and
 * restored as JSON.
 */
import { DEFAULT_WORKING_MEMORY_CONFIG, type WorkingMemoryConfig } from './config.ts';
import { toLocalTime } from './instant.ts';
import { compileTopicRules, topicKeys, type TopicRules } from './topic.ts';
import type { EntityType, Extraction, FactOp, Instant } from './types.ts';

interface ItemBase {
  /** Stable key: `date:2026-03-11`, `fact:database`, `deprecation:kafka 方案`. */
  readonly id: string;
  /** The turn that last mentioned it. */
  readonly turnId: string;
  /** When it was last mentioned (epoch ms) and the UTC offset of that message, to show its local time. */
  readonly at: number;
  readonly offsetMinutes: number;
  readonly firstAt: number;
  readonly expiresAt: number;
  /** Pinned items never expire. */
  readonly pinned: boolean;
}

export interface EntityItem extends ItemBase {
  readonly type: EntityType;
  readonly value: string;
}

export interface FactChange {
  readonly value: string;
  readonly op: FactOp;
  readonly turnId: string;
  readonly at: number;
  readonly offsetMinutes: number;
}

export interface FactItem extends ItemBase {
  readonly type: 'fact';
  readonly subject: string;
  readonly value: string;
  /** `unset`: the slot's value was dropped (`value` says which). */
  readonly op: FactOp;
  /** Values this one replaced, newest first. */
  readonly history: readonly FactChange[];
}

export interface DeprecationItem extends ItemBase {
  readonly type: 'deprecation';
  /** The topic as the user wrote it. */
  readonly value: string;
  /** Lower-case words that identify it in other text; empty for a topic named only by pointing (这个问题). */
  readonly keys: readonly string[];
}

export type WmItem = EntityItem | FactItem | DeprecationItem;

export interface WorkingMemoryState {
  readonly version: 1;
  readonly items: readonly WmItem[];
}

export interface ApplyMeta {
  readonly turnId: string;
  /** When the message was written; its UTC offset is kept for display. */
  readonly at: Instant;
}

export function createWorkingMemory(): WorkingMemoryState {
  return { version: 1, items: [] };
}

const topicRules = new WeakMap<WorkingMemoryConfig, TopicRules>();
function rulesFor(config: WorkingMemoryConfig): TopicRules {
  let rules = topicRules.get(config);
  if (rules === undefined) {
    rules = compileTopicRules(config.vocabulary.triggers);
    topicRules.set(config, rules);
  }
  return rules;
}

const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
/** All keys occur in the text: Latin ones as whole words (kafka, not kafkaesque), Chinese ones anywhere. */
function mentions(text: string, keys: readonly string[]): boolean {
  if (keys.length === 0) return false;
  const lower = text.toLowerCase();
  return keys.every((k) => {
    if (/[\u4e00-\u9fff]/.test(k)) return lower.includes(k);
    for (let i = lower.indexOf(k); i >= 0; i = lower.indexOf(k, i + 1)) {
      if (!/[a-z0-9]/.test(lower[i - 1] ?? '') && !/[a-z0-9]/.test(lower[i + k.length] ?? '')) return true;
    }
    return false;
  });
}

/**
 * Adds what one message said. Entities and topics mentioned again are refreshed; a fact replaces its slot's
 * value (the old one goes to history); a deprecated topic turns a fact about it into a dropped one, and a fact
 * that sets it again revives it.
 */
export function applyExtraction(
  state: WorkingMemoryState,
  extraction: Extraction,
  meta: ApplyMeta,
  config: WorkingMemoryConfig = DEFAULT_WORKING_MEMORY_CONFIG,
): WorkingMemoryState {
  const when = toLocalTime(meta.at);
  const pin = extraction.pin === true;
  const items = new Map<string, WmItem>(state.items.map((item) => [item.id, item]));
  const stamp = (id: string, previous: WmItem | undefined) => ({
    id,
    turnId: meta.turnId,
    at: when.epochMs,
    offsetMinutes: when.offsetMinutes,
    firstAt: previous?.firstAt ?? when.epochMs,
    expiresAt: when.epochMs + config.ttlMs,
    pinned: (previous?.pinned ?? false) || pin,
  });
  const change = (
    value: string,
    op: FactOp,
    source: { turnId: string; at: number; offsetMinutes: number },
  ): FactChange => ({
    value,
    op,
    turnId: source.turnId,
    at: source.at,
    offsetMinutes: source.offsetMinutes,
  });
  const historyOf = (prev: FactItem, extra: FactChange): FactChange[] =>
    [extra, ...prev.history].slice(0, config.historyLimit);

  for (const entity of extraction.entities) {
    const id = `${entity.type}:${entity.value}`;
    items.set(id, { ...stamp(id, items.get(id)), type: entity.type, value: entity.value });
  }
  for (const phrase of extraction.deprecate) {
    const id = `deprecation:${phrase.trim().toLowerCase()}`;
    const keys = topicKeys(phrase, rulesFor(config));
    items.set(id, { ...stamp(id, items.get(id)), type: 'deprecation', value: phrase.trim(), keys });
    // "forget the Kafka idea": a slot holding Kafka no longer holds it.
    for (const item of [...items.values()]) {
      if (item.type === 'fact' && item.op === 'set' && mentions(item.value, keys)) {
        items.set(item.id, {
          ...item,
          ...stamp(item.id, item),
          op: 'unset',
          history: historyOf(item, change(item.value, 'set', item)),
        });
      }
    }
  }
  for (const fact of extraction.facts) {
    const id = `fact:${fact.subject.trim().toLowerCase()}`;
    const prev = items.get(id) as FactItem | undefined;
    const base = stamp(id, prev);
    const make = (op: FactOp, history: readonly FactChange[]): FactItem => ({
      ...base,
      type: 'fact',
      subject: fact.subject.trim(),
      value: fact.value.trim(),
      op,
      history,
    });
    if (fact.op === 'set') {
      const unchanged = prev !== undefined && prev.op === 'set' && same(prev.value, fact.value);
      items.set(
        id,
        make(
          'set',
          prev === undefined || unchanged ? (prev?.history ?? []) : historyOf(prev, change(prev.value, prev.op, prev)),
        ),
      );
      // Setting a deprecated topic again revives it.
      for (const item of [...items.values()]) {
        if (item.type === 'deprecation' && mentions(fact.value, item.keys)) items.delete(item.id);
      }
    } else if (prev === undefined || prev.op === 'unset' || same(prev.value, fact.value)) {
      items.set(
        id,
        make(
          'unset',
          prev === undefined ? [] : prev.op === 'set' ? historyOf(prev, change(prev.value, 'set', prev)) : prev.history,
        ),
      );
    } else {
      // Dropping a value the slot no longer holds changes nothing but the record.
      items.set(id, {
        ...prev,
        history: historyOf(
          prev,
          change(fact.value, 'unset', { turnId: meta.turnId, at: when.epochMs, offsetMinutes: when.offsetMinutes }),
        ),
      });
    }
  }
  return { version: 1, items: capped([...items.values()], when.epochMs, config.maxItems) };
}

/** Keeps at most `max` items: expired ones go first, then the least recently mentioned unpinned ones. */
function capped(items: WmItem[], nowMs: number, max: number): WmItem[] {
  if (items.length <= max) return items;
  const alive = items.filter((i) => i.pinned || i.expiresAt > nowMs);
  if (alive.length <= max) return alive;
  const pinned = alive.filter((i) => i.pinned);
  const rest = alive.filter((i) => !i.pinned).sort((a, b) => b.at - a.at);
  const keep = new Set([...pinned, ...rest].slice(0, Math.max(max, pinned.length)));
  return alive.filter((i) => keep.has(i));
}

export function isActive(item: WmItem, nowMs: number): boolean {
  return item.pinned || item.expiresAt > nowMs;
}

const KIND_ORDER = { fact: 0, deprecation: 1, entity: 2 } as const;
const kind = (item: WmItem): keyof typeof KIND_ORDER =>
  item.type === 'fact' || item.type === 'deprecation' ? item.type : 'entity';

/** The unexpired items: facts, then deprecated topics, then entities; newest first within each. */
export function activeItems(state: WorkingMemoryState, now: Instant): WmItem[] {
  const nowMs = toLocalTime(now).epochMs;
  return state.items
    .filter((item) => isActive(item, nowMs))
    .sort((a, b) => KIND_ORDER[kind(a)] - KIND_ORDER[kind(b)] || b.at - a.at || a.id.localeCompare(b.id));
}

/** Drops expired items. */
export function pruneExpired(state: WorkingMemoryState, now: Instant): WorkingMemoryState {
  const nowMs = toLocalTime(now).epochMs;
  return { version: 1, items: state.items.filter((item) => isActive(item, nowMs)) };
}

/** Pins (or unpins) an item by id; an unknown id changes nothing. */
export function pinItem(state: WorkingMemoryState, id: string, pinned = true): WorkingMemoryState {
  return { version: 1, items: state.items.map((item) => (item.id === id ? { ...item, pinned } : item)) };
}

/**
 * Whether `text` is about a deprecated topic (all of the topic's key words occur in it), so retrieval can leave
 * it out. With `now`, only unexpired topics count. A topic named only by pointing (这个问题) has no key words and
 * matches nothing: use its `turnId` to leave out the turns before it instead.
 */
export function isDeprecated(state: WorkingMemoryState, text: string, now?: Instant): boolean {
  const nowMs = now === undefined ? null : toLocalTime(now).epochMs;
  return state.items.some(
    (item) => item.type === 'deprecation' && (nowMs === null || isActive(item, nowMs)) && mentions(text, item.keys),
  );
}

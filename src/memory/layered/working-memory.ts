/**
 * Working memory as the layered pipeline sees it (seed 001 §3.3): per session, the entities and facts the user
 * mentioned — new ones added, a newer fact for the same subject overwriting the older (Nginx → Apache), a
 * dropped subject removed —, the thing under discussion (discussion-topic.ts), and the topics declared void; items
 * expire 24 h after they were last mentioned unless the user asked to keep them. Extraction is working-memory's own rule-based extractor; this file keeps
 * the state and renders it. `WorkingMemoryPort` is what the pipeline depends on, so another implementation
 * (e.g. one persisted in IndexedDB) can take this one's place.
 */
import { createExtractor, type Extraction, type Extractor } from '../working-memory/index.ts';
import { entityKey } from '../retrieval/index.ts';
import type { Lang } from './labels.ts';
import { DAY_MS } from '../../shared/time.ts';

export interface WmItem {
  /** `topic`: the thing under discussion (discussion-topic.ts), one per session. */
  readonly kind: 'entity' | 'fact' | 'topic';
  /** Entity type (`ipv4`, `date`…), fact subject (`web server`…), or `topic`. */
  readonly name: string;
  readonly value: string;
  /** Entity key for overlap (entities only). */
  readonly key?: string;
  readonly firstAt: number;
  readonly lastAt: number;
  /** null: kept until overwritten (pinned). */
  readonly expiresAt: number | null;
  readonly sourceTurnId: string | null;
}

/** What a user message gives working memory: its extraction, and the thing it names, when it names one. */
export type Observation = Extraction & { readonly topic?: string };

/** The id of a session's topic item. */
export const TOPIC_ITEM = 'topic';

export interface WorkingMemoryPort {
  /** What a message says, without changing any state (entities with dates resolved against `now`). */
  extract(text: string, now: number): Extraction;
  /** Applies a user message's extraction (and the topic it names) to its session's working memory. */
  observe(sessionId: string, extraction: Observation, now: number, turnId: string | null): void;
  /** The session's live items (expired ones left out), newest first. */
  items(sessionId: string, now: number): WmItem[];
  /** Topics declared void in the session, as written. */
  deprecated(sessionId: string): readonly string[];
  /** The block for the prompt, without its label; '' when empty. */
  render(sessionId: string, lang: Lang, now: number): string;
  /** The same block as lines of separate items, so a turn can send only the items the prompt lacks. */
  lines(sessionId: string, lang: Lang, now: number): WmLine[];
}

/** One line of the block: `head: item; item; …`. */
export interface WmLine {
  readonly head: string;
  /** Rendered items, newest first. */
  readonly items: readonly string[];
  readonly sep: string;
}

export const renderWmLine = (line: WmLine): string => `${line.head}: ${line.items.join(line.sep)}`;

export interface WorkingMemoryOptions {
  readonly extractor?: Extractor;
  /** Items expire this long after they were last mentioned (seed 001: 24 h). */
  readonly ttlMs?: number;
  /** The user's UTC offset, for resolving relative dates and for the times shown. */
  readonly offsetMinutes?: number;
}

/** An ISO 8601 string for `ms` in the given offset: the extractor resolves 明天 / tomorrow in that calendar. */
export function isoAt(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const RENDER_WORDS: Readonly<Record<Lang, { facts: string; entities: string; dropped: string; sep: string }>> = {
  zh: { facts: '事实', entities: '实体', dropped: '已作废', sep: '；' },
  en: { facts: 'Facts', entities: 'Entities', dropped: 'Void topics', sep: '; ' },
};

interface SessionState {
  items: Map<string, WmItem>;
  deprecated: string[];
}

/** A session's working memory as data: each item with its id (`entityKey` or `fact:<subject>`), and the void topics. */
export interface SessionSnapshot {
  readonly items: ReadonlyArray<readonly [string, WmItem]>;
  readonly deprecated: readonly string[];
}

export class SessionWorkingMemory implements WorkingMemoryPort {
  private readonly _extractor: Extractor;
  private readonly _ttl: number;
  private readonly _offset: number;
  private readonly _sessions = new Map<string, SessionState>();

  constructor(options: WorkingMemoryOptions = {}) {
    this._extractor = options.extractor ?? createExtractor();
    this._ttl = options.ttlMs ?? DAY_MS;
    this._offset = options.offsetMinutes ?? 0;
  }

  extract(text: string, now: number): Extraction {
    return this._extractor.extract(text, isoAt(now, this._offset));
  }

  observe(sessionId: string, extraction: Observation, now: number, turnId: string | null): void {
    const state = this._state(sessionId);
    const expiresAt = extraction.pin === true ? null : now + this._ttl;
    const put = (item: Omit<WmItem, 'firstAt'>, id: string): void => {
      const old = state.items.get(id);
      // Re-mentioning an item refreshes it; a pinned item stays pinned.
      const expiry = old?.expiresAt === null ? null : expiresAt;
      state.items.set(id, { ...item, firstAt: old?.firstAt ?? now, expiresAt: expiry });
    };
    for (const e of extraction.entities) {
      const key = entityKey(e.type, e.value);
      put({ kind: 'entity', name: e.type, value: e.value, key, lastAt: now, expiresAt, sourceTurnId: turnId }, key);
    }
    // An event's time is a slot like a fact's: "standup moved to Friday" overwrites the standup's earlier time.
    for (const f of [...extraction.facts, ...(extraction.events ?? [])]) {
      if (f.op === 'set') {
        const subject = this._slotFor(state, f.subject, f.value);
        put({ kind: 'fact', name: subject, value: f.value, lastAt: now, expiresAt, sourceTurnId: turnId }, `fact:${subject}`);
        continue;
      }
      // "Nginx 不用了" drops Nginx from whichever of its roles holds it (web server, or reverse proxy).
      for (const subject of new Set([f.subject, ...this._extractor.rolesOf(f.value)])) {
        const id = `fact:${subject}`;
        if (state.items.get(id)?.value.toLowerCase() === f.value.toLowerCase() || (f.value === '' && subject === f.subject)) state.items.delete(id);
      }
    }
    // A bare correction ("Actually it's 8444, not 8443.") goes to the fact it corrects: the one holding the value it
    // replaces, else the newest fact whose value is of the same kind (a number for a number).
    if (extraction.correction !== undefined && extraction.facts.length === 0) {
      const { value, replaces } = extraction.correction;
      const facts = [...state.items].filter(([, i]) => i.kind === 'fact').sort((a, b) => b[1].lastAt - a[1].lastAt);
      const numeric = (v: string): boolean => /^\d+(?:\.\d+)*$/.test(v);
      const target =
        (replaces === undefined ? undefined : facts.find(([, i]) => i.value.toLowerCase() === replaces.toLowerCase())) ??
        (replaces === undefined ? facts.find(([, i]) => numeric(i.value) === numeric(value)) : undefined);
      if (target !== undefined) put({ ...target[1], value, lastAt: now, expiresAt, sourceTurnId: turnId }, target[0]);
    }
    // A message that names a thing makes it the topic; one that names nothing leaves the topic as it was.
    if (extraction.topic !== undefined) put({ kind: 'topic', name: TOPIC_ITEM, value: extraction.topic, lastAt: now, expiresAt, sourceTurnId: turnId }, TOPIC_ITEM);
    for (const topic of extraction.deprecate) {
      state.deprecated.push(topic);
      // Items about a void topic go with it.
      const lower = topic.toLowerCase();
      for (const [id, item] of state.items) if (lower.includes(item.value.toLowerCase())) state.items.delete(id);
    }
  }

  /**
   * One role, one slot: a product that fills two slots (Nginx is a web server and a reverse proxy) replaces a value
   * held under the other name when that value fills both as well. "我们用 Nginx 做反向代理" then "算了，还是用
   * Apache 吧" (no slot named: the product's own, web server) overwrites the reverse proxy; "反向代理换成 Caddy"
   * after "我们用 Nginx" moves the role to the slot the user named. Gunicorn, a web server only, stays beside nginx.
   */
  private _slotFor(state: SessionState, subject: string, value: string): string {
    if (state.items.has(`fact:${subject}`)) return subject;
    const roles = this._extractor.rolesOf(value);
    if (!roles.includes(subject)) return subject;
    for (const [id, item] of state.items) {
      if (item.kind !== 'fact' || item.name === subject || !roles.includes(item.name)) continue;
      if (!this._extractor.rolesOf(item.value).includes(subject)) continue;
      // The product's own slot was not named: the user's earlier name for the role stands.
      if (subject === roles[0]) return item.name;
      state.items.delete(id);
      return subject;
    }
    return subject;
  }

  items(sessionId: string, now: number): WmItem[] {
    const state = this._sessions.get(sessionId);
    if (state === undefined) return [];
    const live: WmItem[] = [];
    for (const [id, item] of state.items) {
      if (item.expiresAt !== null && item.expiresAt <= now) state.items.delete(id);
      else live.push(item);
    }
    return live.sort((a, b) => b.lastAt - a.lastAt);
  }

  deprecated(sessionId: string): readonly string[] {
    return this._sessions.get(sessionId)?.deprecated ?? [];
  }

  render(sessionId: string, lang: Lang, now: number): string {
    return this.lines(sessionId, lang, now).map(renderWmLine).join('\n');
  }

  lines(sessionId: string, lang: Lang, now: number): WmLine[] {
    const items = this.items(sessionId, now);
    const words = RENDER_WORDS[lang];
    const stamp = (ms: number): string => new Date(ms + this._offset * 60_000).toISOString().slice(5, 16).replace('T', ' ');
    const facts = items.filter((i) => i.kind === 'fact').map((i) => `${i.name} = ${i.value} (${stamp(i.lastAt)})`);
    const entities = items.filter((i) => i.kind === 'entity').map((i) => `${i.value} (${i.name})`);
    // The topic is not rendered: it works through the search (its records and docs come in), and a line naming it
    // would count those records as already said (test/unit/layered/thread.test.ts).
    const lines: WmLine[] = [
      { head: words.facts, items: facts, sep: words.sep },
      { head: words.entities, items: entities, sep: words.sep },
      { head: words.dropped, items: this.deprecated(sessionId), sep: words.sep },
    ];
    return lines.filter((l) => l.items.length > 0);
  }

  /** A session's state as plain data (items by their id, void topics in order), to be stored. */
  exportSession(sessionId: string): SessionSnapshot {
    const state = this._sessions.get(sessionId);
    return { items: state === undefined ? [] : [...state.items], deprecated: [...(state?.deprecated ?? [])] };
  }

  /** Puts back a session's stored state, replacing what this page held for it. */
  importSession(sessionId: string, snapshot: SessionSnapshot): void {
    this._sessions.set(sessionId, { items: new Map(snapshot.items), deprecated: [...snapshot.deprecated] });
  }

  /** Forgets a session (it was deleted, or another tab changed it and it is read again). */
  forget(sessionId?: string): void {
    if (sessionId === undefined) this._sessions.clear();
    else this._sessions.delete(sessionId);
  }

  private _state(sessionId: string): SessionState {
    let state = this._sessions.get(sessionId);
    if (state === undefined) this._sessions.set(sessionId, (state = { items: new Map(), deprecated: [] }));
    return state;
  }
}

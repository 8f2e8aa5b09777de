/**
 * The conversation export file (README, "Export format"): versioned JSON, and its validation on import. A file
 * is checked whole before anything is written, so a malformed or oversized one changes nothing.
 */
import type { SentPart, TurnRecord, WorkingItemRecord } from '../../memory/store/index.ts';
import { AssistantError } from '../../shared/errors.ts';
import type { MessageKey, MessageParams } from '../i18n/index.ts';
import { groupExchanges } from './exchanges.ts';
import { readSentPart } from './sent-part.ts';
import { isForgotten, isVisibleTurn } from './visible-turns.ts';

export const EXPORT_FORMAT = 'qwen-local-assistant/conversations';
/** 2 added each conversation's working memory (`memory`); files of version 1 are still read. */
export const EXPORT_VERSION = 2;
export const READABLE_VERSIONS: readonly number[] = [1, 2];
/** Kinds of working-memory item a file may carry (the memory's own: src/memory/layered/durable-working-memory.ts). */
export const MEMORY_KINDS = ['entity', 'fact', 'topic', 'dropped-topic'] as const;
export const IMPORT_MAX_MEMORY_ITEMS = 5_000;
/** Larger files are refused before they are read. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_MAX_CONVERSATIONS = 2000;
export const IMPORT_MAX_MESSAGES = 10_000;
export const IMPORT_MAX_TEXT = 200_000;

export type ExportRole = 'user' | 'assistant' | 'system';
export type ExportStatus = 'complete' | 'interrupted';

export interface ExportMessage {
  role: ExportRole;
  content: string;
  /** Epoch milliseconds. */
  createdAt: number;
  status: ExportStatus;
  /** A user message too long for the window: how much of it the model got (absent in older files: all of it). */
  sent?: SentPart;
  /** Forgotten by the user: kept in the conversation, out of the memory (version 2; absent: remembered). */
  forgotten?: true;
}

/** One working-memory item of a conversation, as the memory panel shows it (version 2). */
export interface ExportMemoryItem {
  /** The item's id within its conversation. */
  id: string;
  kind: (typeof MEMORY_KINDS)[number];
  key: string;
  name?: string;
  value: string;
  /** Index in `messages` of the message it came from; null when that message is not in the file. */
  source: number | null;
  createdAt: number;
  updatedAt: number;
  /** null: never expires. */
  expiresAt: number | null;
  /** Pinned by the user (or by the memory): kept past its expiry. */
  pinned: boolean;
}

export interface ExportConversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: ExportMessage[];
  /** The conversation's working memory (version 2; absent in version 1 files, and when there is none). */
  memory?: ExportMemoryItem[];
}

export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  /** Written as EXPORT_VERSION; a parsed file keeps the version it had. */
  version: number;
  /** ISO 8601. */
  exportedAt: string;
  conversations: ExportConversation[];
}

/** A refused file: an `invalid_input` error like any other, with the message key the UI words it by. */
export class ImportError extends AssistantError {
  constructor(
    readonly key: MessageKey,
    readonly params: MessageParams = {},
  ) {
    super('invalid_input', key);
    this.name = 'ImportError';
  }
}

/**
 * A conversation's stored turns as the file's messages: what the user sees (no hidden or empty replies), each reply
 * right after its question, so a file from interleaved data reads (and imports) as whole exchanges.
 */
export function exportMessages(turns: readonly TurnRecord[]): ExportMessage[] {
  return exportedTurns(turns).map((t) => ({
    role: t.role,
    content: t.content,
    createdAt: t.createdAt,
    status: t.status === 'complete' ? 'complete' : 'interrupted',
    ...(t.sent === undefined ? {} : { sent: t.sent }),
    ...(isForgotten(t) ? { forgotten: true as const } : {}),
  }));
}

/** The turns a file holds, in its order (`exportMessages` writes them). */
function exportedTurns(turns: readonly TurnRecord[]): TurnRecord[] {
  return groupExchanges(turns.filter((t) => isVisibleTurn(t) && !(t.role === 'assistant' && t.content === '')));
}

/**
 * A conversation's working-memory items for its file: the id within the conversation (stored ids are
 * `<conversation>|<item>`), and the source as the index of its message in the file.
 */
export function exportMemory(sessionId: string, turns: readonly TurnRecord[], items: readonly WorkingItemRecord[]): ExportMemoryItem[] {
  const index = new Map(exportedTurns(turns).map((t, i) => [t.id, i]));
  const prefix = `${sessionId}|`;
  return items
    .filter((item) => item.sessionId === sessionId && item.id.startsWith(prefix) && (MEMORY_KINDS as readonly string[]).includes(item.kind))
    .map((item) => ({
      id: item.id.slice(prefix.length),
      kind: item.kind as ExportMemoryItem['kind'],
      key: item.key,
      ...(item.name === undefined ? {} : { name: item.name }),
      value: item.value,
      source: item.sourceTurnId === null ? null : (index.get(item.sourceTurnId) ?? null),
      createdAt: item.createdAt,
      updatedAt: item.updatedAt,
      expiresAt: item.expiresAt,
      pinned: item.pinned,
    }));
}

export function buildExport(conversations: ExportConversation[], now = Date.now()): ExportFile {
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: new Date(now).toISOString(), conversations };
}

export function exportFileName(now = Date.now(), title?: string): string {
  const day = new Date(now).toISOString().slice(0, 10);
  const slug = (title ?? '').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 40);
  return `qwen-conversations-${day}${slug ? `-${slug}` : ''}.json`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v < 8.64e15;
/** A checked time as stored: JSON can spell `-0`, which passes `>= 0` but would not survive a re-export as itself. */
const time = (v: number): number => v + 0;
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;

/**
 * A version value as the message shows it. `String(v)` threw a TypeError on `{"toString": 1}` (JSON can own that
 * key), so a crafted file failed with an uncoded error instead of this message.
 */
function describeVersion(v: unknown): string {
  if (Array.isArray(v)) return '[…]';
  if (typeof v === 'object' && v !== null) return '{…}';
  return String(v).slice(0, 40);
}

/** Parses and checks a file's text; throws `ImportError` naming the first problem found. */
export function parseExport(text: string): ExportFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ImportError('data.import.notJson');
  }
  if (!isObject(data) || data.format !== EXPORT_FORMAT) throw new ImportError('data.import.notOurs');
  if (typeof data.version !== 'number' || !READABLE_VERSIONS.includes(data.version)) {
    throw new ImportError('data.import.version', { version: describeVersion(data.version), supported: READABLE_VERSIONS.join(', ') });
  }
  const version = data.version;
  if (!Array.isArray(data.conversations)) throw new ImportError('data.import.field', { where: 'conversations' });
  if (data.conversations.length > IMPORT_MAX_CONVERSATIONS) throw new ImportError('data.import.tooMany', { max: IMPORT_MAX_CONVERSATIONS });
  const conversations = data.conversations.map((c: unknown, i: number) => checkConversation(c, i, version));
  return { format: EXPORT_FORMAT, version, exportedAt: typeof data.exportedAt === 'string' ? data.exportedAt : '', conversations };
}

function checkConversation(c: unknown, i: number, version: number): ExportConversation {
  const where = `conversations[${i}]`;
  if (!isObject(c)) throw new ImportError('data.import.field', { where });
  if (!isText(c.id, 200) || c.id === '') throw new ImportError('data.import.field', { where: `${where}.id` });
  if (!isText(c.title, 500)) throw new ImportError('data.import.field', { where: `${where}.title` });
  if (!isTime(c.createdAt)) throw new ImportError('data.import.field', { where: `${where}.createdAt` });
  if (!isTime(c.updatedAt)) throw new ImportError('data.import.field', { where: `${where}.updatedAt` });
  if (!Array.isArray(c.messages)) throw new ImportError('data.import.field', { where: `${where}.messages` });
  if (c.messages.length > IMPORT_MAX_MESSAGES) throw new ImportError('data.import.tooMany', { max: IMPORT_MAX_MESSAGES });
  const messages = c.messages.map((m: unknown, j: number): ExportMessage => {
    const at = `${where}.messages[${j}]`;
    if (!isObject(m)) throw new ImportError('data.import.field', { where: at });
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') throw new ImportError('data.import.field', { where: `${at}.role` });
    if (!isText(m.content, IMPORT_MAX_TEXT)) throw new ImportError('data.import.field', { where: `${at}.content` });
    if (!isTime(m.createdAt)) throw new ImportError('data.import.field', { where: `${at}.createdAt` });
    const status = m.status ?? 'complete';
    if (status !== 'complete' && status !== 'interrupted') throw new ImportError('data.import.field', { where: `${at}.status` });
    const sent = m.sent === undefined ? undefined : readSentPart(m.sent);
    if (sent === null || (sent !== undefined && (m.role !== 'user' || sent.chars > m.content.length))) {
      throw new ImportError('data.import.field', { where: `${at}.sent` });
    }
    if (m.forgotten !== undefined && !(version >= 2 && m.forgotten === true)) throw new ImportError('data.import.field', { where: `${at}.forgotten` });
    return { role: m.role, content: m.content, createdAt: time(m.createdAt), status, ...(sent === undefined ? {} : { sent }), ...(m.forgotten === true ? { forgotten: true as const } : {}) };
  });
  // Version 1 had no memory: a `memory` there is not ours to read, and is left out.
  const memory = version >= 2 && c.memory !== undefined ? checkMemory(c.memory, where, messages.length) : undefined;
  return { id: c.id, title: c.title, createdAt: time(c.createdAt), updatedAt: time(c.updatedAt), messages, ...(memory === undefined ? {} : { memory }) };
}

function checkMemory(value: unknown, where: string, messages: number): ExportMemoryItem[] {
  if (!Array.isArray(value)) throw new ImportError('data.import.field', { where: `${where}.memory` });
  if (value.length > IMPORT_MAX_MEMORY_ITEMS) throw new ImportError('data.import.tooMany', { max: IMPORT_MAX_MEMORY_ITEMS });
  const ids = new Set<string>();
  return value.map((m: unknown, k: number): ExportMemoryItem => {
    const at = `${where}.memory[${k}]`;
    const bad = (field: string): ImportError => new ImportError('data.import.field', { where: field === '' ? at : `${at}.${field}` });
    if (!isObject(m)) throw bad('');
    if (!isText(m.id, 500) || m.id === '' || ids.has(m.id)) throw bad('id');
    ids.add(m.id);
    if (typeof m.kind !== 'string' || !(MEMORY_KINDS as readonly string[]).includes(m.kind)) throw bad('kind');
    if (!isText(m.key, 500) || m.key === '') throw bad('key');
    if (m.name !== undefined && !isText(m.name, 500)) throw bad('name');
    if (!isText(m.value, 5_000)) throw bad('value');
    if (m.source !== null && !(typeof m.source === 'number' && Number.isInteger(m.source) && m.source >= 0 && m.source < messages)) throw bad('source');
    if (!isTime(m.createdAt)) throw bad('createdAt');
    if (!isTime(m.updatedAt)) throw bad('updatedAt');
    if (m.expiresAt !== null && !isTime(m.expiresAt)) throw bad('expiresAt');
    if (typeof m.pinned !== 'boolean') throw bad('pinned');
    return {
      id: m.id,
      kind: m.kind as ExportMemoryItem['kind'],
      key: m.key,
      ...(m.name === undefined ? {} : { name: m.name as string }),
      value: m.value,
      // `-0` is a valid index; stored as 0, so that what was accepted re-exports as itself (as times are).
      source: m.source === null ? null : time(m.source as number),
      createdAt: time(m.createdAt),
      updatedAt: time(m.updatedAt),
      expiresAt: m.expiresAt === null ? null : time(m.expiresAt as number),
      pinned: m.pinned,
    };
  });
}

/** Reads a picked file with the size check first (an oversized file is never read into memory). */
export async function readExportFile(file: Blob): Promise<ExportFile> {
  if (file.size > IMPORT_MAX_BYTES) {
    throw new ImportError('data.import.tooLarge', { size: Math.ceil(file.size / 1024 / 1024), max: IMPORT_MAX_BYTES / 1024 / 1024 });
  }
  return parseExport(await file.text());
}

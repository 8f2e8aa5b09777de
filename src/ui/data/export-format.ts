/**
 * The conversation export file (README, "Export format"): versioned JSON, and its validation on import. A file
 * is checked whole before anything is written, so a malformed or oversized one changes nothing.
 */
import type { SentPart, TurnRecord } from '../../memory/store/index.ts';
import { AssistantError } from '../../shared/errors.ts';
import type { MessageKey, MessageParams } from '../i18n/index.ts';
import { groupExchanges } from './exchanges.ts';
import { readSentPart } from './sent-part.ts';
import { isVisibleTurn } from './visible-turns.ts';

export const EXPORT_FORMAT = 'qwen-local-assistant/conversations';
export const EXPORT_VERSION = 1;
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
}

export interface ExportConversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: ExportMessage[];
}

export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
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
  const shown = turns.filter((t) => isVisibleTurn(t) && !(t.role === 'assistant' && t.content === ''));
  return groupExchanges(shown).map((t) => ({ role: t.role, content: t.content, createdAt: t.createdAt, status: t.status === 'complete' ? 'complete' : 'interrupted', ...(t.sent === undefined ? {} : { sent: t.sent }) }));
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
  if (data.version !== EXPORT_VERSION) throw new ImportError('data.import.version', { version: describeVersion(data.version), supported: EXPORT_VERSION });
  if (!Array.isArray(data.conversations)) throw new ImportError('data.import.field', { where: 'conversations' });
  if (data.conversations.length > IMPORT_MAX_CONVERSATIONS) throw new ImportError('data.import.tooMany', { max: IMPORT_MAX_CONVERSATIONS });
  const conversations = data.conversations.map((c: unknown, i: number) => checkConversation(c, i));
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: typeof data.exportedAt === 'string' ? data.exportedAt : '', conversations };
}

function checkConversation(c: unknown, i: number): ExportConversation {
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
    return { role: m.role, content: m.content, createdAt: time(m.createdAt), status, ...(sent === undefined ? {} : { sent }) };
  });
  return { id: c.id, title: c.title, createdAt: time(c.createdAt), updatedAt: time(c.updatedAt), messages };
}

/** Reads a picked file with the size check first (an oversized file is never read into memory). */
export async function readExportFile(file: Blob): Promise<ExportFile> {
  if (file.size > IMPORT_MAX_BYTES) {
    throw new ImportError('data.import.tooLarge', { size: Math.ceil(file.size / 1024 / 1024), max: IMPORT_MAX_BYTES / 1024 / 1024 });
  }
  return parseExport(await file.text());
}

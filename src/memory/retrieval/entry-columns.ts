/**
 * Turn and doc entries as columns, for the saved index. A structured clone of 10,000 small objects costs several
 * times what the same data costs as typed arrays and a few string lists, and reading the saved index is most of a
 * page load's first prompt. Each string field is interned (a name list and a code per row); each list field is a
 * flat code list with row starts. Pure, no DOM.
 */
import { Interner } from '../../shared/interner.ts';
import { INTENT_TAGS, type IntentTag } from './intent.ts';
import type { DocEntry, TurnEntry, TurnRole } from './records.ts';

/** One string per row, interned; code -1: no value. */
export interface StringColumn {
  names: string[];
  codes: Int32Array;
}

/** A list of strings per row, interned, flat: row r's codes are `codes[starts[r]..starts[r + 1])`. */
export interface ListColumn {
  names: string[];
  starts: Int32Array;
  codes: Int32Array;
}

export type TurnFields = Omit<TurnEntry, 'text'>;
export type DocFields = Omit<DocEntry, 'text'> & { tags: IntentTag[] };

export interface TurnColumns {
  ids: string[];
  userIds: StringColumn;
  sessionIds: StringColumn;
  roles: StringColumn;
  speakers: StringColumn;
  seq: Float64Array;
  time: Float64Array;
  /** NaN: not deprecated. */
  deprecatedAt: Float64Array;
  entities: ListColumn;
  dates: ListColumn;
  tags: ListColumn;
}

export interface DocColumns {
  ids: string[];
  docIds: StringColumn;
  sources: StringColumn;
  part: Float64Array;
  tags: ListColumn;
}

function stringColumn(values: ReadonlyArray<string | undefined>): StringColumn {
  const names = new Interner();
  const codes = new Int32Array(values.length);
  values.forEach((value, row) => (codes[row] = value === undefined ? -1 : names.code(value)));
  return { names: names.names(), codes };
}

function listColumn(lists: ReadonlyArray<readonly string[]>): ListColumn {
  const names = new Interner();
  const starts = new Int32Array(lists.length + 1);
  lists.forEach((list, row) => (starts[row + 1] = starts[row]! + list.length));
  const codes = new Int32Array(starts[lists.length]!);
  lists.forEach((list, row) => list.forEach((name, i) => (codes[starts[row]! + i] = names.code(name))));
  return { names: names.names(), starts, codes };
}

const listAt = <T extends string>(column: ListColumn, row: number): T[] => {
  const out: T[] = [];
  for (let i = column.starts[row]!; i < column.starts[row + 1]!; i++) out.push(column.names[column.codes[i]!] as T);
  return out;
};

export function turnColumns(entries: readonly TurnFields[]): TurnColumns {
  return {
    ids: entries.map((e) => e.id),
    userIds: stringColumn(entries.map((e) => e.userId)),
    sessionIds: stringColumn(entries.map((e) => e.sessionId)),
    roles: stringColumn(entries.map((e) => e.role)),
    speakers: stringColumn(entries.map((e) => e.speaker)),
    seq: Float64Array.from(entries, (e) => e.seq),
    time: Float64Array.from(entries, (e) => e.time),
    deprecatedAt: Float64Array.from(entries, (e) => e.deprecatedAt ?? Number.NaN),
    entities: listColumn(entries.map((e) => e.entities)),
    dates: listColumn(entries.map((e) => e.dates)),
    tags: listColumn(entries.map((e) => e.tags)),
  };
}

/**
 * The entries the columns hold, in order, each with its text from `textOf` (the shard keeps the texts); throws a
 * RangeError for columns that do not hold together or an entry without a text.
 */
export function turnsFromColumns(columns: TurnColumns, textOf: (id: string) => string | undefined): TurnEntry[] {
  const rows = columns.ids.length;
  checkStrings(columns.userIds, rows, 'user ids', false);
  checkStrings(columns.sessionIds, rows, 'session ids', false);
  checkStrings(columns.roles, rows, 'roles', false);
  checkStrings(columns.speakers, rows, 'speakers', true);
  checkNumbers([columns.seq, columns.time, columns.deprecatedAt], rows, 'turn numbers');
  checkList(columns.entities, rows, 'entities');
  checkList(columns.dates, rows, 'dates');
  checkList(columns.tags, rows, 'tags');
  if (columns.roles.names.some((role) => !ROLES.has(role))) damaged('roles');
  if (columns.tags.names.some((tag) => !TAGS.has(tag))) damaged('tags');
  const out: TurnEntry[] = [];
  for (let row = 0; row < rows; row++) {
    const id = columns.ids[row]!;
    const text = textOf(id) ?? damaged(`turn ${id} has no text`);
    const speaker = columns.speakers.codes[row]!;
    const deprecatedAt = columns.deprecatedAt[row]!;
    out.push({
      id,
      userId: columns.userIds.names[columns.userIds.codes[row]!]!,
      sessionId: columns.sessionIds.names[columns.sessionIds.codes[row]!]!,
      seq: columns.seq[row]!,
      role: columns.roles.names[columns.roles.codes[row]!] as TurnRole,
      ...(speaker < 0 ? {} : { speaker: columns.speakers.names[speaker]! }),
      time: columns.time[row]!,
      text,
      entities: listAt(columns.entities, row),
      dates: listAt(columns.dates, row),
      tags: listAt<IntentTag>(columns.tags, row),
      ...(Number.isNaN(deprecatedAt) ? {} : { deprecatedAt }),
    });
  }
  return out;
}

export function docColumns(entries: readonly DocFields[]): DocColumns {
  return {
    ids: entries.map((e) => e.id),
    docIds: stringColumn(entries.map((e) => e.docId)),
    sources: stringColumn(entries.map((e) => e.source)),
    part: Float64Array.from(entries, (e) => e.part),
    tags: listColumn(entries.map((e) => e.tags)),
  };
}

/** The entries the columns hold, in order, with their texts (see `turnsFromColumns`). */
export function docsFromColumns(columns: DocColumns, textOf: (id: string) => string | undefined): Array<{ doc: DocEntry; tags: IntentTag[] }> {
  const rows = columns.ids.length;
  checkStrings(columns.docIds, rows, 'doc ids', false);
  checkStrings(columns.sources, rows, 'sources', false);
  checkNumbers([columns.part], rows, 'parts');
  checkList(columns.tags, rows, 'doc tags');
  if (columns.tags.names.some((tag) => !TAGS.has(tag))) damaged('doc tags');
  const out: Array<{ doc: DocEntry; tags: IntentTag[] }> = [];
  for (let row = 0; row < rows; row++) {
    const id = columns.ids[row]!;
    const doc: DocEntry = {
      id,
      docId: columns.docIds.names[columns.docIds.codes[row]!]!,
      source: columns.sources.names[columns.sources.codes[row]!]!,
      part: columns.part[row]!,
      text: textOf(id) ?? damaged(`doc ${id} has no text`),
    };
    out.push({ doc, tags: listAt<IntentTag>(columns.tags, row) });
  }
  return out;
}

const ROLES = new Set<string>(['system', 'user', 'assistant']);
const TAGS = new Set<string>(INTENT_TAGS);

const damaged = (what: string): never => {
  throw new RangeError(`damaged entry columns: ${what}`);
};

function checkStrings(column: StringColumn, rows: number, what: string, optional: boolean): void {
  if (column.codes.length !== rows) damaged(what);
  const low = optional ? -1 : 0;
  for (const code of column.codes) if (code < low || code >= column.names.length) damaged(what);
}

function checkNumbers(columns: readonly Float64Array[], rows: number, what: string): void {
  if (columns.some((c) => c.length !== rows)) damaged(what);
}

function checkList(column: ListColumn, rows: number, what: string): void {
  if (column.starts.length !== rows + 1 || column.starts[0] !== 0 || column.starts[rows] !== column.codes.length) damaged(what);
  for (let r = 0; r < rows; r++) if (column.starts[r]! > column.starts[r + 1]!) damaged(what);
  for (const code of column.codes) if (code < 0 || code >= column.names.length) damaged(what);
}

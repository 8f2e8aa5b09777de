/**
 * How retrieved memory reads in the prompt: labelled sections (seed 001 §4.2 — conversation records and
 * documentation never share a label), conversation records in time order under their dates, one line per turn
 * (`Speaker: text`, or only the chosen sentences of it joined by " … "). Text is never rewritten: a sentence
 * appears verbatim. Pure, no DOM.
 */
import type { DateMention } from '../../shared/date-mention.ts';
import { DAY_MS } from '../../shared/time.ts';

export interface RecordLabels {
  /** Section heading for conversation records, e.g. `[相关历史（对话记录）]`. */
  readonly history: string;
  /** Section heading for documentation chunks. */
  readonly docs: string;
  /** Speaker names for turns without one. */
  readonly user: string;
  readonly assistant: string;
  /** Between sentences of one turn that are not adjacent. */
  readonly gap: string;
  /**
   * How a day (`YYYY-MM-DD`) heads its records; the year only when it changes (Qwen spends a token per digit,
   * so `8 May 2023` then `25 May` beats ISO on every line).
   */
  readonly day: (iso: string, withYear: boolean) => string;
  /**
   * After a record's text, for a question about when: what its relative times meant on the day it was written
   * (` (yesterday = 7 May 2023)`), so a small model reads the date rather than working it out. '' for none.
   */
  readonly dateNote?: (mentions: readonly DateMention[]) => string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `8 May 2023`, or `8 May`. */
export function englishDay(iso: string, withYear = true): string {
  return named(ENGLISH_DAYS, iso, withYear);
}

/** `2023年5月8日`, or `5月8日`. */
export function chineseDay(iso: string, withYear = true): string {
  return named(CHINESE_DAYS, iso, withYear);
}

/** One language's day names, made once per day and form: every search heads its records with the same few days. */
interface DayNames {
  readonly make: (y: number, m: number, d: number, withYear: boolean) => string;
  readonly withYear: Map<string, string>;
  readonly withoutYear: Map<string, string>;
}

const ENGLISH_DAYS: DayNames = {
  make: (y, m, d, withYear) => (withYear ? `${d} ${MONTHS[m - 1]} ${y}` : `${d} ${MONTHS[m - 1]}`),
  withYear: new Map(),
  withoutYear: new Map(),
};

const CHINESE_DAYS: DayNames = {
  make: (y, m, d, withYear) => (withYear ? `${y}年${m}月${d}日` : `${m}月${d}日`),
  withYear: new Map(),
  withoutYear: new Map(),
};

/** Names kept per form; past this many the memo starts over (a long-lived page meets new days slowly). */
const MAX_NAMED_DAYS = 4096;

function named(names: DayNames, iso: string, withYear: boolean): string {
  const memo = withYear ? names.withYear : names.withoutYear;
  let name = memo.get(iso);
  if (name === undefined) {
    const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
    name = names.make(y, m, d, withYear);
    if (memo.size >= MAX_NAMED_DAYS) memo.clear();
    memo.set(iso, name);
  }
  return name;
}

export interface RecordLine {
  readonly id: string;
  readonly time: number;
  readonly seq: number;
  readonly speaker: string;
  /** The chosen pieces' texts in order, or the whole turn as one entry. */
  readonly parts: readonly string[];
  /** After the text (`RecordLabels.dateNote`): the record's own words stay verbatim before it. */
  readonly note?: string;
}

export interface DocLine {
  readonly id: string;
  readonly source: string;
  readonly part: number;
  readonly parts: readonly string[];
}

/** Date's range: ±8.64e15 ms, whole days either side of 1970. */
const MAX_TIME = 8.64e15;

/**
 * The days named lately, by day number since 1970 (in the offset): every search renders records of the same few
 * days, and `toISOString` costs more than the rest of a record's line.
 */
const dayNames = new Map<number, string>();

/** `YYYY-MM-DD` in the user's UTC offset. */
export function dayOf(ms: number, offsetMinutes: number): string {
  const t = ms + offsetMinutes * 60_000;
  // A whole millisecond in range lies in day ⌊t / DAY_MS⌋; anything else goes straight to Date (and its errors).
  if (!Number.isInteger(t) || t < -MAX_TIME || t >= MAX_TIME) return isoDay(t);
  const r = t % DAY_MS;
  const day = (t - r) / DAY_MS - (r < 0 ? 1 : 0);
  let name = dayNames.get(day);
  if (name === undefined) {
    name = isoDay(t);
    if (dayNames.size >= MAX_NAMED_DAYS) dayNames.clear();
    dayNames.set(day, name);
  }
  return name;
}

function isoDay(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

export function recordLine(line: Pick<RecordLine, 'speaker' | 'parts' | 'note'>, labels: RecordLabels): string {
  return `${line.speaker}: ${line.parts.join(labels.gap)}${line.note ?? ''}`;
}

/** Each mention once, `phrase = meaning`, joined by `sep`. */
function joinNote(mentions: readonly DateMention[], meaning: (m: DateMention) => string, open: string, sep: string, close: string): string {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const m of mentions) {
    const item = `${m.phrase} = ${meaning(m)}`;
    if (seen.has(item)) continue;
    seen.add(item);
    items.push(item);
  }
  return items.length === 0 ? '' : `${open}${items.join(sep)}${close}`;
}

/** ` (yesterday = 7 May 2023; last week = the week before 8 May 2023)`. */
export function englishDateNote(mentions: readonly DateMention[]): string {
  return joinNote(
    mentions,
    ({ when }) => {
      switch (when.kind) {
        case 'day':
          return englishDay(when.iso);
        case 'week':
        case 'weekend':
          return `the ${when.kind} ${when.offset < 0 ? 'before' : 'after'} ${englishDay(when.anchor)}`;
        case 'month':
          return `${MONTHS[Number(when.iso.slice(5, 7)) - 1]} ${when.iso.slice(0, 4)}`;
        case 'year':
          return String(when.year);
      }
    },
    ' (',
    '; ',
    ')',
  );
}

/** `（昨天 = 2023年5月7日；上周 = 2023年5月8日的前一周）`. */
export function chineseDateNote(mentions: readonly DateMention[]): string {
  return joinNote(
    mentions,
    ({ when }) => {
      switch (when.kind) {
        case 'day':
          return chineseDay(when.iso);
        case 'week':
        case 'weekend':
          return `${chineseDay(when.anchor)}的${when.offset < 0 ? '前' : '后'}${when.kind === 'week' ? '一周' : '一个周末'}`;
        case 'month':
          return `${when.iso.slice(0, 4)}年${Number(when.iso.slice(5, 7))}月`;
        case 'year':
          return `${when.year}年`;
      }
    },
    '（',
    '；',
    '）',
  );
}

export function docLine(line: Pick<DocLine, 'source' | 'parts'>, labels: RecordLabels): string {
  return `(${line.source}) ${line.parts.join(labels.gap)}`;
}

/**
 * The conversation-records section: heading, then per day (oldest first) its date and its lines in order. The
 * year heads the first day of each year, or every day with `yearEveryDay` (a question about when: its answer is
 * the whole date).
 */
export function renderRecords(lines: readonly RecordLine[], labels: RecordLabels, offsetMinutes: number, yearEveryDay = false): string {
  if (lines.length === 0) return '';
  const sorted = [...lines].sort((a, b) => a.time - b.time || a.seq - b.seq);
  const out = [labels.history];
  let day = '';
  for (const line of sorted) {
    const d = dayOf(line.time, offsetMinutes);
    if (d !== day) {
      out.push(labels.day(d, yearEveryDay || d.slice(0, 4) !== day.slice(0, 4)));
      day = d;
    }
    out.push(recordLine(line, labels));
  }
  return out.join('\n');
}

export function renderDocs(lines: readonly DocLine[], labels: RecordLabels): string {
  if (lines.length === 0) return '';
  const sorted = [...lines].sort((a, b) => a.source.localeCompare(b.source) || a.part - b.part);
  return [labels.docs, ...sorted.map((l) => docLine(l, labels))].join('\n');
}

/** The retrieved part of a memory block: conversation records, then docs, a blank line between (either may be absent). */
export function renderRetrieved(records: readonly RecordLine[], docs: readonly DocLine[], labels: RecordLabels, offsetMinutes: number, yearEveryDay = false): string {
  return [renderRecords(records, labels, offsetMinutes, yearEveryDay), renderDocs(docs, labels)].filter((s) => s !== '').join('\n\n');
}

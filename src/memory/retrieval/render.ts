/**
 * How retrieved memory reads in the prompt: labelled sections (seed 001 §4.2 — conversation records and
 * documentation never share a label), conversation records in time order under their dates, one line per turn
 * (`Speaker: text`, or only the chosen sentences of it joined by " … "). Text is never rewritten: a sentence
 * appears verbatim. Pure, no DOM.
 */

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
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `8 May 2023`, or `8 May`. */
export function englishDay(iso: string, withYear = true): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return withYear ? `${d} ${MONTHS[m - 1]} ${y}` : `${d} ${MONTHS[m - 1]}`;
}

/** `2023年5月8日`, or `5月8日`. */
export function chineseDay(iso: string, withYear = true): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return withYear ? `${y}年${m}月${d}日` : `${m}月${d}日`;
}

export interface RecordLine {
  readonly id: string;
  readonly time: number;
  readonly seq: number;
  readonly speaker: string;
  /** The chosen pieces' texts in order, or the whole turn as one entry. */
  readonly parts: readonly string[];
}

export interface DocLine {
  readonly id: string;
  readonly source: string;
  readonly part: number;
  readonly parts: readonly string[];
}

/** `YYYY-MM-DD` in the user's UTC offset. */
export function dayOf(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

export function recordLine(line: Pick<RecordLine, 'speaker' | 'parts'>, labels: RecordLabels): string {
  return `${line.speaker}: ${line.parts.join(labels.gap)}`;
}

export function docLine(line: Pick<DocLine, 'source' | 'parts'>, labels: RecordLabels): string {
  return `(${line.source}) ${line.parts.join(labels.gap)}`;
}

/** The conversation-records section: heading, then per day (oldest first) its date and its lines in order. */
export function renderRecords(lines: readonly RecordLine[], labels: RecordLabels, offsetMinutes: number): string {
  if (lines.length === 0) return '';
  const sorted = [...lines].sort((a, b) => a.time - b.time || a.seq - b.seq);
  const out = [labels.history];
  let day = '';
  for (const line of sorted) {
    const d = dayOf(line.time, offsetMinutes);
    if (d !== day) {
      out.push(labels.day(d, d.slice(0, 4) !== day.slice(0, 4)));
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

/**
 * A turn's memory block, append-only (ARCHITECTURE "KV-cache-aware assembly"). What this turn's memory is —
 * working-memory items within their budget, the retrieved records and docs — is decided once; what is sent
 * is only what the messages before it lack, since earlier blocks stay verbatim in the history and the model
 * still reads them. Working-memory items and record / doc lines are compared whole, as rendered (a record also
 * counts as held when each of its sentences already is), so nothing goes half.
 */
import type { ChatMessage } from '../../engine/protocol.ts';
import { sanitizeText } from '../../shared/sanitize.ts';
import type { TokenCounter } from '../../context/tokens.ts';
import { docLine, recordLine, renderRetrieved, type DocLine, type RecordLine } from '../retrieval/index.ts';
import type { SectionLabels } from './labels.ts';
import { renderWmLine, type WmLine } from './working-memory.ts';

/** The whole memory of a turn, before anything the prompt already holds is left out. */
export interface BlockParts {
  readonly labels: SectionLabels;
  readonly offsetMinutes: number;
  readonly working: readonly WmLine[];
  readonly records: readonly RecordLine[];
  readonly docs: readonly DocLine[];
  /** Retrieval rank per record / doc id (0 best). */
  readonly rank: ReadonlyMap<string, number>;
  /** Every day heading with its year (as retrieval packed it: a question about when). */
  readonly yearEveryDay?: boolean;
}

export interface BlockDelta {
  /** What the new user message carries ('' when the prompt holds it all). */
  readonly text: string;
  /** Record / doc ids and working-memory items, split by whether the prompt already held them. */
  readonly held: { readonly records: readonly string[]; readonly working: readonly string[] };
  readonly sent: { readonly records: readonly string[]; readonly working: readonly string[] };
  /** Tokens of the working-memory part and of the retrieved part sent, labels included (0 when none). */
  readonly workingTokens: number;
  readonly retrievalTokens: number;
}

const labelled = (label: string, lines: readonly WmLine[]): string => (lines.length === 0 ? '' : `${label}\n${lines.map(renderWmLine).join('\n')}`);

/** Working-memory items, newest first per line, as many as fit in `budget` tokens with the label (whole items only). */
export function selectWorking(lines: readonly WmLine[], label: string, budget: number, counter: TokenCounter): { lines: WmLine[]; tokens: number; cut: boolean } {
  const out: WmLine[] = [];
  let tokens = 0;
  for (const line of lines) {
    const items: string[] = [];
    for (const item of line.items) {
      const trial = labelled(label, [...out, { ...line, items: [...items, item] }]);
      const n = counter.count(trial);
      if (n > budget) return { lines: items.length > 0 ? [...out, { ...line, items }] : out, tokens, cut: true };
      items.push(item);
      tokens = n;
    }
    out.push({ ...line, items });
  }
  return { lines: out, tokens, cut: false };
}

/** A part shorter than this is found inside other text too easily to count as held by itself. */
const MIN_PART_CHARS = 16;

/** What the user messages among `held` say, one string, with a newline at both ends (lines are matched whole). */
function heldText(held: readonly ChatMessage[]): string {
  return `\n${held.filter((m) => m.role === 'user').map((m) => m.content).join('\n\n')}\n`;
}

/** Whether `text` holds `item` as a whole item of a working-memory line (after `head: ` or a separator). */
function holdsItem(text: string, item: string, sep: string): boolean {
  for (let at = text.indexOf(item); at >= 0; at = text.indexOf(item, at + 1)) {
    const before = text.slice(Math.max(0, at - sep.length), at) === sep || text.slice(at - 2, at) === ': ';
    const rest = text.slice(at + item.length);
    if (before && (rest.startsWith(sep) || rest.startsWith('\n'))) return true;
  }
  return false;
}

/** A record or doc line as `held` tests compare it: rendered, and the forms searched for (sanitized like the prompt). */
interface PreparedLine<L> {
  readonly line: L;
  readonly rendered: string;
  /** The rendered line between newlines. */
  readonly whole: string;
  /** Its parts, or null when one is too short to count as held by itself (the line must then match whole). */
  readonly parts: readonly string[] | null;
}

function prepareLine<L extends { readonly parts: readonly string[]; readonly note?: string }>(line: L, rendered: string): PreparedLine<L> {
  // A record's date note (a question about when) counts as a part: the record sent earlier without it is not enough.
  const parts = line.note === undefined ? line.parts : [...line.parts, line.note.trim()];
  return {
    line,
    rendered,
    whole: `\n${sanitizeText(rendered)}\n`,
    parts: parts.every((p) => p.length >= MIN_PART_CHARS) ? parts.map(sanitizeText) : null,
  };
}

/**
 * Held: the same line, or every part of it inside earlier lines (a sentence sent before, now wanted alone);
 * parts too short to tell apart must match as the whole line.
 */
function holds<L>(text: string, p: PreparedLine<L>): boolean {
  return text.includes(p.whole) || (p.parts !== null && p.parts.every((part) => text.includes(part)));
}

/** What `split` compares, worked out once per block: the assembler tries one block against many histories. */
interface PreparedParts {
  readonly working: ReadonlyArray<{ readonly line: WmLine; readonly items: readonly string[] }>;
  readonly records: ReadonlyArray<PreparedLine<RecordLine>>;
  readonly docs: ReadonlyArray<PreparedLine<DocLine>>;
}

const prepared = new WeakMap<BlockParts, PreparedParts>();

function prepare(parts: BlockParts): PreparedParts {
  let p = prepared.get(parts);
  if (p === undefined) {
    const { labels } = parts;
    p = {
      working: parts.working.map((line) => ({ line, items: line.items.map(sanitizeText) })),
      records: parts.records.map((l) => prepareLine(l, recordLine(l, labels))),
      docs: parts.docs.map((l) => prepareLine(l, docLine(l, labels))),
    };
    prepared.set(parts, p);
  }
  return p;
}

/** Splits the block by what `held` (the messages the new user message follows) already carries. */
function split(parts: BlockParts, held: readonly ChatMessage[]) {
  const text = heldText(held);
  const p = prepare(parts);
  const working = { held: [] as WmLine[], sent: [] as WmLine[] };
  for (const { line, items } of p.working) {
    const has = line.items.filter((_, i) => holdsItem(text, items[i]!, line.sep));
    const lacks = line.items.filter((item) => !has.includes(item));
    if (has.length > 0) working.held.push({ ...line, items: has });
    if (lacks.length > 0) working.sent.push({ ...line, items: lacks });
  }
  const splitLines = <L>(lines: ReadonlyArray<PreparedLine<L>>) => {
    const out = { held: [] as PreparedLine<L>[], sent: [] as PreparedLine<L>[] };
    for (const l of lines) (holds(text, l) ? out.held : out.sent).push(l);
    return out;
  };
  return { working, records: splitLines(p.records), docs: splitLines(p.docs) };
}

const ids = (lines: ReadonlyArray<{ readonly line: { readonly id: string } }>): string[] => lines.map((l) => l.line.id);
const itemsOf = (lines: readonly WmLine[]): string[] => lines.flatMap((l) => l.items);

/** The lines of the block that `held` lacks, rendered (no counting). */
function deltaOf(parts: BlockParts, held: readonly ChatMessage[]) {
  const s = split(parts, held);
  const { labels } = parts;
  // Two turns that read the same ("OK, thanks.") are sent once.
  const seen = new Set<string>();
  const once = (text: string): boolean => !seen.has(text) && seen.add(text) !== undefined;
  const records = s.records.sent.filter((l) => once(l.rendered));
  const docs = s.docs.sent.filter((l) => once(l.rendered));
  const wm = labelled(labels.working, s.working.sent);
  const retrieved = renderRetrieved(
    records.map((l) => l.line),
    docs.map((l) => l.line),
    labels,
    parts.offsetMinutes,
    parts.yearEveryDay === true,
  );
  return { s, records, docs, wm, retrieved, text: [wm, retrieved].filter((x) => x !== '').join('\n\n') };
}

/** What `blockDelta` sends, without its token counts (the assembler tries it against many histories). */
export function blockText(parts: BlockParts, held: readonly ChatMessage[]): string {
  return deltaOf(parts, held).text;
}

/** The part of the block that `held` (the messages the new user message follows) does not already carry. */
export function blockDelta(parts: BlockParts, held: readonly ChatMessage[], counter: TokenCounter): BlockDelta {
  const { s, records, docs, wm, retrieved, text } = deltaOf(parts, held);
  return {
    text,
    held: { records: [...ids(s.records.held), ...ids(s.docs.held)], working: itemsOf(s.working.held) },
    sent: { records: [...ids(records), ...ids(docs)], working: itemsOf(s.working.sent) },
    workingTokens: wm === '' ? 0 : counter.count(wm),
    retrievalTokens: retrieved === '' ? 0 : counter.count(retrieved),
  };
}

/**
 * The block cut down to what fits in `room` tokens beyond what `held` already carries, new lines best first
 * (working memory first). For a turn whose best memory is already in the prompt: the rest of its new memory
 * is not worth a compaction.
 */
export function fitToRoom(parts: BlockParts, held: readonly ChatMessage[], room: number, counter: TokenCounter): BlockParts {
  const p = prepare(parts);
  const lines: Array<PreparedLine<{ readonly id: string }>> = [...p.records, ...p.docs].sort(
    (a, b) => (parts.rank.get(a.line.id) ?? Infinity) - (parts.rank.get(b.line.id) ?? Infinity),
  );
  const text = heldText(held);
  const keep = new Set<string>();
  let left = room - blockDelta({ ...parts, records: [], docs: [] }, held, counter).workingTokens;
  // Headings of the two sections, counted once, whether or not they are needed.
  left -= counter.count(parts.labels.history) + counter.count(parts.labels.docs) + 16;
  for (const l of lines) {
    if (holds(text, l)) keep.add(l.line.id);
    else {
      const cost = counter.count(l.rendered) + 1;
      if (cost > left) continue;
      left -= cost;
      keep.add(l.line.id);
    }
  }
  return { ...parts, records: parts.records.filter((l) => keep.has(l.id)), docs: parts.docs.filter((l) => keep.has(l.id)) };
}

/** Whether one of the records / docs in `must` is missing from `held` (then the turn may compact). */
export function missesAny(parts: BlockParts, held: readonly ChatMessage[], must: ReadonlySet<string>): boolean {
  const text = heldText(held);
  const p = prepare(parts);
  const lines: Array<PreparedLine<{ readonly id: string }>> = [...p.records, ...p.docs];
  return lines.some((l) => must.has(l.line.id) && !holds(text, l));
}

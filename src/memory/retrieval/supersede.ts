/**
 * Superseded statements (issue 18; seed 001's overwrite, applied to retrieval): a sentence whose rule or setting
 * a later user message restates with another value ("method names end with _x" … "from now on they end with
 * _md") is left out of retrieval, and so is any sentence that repeats the value it retired (the assistant's
 * "OK, port 8443", a code line with `--port 8443`).
 *
 * The mark is worked out from the stored turns when a search reads a candidate, not written beside them: it is
 * durable because the turns are, the same in every tab, and deleting or editing the later message brings the
 * earlier one back with nothing to undo. Later statements are found through the sentence index (the subject's
 * terms, or the value's), so a check reads a few dozen sentences, not the conversation.
 */
import type { Piece } from './pieces.ts';
import type { TurnEntry } from './records.ts';
import type { UserMemory } from './retrieval-index.ts';
import { restates, statementOfCached, type Statement } from './statements.ts';
import { escapeRegExp } from '../../shared/regexp.ts';
import { terms } from './text-terms.ts';

/** Sentences that hold one of a statement's rarest subject terms (or a value), newest first, looked through for a later version. */
const LOOKUP_DEPTH = 32;
/** The subject terms looked up: its rarest (a restatement shares most of a short subject, so one of these). */
const LOOKUP_TERMS = 6;
/** A value is followed to the statements that gave it only when it is rare: in at most this share of turns (or 8). */
const RARE_VALUE_SHARE = 0.02;

/** Piece `i`'s statement (the piece before gives the subject of one that only gives a value: "Set it to INFO."). */
const statementAt = (pieces: readonly Piece[], i: number): Statement | null => statementOfCached(pieces[i]!.text, pieces[i - 1]?.text ?? '');

/** Whether `b` was written after `a` (in one session by order, across sessions by time). */
const isLater = (b: TurnEntry, a: TurnEntry): boolean => (b.sessionId === a.sessionId ? b.seq > a.seq : b.time > a.time);

/** The later user statement that restates one, and the turn it was said in. */
interface LaterVersion {
  readonly turn: TurnEntry;
  readonly statement: Statement;
}

/** Per memory, while its index is unchanged: each turn's superseded sentences, and each statement's later version. */
interface Memo {
  readonly version: number;
  readonly byTurn: Map<string, ReadonlySet<number>>;
  readonly later: Map<string, LaterVersion | null>;
}
const memos = new WeakMap<UserMemory, Memo>();

const NONE: ReadonlySet<number> = new Set();

function memoOf(memory: UserMemory): Memo {
  const version = memory.shard.version;
  let memo = memos.get(memory);
  if (memo === undefined || memo.version !== version) memos.set(memory, (memo = { version, byTurn: new Map(), later: new Map() }));
  return memo;
}

/** The indexes of `turn`'s pieces that a later user message supersedes: an old version, or a retired value repeated. */
export function supersededPieces(memory: UserMemory, turn: TurnEntry, pieces: readonly Piece[]): ReadonlySet<number> {
  const memo = memoOf(memory);
  let out = memo.byTurn.get(turn.id);
  if (out === undefined) memo.byTurn.set(turn.id, (out = findSuperseded(memory, memo, turn, pieces)));
  return out;
}

function findSuperseded(memory: UserMemory, memo: Memo, turn: TurnEntry, pieces: readonly Piece[]): ReadonlySet<number> {
  let out: Set<number> | null = null;
  const echoed = turn.role === 'assistant' ? retiredInQuestion(memory, memo, turn) : [];
  for (let i = 0; i < pieces.length; i++) {
    if (echoed.some((value) => value.test(pieces[i]!.text))) {
      (out ??= new Set()).add(i);
      continue;
    }
    const statement = statementAt(pieces, i);
    if (statement === null) continue;
    if (laterVersion(memory, memo, turn, i, statement) !== null || repeatsRetired(memory, memo, turn, statement, pieces[i]!.text)) (out ??= new Set()).add(i);
  }
  return out ?? NONE;
}

/**
 * The values a later user message retired from the question a reply answers, as whole-word patterns: the reply
 * echoes them in its own words ("Understood: PRs go into trunk…" after "pull requests target the trunk branch"),
 * often where no statement can be read, so the reply's sentences that name one go with the question's.
 */
function retiredInQuestion(memory: UserMemory, memo: Memo, reply: TurnEntry): RegExp[] {
  const { shard } = memory;
  const slot = shard.turns.slotOf(reply.id);
  const question = slot === undefined ? undefined : memory.turnAt(memory.links.prev(slot));
  const pieces = question === undefined || question.role !== 'user' ? undefined : shard.chunks.get(question.id)?.pieces;
  if (question === undefined || pieces === undefined) return [];
  const out: RegExp[] = [];
  for (const i of supersededPieces(memory, question, pieces)) {
    const later = memo.later.get(`${question.id}#${i}`);
    const statement = statementAt(pieces, i);
    if (!later || statement === null) continue;
    for (const value of statement.values) {
      if (later.statement.values.has(value) || value.length < 3) continue;
      out.push(new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(value)}(?![\\p{L}\\p{N}_])`, 'iu'));
    }
  }
  return out;
}

/** A later statement of the user's that restates piece `index` of `turn` with another value, or null. */
function laterVersion(memory: UserMemory, memo: Memo, turn: TurnEntry, index: number, statement: Statement): LaterVersion | null {
  const key = `${turn.id}#${index}`;
  const known = memo.later.get(key);
  if (known !== undefined) return known;
  let found: LaterVersion | null = null;
  if (statement.subject.size > 0) {
    const { shard } = memory;
    for (const slot of sentencesWith(memory, [...statement.subject], LOOKUP_TERMS)) {
      const later = memory.turnAt(shard.pieceTurn[slot]!);
      if (later === undefined || later.role !== 'user' || later.id === turn.id || memory.deprecated.has(later.id) || !isLater(later, turn)) continue;
      const pieces = shard.chunks.get(later.id)?.pieces;
      const version = pieces === undefined ? null : statementAt(pieces, shard.pieceIndex[slot]!);
      if (version !== null && restates(version, statement)) {
        found = { turn: later, statement: version };
        break;
      }
    }
  }
  memo.later.set(key, found);
  return found;
}

/**
 * Whether the statement repeats a value that a user statement gave and a later one replaced (a retired value):
 * `bulk_void_xq` after "handlers end with _xq" was restated as "…with _md". Only rare values are followed.
 */
function repeatsRetired(memory: UserMemory, memo: Memo, turn: TurnEntry, statement: Statement, text: string): boolean {
  const { shard } = memory;
  const rare = Math.max(8, RARE_VALUE_SHARE * shard.turns.size);
  for (const value of statement.values) {
    const valueTerms = terms(value);
    if (!notAnEventDay(value, text) || valueTerms.length === 0 || valueTerms.some((t) => shard.turns.df(t) > rare)) continue;
    const unit = unitAfter(value, text);
    for (const slot of sentencesWith(memory, valueTerms, valueTerms.length)) {
      const source = memory.turnAt(shard.pieceTurn[slot]!);
      if (source === undefined || source.role !== 'user' || memory.deprecated.has(source.id) || isLater(source, turn)) continue;
      const index = shard.pieceIndex[slot]!;
      const pieces = shard.chunks.get(source.id)?.pieces;
      const given = pieces === undefined ? null : statementAt(pieces, index);
      if (given === null || given.subject.size === 0 || (unit !== undefined && (unit === null || unit !== unitAfter(value, pieces![index]!.text)))) continue;
      const retired = [...given.values].filter((w) => sameValue(value, w));
      if (retired.length === 0) continue;
      const later = laterVersion(memory, memo, source, index, given);
      if (later !== null && later.turn.id !== turn.id && retired.some((w) => !later.statement.values.has(w))) return true;
    }
  }
  return false;
}

/** A day of the week, which dates an event when 上/下/last/next come before it ("上周三升级了", "last Friday"). */
const WEEKDAY = /^(?:(?:周|星期|礼拜)[一二三四五六日天]|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

/** Whether a value said in `text` names a setting, not the day an event happened. */
function notAnEventDay(value: string, text: string): boolean {
  if (!WEEKDAY.test(value)) return true;
  return !new RegExp(`(?:[上下这本]个?)${escapeRegExp(value)}|\\b(?:last|next|this)\\s+${escapeRegExp(value)}`, 'iu').test(text);
}

/**
 * A bare small number is the same value only with the same unit after it (10 点 is not 10 公里, "21 days" is "21
 * days"): the word or character after it, '' for none, null where it is not said; undefined for any other value.
 */
function unitAfter(value: string, text: string): string | null | undefined {
  if (!/^\d{1,2}$/.test(value)) return undefined;
  const m = new RegExp(`(?<![\\p{N}.])${value}(?![\\p{N}.])\\s*(\\p{sc=Han}|[\\p{L}%]+)?`, 'iu').exec(text);
  return m === null ? null : (m[1] ?? '').toLowerCase();
}

/** The sentence slots that hold one of the `count` rarest of `words`, newest first within each word's. */
function sentencesWith(memory: UserMemory, words: readonly string[], count: number): Set<number> {
  const index = memory.shard.pieces;
  const rarest = [...new Set(words)].sort((a, b) => index.df(a) - index.df(b)).slice(0, count);
  const out = new Set<number>();
  for (const word of rarest) for (const slot of index.slotsWith(word, LOOKUP_DEPTH)) out.add(slot);
  return out;
}

/** `bulk_void_xq` carries `_xq`; `8443` is `8443`. */
const sameValue = (said: string, given: string): boolean => said === given || (given.length >= 3 && (said.endsWith(given) || said.startsWith(given)));

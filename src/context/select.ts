/**
 * Turn selection (seed 000): the last N exchanges plus key turns, by rules, not by a model.
 * Key turns: assistant answers holding code; user turns that refer back, with the turn they point to and their
 * own answer. The result is a list of units in priority order; `truncate.ts` fills the budget with whole units.
 */
import type { ChatMessage } from '../shared/chat.ts';
import type { ContextConfig, WordLists } from './config.ts';
import { isBlank } from '../shared/sanitize.ts';
import { escapeRegExp } from '../shared/regexp.ts';

export type IncludeReason =
  /** The message being answered now. */
  | 'current-input'
  /** Within the last `recentExchanges` exchanges. */
  | 'recent'
  /** An assistant answer holding a code block. */
  | 'code-block'
  /** A user turn that refers back to an earlier turn. */
  | 'back-reference'
  /** The turn a back-reference points to. */
  | 'referenced'
  /** The answer to a user turn that refers back. */
  | 'answer-to-reference'
  /** The turn the current input refers back to. */
  | 'referenced-by-input'
  /** A request superseded by code, kept because the current input asks about the original request. */
  | 'origin-requested'
  /** Sent since the last compaction and kept verbatim so the prompt only grows at its end (KV cache). */
  | 'appended';

export type ExcludeReason =
  /** Older than the recent window and not a key turn. */
  | 'outside-window'
  /** A request whose answer (code) is kept; the code supersedes it and the current input does not ask for it. */
  | 'superseded-by-code'
  /** Selected, but the budget was full. */
  | 'over-budget'
  /** Selected, but alone larger than all the room history has. */
  | 'oversize'
  /** Empty or only whitespace. */
  | 'empty'
  /** A system message inside the history; the configured system prompt is used instead. */
  | 'system-in-history';

export type TurnReason = IncludeReason | ExcludeReason;

export interface Pick {
  readonly index: number;
  readonly reason: IncludeReason;
  readonly detail?: string;
}

export interface SelectionUnit {
  readonly kind: 'input-reference' | 'recent' | 'code' | 'back-reference' | 'origin';
  /** Turns of the unit, ascending; a unit goes in whole or (beyond what is already in) not at all. */
  readonly picks: readonly Pick[];
}

export interface Selection {
  /** Highest priority first. */
  readonly units: readonly SelectionUnit[];
  /** Turns that can never be included, with why. */
  readonly skipped: ReadonlyMap<number, ExcludeReason>;
  /** Per-turn features, for the exclusion reasons decided after filling. */
  readonly features: readonly TurnFeatures[];
}

export interface TurnFeatures {
  /** Assistant turn holding a code marker. */
  readonly hasCode: boolean;
  /** The back-reference word found (user turns), or null. */
  readonly backReference: string | null;
  /** Whether the back-reference is about code (points to the latest code answer). */
  readonly aboutCode: boolean;
  /** An origin word found (user turns), or null. */
  readonly origin: string | null;
}

interface Matchers {
  back: (text: string) => string | null;
  code: (text: string) => string | null;
  origin: (text: string) => string | null;
  features: { user: Map<string, TurnFeatures>; assistant: Map<string, TurnFeatures> };
}


function wordMatcher(lists: WordLists, exclusions: readonly string[]): (text: string) => string | null {
  const en =
    lists.en.length === 0
      ? null
      : new RegExp(`\\b(?:${[...lists.en].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})\\b`, 'i');
  return (text) => {
    let zhText = text;
    for (const x of exclusions) if (zhText.includes(x)) zhText = zhText.split(x).join(' ');
    for (const word of lists.zh) if (zhText.includes(word)) return word;
    const m = en?.exec(text);
    return m ? m[0] : null;
  };
}

const matcherCache = new WeakMap<ContextConfig, Matchers>();

function matchers(config: ContextConfig): Matchers {
  let m = matcherCache.get(config);
  if (m === undefined) {
    m = {
      back: wordMatcher(config.backReferences, config.backReferenceExclusions),
      code: wordMatcher(config.codeReferences, []),
      origin: wordMatcher(config.originReferences, []),
      features: { user: new Map(), assistant: new Map() },
    };
    matcherCache.set(config, m);
  }
  return m;
}

const NO_FEATURES: TurnFeatures = Object.freeze({ hasCode: false, backReference: null, aboutCode: false, origin: null });

/** Features of one message, cached by content per config. */
export function turnFeatures(message: ChatMessage, config: ContextConfig): TurnFeatures {
  if (message.role === 'system') return NO_FEATURES;
  const m = matchers(config);
  const cache = m.features[message.role];
  let f = cache.get(message.content);
  if (f === undefined) {
    if (message.role === 'assistant') {
      f = { ...NO_FEATURES, hasCode: config.codeMarkers.some((c) => message.content.includes(c)) };
    } else {
      const backReference = m.back(message.content);
      const aboutCode = backReference !== null && (m.code(backReference) !== null || m.code(message.content) !== null);
      f = { hasCode: false, backReference, aboutCode, origin: m.origin(message.content) };
    }
    if (cache.size > 20_000) cache.clear();
    cache.set(message.content, f);
  }
  return f;
}

/** Exchanges: a user turn and the answers after it (a leading answer stands alone). Skipped turns are left out. */
function exchanges(history: readonly ChatMessage[], skipped: ReadonlyMap<number, ExcludeReason>): number[][] {
  const groups: number[][] = [];
  for (let i = 0; i < history.length; i++) {
    if (skipped.has(i)) continue;
    const last = groups[groups.length - 1];
    if (history[i]!.role === 'user' || last === undefined) groups.push([i]);
    else last.push(i);
  }
  return groups;
}

/**
 * For every position 0…n: the latest non-skipped assistant turn before it, and the latest one holding code
 * (falling back to the latest answer when there is no code yet); -1 if none. One pass, so back-references
 * resolve in constant time.
 */
function answerIndex(
  history: readonly ChatMessage[],
  skipped: ReadonlyMap<number, ExcludeReason>,
  features: readonly TurnFeatures[],
): (before: number, aboutCode: boolean) => number {
  const answer = new Int32Array(history.length + 1);
  const code = new Int32Array(history.length + 1);
  let lastAnswer = -1;
  let lastCode = -1;
  for (let i = 0; i <= history.length; i++) {
    answer[i] = lastAnswer;
    code[i] = lastCode >= 0 ? lastCode : lastAnswer;
    if (i < history.length && !skipped.has(i) && history[i]!.role === 'assistant') {
      lastAnswer = i;
      if (features[i]!.hasCode) lastCode = i;
    }
  }
  return (before: number, aboutCode: boolean): number => (aboutCode ? code[before]! : answer[before]!);
}

const ordinal = (i: number): string => `#${i}`;

/**
 * Selects the turns worth keeping for answering `input` after `history` (oldest first, without the input).
 * Pure; reasons are data. Token costs are not looked at here.
 */
export function selectTurns(history: readonly ChatMessage[], input: string, config: ContextConfig): Selection {
  const skipped = new Map<number, ExcludeReason>();
  const features: TurnFeatures[] = [];
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    if (message.role === 'system') skipped.set(i, 'system-in-history');
    else if (isBlank(message.content)) skipped.set(i, 'empty');
    features.push(skipped.has(i) ? NO_FEATURES : turnFeatures(message, config));
  }
  const inputFeatures = turnFeatures({ role: 'user', content: input }, config);
  const latestAnswer = answerIndex(history, skipped, features);
  const units: SelectionUnit[] = [];

  // 1. What the current input points back to.
  if (inputFeatures.backReference !== null) {
    const target = latestAnswer(history.length, inputFeatures.aboutCode);
    if (target >= 0) {
      const detail = `the current input refers back ("${inputFeatures.backReference}")`;
      units.push({ kind: 'input-reference', picks: [{ index: target, reason: 'referenced-by-input', detail }] });
    }
  }

  // 2. The recent window, newest first; the last exchange outranks key turns, the older ones follow them.
  const groups = exchanges(history, skipped);
  const recent: SelectionUnit[] = groups
    .slice(Math.max(0, groups.length - config.recentExchanges))
    .reverse()
    .map((group, age) => ({
      kind: 'recent',
      picks: group.map((index) => ({
        index,
        reason: 'recent',
        detail: `exchange ${age + 1} of the last ${config.recentExchanges}`,
      })),
    }));
  if (recent[0] !== undefined) units.push(recent[0]);

  // 3. Key turns, newest first.
  const key: SelectionUnit[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    if (skipped.has(i)) continue;
    const f = features[i]!;
    if (f.hasCode) key.push({ kind: 'code', picks: [{ index: i, reason: 'code-block', detail: 'an answer holding code' }] });
    if (f.backReference === null) continue;
    const picks: Pick[] = [];
    const target = latestAnswer(i, f.aboutCode);
    if (target >= 0) picks.push({ index: target, reason: 'referenced', detail: `pointed to by ${ordinal(i)}` });
    picks.push({ index: i, reason: 'back-reference', detail: `refers back ("${f.backReference}")` });
    const answer = i + 1;
    if (answer < history.length && !skipped.has(answer) && history[answer]!.role === 'assistant') {
      picks.push({ index: answer, reason: 'answer-to-reference', detail: `answers ${ordinal(i)}` });
    }
    key.push({ kind: 'back-reference', picks });
  }
  units.push(...key, ...recent.slice(1));

  // 4. Requests superseded by code, when the current input asks about the original request.
  if (inputFeatures.origin !== null) {
    for (let i = history.length - 1; i > 0; i--) {
      const request = i - 1;
      if (!features[i]!.hasCode || skipped.has(request) || history[request]!.role !== 'user') continue;
      const detail = `the current input asks about the original request ("${inputFeatures.origin}")`;
      units.push({ kind: 'origin', picks: [{ index: request, reason: 'origin-requested', detail }] });
    }
  }
  return { units, skipped, features };
}

/** Why a turn that no unit brought in is out: superseded by a kept code answer, or simply outside the window. */
export function exclusionReason(
  index: number,
  history: readonly ChatMessage[],
  selection: Selection,
  isIncluded: (index: number) => boolean,
): { reason: ExcludeReason; detail: string } {
  const skip = selection.skipped.get(index);
  if (skip !== undefined) {
    return { reason: skip, detail: skip === 'empty' ? 'nothing to send' : 'the configured system prompt is used' };
  }
  const next = index + 1;
  if (history[index]!.role === 'user' && next < history.length && selection.features[next]!.hasCode && isIncluded(next)) {
    return {
      reason: 'superseded-by-code',
      detail: `answered by ${ordinal(next)}, whose code is kept; the current input does not ask about the original request`,
    };
  }
  return { reason: 'outside-window', detail: 'older than the recent window and not a key turn' };
}

/**
 * Token-exact truncation: whole turns into a budget by priority, and — only for one message that alone exceeds
 * its room — a cut at a token boundary, preferably at a sentence end, never inside a character, with a marker.
 */
import type { ChatMessage } from '../shared/chat.ts';
import { uncachedMessageTokens } from './chatml.ts';
import { promptHead } from './head.ts';
import type { ContextConfig } from './config.ts';
import type { ExcludeReason, Pick, SelectionUnit } from './select.ts';
import type { TokenCounter } from './tokens.ts';

export interface CutMessage {
  readonly message: ChatMessage;
  /** Tokens of the whole message before the cut and of what is sent (with the marker). */
  readonly originalTokens: number;
  readonly keptTokens: number;
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/** The largest grapheme boundary ≤ `end` in `text` (so a cut never splits a character or an emoji sequence). */
export function graphemeBoundary(text: string, end: number): number {
  if (end <= 0) return 0;
  if (end >= text.length) return text.length;
  const start = Math.max(0, end - 64);
  let boundary = start;
  for (const { index } of graphemes.segment(text.slice(start, Math.min(text.length, end + 64)))) {
    if (start + index > end) break;
    boundary = start + index;
  }
  return boundary;
}

/** The end (exclusive) of the last sentence in `text[0, end)` that ends no earlier than `from`; -1 if none. */
function sentenceEnd(text: string, from: number, end: number, config: ContextConfig): number {
  for (let p = end - 1; p >= from && p >= 0; p--) {
    const ch = text[p]!;
    if (!config.sentenceEnds.includes(ch)) continue;
    if (ch === '.' && p + 1 < text.length && !/\s/.test(text[p + 1]!)) continue;
    return p + 1;
  }
  return -1;
}

/** The text of the first `k` tokens, backed off until it is a real prefix of `content` (no half character). */
function decodedPrefixLength(ids: readonly number[], k: number, content: string, counter: TokenCounter): number {
  for (let n = k; n > 0; n--) {
    const text = counter.decode(ids.slice(0, n));
    if (content.startsWith(text)) return text.length;
  }
  return 0;
}

/**
 * Cuts `message` so that it takes at most `maxTokens` (exactly counted, marker included). Returns the message
 * unchanged when it fits, and null when not even `minCutTokens` of it would fit.
 * `measure`: 'message' counts the rendered ChatML message; 'text' counts the content alone.
 */
export function cutToFit(
  message: ChatMessage,
  maxTokens: number,
  counter: TokenCounter,
  config: ContextConfig,
  measure: 'message' | 'text' = 'message',
): CutMessage | null {
  const size = (m: ChatMessage): number =>
    measure === 'message' ? uncachedMessageTokens(m, counter) : counter.count(m.content);
  const originalTokens = measure === 'message' ? counter.messageTokens(message) : counter.count(message.content);
  if (originalTokens <= maxTokens) return { message, originalTokens, keptTokens: originalTokens };
  const { content } = message;
  const overhead = size({ role: message.role, content: config.truncationMarker });
  // Only the start can be kept: tokenizing a 100,000-character paste whole would block the page (head.ts).
  const ids = counter.encode(promptHead(content, maxTokens, counter));
  let k = Math.min(ids.length, maxTokens - overhead);
  for (let attempt = 0; attempt < 12 && k >= config.minCutTokens; attempt++) {
    let end = graphemeBoundary(content, decodedPrefixLength(ids, k, content, counter));
    const sentence = sentenceEnd(content, Math.floor(end * (1 - config.sentenceSearchRatio)), end, config);
    if (sentence > 0) end = sentence;
    const kept = content.slice(0, end).trimEnd(); // (not /\s+$/: quadratic on a long blank run)
    const candidate: ChatMessage = { role: message.role, content: kept + config.truncationMarker };
    const keptTokens = size(candidate);
    if (keptTokens <= maxTokens && kept.length > 0) return { message: candidate, originalTokens, keptTokens };
    k -= Math.max(1, keptTokens - maxTokens);
  }
  return null;
}

export interface Shortfall {
  readonly reason: Extract<ExcludeReason, 'over-budget' | 'oversize'>;
  readonly detail: string;
  /** The turn's tokens, when they were looked at. */
  readonly tokens?: number;
}

export interface FillResult {
  /** Included turns by history index, with the reason of the unit that brought each in. */
  readonly included: Map<number, Pick>;
  /** Selected turns that did not fit. */
  readonly shortfalls: Map<number, Shortfall>;
  /** Turns sent cut (at most one), by history index. */
  readonly cuts: Map<number, CutMessage>;
  /** Tokens of the included turns as sent. */
  readonly used: number;
}

/** No message is smaller: `<|im_start|>`, role, `\n`, `<|im_end|>`, `\n`. */
const SMALLEST_MESSAGE_TOKENS = 5;
const FULL: Shortfall = Object.freeze({ reason: 'over-budget', detail: 'selected, but the history room was already full' });

/**
 * Fills `available` tokens with whole units in priority order: a unit goes in if what it adds fits, else it is
 * skipped and smaller, lower-priority units may still go in. One exception: if the first unit that brings
 * anything holds a single turn that alone exceeds all of `available`, that turn is cut to the room left.
 */
export function fillUnits(
  units: readonly SelectionUnit[],
  messageAt: (index: number) => ChatMessage,
  available: number,
  counter: TokenCounter,
  config: ContextConfig,
): FillResult {
  const included = new Map<number, Pick>();
  const shortfalls = new Map<number, Shortfall>();
  const cuts = new Map<number, CutMessage>();
  let remaining = available;
  const tokensAt = (index: number): number => counter.messageTokens(messageAt(index));

  for (const unit of units) {
    if (remaining < SMALLEST_MESSAGE_TOKENS && included.size > 0) {
      // Nothing more can fit: no need to count the rest.
      for (const p of unit.picks) if (!included.has(p.index) && !shortfalls.has(p.index)) shortfalls.set(p.index, FULL);
      continue;
    }
    const fresh = unit.picks.filter((p) => !included.has(p.index));
    if (fresh.length === 0) continue;
    const costs = fresh.map((p) => tokensAt(p.index));
    const cost = costs.reduce((a, b) => a + b, 0);
    if (cost <= remaining) {
      for (const p of fresh) {
        included.set(p.index, p);
        shortfalls.delete(p.index);
      }
      remaining -= cost;
      continue;
    }
    if (included.size === 0) {
      const largest = costs.indexOf(Math.max(...costs));
      const rest = cost - costs[largest]!;
      if (costs[largest]! > available && rest < remaining) {
        const pick = fresh[largest]!;
        const cut = cutToFit(messageAt(pick.index), remaining - rest, counter, config);
        if (cut !== null) {
          for (const p of fresh) {
            included.set(p.index, p);
            shortfalls.delete(p.index);
          }
          cuts.set(pick.index, cut);
          remaining -= rest + cut.keptTokens;
          continue;
        }
      }
    }
    const detail = `its ${unit.kind} unit needs ${cost} tokens, ${remaining} were left`;
    fresh.forEach((p, i) => {
      if (shortfalls.has(p.index)) return;
      const tokens = costs[i]!;
      shortfalls.set(
        p.index,
        tokens > available
          ? { reason: 'oversize', detail: `${tokens} tokens alone exceed the ${available} history has`, tokens }
          : { reason: 'over-budget', detail, tokens },
      );
    });
  }
  return { included, shortfalls, cuts, used: available - remaining };
}

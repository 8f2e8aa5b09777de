/**
 * What an embedding model is given: the model card's prefix for the purpose (a query prefix on queries only), and a
 * text cut to the model's own token limit. An embedding model's window is small (512 tokens for arctic-embed and
 * e5), and 2,000 Chinese characters can exceed it: a cut by characters either throws or wastes the window, so the
 * cut is found with the model's tokenizer. Pure: each engine passes its own token counter.
 */
import type { EmbedPurpose } from './protocol.ts';

export interface EmbeddingPrefixes {
  queryPrefix?: string | undefined;
  documentPrefix?: string | undefined;
}

/** The text with the prefix its purpose takes. */
export function withPurpose(text: string, purpose: EmbedPurpose, prefixes: EmbeddingPrefixes): string {
  const prefix = purpose === 'query' ? prefixes.queryPrefix : prefixes.documentPrefix;
  return (prefix ?? '') + text;
}

/**
 * The longest start of `text` (cut between code points) whose token count is at most `limit`, found by binary
 * search with the model's counter (O(log n) encodes). The whole text when it fits; '' when nothing does.
 */
export function cutToTokens(text: string, limit: number, count: (text: string) => number): string {
  if (count(text) <= limit) return text;
  const points = Array.from(text);
  // Invariant: points[0, lo) fits; points[0, hi) does not.
  let lo = 0;
  let hi = points.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (count(points.slice(0, mid).join('')) <= limit) lo = mid;
    else hi = mid;
  }
  return points.slice(0, lo).join('');
}

/**
 * A cut that needs no tokenizer, provably within `limit` for WordPiece and SentencePiece models: every token but
 * the two special ones covers at least one character, so `limit - 2` characters never exceed it. Used only when
 * the engine's tokenizer cannot be reached.
 */
export function cutToCharacterBound(text: string, limit: number): string {
  const points = Array.from(text);
  return points.length <= limit - 2 ? text : points.slice(0, Math.max(0, limit - 2)).join('');
}

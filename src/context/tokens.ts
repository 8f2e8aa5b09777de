/**
 * Token counting. A `TextTokenizer` is the raw tokenizer (the real Qwen2.5 one, or a fake in tests);
 * `TokenCounter` wraps it with a cache by content so that each message is tokenized once, ever.
 */
import type { ChatMessage, Role } from '../engine/protocol.ts';

/** The raw tokenizer: special-token strings in the text become their single ids. */
export interface TextTokenizer {
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
}

/** Tokens ChatML adds around a message's `role\ncontent`: `<|im_start|>` before, `<|im_end|>` and `\n` after. */
export const MESSAGE_OVERHEAD_TOKENS = 3;

export interface TokenCounterStats {
  /** Messages counted from the cache. */
  hits: number;
  /** Messages that had to be tokenized. */
  misses: number;
  /** Characters passed to the tokenizer, cached or not. */
  encodedChars: number;
}

/**
 * What the context engine needs from a tokenizer. Message counts are exact: ChatML's special tokens split the
 * text into independent pieces, so a prompt's tokens are the sum of its messages' tokens plus the generation
 * prompt (`<|im_start|>assistant\n`, 3 tokens).
 */
export interface TokenCounter {
  /** Tokens of one rendered message `<|im_start|>role\ncontent<|im_end|>\n`; cached by role and content. */
  messageTokens(message: ChatMessage): number;
  /** Tokens of plain text, not cached (for trial cuts and one-off sizes). */
  count(text: string): number;
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  readonly stats: TokenCounterStats;
}

export interface CachedTokenCounterOptions {
  /** Entries kept per role before the oldest are dropped. */
  maxEntries?: number;
}

/** A `TokenCounter` over any `TextTokenizer`, with a bounded cache by content. */
export class CachedTokenCounter implements TokenCounter {
  readonly stats: TokenCounterStats = { hits: 0, misses: 0, encodedChars: 0 };
  private readonly _tokenizer: TextTokenizer;
  private readonly _maxEntries: number;
  /** One map per role, keyed by the content string itself (no concatenated key to hash on every look-up). */
  private readonly _cache: Record<Role, Map<string, number>> = {
    system: new Map(),
    user: new Map(),
    assistant: new Map(),
  };

  constructor(tokenizer: TextTokenizer, options: CachedTokenCounterOptions = {}) {
    this._tokenizer = tokenizer;
    this._maxEntries = options.maxEntries ?? 20_000;
  }

  messageTokens(message: ChatMessage): number {
    const map = this._cache[message.role];
    const hit = map.get(message.content);
    if (hit !== undefined) {
      this.stats.hits += 1;
      return hit;
    }
    this.stats.misses += 1;
    const tokens = this.count(`${message.role}\n${message.content}`) + MESSAGE_OVERHEAD_TOKENS;
    if (map.size >= this._maxEntries) {
      const oldest = map.keys().next();
      if (oldest.done !== true) map.delete(oldest.value);
    }
    map.set(message.content, tokens);
    return tokens;
  }

  count(text: string): number {
    return this.encode(text).length;
  }

  encode(text: string): number[] {
    this.stats.encodedChars += text.length;
    return this._tokenizer.encode(text);
  }

  decode(ids: readonly number[]): string {
    return this._tokenizer.decode(ids);
  }

  /** Whether a message's count is already known (for tests and the report). */
  has(message: ChatMessage): boolean {
    return this._cache[message.role].has(message.content);
  }

  clear(): void {
    for (const map of Object.values(this._cache)) map.clear();
  }
}

/**
 * A counter for one message's assembly: plain-text counts are remembered until it is dropped, because the
 * fitting loops (the memory block tried against each candidate history, retrieval's second pass) count the
 * same strings again. Message counts go to the shared cache; nothing outlives the message.
 */
export class MemoCounter implements TokenCounter {
  private readonly _base: TokenCounter;
  private readonly _counts = new Map<string, number>();

  constructor(base: TokenCounter) {
    this._base = base;
  }

  get stats(): TokenCounterStats {
    return this._base.stats;
  }

  messageTokens(message: ChatMessage): number {
    return this._base.messageTokens(message);
  }

  count(text: string): number {
    let n = this._counts.get(text);
    if (n === undefined) {
      n = this._base.count(text);
      this._counts.set(text, n);
    }
    return n;
  }

  encode(text: string): number[] {
    return this._base.encode(text);
  }

  decode(ids: readonly number[]): string {
    return this._base.decode(ids);
  }
}

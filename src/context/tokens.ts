/**
 * Token counting. A `TextTokenizer` is the raw tokenizer (the real Qwen2.5 one, or a fake in tests);
 * `TokenCounter` wraps it with a cache by content so that each message is tokenized once, ever.
 */
import type { ChatMessage, Role } from '../shared/chat.ts';

/** The raw tokenizer: special-token strings in the text become their single ids. */
export interface TextTokenizer {
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  /**
   * No token spans a newline unless the whitespace right after it holds another newline: the text before such a
   * newline (newline included) and the text after it tokenize independently. True of Qwen2's pre-tokenizer, whose
   * piece holding a newline ends at the last newline of its run of whitespace ("\n \n" and "\n\t\r\n" are one
   * piece) and never continues into the text after; it lets a counter add up the lines of a long text from memory.
   */
  readonly splitsAfterNewline?: boolean;
  /**
   * A lower bound on `encode(text).length`, far cheaper than encoding (for Qwen2: its pre-tokenizer's pieces,
   * each at least one token). Lets a caller rule out text that cannot fit without tokenizing it.
   */
  atLeast?(text: string): number;
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
  /** Tokens of plain text (a counter may remember them; trial cuts and one-off sizes pass through it too). */
  count(text: string): number;
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  /** A lower bound on `count(text)` that costs no tokenizing (0 when the tokenizer offers none). */
  atLeast(text: string): number;
  /** Lines tokenize independently (`TextTokenizer.splitsAfterNewline`): a text's count is its lines' counts added up. */
  readonly splitsAfterNewline?: boolean;
  readonly stats: TokenCounterStats;
}

export interface CachedTokenCounterOptions {
  /** Entries kept per role before the oldest are dropped. */
  maxEntries?: number;
}

/** Texts shorter than this are tokenized whole: splitting them into lines would cost more than it saves. */
const SEGMENTED_MIN_CHARS = 200;

/**
 * Whitespace for `newlineSegments`: JavaScript's `\s`, and NEL, which is whitespace to Rust's `\s` though not to
 * JavaScript's. Taking too much for whitespace only finds more newlines ahead, which leaves lines joined: safe.
 */
const SPACE = /[\s\u0085]/u;

/** Whether the newline at `i` ends a piece: no other newline comes before the next non-space character. */
function endsPiece(text: string, i: number): boolean {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charAt(j);
    if (c === '\n' || c === '\r') return false;
    if (!SPACE.test(c)) return true;
  }
  return true;
}

/**
 * Where a text splits into independently tokenized segments (see `TextTokenizer.splitsAfterNewline`): after each
 * newline that ends a piece. "a\nb" and "a\n b" split after the newline; "a\n\nb" and "a\n \nb" only before the "b".
 */
export function newlineSegments(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    if (!endsPiece(text, i)) continue;
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  out.push(start === 0 ? text : text.slice(start));
  return out;
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

  /** Counts of short texts, and of the lines of long ones (for a tokenizer that splits after newlines). */
  private _segments = new Map<string, number>();

  get splitsAfterNewline(): boolean {
    return this._tokenizer.splitsAfterNewline === true;
  }

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

  /**
   * Tokens of plain text, remembered. A long text from a tokenizer that splits after newlines is counted line by
   * line, each line remembered: prompts are made of the same lines again and again (memory blocks, records, the
   * history), so only the new ones are tokenized. A short text is remembered whole: the working-memory block is
   * fitted item by item on every message, from the same items.
   */
  count(text: string): number {
    if (this._tokenizer.splitsAfterNewline !== true || text.length < SEGMENTED_MIN_CHARS) return this._remembered(text);
    let total = 0;
    for (const segment of newlineSegments(text)) total += this._remembered(segment);
    return total;
  }

  private _remembered(text: string): number {
    let n = this._segments.get(text);
    if (n === undefined) {
      n = this.encode(text).length;
      // A text has several lines, so the memo holds a few times the messages' entries before it starts over.
      if (this._segments.size >= this._maxEntries * 3) this._segments = new Map();
      this._segments.set(text, n);
    }
    return n;
  }

  encode(text: string): number[] {
    this.stats.encodedChars += text.length;
    return this._tokenizer.encode(text);
  }

  atLeast(text: string): number {
    return this._tokenizer.atLeast?.(text) ?? 0;
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
    this._segments.clear();
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

  atLeast(text: string): number {
    return this._counts.get(text) ?? this._base.atLeast(text);
  }

  decode(ids: readonly number[]): string {
    return this._base.decode(ids);
  }
}

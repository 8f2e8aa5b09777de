/**
 * Text → hashed features for the built-in embedder. Chinese, Japanese and Korean have no spaces to split words
 * on, so they give character unigrams and bigrams; other scripts give words, adjacent word pairs and the
 * character 3-grams of longer words (fastText-style subwords, with word-boundary marks) so that "sort" still
 * meets "sorting". Pure integer arithmetic, no DOM: identical in Node and the browser.
 *
 * A feature is a number below 2^30 (a small integer to the JS engine): its kind times 2^27 plus a 27-bit hash of
 * its code points. Hashing code points directly (no feature strings, small-integer map keys) keeps embedding a
 * 10,000-turn import well under a second.
 */
import { mix32 } from './hash.ts';
import { isCjkCodePoint } from '../../shared/cjk.ts';

/** Feature kinds and their weights. */
export const KIND = { cjkChar: 0, cjkBigram: 1, word: 2, wordPair: 3, wordTrigram: 4 } as const;

/** By kind: CJK character, CJK bigram (most of the meaning in Chinese), word, word pair, 3-gram of a word. */
export const FEATURE_WEIGHTS: readonly number[] = [0.5, 1, 1, 0.6, 0.35];

/** Texts longer than this are embedded by their beginning; long turns are also split into parts. */
export const MAX_EMBED_CHARS = 32_000;

const HASH_MASK = 0x7ffffff;
const BOUNDARY = 0x110000; // a code point no text contains: marks word starts and ends in 3-grams

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const PAIR_JOINER = /[\s\-_'’/]/u;

function isWordChar(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39);
  return WORD_CHAR.test(String.fromCodePoint(cp));
}

function isPairJoiner(cp: number): boolean {
  if (cp < 0x80) return cp === 0x20 || cp === 0x2d || cp === 0x5f || cp === 0x27 || cp === 0x2f || (cp >= 0x09 && cp <= 0x0d);
  return PAIR_JOINER.test(String.fromCodePoint(cp));
}

const isDigit = (cp: number): boolean => cp >= 0x30 && cp <= 0x39;

/** Hashes of one, two or three code points, seeded by kind (one avalanche each: this is the hot loop). */
const hash1 = (kind: number, a: number): number => mix32(Math.imul(a, 0x9e3779b1) ^ Math.imul(kind + 1, 0x85ebca6b));
const hash2 = (kind: number, a: number, b: number): number => mix32(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0xc2b2ae35) ^ (kind + 1));
const hash3 = (kind: number, a: number, b: number, c: number): number =>
  mix32(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0xc2b2ae35) ^ Math.imul(c, 0x27d4eb2f) ^ (kind + 1));

/** The feature number: kind × 2^27 + hash. */
const feature = (kind: number, hash: number): number => kind * (HASH_MASK + 1) + (hash & HASH_MASK);

export const featureKind = (f: number): number => Math.floor(f / (HASH_MASK + 1));

export function featureWeight(f: number): number {
  return FEATURE_WEIGHTS[featureKind(f)] ?? 0;
}

/** Distinct features of a text with their counts (parallel arrays). */
export interface FeatureBag {
  readonly features: Int32Array;
  readonly counts: Int32Array;
}

/**
 * An open-addressing counter keyed by feature numbers (all ≥ 0, so -1 marks an empty slot). One instance is
 * reused for every text (cleared slot by slot), so embedding an import allocates no tables.
 */
class FeatureCounter {
  private _keys = new Int32Array(4_096).fill(-1);
  private _counts = new Int32Array(4_096);
  private _used = new Int32Array(2_048);
  private _size = 0;

  add(f: number): void {
    const mask = this._keys.length - 1;
    let i = (f ^ (f >>> 13)) & mask;
    for (;;) {
      const k = this._keys[i]!;
      if (k === f) {
        this._counts[i] = this._counts[i]! + 1;
        return;
      }
      if (k === -1) {
        this._keys[i] = f;
        this._counts[i] = 1;
        this._used[this._size++] = i;
        if (this._size * 2 > this._keys.length) this._grow();
        return;
      }
      i = (i + 1) & mask;
    }
  }

  /** The counts so far, and an empty counter again. */
  take(): FeatureBag {
    const features = new Int32Array(this._size);
    const counts = new Int32Array(this._size);
    for (let n = 0; n < this._size; n++) {
      const i = this._used[n]!;
      features[n] = this._keys[i]!;
      counts[n] = this._counts[i]!;
      this._keys[i] = -1;
    }
    this._size = 0;
    return { features, counts };
  }

  private _grow(): void {
    const { features, counts } = this.take();
    this._keys = new Int32Array(this._keys.length * 2).fill(-1);
    this._counts = new Int32Array(this._keys.length);
    this._used = new Int32Array(this._keys.length / 2);
    const mask = this._keys.length - 1;
    for (let j = 0; j < features.length; j++) {
      const f = features[j]!;
      let i = (f ^ (f >>> 13)) & mask;
      while (this._keys[i] !== -1) i = (i + 1) & mask;
      this._keys[i] = f;
      this._counts[i] = counts[j]!;
      this._used[this._size++] = i;
    }
  }
}

const counter = new FeatureCounter();

/** Every feature of the text with its count. */
export function extractFeatures(text: string): FeatureBag {
  const normalized = text.slice(0, MAX_EMBED_CHARS).normalize('NFKC').toLowerCase();
  let cjkPrev = -1;
  const word: number[] = [];
  let prevWordHash = -1;
  const endWord = (): void => {
    if (word.length === 0) return;
    let h = 0x811c9dc5;
    for (const cp of word) h = mix32(h ^ cp);
    counter.add(feature(KIND.word, h));
    if (prevWordHash !== -1) counter.add(feature(KIND.wordPair, hash2(KIND.wordPair, prevWordHash, h)));
    if (word.length >= 4 && !word.every(isDigit)) {
      let a = BOUNDARY;
      let b = word[0]!;
      for (let i = 1; i <= word.length; i++) {
        const c = i < word.length ? word[i]! : BOUNDARY;
        counter.add(feature(KIND.wordTrigram, hash3(KIND.wordTrigram, a, b, c)));
        a = b;
        b = c;
      }
    }
    prevWordHash = h;
    word.length = 0;
  };
  for (let i = 0; i < normalized.length; i++) {
    let cp = normalized.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < normalized.length) {
      const low = normalized.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (isCjkCodePoint(cp)) {
      endWord();
      prevWordHash = -1;
      counter.add(feature(KIND.cjkChar, hash1(KIND.cjkChar, cp)));
      if (cjkPrev !== -1) counter.add(feature(KIND.cjkBigram, hash2(KIND.cjkBigram, cjkPrev, cp)));
      cjkPrev = cp;
    } else if (isWordChar(cp)) {
      cjkPrev = -1;
      word.push(cp);
    } else {
      cjkPrev = -1;
      endWord();
      // Sentence punctuation breaks word pairs; spaces and joiners do not.
      if (!isPairJoiner(cp)) prevWordHash = -1;
    }
  }
  endWord();
  return counter.take();
}

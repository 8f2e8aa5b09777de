/**
 * Text → weighted features for the built-in embedder. Chinese, Japanese and Korean have no spaces to split words
 * on, so they give character unigrams and bigrams; other scripts give words, adjacent word pairs and the
 * character 3-grams of longer words (fastText-style subwords, `<word>` with boundary marks) so that
 * "sort" still meets "sorting". Pure functions, no DOM: identical in Node and the browser.
 */

/** Feature kinds, the first character of a feature's key, with the weight each kind gets. */
export const FEATURE_WEIGHTS = {
  /** CJK character. */
  u: 0.5,
  /** CJK character bigram: most of the meaning in Chinese. */
  b: 1,
  /** Word. */
  w: 1,
  /** Two adjacent words. */
  p: 0.6,
  /** Character 3-gram of a word of 4+ letters. */
  g: 0.35,
} as const;

export type FeatureKind = keyof typeof FEATURE_WEIGHTS;

/** Texts longer than this are embedded by their beginning; long turns are also split into sub-chunks. */
export const MAX_EMBED_CHARS = 32_000;

/** Han, kana, Hangul: scripts written without spaces between words (or, for Hangul, with particles attached). */
function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x3040 && cp <= 0x30ff) ||
    (cp >= 0x31f0 && cp <= 0x31ff) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x3130 && cp <= 0x318f) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x20000 && cp <= 0x3134f)
  );
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

function isWordChar(ch: string, cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39);
  return WORD_CHAR.test(ch);
}

/** Counts of every feature key in the text (keys start with their kind). */
export function extractFeatures(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string): void => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const normalized = text.slice(0, MAX_EMBED_CHARS).normalize('NFKC').toLowerCase();
  let cjkPrev = '';
  let word = '';
  let prevWord = '';
  const endWord = (): void => {
    if (word === '') return;
    add(`w${word}`);
    if (prevWord !== '') add(`p${prevWord} ${word}`);
    if (word.length >= 4 && !/^\d+$/.test(word)) {
      const marked = `<${word}>`;
      for (let i = 0; i + 3 <= marked.length; i++) add(`g${marked.slice(i, i + 3)}`);
    }
    prevWord = word;
    word = '';
  };
  for (const ch of normalized) {
    const cp = ch.codePointAt(0)!;
    if (isCjk(cp)) {
      endWord();
      prevWord = '';
      add(`u${ch}`);
      if (cjkPrev !== '') add(`b${cjkPrev}${ch}`);
      cjkPrev = ch;
    } else if (isWordChar(ch, cp)) {
      cjkPrev = '';
      word += ch;
    } else {
      cjkPrev = '';
      endWord();
      // Sentence punctuation breaks word pairs; spaces and joiners do not.
      if (!/\s|[-_'’/]/.test(ch)) prevWord = '';
    }
  }
  endWord();
  return counts;
}

export function featureWeight(key: string): number {
  return FEATURE_WEIGHTS[key[0] as FeatureKind] ?? 0;
}

/**
 * CJK text, defined once for everything that splits or matches text (retrieval's terms and key terms, the built-in
 * embedder's features, working memory's rules): Han (with its extensions and compatibility ideographs), kana, and
 * Hangul (syllables and jamo) — scripts written without spaces between words.
 */
export function isCjkCodePoint(cp: number): boolean {
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

/** Whether a text holds a CJK character. */
export function hasCjk(text: string): boolean {
  for (const ch of text) if (isCjkCodePoint(ch.codePointAt(0)!)) return true;
  return false;
}

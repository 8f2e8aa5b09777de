/**
 * Whether a prompt holds a question's answer (issue 18's `answerShare` and `answer`): texts are compared after
 * NFC, case folding, and with punctuation made spaces; an answer matches whole words (a substring for CJK, which
 * has no spaces between words). Only short answers are measured (≤ 6 words and ≤ 40 characters): a long one is a
 * paraphrase no prompt holds verbatim.
 */

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

/** NFC, lower case, every run of punctuation, symbols and white space made one space, trimmed. */
export function answerText(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Answers the measure scores: at most 6 words and 40 characters, and something left after normalising. */
export function isShortAnswer(answer: string): boolean {
  const words = answer.trim().split(/\s+/).filter((w) => w !== '');
  return answer.trim().length <= 40 && words.length >= 1 && words.length <= 6 && answerText(answer) !== '';
}

/** A text prepared once for many answers: normalised, with a space at both ends (whole-word matching). */
export interface Haystack {
  readonly padded: string;
}

export function haystack(text: string): Haystack {
  return { padded: ` ${answerText(text)} ` };
}

/** Whether `hay` holds `answer`: whole words, or a substring when the answer has CJK characters. */
export function holdsAnswer(hay: Haystack, answer: string): boolean {
  const a = answerText(answer);
  if (a === '') return false;
  return CJK.test(a) ? hay.padded.includes(a) : hay.padded.includes(` ${a} `);
}

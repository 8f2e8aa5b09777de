/**
 * Evidence recall (LoCoMo's `recall_acc`, under a token budget): an evidence turn counts as recalled when the
 * assembled prompt contains it verbatim — whole, or at least one complete sentence of it. A complete sentence
 * counts only if it says something on its own (four words, or eight CJK characters): "Wow!" or "Thanks!" is in
 * half the turns of a chat and attributes nothing; a shorter fragment of a sentence never counts.
 * Texts are compared after NFC and with runs of whitespace made one space (what sanitising may change).
 */

const SENTENCE = /(?<=[.!?。！？；…])["'”’)]*\s+|(?<=[。！？；])|\n+/;

export function normalise(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** The complete sentences of a turn, as the measure sees them. */
export function measureSentences(text: string): string[] {
  return text
    .split(SENTENCE)
    .map((s) => normalise(s))
    .filter((s) => s !== '');
}

export function informative(sentence: string): boolean {
  const cjk = (sentence.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/g) ?? []).length;
  const words = (sentence.replace(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/g, ' ').match(/[\p{L}\p{N}]+/gu) ?? []).length;
  return words >= 4 || cjk >= 8 || words + cjk / 2 >= 4;
}

/** Whether a (normalised) prompt holds the turn whole or one informative sentence of it. */
export function containsTurn(prompt: string, turnText: string): boolean {
  const whole = normalise(turnText);
  if (whole !== '' && prompt.includes(whole)) return true;
  return measureSentences(turnText).some((s) => informative(s) && prompt.includes(s));
}

/** Share of the evidence turns the prompt holds. */
export function evidenceRecall(prompt: string, evidence: readonly string[]): number {
  if (evidence.length === 0) return 0;
  const p = normalise(prompt);
  return evidence.filter((t) => containsTurn(p, t)).length / evidence.length;
}

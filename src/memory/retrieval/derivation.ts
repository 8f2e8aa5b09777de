/**
 * English derivational suffixes, after Porter's steps 2–4 (M. F. Porter, "An algorithm for suffix stripping",
 * 1980): "political" and "politics" meet at "polit", "education", "educational" and "educate" at "educ",
 * "adoption" meets "adopt". A suffix goes only when enough of the word is left (Porter's measure), so short
 * words ("care", "career", "paint") stay as they are. Applied after the inflectional step (plurals, -ing, -ed)
 * and before a final "e" is dropped. No dictionary; never meant to produce real words. Pure, no DOM.
 */

const VOWEL = /[aeiou]/;

/** Porter's measure m of a stem: the number of vowel–consonant sequences ([C](VC)^m[V]). */
export function measure(stem: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const ch = stem[i]!;
    // 'y' after a consonant acts as a vowel.
    const vowel: boolean = VOWEL.test(ch) || (ch === 'y' && i > 0 && !prevVowel);
    if (!vowel && prevVowel) m += 1;
    prevVowel = vowel;
  }
  return m;
}

/** Step 2 (m > 0): a double suffix to a single one. */
const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['alli', 'al'],
  ['entli', 'ent'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'],
  ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'],
  ['ality', 'al'], ['ivity', 'ive'], ['bility', 'ble'],
];

/** Step 3 (m > 0). */
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['icity', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];

/** Step 4 (m > 1): the suffix goes. Longest first. */
const STEP4: readonly string[] = [
  'ement', 'ance', 'ence', 'able', 'ible', 'ment', 'ant', 'ent', 'ism', 'ate', 'iti', 'ity', 'ous', 'ive', 'ize', 'ion', 'al', 'er', 'ic', 'ou',
];

function replaceSuffix(word: string, rules: ReadonlyArray<readonly [string, string]>, minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return measure(stem) >= minMeasure ? stem + replacement : word;
  }
  return word;
}

/** The word with its derivational suffixes stripped (lower-case Latin letters; anything else as it is). */
export function stripDerivation(word: string): string {
  if (word.length <= 4 || !/^[a-z]+$/.test(word)) return word;
  let w = replaceSuffix(word, STEP2, 1);
  w = replaceSuffix(w, STEP3, 1);
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    // -ion only after s or t (adoption → adopt, not onion → on).
    if (suffix === 'ion' && !/[st]$/.test(stem)) break;
    if (measure(stem) >= 2) w = stem;
    break;
  }
  return w;
}

/**
 * Lexical terms for BM25 and for the overlap features, the same for stored chunks and queries:
 * - Latin words, lower-cased, stopwords dropped, with a light English stemmer (plurals, -ing, -ed, a final e,
 *   then Porter's derivational suffixes) so that "researching" meets "research", "hiking" meets "hike" and
 *   "political" meets "politics", and irregular past forms read as their verb ("bought" meets "buy");
 * - Chinese, Japanese and Korean runs as character bigrams (no spaces to split words on), a lone character as a
 *   unigram; bigrams made only of function characters are dropped;
 * - numbers kept as written (order numbers, years, versions are often what a question is about);
 * - a concept's English term beside any other spelling of it: 端口 also gives `port`, PG `postgresql`
 *   (term-aliases.ts).
 * Pure, no DOM.
 */

import { stripDerivation } from './derivation.ts';
import { IRREGULAR_BASE } from './irregular-verbs.ts';
import { TERM_ALIAS_GROUPS } from './term-aliases.ts';
import { isCjkCodePoint } from '../../shared/cjk.ts';

/** English function words and chat filler: matching on them only adds noise. */
const EN_STOPWORDS = new Set(
  (
    'a an the and or but if then else so of to in on at by for with from into onto about as is are was were be been ' +
    'being am do does did doing done have has had having i me my mine myself you your yours yourself we us our ours ' +
    'he him his she her hers they them their theirs it its itself this that these those there here what which who ' +
    'whom whose when where why how not no nor yes yeah yep ok okay oh hey hi hello wow just very really too also ' +
    'can could would should will shall may might must than up down out over under again once all any both each few ' +
    'more most other some such only own same s t don didn doesn isn wasn aren weren won wouldn couldn shouldn ' +
    've ll re d m let lets get got gets go going went gone thing things something anything everything one ones ' +
    'much many lot lots like well even still though because while during before after above below between ' +
    'through off further every much sure thanks thank glad great good cool awesome nice amazing totally definitely ' +
    'kind sort bit pretty quite maybe actually likely probably possibly perhaps'
  ).split(' '),
);

/** Characters that carry grammar rather than meaning; a bigram of two of them is dropped. */
const ZH_FUNCTION_CHARS = new Set([...'的了吗呢吧啊呀哦嗯是在我你他她它们这那和与也都就有个一不没很还把被给对说要会能可以么什怎样吗哪里']);

const LATIN_WORD = /[\p{L}\p{N}]/u;

/**
 * A light English stemmer: inflections (plurals, -ing, -ed, a final e), then derivational suffixes
 * (derivation.ts: political → polit, education → educ); never meant to produce real words.
 */
export function stem(word: string): string {
  // "bought" is "buy", "met" is "meet" (irregular-verbs.ts): a question asks in the base form.
  let w = IRREGULAR_BASE.get(word) ?? word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  let inflected = false;
  if (w.endsWith('ing') && w.length >= 6) [w, inflected] = [undouble(w.slice(0, -3)), true];
  else if (w.endsWith('ed') && w.length >= 5 && !w.endsWith('eed')) [w, inflected] = [undouble(w.slice(0, -2)), true];
  // educating → educate, like education → educate (Porter 1b), so the derivational step treats them alike.
  if (inflected && /(?:at|bl|iz)$/.test(w)) w = `${w}e`;
  // happy, happiness → happi; study, studies → studi (Porter 1c).
  if (/[^aeiou]y$/.test(w) && w.length > 3) w = `${w.slice(0, -1)}i`;
  w = stripDerivation(w);
  if (w.endsWith('e') && w.length > 3 && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
}

/** running → run, stopped → stop (but not fall, miss, buzz). */
function undouble(w: string): string {
  const n = w.length;
  if (n >= 3 && w[n - 1] === w[n - 2] && !'lsz'.includes(w[n - 1]!) && !/[aeiou]/.test(w[n - 1]!)) return w.slice(0, -1);
  return w;
}

/** Spelling → the stem of its concept's English word, for spellings whose own stem differs (term-aliases.ts). */
let latinAliases: Map<string, string> | null = null;
let hanAliasWords: RegExp | null = null;
let hanAliasStems: Map<string, string> | null = null;

function compileAliases(): void {
  latinAliases = new Map();
  hanAliasStems = new Map();
  for (const [word, spellings] of Object.entries(TERM_ALIAS_GROUPS)) {
    const own = stem(word);
    for (const s of spellings) {
      if (/^[a-z0-9]+$/.test(s)) {
        if (stem(s) !== own) latinAliases.set(s, own);
      } else hanAliasStems.set(s, own);
    }
  }
  // Longest first, so 消息队列 is read before 队列.
  hanAliasWords = new RegExp([...hanAliasStems.keys()].sort((a, b) => b.length - a.length).join('|'), 'g');
}

function latinAlias(word: string): string | undefined {
  if (latinAliases === null) compileAliases();
  return latinAliases!.get(word);
}

function hanAliases(run: string): string[] {
  if (hanAliasWords === null) compileAliases();
  const out: string[] = [];
  for (const m of run.matchAll(hanAliasWords!)) out.push(hanAliasStems!.get(m[0])!);
  return out;
}

/**
 * The terms of a text that spell one concept twice (term-aliases.ts): the bigrams of 端口 and `port`, `k8s` and
 * `kubernet`, each mapped to the concept's English stem. Terms not listed are their own concept.
 */
export function aliasConcepts(text: string): Map<string, string> {
  if (hanAliasWords === null) compileAliases();
  const out = new Map<string, string>();
  const normalized = text.normalize('NFKC').toLowerCase();
  for (const m of normalized.matchAll(hanAliasWords!)) {
    const concept = hanAliasStems!.get(m[0])!;
    out.set(concept, concept);
    const chars = [...m[0]];
    for (let i = 0; i + 1 < chars.length; i++) out.set(`~${chars[i]}${chars[i + 1]}`, concept);
  }
  for (const word of normalized.match(/[a-z0-9]+/g) ?? []) {
    const concept = latinAliases!.get(word);
    if (concept === undefined) continue;
    out.set(concept, concept);
    out.set(stem(word), concept);
  }
  return out;
}

export function isStopword(word: string): boolean {
  return EN_STOPWORDS.has(word);
}

/**
 * The terms of a text, in order, with repeats (term frequency matters to BM25). Latin terms are stems; CJK
 * terms are bigrams (prefixed so they never collide with a Latin stem).
 */
export function terms(text: string): string[] {
  return termsOfNormalized(text.normalize('NFKC').toLowerCase());
}

/** `terms` of a text already NFKC-normalised and lower-cased. */
function termsOfNormalized(normalized: string): string[] {
  const out: string[] = [];
  let word = '';
  let run: string[] = [];
  // Hyphenated compounds also count joined: "de-stress" meets "destress", "e-mail" meets "email".
  let compound: string[] = [];
  const endCompound = (): void => {
    if (compound.length > 1) {
      const joined = compound.join('');
      if (!EN_STOPWORDS.has(joined)) out.push(stem(joined));
    }
    compound = [];
  };
  const endWord = (): void => {
    if (word === '') return;
    // Possessives and contractions: caroline's → caroline.
    const bare = word.replace(/['’](?:s|re|ve|ll|d|m|t)$/, '').replace(/['’]/g, '');
    if (bare.length > 0 && (bare.length > 1 || /\d/.test(bare)) && !EN_STOPWORDS.has(bare)) out.push(stem(bare));
    const alias = latinAlias(bare);
    if (alias !== undefined) out.push(alias);
    compound.push(bare);
    word = '';
  };
  const endRun = (): void => {
    if (run.length > 1) out.push(...hanAliases(run.join('')));
    if (run.length === 1) {
      if (!ZH_FUNCTION_CHARS.has(run[0]!)) out.push(`~${run[0]}`);
    } else {
      for (let i = 0; i + 1 < run.length; i++) {
        if (ZH_FUNCTION_CHARS.has(run[i]!) && ZH_FUNCTION_CHARS.has(run[i + 1]!)) continue;
        out.push(`~${run[i]}${run[i + 1]}`);
      }
    }
    run = [];
  };
  for (const ch of normalized) {
    const cp = ch.codePointAt(0)!;
    if (isCjkCodePoint(cp)) {
      endWord();
      endCompound();
      run.push(ch);
    } else if (LATIN_WORD.test(ch) || ((ch === "'" || ch === '’') && word !== '')) {
      endRun();
      word += ch;
    } else {
      endWord();
      endRun();
      if (ch !== '-' || compound.length === 0) endCompound();
    }
  }
  endWord();
  endRun();
  endCompound();
  return out;
}

/**
 * The terms a text is searched by (its turns and sentences in the index, a message's own words in a query): `terms`,
 * and for each version number the concept version, so "升到 2.10.4" and "pinned to v1.30" meet "现在是哪个版本？" and
 * "which version…". Only searching reads it: a statement's subject (statements.ts) is its words, and two upgrades of
 * different things share no subject.
 */
export function searchTerms(text: string): string[] {
  const normalized = text.normalize('NFKC').toLowerCase();
  const out = termsOfNormalized(normalized);
  for (const _ of normalized.matchAll(VERSION_NUMBER)) out.push(VERSION_CONCEPT);
  return out;
}

/**
 * Three dotted parts (2.10.4), or two after a v (v1.30): decimals (27.9, 3.5), dates (2024.05.01) and addresses
 * (10.0.3.21, four parts) are not versions.
 */
const VERSION_NUMBER = /(?<![\w.])(?!(?:19|20)\d\d\.)(?:v?\d{1,3}\.\d+\.\d+|v\d+\.\d+)(?![\w.]*\d)/g;
const VERSION_CONCEPT = stem('version');

/** Term → count. */
export function termCounts(list: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** Share of letters that are CJK: the conversation's language for labels ('zh' above a small share). */
export function cjkShare(text: string): number {
  let cjk = 0;
  let letters = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (isCjkCodePoint(cp)) {
      cjk += 1;
      letters += 1;
    } else if (LATIN_WORD.test(ch) && !/\d/.test(ch)) letters += 0.25; // a Latin word of ~4 letters ≈ one CJK word
  }
  return letters === 0 ? 0 : cjk / letters;
}

/**
 * A slot said wrong before and righted in the same message, its value a clause or two after the slot word:
 * 刚才端口说错了，应该是 8444，不是 8443 / 时区不是 Asia/Tokyo，我写错了，应该是 Asia/Shanghai / "the phone number I
 * gave you is wrong: it's …, not …". The message owns a mistake, names one slot, and gives one value after a word
 * that leads to it (应该是, 是, "it's"), not after 不是 / "not". The result is that statement said plainly ("端口是
 * 8444"), for the extractor to read as it reads any other.
 */
import { alternation } from './text.ts';
import type { Lexicon } from './lexicon.ts';

/** Owning a mistake: 说错了, 写错了, "is wrong", typo. */
const MISTAKE = /说错了|写错了|搞错了|记错了|打错了|弄错了|填错了|\b(?:is|was|are|were) wrong\b|\btypo\b|\bmistyped\b|\bmisspoke\b/i;
/** The value righted: after 应该是 / 是 / "it's" (not 不是, "not"), up to the next punctuation or space. */
const RIGHTED = /(应该是|应为|而是|是|\bit's|\bit is|\bshould be|\bshould have been)\s*([^\s,，。;；!！?？、]+)/gi;
const NEGATED_BEFORE = /(?:不|\bnot|n't)\s*$/i;
/** Slot words the special rules read (ports, time zones, phone numbers), beside the vocabulary's slot names. */
const compiled = new WeakMap<Lexicon, RegExp>();

function specialSlotWords(lexicon: Lexicon): RegExp {
  let re = compiled.get(lexicon);
  if (re === undefined) {
    const s = lexicon.vocabulary.subjects;
    const words = [...s.portWords, '时区', 'timezone', 'time zone', '手机号码', '手机号', 'phone number', 'mobile number', '电话号码'];
    compiled.set(lexicon, (re = new RegExp(`(?<![A-Za-z])(?:${alternation(words)})(?![A-Za-z])`, 'i')));
  }
  return re;
}

/** The message's righted slot said plainly ("端口是 8444"), or null when it is not such a message. */
export function mistakenSlotRestated(text: string, lexicon: Lexicon): string | null {
  const mistake = MISTAKE.exec(text);
  if (mistake === null) return null;
  const special = specialSlotWords(lexicon).exec(text);
  // One slot: the special word, or the one slot word the vocabulary finds (the same word may be both: 时区).
  const named = lexicon.subjects(text).filter((m) => special === null || m.end <= special.index || m.start >= special.index + special[0].length);
  const slot = special !== null ? { start: special.index, surface: special[0] } : named.length === 1 ? named[0]! : null;
  if (slot === null || (special !== null && named.length > 0)) return null;
  const values = [...text.matchAll(RIGHTED)].filter((m) => m.index > slot.start && !NEGATED_BEFORE.test(text.slice(Math.max(0, m.index - 4), m.index)));
  const distinct = new Set(values.map((m) => m[2]!.toLowerCase()));
  if (distinct.size !== 1) return null;
  const lead = /^[\u4e00-\u9fff]/.test(slot.surface) ? '是' : ' is';
  return `${slot.surface}${lead} ${values[0]![2]}`;
}

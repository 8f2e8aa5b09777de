/**
 * A slot said wrong before and righted in the same message, its value a clause or two after the slot word:
 * 刚才端口说错了，应该是 8444，不是 8443 / 时区不是 Asia/Tokyo，我写错了，应该是 Asia/Shanghai / "the phone number I
 * gave you is wrong: it's …, not …" / "I said Node 18 before, it's actually Node 20" / 不是 1.28，是 1.30，k8s 上个月
 * 刚升的. The message owns a mistake, names one slot (a runtime's or a tool's version counts), and gives one value
 * after a word that leads to it (应该是, 是, "it's"), not after 不是 / "not". The result is that statement said plainly
 * ("端口是 8444", "Node version is 20"), for the extractor to read as it reads any other.
 */
import { alternation, escapeRegExp } from './text.ts';
import type { Lexicon } from './lexicon.ts';

/**
 * Owning a mistake: 说错了, 写错了, 不对, 更正, "is wrong", typo; a value said before and now righted (我之前说…, 刚才说的…,
 * "I said … before"); "actually it's X, not Y"; 不是 X，是 Y.
 */
const MISTAKE =
  /说错了|写错了|搞错了|记错了|打错了|弄错了|填错了|不对|更正|纠正|(?:之前|刚才|前面|上面|刚刚)(?:说|写|讲)的?|不是[^，,。;；]{1,24}[，,]\s*(?:而|其实|应该)?是|\b(?:is|was|are|were) wrong\b|\btypo\b|\bmistyped\b|\bmisspoke\b|\bcorrection\b|\bi said\b(?:(?![.!?](?:\s|$)).){0,60}\b(?:before|earlier)\b|\bi meant\b|\bactually\b(?:(?![.!?](?:\s|$)).){0,40}\bnot\b/i;
/** The value righted: after 应该是 / 是 / "it's" (not 不是, "not"), an adverb set aside, up to the next punctuation or space. */
const RIGHTED = /(应该是|应为|而是|其实是|用的是|是|\bit['’]s|\bit is|\bshould be|\bshould have been|\bi meant)\s*(?:(?:actually|really|now|其实)\s*)?([^\s,，。;；!！?？、]+(?:\s+v?\d[\w.]*)?)/gi;
const NEGATED_BEFORE = /(?:不|\bnot|n't)\s*$/i;
/** A version: what a runtime's or a named tool's slot takes. */
const VERSION_VALUE = /^v?\d+(?:\.\d+)*$/i;
const PORT_VALUE = /^\d{2,5}$/;
/** The word version after a name (Spring Boot 版本, the Helm version): the slot is that name's version. */
const VERSION_WORD = /^\s*(?:的)?\s*(?:版本号?|version)(?![A-Za-z])/i;
/** A version said right after a product, as the wrong one: Redis 不是 6.2（，是 7.2.4）, "Kafka isn't 3.5". */
const VERSION_SAID_NOT = /^\s*(?:不是|并非|并不是|\bis not\b|\bisn't\b|\bwasn't\b)\s*v?\d+\.\d+/i;
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

interface Slot {
  readonly start: number;
  /** How the restatement names it: 端口, "the admin console port", "Node version". */
  readonly surface: string;
  /**
   * The form of a value that may be said before the slot (不是 1.28，是 1.30，k8s 上个月刚升的; "Actually it's 8444, not
   * 8443, the admin console port…"): a version, a port; null when the value must follow the slot word.
   */
  readonly form: RegExp | null;
  /** A product name the value may repeat before its version ("it's actually Node 20"). */
  readonly name?: string;
}

/** The one slot a message names: a special word, a runtime or a tool with the word version, or one slot word. */
function namedSlot(text: string, lexicon: Lexicon): Slot | null {
  const special = specialSlotWords(lexicon).exec(text);
  const named = lexicon.subjects(text).filter((m) => special === null || m.end <= special.index || m.start >= special.index + special[0].length);
  if (special !== null) {
    // A slot word just before a port word names the port's service (the reporting DB port), not a slot of its own.
    if (named.some((m) => !(m.end <= special.index && special.index - m.end <= 2))) return null;
    // The words before a port word name its service ("the admin console port"): they go with it.
    const lead = /[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}\s*$/.exec(text.slice(Math.max(0, special.index - 32), special.index))?.[0] ?? '';
    const port = lexicon.vocabulary.subjects.portWords.some((w) => w.toLowerCase() === special[0].toLowerCase());
    return { start: special.index, surface: `${lead}${special[0]}`, form: port ? PORT_VALUE : null };
  }
  // A runtime (Node, k8s) or a tool followed by the word version (Spring Boot 版本): its version slot, one name only.
  const products = lexicon.products(text);
  const runtimes = products.filter((p) => lexicon.vocabulary.runtimes[p.surface.toLowerCase()] !== undefined);
  const versioned = products.filter((p) => VERSION_WORD.test(text.slice(p.end)) || VERSION_SAID_NOT.test(text.slice(p.end)));
  const names = new Set([...runtimes, ...versioned].map((p) => lexicon.vocabulary.runtimes[p.surface.toLowerCase()] ?? p.surface.toLowerCase()));
  // (Other slot words may stand around: "…it's actually Go 1.22 on the CI images".)
  if (names.size === 1) {
    const p = (runtimes[0] ?? versioned[0])!;
    return { start: p.start, surface: `${p.surface} version`, form: VERSION_VALUE, name: p.surface };
  }
  if (names.size === 0 && named.length === 1) return { start: named[0]!.start, surface: named[0]!.surface, form: null };
  return null;
}

/** The message's righted slot said plainly ("端口是 8444", "Node version is 20"), or null when it is not such a message. */
export function mistakenSlotRestated(text: string, lexicon: Lexicon): string | null {
  // (A question asks whether it was wrong: "刚才说的 Redis 版本不对吧，是 7.2 吗？" states nothing.)
  if (!MISTAKE.test(text) || /[?？吗]\s*$/.test(text.trim())) return null;
  const slot = namedSlot(text, lexicon);
  if (slot === null) return null;
  const values = [...text.matchAll(RIGHTED)]
    .filter((m) => !NEGATED_BEFORE.test(text.slice(Math.max(0, m.index - 4), m.index)))
    .map((m) => ({ at: m.index, value: slot.name !== undefined ? m[2]!.replace(new RegExp(`^${escapeRegExp(slot.name)}\\s*`, 'i'), '') : m[2]!.split(/\s+/)[0]! }))
    // A version or port slot takes a value of its form, said before or after it; any other slot, the value after its word.
    .filter((v) => (slot.form !== null ? slot.form.test(v.value) : v.at > slot.start));
  const distinct = new Set(values.map((v) => v.value.toLowerCase()));
  if (distinct.size !== 1) return null;
  const lead = /[\u4e00-\u9fff]$/.test(slot.surface) ? '是' : ' is';
  return `${slot.surface}${lead} ${values[0]!.value}`;
}

/**
 * Facts of the user's own life, for a private chat: a personal slot word and its value (房租是3800元 → rent =
 * 3800 CNY, my shoe size is 11, 目标体重改成65公斤), a pet's name (我家猫叫团子 → cat name = 团子, our puppy is called
 * Juno → dog name), a child's or a pet's age (我女儿7岁 → daughter age = 7), and in English any "my X is Y" whose value
 * is a name, a number or an entity (my target score is 100 → target score = 100). A value said not to be it
 * (不是3500元，是3800元) gives way to the one said instead. The words are data (vocab-personal.ts).
 */
import { compileMedicationMatchers, findMedication, medicalContext, type MedicalContext, type MedicationMatchers } from './facts-medication.ts';
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import { alternation, escapeRegExp } from './text.ts';
import type { PersonalSlot, PersonalVocabulary } from './vocab-personal.ts';
import type { EntitySpan, Fact } from './types.ts';

export interface PersonalMatchers {
  readonly vocabulary: PersonalVocabulary;
  /** Any slot word; the slot is looked up by the lower-cased match. */
  readonly slotWord: RegExp;
  readonly slotsByWord: ReadonlyMap<string, PersonalSlot>;
  /**
   * A pet and the words that give its name: group 1 (Chinese) or 2 (English) the animal, the name right after the
   * match ("my rabbit Clover": a name in capitals, which the value's own pattern checks).
   */
  readonly petName: RegExp;
  /** A family member's or a pet's age: group 1 (Chinese) or 3 (English) the one, 2 or 4 the age. */
  readonly age: RegExp;
  /** "my X is": group 1 is X. */
  readonly mine: RegExp;
  readonly number: RegExp;
  readonly others: RegExp;
  readonly notSlots: ReadonlySet<string>;
  readonly notSlotNouns: ReadonlySet<string>;
  readonly medication: MedicationMatchers;
}

/** After a slot word, up to its value: 的, adverbs, a copula or a verb of change (是, 改成, 涨到). */
const LINK_ZH =
  /^\s*(?:的)?\s*(?:(?:现在|目前|已经|也|就|都|还是|一直|大概|大约|差不多|约|只有|才|每个?月|一个月|一年)\s*)*(?:是|为|叫|叫做|改成了?|改为|换成了?|变成了?|调到了?|调成了?|涨到了?|降到了?|提到了?|减到了?|定在了?|定了|定成|在|到|:|：|=)?\s*(?:(?:大概|大约|差不多|约|只有|才|每个?月|一个月)\s*)*/;
/** The same in English: is, 's, went up to, is now, changed to, to ("raising the rent to $2,100"). */
const LINK_EN =
  /^\s*(?:'s|’s|is|are|was|will be|has gone up to|went up to|goes up to|went down to|is going up to|is now|are now|is currently|changed to|is changing to|moved to|to|:)?\s*(?:(?:now|currently|about|around|roughly|actually|just|only)\s+)*(?:(?:an?|the)\s+)?/i;
/** The longer of the two links after `end`. */
function linkEnd(text: string, end: number): number {
  const rest = text.slice(end);
  return end + Math.max(LINK_ZH.exec(rest)?.[0].length ?? 0, LINK_EN.exec(rest)?.[0].length ?? 0);
}
/** Just before a value: it is the one taken back (不是3500元, not 10.5, rather than 60公斤). */
const TAKEN_BACK = /(?:不是|而不是|并非|\b(?:not|isn't|wasn't|rather than|instead of))\s*$/i;
/** A clause that says the value instead of the one the clause before took back: 是3800元, it's 11, but 65. */
const INSTEAD = /^\s*(?:而是|其实是|实际是|应该是|是|(?:it's|it is|it’s|but|actually)\b\s*)/i;
/** A clause that changes the value the clause before gave: 现在改成, 后来涨到, "now it's", "raised to". */
const CHANGED_TO =
  /^\s*(?:(?:现在|后来|目前|从下个?月起|下个?月起|now|since then)\s*,?\s*)?(?:改成了?|改为|换成了?|涨到了?|降到了?|调到了?|调成了?|变成了?|提到了?|加到了?|减到了?|it['’]s now|it is now|changed to|raised to|lowered to|bumped to|went up to|went down to)\s*/i;
/** A clause that only goes on with a list of names: ", Wednesdays and Fridays". */
const LIST_GOES_ON = /^\s*[A-Z][\w'-]*(?:\s*,\s*[A-Z][\w'-]*)*(?:\s+(?:and|or)\s+[A-Z][\w'-]*)?\s*$/;
/** An age said in Chinese: 7 岁, 四岁半. */
const AGE = /^(?:\d+|[一二两三四五六七八九十]+)\s*岁半?/;
/** An age as the labels write it: digits alone (7), a Chinese number with its 岁 (四岁半). */
const ageValue = (said: string): string => (/^\d+\s*岁$/.test(said.trim()) ? said.trim().replace(/\s*岁$/, '') : said.trim());
/** Entities the generic "my X is Y" takes as a value; addresses, paths and contacts have rules of their own. */
const GENERIC_ENTITY_TYPES: ReadonlySet<string> = new Set(['amount', 'date', 'time', 'version', 'order_id']);
/** A name: Latin words starting with a capital or a digit (Juno, Tesla Model 3, iPhone 13), or 1–4 Han characters. */
// (A model year may lead it: "a 2019 Honda Civic".)
const LATIN_NAME = /^(?:(?:Dr|Mr|Mrs|Ms|Prof)\.\s+|(?:19|20)\d\d\s+(?=[A-Z]))?(?:[A-Z][\w'-]*|[a-z]+[A-Z][\w-]*)(?:\s+(?:[A-Z0-9][\w'-]*(?:\.\d+)*))*/;
const CJK_NAME = /^[\u4e00-\u9fff]{1,4}?(?=$|[，。,.!！?？、；;\s]|了|的|吧|啊|呢|哦)/;
/** A product model: Latin letters or digits, maybe after a Chinese brand (iPhone 15 Pro, 小米14, 华为 Mate 60). */
const MODEL = /^(?:[\u4e00-\u9fff]{1,3}\s*)?(?:[A-Za-z]+[A-Z0-9][\w+-]*|[A-Z0-9][\w+-]*)(?:\s+[A-Z0-9][\w+-]*(?:\.\d+)*){0,3}/;
/** A few words: Han characters up to punctuation, or up to four Latin words. */
const CJK_WORDS = /^[A-Za-z0-9+-]{0,4}\s?[\u4e00-\u9fffA-Za-z0-9+-]{1,10}?(?=$|[，。,.!！?？、；;\s]|了|吧|啊|呢)/;
const LATIN_WORDS = /^[A-Za-z][\w+-]*(?:\s+(?!(?:and|but|so|because|since|which|for|at|on|in|with|to|now)\b)[A-Za-z0-9][\w+-]*){0,3}/;

export function compilePersonalMatchers(v: PersonalVocabulary): PersonalMatchers {
  const slotsByWord = new Map<string, PersonalSlot>();
  for (const slot of v.slots) for (const w of slot.words) slotsByWord.set(w.toLowerCase().replace(/\s+/g, ' '), slot);
  const pets = alternation(Object.keys(v.pets));
  // Units right after their number (175cm, 70kg): no word boundary before them, the longest first.
  const units = [...v.units].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  return {
    vocabulary: v,
    slotWord: new RegExp(alternation([...slotsByWord.keys()]), 'gi'),
    slotsByWord,
    petName: new RegExp(
      `(?:(?:我家|我的|我们家|家里的?|家里那只|我养的)\\s*(?:那只|这只|的)?\\s*(${pets})\\s*(?:的名字)?\\s*(?:叫做?|名字是|名叫)\\s*|` +
        `\\b(?:my|our)\\s+(?:new\\s+)?(?:[a-z]+\\s+)?(${pets})(?:'s name is|’s name is|\\s+is called|\\s+is named|\\s+called|\\s+named|(?=\\s+[A-Z][a-z]))\\s*)`,
      'gi',
    ),
    age: new RegExp(
      `(?:我|我的|我家|我们家)?\\s*(${alternation([...Object.keys(v.family), ...Object.keys(v.pets)].filter((w) => /[\u4e00-\u9fff]/.test(w)))})\\s*(?:今年|现在|已经|都)?\\s*(?:不是|是|有)?\\s*((?:\\d+|[一二两三四五六七八九十]+)\\s*岁半?)|` +
        `\\bmy\\s+(${alternation([...Object.keys(v.family), ...Object.keys(v.pets)].filter((w) => /^[a-z]/.test(w)))})\\s+is\\s+(?:now\\s+|just\\s+|turning\\s+)?(\\d+)(?=\\s*(?:years?\\s+old|yo\\b|and\\b|[,.;!?]|$))`,
      'gi',
    ),
    // (Heads in lower case: "My dog Biscuit is…" names the dog, it is no slot "dog biscuit".)
    // ('s is a copula only before an article or a number: "my phone's an iPhone 13", not "our cafe's POS backups".)
    mine: /\b(?:[Mm]y|[Oo]ur|MY|OUR)\s+(?:(?:new|old)\s+)?((?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*)(?:(?:'s|’s)(?=\s+(?:an?\s|the\s|\d|\$|€|£|¥))|\s+(?:is|are)(?:\s+(?:now|currently|actually))?)\s+(?:(?:an?|the)\s+)?/g,
    // (A number with a unit of none of these, 100px, is no value: CSS is no one's height.)
    number: new RegExp(`^(\\d+(?:\\.\\d+)?)(?:\\s*(${units}))?(?![\\d.A-Za-z]|\\s*[%％])`, 'i'),
    others: new RegExp(`(?:${alternation(v.others)})\\s*(?:的)?\\s*$`, 'i'),
    medication: compileMedicationMatchers(v.medication),
    notSlots: new Set(v.notSlots.map((s) => s.toLowerCase())),
    notSlotNouns: new Set(v.notSlotNouns.map((s) => s.toLowerCase())),
  };
}

/** The value of `kind` at `pos` of `text`, with where it starts; null when none is there. */
function valueAt(
  kind: PersonalSlot['value'],
  text: string,
  pos: number,
  entities: readonly EntitySpan[],
  m: PersonalMatchers,
  /** A copula or a verb stood between the slot word and `pos`. */
  linked = true,
): { value: string; at: number; end: number } | null {
  const rest = text.slice(pos);
  if (kind === 'amount' || kind === 'date') {
    // The entity the value starts with (月租4800元, rent is $1,850), or the last of a move (从3000元改成4000元).
    const own = entities.filter((e) => e.type === kind && e.start >= pos && e.start - pos <= 2);
    const first = own[0];
    if (first === undefined) return null;
    const moved = entities.find(
      (e) => e.type === kind && e.start > first.end && /^[^\d，,。；;]{0,8}?(?:到|成|为|\bto)\s*$/i.test(text.slice(first.end, e.start)),
    );
    const chosen = moved ?? first;
    return { value: chosen.value, at: chosen.start, end: chosen.end };
  }
  if (entities.some((e) => e.start <= pos && pos < e.end)) {
    // Another kind's entity there (a date for a weight) is no value of this slot.
    return null;
  }
  if (kind === 'number') {
    const n = m.number.exec(rest);
    return n === null ? null : { value: n[0].trim(), at: pos, end: pos + n[0].length };
  }
  if (kind === 'model') {
    const model = MODEL.exec(rest)?.[0];
    // 路由器后台 192.168.31.1: a word before an address is no brand, and an address no model.
    if (model !== undefined && entities.some((e) => e.start < pos + model.length && pos < e.end)) return null;
    return model === undefined ? null : { value: model.trim(), at: pos, end: pos + model.length };
  }
  if (kind === 'name') {
    const name = LATIN_NAME.exec(rest)?.[0] ?? CJK_NAME.exec(rest)?.[0];
    return name === undefined ? null : { value: name.trim(), at: pos, end: pos + name.length };
  }
  // (B型, O 型, 3年级: a Latin letter or a digit may lead a Chinese value.)
  const words = (/^[A-Za-z0-9+-]{0,4}\s?[\u4e00-\u9fff]/.test(rest) ? CJK_WORDS : LATIN_WORDS).exec(rest)?.[0];
  // Without a link only a short value right after the word is its own (血型 O 型), not the next phrase (回老家那个计划作废).
  if (words === undefined || (!linked && (words.length > 4 || /^[那这哪]/.test(words)))) return null;
  // (A closing 的 is the sentence's, not the value's: 我老家是江西的.)
  const value = words.trim().replace(/(?<=[\u4e00-\u9fff])的$/, '');
  return { value, at: pos, end: pos + words.length };
}

/** Whether the slot word at `start` is someone else's (我妈的房租, my sister's rent, her birthday). */
const othersBefore = (text: string, start: number, m: PersonalMatchers): boolean =>
  m.others.test(text.slice(Math.max(0, start - 10), start));

export function findPersonalFacts(
  clause: Clause,
  entities: readonly EntitySpan[],
  m: PersonalMatchers,
  /** The next clause of the same sentence and its entities: it may give the value this one took back. */
  next: { clause: Clause; entities: readonly EntitySpan[] } | null,
  /** What the setup rules own: their slot words (laptop, database) and the products of the clause. */
  setup: { namesSlot(words: string): boolean; productAt(pos: number): boolean },
  /** Whether the message speaks of medicine: a medical word anywhere in it says a pill taken is one (…吃一片优甲乐，要抽血复查). */
  medical: MedicalContext = medicalContext(clause.text),
): Found<Fact>[] {
  const text = clause.text;
  const out: Found<Fact>[] = [];
  const emit = (subject: string, value: string, at: number, base = clause.start): void => {
    if (value === '' || out.some((f) => f.item.subject === subject)) return;
    out.push({ item: { subject, value, op: 'set' }, at: base + at });
  };
  /**
   * The value said instead, in the next clause, when this one's is taken back (房租不是3500元，是3800元): `find` reads it
   * after the clause's lead (是, "it's"), from its offset there.
   */
  const instead = (subject: string, find: (text: string, pos: number) => { value: string; at: number } | null): void => {
    const lead = next === null ? null : INSTEAD.exec(next.clause.text);
    if (lead === null) return;
    const v = find(next!.clause.text, lead[0].length);
    if (v !== null) emit(subject, v.value, v.at, next!.clause.start);
  };
  // "my X is Y": X names the slot when Y is a value (a number, an amount, a date, a name) and X no slot of the setup
  // rules (my laptop is, my database is) nor a product of theirs ("our warehouse is Snowflake").
  const heads: Array<{ start: number; end: number }> = [];
  const generic: Found<Fact>[] = [];
  for (const x of text.matchAll(m.mine)) {
    const head = x[1]!.toLowerCase();
    const headStart = x.index + x[0].indexOf(x[1]!);
    heads.push({ start: headStart, end: headStart + head.length });
    const last = head.split(/\s+/).at(-1)!;
    // A slot of its own rules (my budget, my deadline) or no slot at all (my question is, my boss is).
    if (m.notSlots.has(head) || m.notSlotNouns.has(last) || m.slotsByWord.has(head) || m.vocabulary.pets[last] !== undefined || setup.namesSlot(head)) continue;
    const pos = x.index + x[0].length;
    if (setup.productAt(pos)) continue;
    const entity = entities.find((e) => e.start === pos);
    // An address, a path or a contact is named by the rules for those ("the staging box is 10.0.0.4" → its address).
    if (entity !== undefined && !GENERIC_ENTITY_TYPES.has(entity.type)) continue;
    const number = m.number.exec(text.slice(pos));
    const name = LATIN_NAME.exec(text.slice(pos))?.[0];
    const value = entity?.value ?? (number === null ? undefined : number[0].trim()) ?? name?.trim();
    // (A title alone is a name cut at its full stop: "our vet is Dr.")
    if (value === undefined || /^(?:Dr|Mr|Mrs|Ms|Prof)$/.test(value) || TAKEN_BACK.test(text.slice(Math.max(0, pos - 12), pos))) continue;
    // "My gym days are Mondays, Wednesdays and Fridays": a list of names goes on in the next clause.
    const more = name !== undefined && value === name.trim() && next !== null ? LIST_GOES_ON.exec(next.clause.text)?.[0].trim() : undefined;
    generic.push({ item: { subject: head, value: more === undefined ? value : `${value}, ${more}`, op: 'set' }, at: clause.start + pos });
  }
  for (const w of text.matchAll(m.slotWord)) {
    const slot = m.slotsByWord.get(w[0].toLowerCase().replace(/\s+/g, ' '));
    if (slot === undefined || othersBefore(text, w.index, m)) continue;
    // font-weight, line-height, box.height: a Latin word inside an identifier is no slot word.
    if (/^[A-Za-z]/.test(w[0]) && /[-._]$/.test(text.slice(0, w.index))) continue;
    const end = w.index + w[0].length;
    // 每月存储费用: 存 there begins 存储 (storage), not saving.
    if (/存$/.test(w[0]) && /^[储在放]/.test(text.slice(end))) continue;
    // 回老家的高铁票: going home names no hometown.
    if (slot.subject === 'hometown' && /[回去到]$/.test(text.slice(0, w.index))) continue;
    const pos = linkEnd(text, end);
    if (TAKEN_BACK.test(text.slice(end, pos + 1)) || /^\s*(?:不是|并非|\b(?:not|isn't)\b)/i.test(text.slice(end))) {
      instead(slot.subject, (text, pos) => valueAt(slot.value, text, pos, next!.entities, m));
      continue;
    }
    // "My minimum salary is…": a longer slot the generic rule names is not this one.
    if (heads.some((h) => h.start <= w.index && end <= h.end && h.end - h.start > w[0].length)) continue;
    const v = valueAt(slot.value, text, pos, entities, m, text.slice(end, pos).trim() !== '');
    if (v === null || TAKEN_BACK.test(text.slice(Math.max(0, v.at - 12), v.at))) continue;
    // 月租2400元的那套房子: a value before 的 describes a thing; it is no value of the user's.
    if (/^\s*的/.test(text.slice(v.end))) continue;
    // 每月存3000元，现在改成4000元: the value the next clause changes it to is the one that holds.
    const change = next === null || !/^[\s。.!！]*$/.test(text.slice(v.end)) ? null : CHANGED_TO.exec(next.clause.text);
    const changed = change === null ? null : valueAt(slot.value, next!.clause.text, change[0].length, next!.entities, m);
    if (changed !== null) emit(slot.subject, changed.value, changed.at, next!.clause.start);
    else emit(slot.subject, v.value, v.at);
  }
  // 我女儿今年7岁（，不是6岁）, "my son is 9": `<member> age`, the digits alone (a Chinese number with its 岁).
  for (const a of text.matchAll(m.age)) {
    const who = (a[1] ?? a[3])!;
    const member = m.vocabulary.family[who] ?? m.vocabulary.family[who.toLowerCase()] ?? m.vocabulary.pets[who] ?? m.vocabulary.pets[who.toLowerCase()];
    const said = (a[2] ?? a[4])!;
    const at = a.index + a[0].length - said.length;
    if (member === undefined || othersBefore(text, a.index + a[0].indexOf(who), m)) continue;
    if (TAKEN_BACK.test(text.slice(Math.max(0, at - 6), at))) {
      // 我女儿不是 6 岁，是 7 岁: the age said instead, in the next clause.
      instead(`${member} age`, (text, pos) => {
        const at = pos + (/^\s*/.exec(text.slice(pos))?.[0].length ?? 0);
        const age = AGE.exec(text.slice(at));
        return age === null ? null : { value: ageValue(age[0]), at };
      });
      continue;
    }
    emit(`${member} age`, ageValue(said), at);
  }
  for (const p of text.matchAll(m.petName)) {
    const animal = m.vocabulary.pets[(p[1] ?? p[2])!.toLowerCase()];
    if (animal === undefined) continue;
    const pos = p.index + p[0].length;
    const v = valueAt('name', text, pos, entities, m);
    if (v !== null) emit(`${animal} name`, v.value, v.at);
  }
  for (const g of generic) emit(g.item.subject, g.item.value, g.at - clause.start);
  const medicine = findMedication(text, m.medication, setup.productAt, medical);
  if (medicine !== null) emit('medication', medicine.value, medicine.at);
  return out;
}

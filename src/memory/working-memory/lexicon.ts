/**
 * The fact rules' view of a clause: where the products, slot words and trigger words are. Compiled once per
 * vocabulary; every lookup is one regular-expression pass.
 */
import { alternation } from './text.ts';
import type { WmVocabulary } from './vocabulary.ts';

export interface Mark {
  readonly start: number;
  readonly end: number;
  /** The text as written. */
  readonly surface: string;
}

export interface ProductMark extends Mark {
  readonly subject: string;
  /** Other slots the product also fills (`ProductGroup.alsoFills`). */
  readonly alsoFills: readonly string[];
  /** The name plus a version written right after it (macOS 14.3). */
  readonly value: string;
  /** End of `value` in the clause. */
  readonly valueEnd: number;
}

export interface SubjectMark extends Mark {
  readonly subject: string;
}

export interface Lexicon {
  readonly vocabulary: WmVocabulary;
  products(text: string): ProductMark[];
  subjects(text: string): SubjectMark[];
  /** Marks of one word list (set, setAfter, copulas, negations…), compiled on first use. */
  words(list: keyof WordLists, text: string): Mark[];
  /** Whether `text` contains a word of the list. */
  has(list: keyof WordLists, text: string): boolean;
  /**
   * Sets the message the next look-ups are cut from: a list with no word in the whole message is not scanned
   * again for each clause and gap of it.
   */
  scope(message: string): void;
}

/** The trigger and subject word lists the rules look up by name. */
export interface WordLists {
  set: readonly string[];
  setAfter: readonly string[];
  copulas: readonly string[];
  connectors: readonly string[];
  negations: readonly string[];
  negationExclusions: readonly string[];
  blockers: readonly string[];
  useExclusions: readonly string[];
  dropBefore: readonly string[];
  dropBeforeNeedsLe: readonly string[];
  locatives: readonly string[];
  dropAfter: readonly string[];
  strongDrop: readonly string[];
  dropLeadIns: readonly string[];
  forgetSubjects: readonly string[];
  topicNouns: readonly string[];
  topicEndings: readonly string[];
  objectStops: readonly string[];
  remember: readonly string[];
  taskVerbs: readonly string[];
  standing: readonly string[];
  vagueModifiers: readonly string[];
  budgetWords: readonly string[];
  budgetCapBefore: readonly string[];
  budgetCapAfter: readonly string[];
  deadlineWords: readonly string[];
  answerVerbs: readonly string[];
  answerWords: readonly string[];
  languageObjects: readonly string[];
  answerLengthContext: readonly string[];
  timezoneWords: readonly string[];
  nameIntros: readonly string[];
  locationIntros: readonly string[];
  logLevelWords: readonly string[];
  phoneWords: readonly string[];
  emailWords: readonly string[];
  languages: readonly string[];
  answerLengths: readonly string[];
  answerFormats: readonly string[];
  jobNouns: readonly string[];
  selfCorrection: readonly string[];
  oldValueMarkers: readonly string[];
  inventoryLeads: readonly string[];
  changeLeads: readonly string[];
  correctedValueLeads: readonly string[];
}

const key = (s: string): string => s.toLowerCase().replace(/\s+/g, '');

interface ProductInfo {
  /** The name as the vocabulary writes it, for a value found in another case (yarn → Yarn). */
  readonly name?: string;
  readonly subject: string;
  readonly numbered: boolean;
  readonly alsoFills: readonly string[];
}

const CJK_NEAR = /[\u3400-\u9fff\uff0c\u3002]/;

/** A Latin word with Chinese text just before or after it (spaces between allowed): yarn 不用了, 用 go 写. */
function besideCjk(text: string, m: Mark): boolean {
  return CJK_NEAR.test(text.slice(Math.max(0, m.start - 2), m.start)) || CJK_NEAR.test(text.slice(m.end, m.end + 2));
}

/** Two spans at most `distance` characters apart (or overlapping). */
export const near = (a: Mark, b: { start: number; end: number }, distance: number): boolean =>
  b.start - a.end <= distance && a.start - b.end <= distance;

/**
 * A negation in the `width` characters before `at` (不要, don't), words that only contain one (不如, 别忘) set aside.
 */
export function negationBefore(text: string, at: number, width: number, lexicon: Lexicon): boolean {
  let window = text.slice(Math.max(0, at - width), at);
  for (const x of lexicon.words('negationExclusions', window))
    window = window.slice(0, x.start) + ' '.repeat(x.end - x.start) + window.slice(x.end);
  return lexicon.has('negations', window);
}

function allMatches(re: RegExp, text: string): Mark[] {
  re.lastIndex = 0; // matchAll starts where the last test() stopped
  const out: Mark[] = [];
  for (const m of text.matchAll(re))
    if (m[0] !== '') out.push({ start: m.index, end: m.index + m[0].length, surface: m[0] });
  return out;
}

/** The rest of a version after a name that ends in its major number (Vue 3 → Vue 3.4). */
const MINOR = /^(?:\.\d+)+(?![\w.])/;

/** Keeps the longest of overlapping marks, earliest first. */
function dropOverlaps<T extends Mark>(marks: T[]): T[] {
  marks.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: T[] = [];
  for (const m of marks) {
    const last = out[out.length - 1];
    if (last !== undefined && m.start < last.end) continue;
    out.push(m);
  }
  return out;
}

export function compileLexicon(vocabulary: WmVocabulary): Lexicon {
  const loose = new Map<string, ProductInfo>();
  const exact = new Map<string, ProductInfo>();
  for (const group of vocabulary.products) {
    // A runtime's number is its version even without a dot (Node 20, Java 17).
    const info = (name: string) => ({
      subject: group.subject,
      numbered: group.numberedVersions === true || vocabulary.runtimes[name.toLowerCase()] !== undefined,
      alsoFills: group.alsoFills ?? [],
    });
    for (const name of group.names) if (!loose.has(key(name))) loose.set(key(name), info(name));
    for (const name of group.exactNames ?? []) {
      if (!exact.has(name.replace(/\s+/g, ''))) exact.set(name.replace(/\s+/g, ''), info(name));
    }
  }
  const looseRe = new RegExp(alternation(vocabulary.products.flatMap((g) => g.names)), 'gi');
  const exactRe = new RegExp(alternation(vocabulary.products.flatMap((g) => g.exactNames ?? [])), 'g');
  // Beside Chinese text an exact name in lower case is the product (yarn 不用了), unless it stays a common word.
  const lowerBesideCjk = new Map<string, ProductInfo>();
  for (const group of vocabulary.products) {
    for (const name of group.exactNames ?? []) {
      const lower = name.toLowerCase();
      if (lower === name || group.asWrittenOnly?.includes(name) || loose.has(key(name))) continue;
      if (!lowerBesideCjk.has(lower)) lowerBesideCjk.set(lower, { ...exact.get(name.replace(/\s+/g, ''))!, name });
    }
  }
  const lowerRe = new RegExp(alternation([...lowerBesideCjk.keys()]), 'g');
  const aliasToSubject = new Map<string, string>();
  for (const [subject, words] of Object.entries(vocabulary.subjects.aliases)) {
    for (const w of words) if (!aliasToSubject.has(key(w))) aliasToSubject.set(key(w), subject);
  }
  // Slot words written in capitals (CI, OS, DB) must be written so; "os" or "ci" inside a sentence are not them.
  const aliasWords = [...Object.values(vocabulary.subjects.aliases).flat()];
  const aliasLoose = new RegExp(alternation(aliasWords.filter((w) => !/^[A-Z]{2,4}$/.test(w))), 'gi');
  const aliasExact = new RegExp(alternation(aliasWords.filter((w) => /^[A-Z]{2,4}$/.test(w))), 'g');
  // A version may end a sentence (Redis 7.2.), but not run into more digits or letters.
  const dotted = /^\s?(v?\d+(?:\.\d+)+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)(?![\w]|\.\d)/;
  // (An edition word goes with the number: Windows 11 Pro, iPhone 15 Pro Max, Pixel 8a.)
  const numbered = /^\s?(v?\d+(?:\.\d+)*(?:a\b)?(?:\s?LTS|\s(?:Pro Max|Pro|Plus|Ultra|mini|XL)\b)?)(?![\w]|\.\d)/i;
  // Any product may carry a small whole-number version (PostgreSQL 16, MySQL 8), unless it counts things (Redis 3 个节点).
  const whole =
    /^\s?(\d{1,2})(?![\w.])(?!\s*(?:个|台|节点|副本|实例|次|天|年|月|号|人|%|nodes?\b|instances?\b|replicas?\b|servers?\b|times\b|days\b|years\b|months\b|weeks\b|hours\b|people\b|users\b))/i;

  const t = vocabulary.triggers;
  const s = vocabulary.subjects;
  const lists: WordLists = {
    set: t.set,
    setAfter: t.setAfter,
    copulas: t.copulas,
    connectors: t.connectors,
    negations: t.negations,
    negationExclusions: t.negationExclusions,
    blockers: t.blockers,
    useExclusions: t.useExclusions,
    dropBefore: t.dropBefore,
    dropBeforeNeedsLe: t.dropBeforeNeedsLe,
    locatives: t.locatives,
    dropAfter: t.dropAfter,
    strongDrop: t.strongDrop,
    dropLeadIns: t.dropLeadIns,
    forgetSubjects: t.forgetSubjects,
    topicNouns: t.topicNouns,
    topicEndings: t.topicEndings,
    objectStops: t.objectStops,
    remember: t.remember,
    vagueModifiers: t.vagueModifiers,
    taskVerbs: t.taskVerbs,
    standing: t.standing,
    budgetWords: s.budgetWords,
    budgetCapBefore: s.budgetCapBefore,
    budgetCapAfter: s.budgetCapAfter,
    deadlineWords: s.deadlineWords,
    answerVerbs: s.answerVerbs,
    answerWords: s.answerWords,
    languageObjects: Object.keys(s.languageObjects),
    answerLengthContext: s.answerLengthContext,
    timezoneWords: s.timezoneWords,
    nameIntros: s.nameIntros,
    locationIntros: s.locationIntros,
    logLevelWords: s.logLevelWords,
    phoneWords: s.phoneWords,
    emailWords: s.emailWords,
    languages: Object.keys(s.languages),
    answerLengths: Object.keys(s.answerLengths),
    answerFormats: Object.keys(s.answerFormats),
    jobNouns: Object.keys(s.jobNouns),
    selfCorrection: t.selfCorrection,
    oldValueMarkers: t.oldValueMarkers,
    inventoryLeads: t.inventoryLeads,
    changeLeads: t.changeLeads,
    correctedValueLeads: t.correctedValueLeads,
  };
  // The rules ask about the same clause many times: remember the answers for recent texts.
  const memo = new Map<string, unknown>();
  const remember = <T>(key: string, compute: () => T): T => {
    const hit = memo.get(key);
    if (hit !== undefined) return hit as T;
    if (memo.size >= 512) memo.clear();
    const value = compute();
    memo.set(key, value);
    return value;
  };
  const compiled = new Map<keyof WordLists, RegExp>();
  let scope = '';
  const inScope = new Map<keyof WordLists, boolean>();
  const regex = (list: keyof WordLists): RegExp => {
    let re = compiled.get(list);
    if (re === undefined) {
      re = new RegExp(alternation(lists[list]), 'gi');
      compiled.set(list, re);
    }
    return re;
  };

  return {
    vocabulary,
    products(text) {
      return remember(`\u0001${text}`, () => findProducts(text));
    },
    subjects(text) {
      return remember(`\u0002${text}`, () => findSubjects(text));
    },
    words(list, text) {
      if (scope !== '' && text !== scope) {
        let present = inScope.get(list);
        if (present === undefined) {
          present = this.words(list, scope).length > 0;
          inScope.set(list, present);
        }
        if (!present) return [];
      }
      return remember(`${list}\u0000${text}`, () => allMatches(regex(list), text));
    },
    scope(message) {
      scope = message;
      inScope.clear();
    },
    has(list, text) {
      return this.words(list, text).length > 0;
    },
  };

  function findProducts(text: string): ProductMark[] {
    const marks: ProductMark[] = [];
    const mark = (m: Mark, info: ProductInfo): void => {
      // The end of a compound name is not the product: ingress-nginx, kube-prometheus, spring-data-redis.
      if (m.start >= 2 && text[m.start - 1] === '-' && /[A-Za-z0-9]/.test(text[m.start - 2]!)) return;
      // Nor the end of a dotted one: lazy.nvim is a Neovim plugin, not the editor (a name after "." and a letter).
      if (m.start >= 2 && text[m.start - 1] === '.' && /[A-Za-z]/.test(text[m.start - 2]!)) return;
      const after = text.slice(m.end, m.end + 32);
      // "VS Code with the Vim extension", Vim 模式: an editor's mode or plugin in another editor is not the editor.
      if (info.subject === 'editor' && EDITOR_ADD_ON.test(after)) return;
      // A name that ends in its major version goes on with the rest of it: Vue 3.4 is not Vue 3.
      const version = (/\d$/.test(m.surface) ? MINOR.exec(after) : null) ?? (info.numbered ? numbered : dotted).exec(after) ?? whole.exec(after);
      const valueEnd = version === null ? m.end : m.end + version[0].length;
      const value = (info.name ?? m.surface) + text.slice(m.end, valueEnd);
      marks.push({ ...m, subject: info.subject, alsoFills: info.alsoFills, value, valueEnd });
    };
    for (const [re, table, norm] of [
      [looseRe, loose, key],
      [exactRe, exact, (x: string) => x.replace(/\s+/g, '')],
    ] as const) {
      for (const m of allMatches(re, text)) {
        const info = table.get(norm(m.surface));
        if (info !== undefined) mark(m, info);
      }
    }
    for (const m of allMatches(lowerRe, text)) {
      const info = lowerBesideCjk.get(m.surface);
      if (info !== undefined && besideCjk(text, m)) mark(m, info);
    }
    return joinedByPlus(dropOverlaps(marks), text);
  }

  function findSubjects(text: string): SubjectMark[] {
    const marks: SubjectMark[] = [];
    for (const m of [...allMatches(aliasLoose, text), ...allMatches(aliasExact, text)]) {
      const subject = aliasToSubject.get(key(m.surface));
      // The end of a compound word names no slot: single-region, multi-database, cross-cache.
      if (m.start >= 2 && text[m.start - 1] === '-' && /[A-Za-z]/.test(text[m.start - 2]!)) continue;
      if (subject !== undefined) marks.push({ ...m, subject });
    }
    return dropOverlaps(marks);
  }
}

/** After an editor's name: it is a plugin or a mode of another editor (the Vim extension, Emacs keybindings). */
const EDITOR_ADD_ON = /^\s*(?:extension|plugin|add-on|addon|mode|keybindings?|key bindings|bindings|emulation|插件|扩展|模式|键位)/i;

/**
 * Products of one slot written with a plus between them are one value (monitoring: Prometheus + Grafana), as
 * labellers write it: the slot holds the pair, not the second alone.
 */
function joinedByPlus(marks: ProductMark[], text: string): ProductMark[] {
  const out: ProductMark[] = [];
  for (const mark of marks) {
    const last = out[out.length - 1];
    if (last !== undefined && last.subject === mark.subject && /^\s*\+\s*$/.test(text.slice(last.valueEnd, mark.start))) {
      out[out.length - 1] = { ...last, end: mark.end, surface: text.slice(last.start, mark.end), value: `${last.value} + ${mark.value}`, valueEnd: mark.valueEnd };
    } else out.push(mark);
  }
  return out;
}

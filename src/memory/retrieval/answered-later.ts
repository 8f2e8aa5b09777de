/**
 * Answers the question finds twice (issue 18, rules changed across sessions). When two of the best candidates each
 * answer the question with a statement, with different values, and the later one is the user's ("listing prices
 * are in CAD" … months later "listing prices are in USD", asked "which currency are listing prices in now?"), the
 * earlier is superseded for this search, and so is every older line among the candidates that is about the
 * question and repeats a value it retired (the assistant's "OK, I'll write every price in CAD").
 *
 * supersede.ts pairs statements by their own subjects, for every search; here the question names the subject, so
 * two statements pair when the later holds most of the question's words that the earlier holds, however else they
 * are worded ("the shared services should run at WARN level in staging" … "staging no longer needs the strict log
 * level. Set it to INFO."). Only when the later one says it changes something ("from now on", 改成), or the question
 * asks what holds now ("…use now?", 现在); else two answers add up (a studio "by the water", later "with natural
 * light"). Never for a question about the past ("when did…", "what did we pick last week?"). Pure.
 */
import { escapeRegExp } from '../../shared/regexp.ts';
import type { Piece } from './pieces.ts';
import type { TurnEntry } from './records.ts';
import { askedTerms, asksAboutThePast, namesAnotherThing, statementOfCached, valueKind, type Statement } from './statements.ts';
import { aliasConcepts, terms } from './text-terms.ts';
import { NOW_WORDS } from './value-over-time.ts';

/** A question about what holds now: "…use now?", "what is the current…", 现在 / 目前, and "still", "any more". */
const ASKS_NOW = new RegExp(`${NOW_WORDS.source}|\\b(?:still|any ?more)\\b`, 'i');

/** A candidate turn, in rank order, with the sentence its search matched best. */
export interface AnswerSource {
  readonly turn: TurnEntry;
  readonly pieces: readonly Piece[];
  readonly best: number;
  /** Sentences read either side of `best` (default `AROUND_BEST`). */
  readonly around?: number;
}

/**
 * The words each sentence holds, as the index keeps them (shard.ts: a chunk's `pieceTermIds`, by the index's term
 * ids), so that a search does not work the words of its candidates' sentences out again.
 */
export interface SentenceWords {
  readonly termIdOf: (term: string) => number | undefined;
  /** A turn's sentences' term ids, in the order of its pieces; undefined for a turn the index does not hold. */
  readonly of: (turn: TurnEntry) => readonly Int32Array[] | undefined;
}

/** Sentences read around a candidate's best one (a long paste is not read whole on every search). */
const AROUND_BEST = 3;

/** A statement answers the question when it holds at least this many of its words… */
const MIN_ASKED = 2;
/** …and a later one answers as well when it holds this share of the words the earlier holds. */
const SHARE_OF_ASKED = 0.6;

/**
 * The question's words, less numbers (a version's digits are values, not what it asks about), and the concept each
 * spells: a word and its other spelling (端口 and port) are one.
 */
interface Asked {
  readonly terms: ReadonlySet<string>;
  /** It asks what something costs ("how much…", "…cost now?", 多少钱): a count of things is no answer. */
  readonly price: boolean;
  readonly concept: ReadonlyMap<string, string>;
  /** The kind of thing asked for, as a pattern: 群 in 发到哪个群, "port" in "which port" (null: none said). */
  readonly kind: RegExp | null;
}

/**
 * The noun right after 哪个 / 哪种 / 哪家… or "which" / "what": the kind of thing the answer is. Two answers of one
 * question are two versions only if the later says that kind where the earlier did: "飞书告警发到哪个群？" is answered by
 * "有个群叫调度告警群", and "飞书告警想换成 HttpHook" changes the alert's mechanism, not its group.
 */
const ASKED_KIND_ZH = /(?:哪(?:一)?[个种家位款台条门所])\s*((?:(?!的)\p{sc=Han}){1,2}|[A-Za-z][\w-]*)/u;
// In English only a one-word kind before the verb ("which channel do…", "what port does…"): in "what order total
// qualifies…" the first noun is not the kind.
const ASKED_KIND_EN = /\b(?:which|what)\s+([a-z][a-z-]{2,})\s+(?:do|does|did|is|are|was|were|should|will|would|can|has|have)\b/i;
function askedKind(question: string): RegExp | null {
  const zh = ASKED_KIND_ZH.exec(question);
  if (zh !== null) return /^[A-Za-z]/.test(zh[1]!) ? new RegExp(`\\b${escapeRegExp(zh[1]!)}\\b`, 'i') : new RegExp(escapeRegExp(zh[1]!), 'u');
  const en = ASKED_KIND_EN.exec(question);
  return en === null ? null : new RegExp(`\\b${escapeRegExp(en[1]!.toLowerCase())}`, 'i');
}

/** A question about a price. */
const ASKS_PRICE = /\b(?:how much|costs?|price[sd]?|charge[sd]?|fees?)\b|多少钱|价格|价钱|售价|费用|收费/i;
/** Words for money after a number ("32 pounds", "30 块"): a price, not a count. */
const MONEY_WORDS = /^(?:pounds?|quid|dollars?|bucks?|euros?|cents?|pence|p|yuan|rmb|yen|usd|eur|gbp|cny|jpy|cad|aud|each|apiece|元|块|刀|镑|欧|美元|日元)$/i;

/**
 * Whether `value` is a count of things in `text`: followed by a plural noun that is not money ("23 orders", "9 of the
 * 23 orders"), or by 个 / 件 / 单 and the like. Asked what a mug costs, "mugs are 9 of the 23 orders" gives no price.
 */
export function isCount(value: string, text: string): boolean {
  const at = new RegExp(`(?<![\\p{L}\\p{N}_.])${escapeRegExp(value)}(?![\\p{N}_.])\\s*(?:of\\s+(?:the\\s+|my\\s+|our\\s+)?\\d+\\s+)?([a-z]+|[个件单份次位台张])`, 'giu');
  for (const m of text.matchAll(at)) {
    const word = m[1]!;
    if (MONEY_WORDS.test(word)) continue;
    if (/^[个件单份次位台张]$/u.test(word) || (/^[a-z]{3,}s$/i.test(word) && !/(?:ss|us|is)$/i.test(word))) return true;
  }
  return false;
}

function askedOf(question: string): Asked {
  return { terms: new Set([...askedTerms(question)].filter((t) => !/^\d+$/.test(t))), price: ASKS_PRICE.test(question), concept: aliasConcepts(question), kind: askedKind(question) };
}

/** How many concepts `words` spell. */
const conceptCount = (words: ReadonlySet<string>, asked: Asked): number => new Set([...words].map((t) => asked.concept.get(t) ?? t)).size;

/** A sentence read as a statement, with the question's words it holds (with the sentence before, which may give its subject). */
interface Said {
  readonly piece: number;
  readonly statement: Statement;
  readonly asked: ReadonlySet<string>;
  /** It says the kind of thing the question asks for (`Asked.kind`). */
  readonly saysKind: boolean;
  /** The sentence with the one before it, as read. */
  readonly text: string;
}

interface Read {
  readonly turn: TurnEntry;
  readonly said: readonly Said[];
  /** Its sentence that answers the question best (most of its words, at least MIN_ASKED), if any. */
  readonly answer: Said | null;
}

const isLater = (b: TurnEntry, a: TurnEntry): boolean => (b.sessionId === a.sessionId ? b.seq > a.seq : b.time > a.time);
/** `bulk_void_xq` carries `_xq`, `log_level=warn` carries `warn`. */
const carries = (value: string, retired: string): boolean => value === retired || (retired.length >= 3 && (value.endsWith(retired) || value.startsWith(retired)));

/** Which of the question's words a sentence holds: by the index's term ids where it keeps the turn, else worked out. */
type Holds = (i: number, term: string) => boolean;

function holdsOf(source: AnswerSource, words: SentenceWords | undefined, askedIds: ReadonlyMap<string, number | undefined>): Holds {
  const ids = words?.of(source.turn);
  // (A source's pieces are its turn's, or their first few: the ids line up from the start.)
  if (ids !== undefined && ids.length >= source.pieces.length) {
    return (i, term) => {
      const id = askedIds.get(term);
      return id !== undefined && ids[i]!.includes(id);
    };
  }
  const known: Array<ReadonlySet<string>> = [];
  return (i, term) => (known[i] ??= new Set(terms(source.pieces[i]!.text))).has(term);
}

/** Reads the sentences around `source.best` (`around` either side) as statements about the question. */
function read(source: AnswerSource, asked: Asked, holds: Holds, around = source.around ?? AROUND_BEST): Read {
  const said: Said[] = [];
  const from = Math.max(0, source.best - around);
  source.pieces.slice(from, source.best + around + 1).forEach((piece, k) => {
    const i = from + k;
    const before = source.pieces[i - 1]?.text ?? '';
    const statement = statementOfCached(piece.text, before);
    if (statement === null) return;
    const text = `${before} ${piece.text}`;
    // (A statement is read with the sentence before it: the words of either count.)
    const inText = (t: string): boolean => holds(i, t) || (i > 0 && holds(i - 1, t));
    said.push({ piece: i, statement, asked: new Set([...asked.terms].filter(inText)), saysKind: asked.kind?.test(text) === true, text });
  });
  const answer = said.reduce<Said | null>((best, s) => (s.asked.size >= MIN_ASKED && (best === null || s.asked.size > best.asked.size) ? s : best), null);
  return { turn: source.turn, said, answer };
}

/** Whether the later answer holds most of the question's words the earlier holds (three of four, two of two). */
function answersAsWell(later: ReadonlySet<string>, earlier: ReadonlySet<string>): boolean {
  let shared = 0;
  for (const t of earlier) if (later.has(t)) shared += 1;
  return shared >= MIN_ASKED && shared >= SHARE_OF_ASKED * earlier.size;
}

/** What a question finds answered again, otherwise, later by the user: per turn, the sentences that are out of date. */
export interface LaterAnswers {
  /**
   * `turn`'s sentences about the question that give a value a later answer of the user's retired: for a candidate
   * compared, as worked out; for any other turn shown (the question brought in before a reply), read now.
   */
  of(turn: TurnEntry, pieces: readonly Piece[]): ReadonlySet<number> | undefined;
}

/** None: the question is not of the kind, or nothing was answered again. */
export const NO_LATER_ANSWERS: LaterAnswers = { of: () => undefined };

/** Sentences of a turn that is not a candidate read for retired values (a paired turn is short; a paste is cut). */
export const OTHER_TURN_PIECES = 12;

interface Retirement {
  readonly later: TurnEntry;
  readonly retired: readonly string[];
  readonly kept: ReadonlySet<string>;
}

/** Per candidate turn id, its sentences this question finds answered again, otherwise, later by the user. */
export function answeredLater(question: string, sources: readonly AnswerSource[], words?: SentenceWords): LaterAnswers {
  if (asksAboutThePast(question)) return NO_LATER_ANSWERS;
  const asked = askedOf(question);
  if (asked.terms.size < MIN_ASKED) return NO_LATER_ANSWERS;
  const askedIds = new Map([...asked.terms].map((t) => [t, words?.termIdOf(t)]));
  const out = new Map<string, Set<number>>();
  const now = ASKS_NOW.test(question);
  const reads = sources.map((s) => read(s, asked, holdsOf(s, words, askedIds)));
  /** Marks the sentences of `r` about the question that give a retired value and none of the later answer's. */
  const retire = (r: Read, retired: readonly string[], kept: ReadonlySet<string>): void => {
    for (const s of r.said) {
      const values = [...s.statement.values];
      if (s.asked.size === 0 || !values.some((v) => retired.some((w) => carries(v, w))) || values.some((v) => kept.has(v))) continue;
      let set = out.get(r.turn.id);
      if (set === undefined) out.set(r.turn.id, (set = new Set()));
      set.add(s.piece);
    }
  };
  const retirements: Retirement[] = [];
  for (const a of reads) {
    if (a.answer === null) continue;
    for (const b of reads) {
      if (b === a || b.answer === null || b.turn.role !== 'user' || !isLater(b.turn, a.turn)) continue;
      const [earlier, later] = [a.answer.statement, b.answer.statement];
      // A later answer replaces an earlier one when it says it changes something, or the question asks what holds
      // now; otherwise two answers add up ("by the water", later "with natural light": both describe the studio).
      if (!later.change && (!now || earlier.narrative || later.narrative)) continue;
      if (!answersAsWell(b.answer.asked, a.answer.asked)) continue;
      // The earlier answer names the kind of thing asked for and the later does not: it answers something else.
      if (a.answer.saysKind && !b.answer.saysKind) continue;
      // A later answer that holds one concept of the question in two spellings ("下个版本 3.9.1" for a question about
      // Xcode's 版本) is another thing's unless it says that something changes.
      if (!later.change && conceptCount(b.answer.asked, asked) < MIN_ASKED) continue;
      // A Chinese change about another thing it names in Latin ("我把 Canal 端口改成 11112" after an answer about
      // the exporter's port) is that thing's, as in supersede.ts.
      if (namesAnotherThing(later, earlier)) continue;
      // A change that names its old value ("端口从 7001 改成 7101") replaces only an answer that gave it.
      if (later.from.size > 0 && ![...later.from].some((v) => earlier.values.has(v))) continue;
      // A value gives way to a new one of its kind (a port to a port, a name to a name): "按 23 张表列" retires no
      // tool a plan named.
      // Asked what something costs, a count of things the later answer gives ("9 of the 23 orders") is no new price.
      const fresh = [...later.values].filter((w) => !earlier.values.has(w) && !(asked.price && isCount(w, b.answer!.text)));
      const retired = [...earlier.values].filter((v) => ![...later.values].some((w) => carries(v, w) || carries(w, v)) && fresh.some((w) => valueKind(w) === valueKind(v)));
      if (retired.length === 0) continue;
      retirements.push({ later: b.turn, retired, kept: later.values });
      for (const r of reads) if (r !== b && isLater(b.turn, r.turn)) retire(r, retired, later.values);
    }
  }
  if (retirements.length === 0) return NO_LATER_ANSWERS;
  const compared = new Set(sources.map((s) => s.turn.id));
  return {
    of(turn, pieces) {
      if (compared.has(turn.id) || out.has(turn.id)) return out.get(turn.id);
      compared.add(turn.id);
      const source = { turn, pieces: pieces.slice(0, OTHER_TURN_PIECES), best: 0, around: OTHER_TURN_PIECES };
      const r = read(source, asked, holdsOf(source, words, askedIds), OTHER_TURN_PIECES);
      for (const { later, retired, kept } of retirements) if (isLater(later, turn)) retire(r, retired, kept);
      return out.get(turn.id);
    },
  };
}

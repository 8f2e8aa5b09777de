/**
 * The topic under discussion (issue 19): the thing a conversation is about — a place, a product, a service — so a
 * follow-up that does not name it ("门票多少钱？", "what port does it use?") still finds that thing's docs and
 * records. A message that names something makes it the topic; one that names nothing keeps the topic, and when it
 * is a follow-up (`followsUp`: it points back, or says too little to be about anything else) its search adds the
 * topic's name (query.ts, `topic`). Kept as a working-memory item with the message that named it.
 *
 * What counts as naming something:
 * - a name of the docs: each doc's own name (its `docId` when that is a name rather than a path, the title before
 *   ` · ` or ` › ` in its source), and the part before a bracket (东岳庙(北京民俗博物馆) → 东岳庙);
 * - a code-like identifier: a Latin word joined by `-` or `_` (billing-api, report_worker), or mixing letters and
 *   digits around them (s3-eu-backup);
 * - else a known product the message names (the extractor's `mentions`: Redis, Caddy), which the pipeline adds.
 * Pure, no DOM.
 */
import { COVERAGE_PRIOR, terms, type RetrievalIndex, type Shard } from '../retrieval/index.ts';

/** A name shorter than this (in characters; CJK names count double) is too common to identify a thing. */
const MIN_NAME_WEIGHT = 4;
/** A name shared by more than this many docs' titles is a section word (概述, Installation), not a thing. */
const MAX_TITLE_SHARE = 0.2;

/** Latin identifiers with a `-` or `_` inside: billing-api, report_worker, eu-west-1's service names. */
const IDENTIFIER = /(?<![\w-])[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?![\w-])/gi;
/** Identifiers that are words of ordinary prose, not names (e-mail, follow-up, t-shirt). */
const PROSE_HYPHENATED = /^(?:e-mail|follow-up|t-shirt|re-\w+|co-\w+|non-\w+|self-\w+|well-\w+|so-called|up-to-date|built-in|real-time|open-source)$/i;

const cjk = /[\u3400-\u9fff]/;
const weightOf = (name: string): number => [...name].reduce((n, c) => n + (cjk.test(c) ? 2 : 1), 0);

/** The names the docs give their things, lower-cased, longest first. */
export interface NameDictionary {
  readonly names: readonly string[];
  /** Lower-cased name → as the docs write it. */
  readonly written: ReadonlyMap<string, string>;
}

const dictionaries = new WeakMap<Shard, { version: number; dictionary: NameDictionary }>();

/** The docs' names (worked out once per version of the docs shard). */
export function docNames(index: RetrievalIndex): NameDictionary {
  const cached = dictionaries.get(index.docs);
  if (cached !== undefined && cached.version === index.docs.version) return cached.dictionary;
  const titles = new Map<string, Set<string>>();
  const add = (name: string, docId: string): void => {
    const trimmed = name.trim();
    if (weightOf(trimmed) < MIN_NAME_WEIGHT || /[/\\]|\.mdx?$|^\d+$/.test(trimmed)) return;
    let docs = titles.get(trimmed);
    if (docs === undefined) titles.set(trimmed, (docs = new Set()));
    docs.add(docId);
  };
  // A doc's chunks share its id and mostly its source: each pair is read once (10,000 chunks, a few hundred pairs).
  const seen = new Set<string>();
  const docIds = new Set<string>();
  for (const doc of index.docEntries.values()) {
    docIds.add(doc.docId);
    const pair = `${doc.docId}\u0000${doc.source}`;
    if (seen.has(pair)) continue;
    seen.add(pair);
    const title = doc.source.split(/\s+[·›»|]\s+/)[0] ?? '';
    for (const name of new Set([doc.docId, title])) {
      add(name, doc.docId);
      // 东岳庙(北京民俗博物馆), Vault (HashiCorp): the name before the bracket names it too.
      const bare = name.split(/[（(【[]/)[0] ?? '';
      if (bare !== name) add(bare, doc.docId);
    }
  }
  const docCount = docIds.size;
  const written = new Map<string, string>();
  for (const [name, docs] of titles) {
    if (docCount >= 10 && docs.size > MAX_TITLE_SHARE * docCount) continue;
    written.set(name.toLowerCase(), name);
  }
  const dictionary: NameDictionary = { names: [...written.keys()].sort((a, b) => b.length - a.length), written };
  dictionaries.set(index.docs, { version: index.docs.version, dictionary });
  return dictionary;
}

/** How much of a message is read for names: what a message is about is said at its start (a paste's tail is not). */
const NAME_SCAN_CHARS = 2_000;

/** The things a text names, in the order it names them: docs' names (longest first, no overlaps), then identifiers. */
export function namedIn(full: string, dictionary: NameDictionary): string[] {
  const text = full.slice(0, NAME_SCAN_CHARS);
  const lower = text.toLowerCase();
  const taken: Array<[number, number, string]> = [];
  const free = (from: number, to: number): boolean => taken.every(([a, b]) => to <= a || from >= b);
  for (const name of dictionary.names) {
    for (let at = lower.indexOf(name); at !== -1; at = lower.indexOf(name, at + 1)) {
      if (!free(at, at + name.length) || !wordEdges(lower, at, name)) continue;
      taken.push([at, at + name.length, dictionary.written.get(name)!]);
    }
  }
  for (const match of text.matchAll(IDENTIFIER)) {
    const at = match.index;
    if (PROSE_HYPHENATED.test(match[0]) || !free(at, at + match[0].length)) continue;
    taken.push([at, at + match[0].length, match[0]]);
  }
  return [...new Set(taken.sort((a, b) => a[0] - b[0]).map(([, , name]) => name))];
}

/** A Latin name must stand as a word ("Vault" not in "vaulted"); a CJK one has no word edges to check. */
function wordEdges(text: string, at: number, name: string): boolean {
  const before = text[at - 1];
  const after = text[at + name.length];
  const latinEdge = (c: string | undefined, inner: string | undefined): boolean =>
    c === undefined || inner === undefined || !/[a-z0-9]/i.test(inner) || !/[a-z0-9]/i.test(c);
  return latinEdge(before, name[0]) && latinEdge(after, name[name.length - 1]);
}

/** Words that point back at something named before: 它, 这里, it, there… */
const ANAPHOR = /它|这里|那里|这儿|那儿|这边|那边|这个地方|那个地方|该地|此处|(?<![a-z])(?:it|its|there|that one|this one|that place|this place|they|them|their)(?![a-z])/i;
/** Words that point back at the topic: a message that says one is about it, whatever else it says. */
export const pointsBack = (text: string): boolean => ANAPHOR.test(text);
/** A capitalised word inside a sentence: the message names someone or something of its own (Maya, Friday's demo). */
const PROPER_NAME = /[^.!?。！？\s]\s+[A-Z][a-z]+/;
/** CJK characters and Latin words a message may have and still be a bare follow-up (门票多少钱？, and the price?). */
const SHORT_CJK = 10;
const SHORT_WORDS = 3;

/**
 * Whether a message that names nothing is a follow-up about the topic: it points back (它, 这里, it, there), or it
 * is too short to be about anything by itself ("门票贵不？", "and the price?") — but not when it names someone of
 * its own ("When did Maya see a heron?" is a question of its own, not about the last thing discussed).
 */
export function followsUp(text: string): boolean {
  if (namesSomeone(text)) return false;
  if (pointsBack(text)) return true;
  const cjkChars = [...text].filter((c) => cjk.test(c)).length;
  const words = text.replace(/[\u3400-\u9fff]/g, ' ').match(/[a-z0-9]+/gi)?.length ?? 0;
  return cjkChars <= SHORT_CJK && words <= SHORT_WORDS && cjkChars + words > 0;
}

/** Whether a message names someone or something the docs do not (a capitalised word inside a sentence). */
export const namesSomeone = (text: string): boolean => PROPER_NAME.test(text);

/** The topic a message leaves: what it names first, or null when it names nothing (the topic before stays). */
export function topicNamed(text: string, dictionary: NameDictionary): string | null {
  return namedIn(text, dictionary)[0] ?? null;
}

/** The topic's records read: the newest turns and docs that hold its rarest term. */
const TOPIC_RECORDS = 200;
/** The message's best records anywhere that its words are compared against. */
const BEST_RECORDS = 20;
/** The topic's records must meet the message's words at least this share as well as the best records anywhere. */
const TOPIC_MATCH_SHARE = 0.5;

/**
 * Whether a message that names nothing and points back at nothing is still about the topic. A thing of the docs
 * (a place, a product the docs describe) always is: its docs word their attributes their own way ("call ahead?"
 * is answered by a phone number, 地址 by a street), so a follow-up's words need not be theirs. A thing of the chat
 * (a host, a service the user named) is when the message's own words (`own`, term → weight) are met about as well
 * by the topic's turns — the turns that hold its rarest term, and their exchange — as by the best turns anywhere.
 * A long chat moves on: "现在的目标体重是多少？" after a thread about airflow-worker-02 is met by the turns about
 * weight, not by the host's, and searching for the host too only brings the host's turns. A message whose words
 * meet no turn is about the topic (it can be about nothing else). `messageId`: the message's own turn, if stored.
 */
export function messageMeetsTopic(index: RetrievalIndex, userId: string, topic: string, own: ReadonlyMap<string, number>, messageId: string): boolean {
  const topicTerms = terms(topic);
  if (own.size === 0 || topicTerms.some((t) => index.docs.turns.df(t) > 0)) return true;
  const { shard, links } = index.user(userId);
  const turns = shard.turns;
  const held = topicTerms.filter((t) => turns.df(t) > 0);
  if (held.length === 0) return true;
  const prepared = turns.prepareCoverage(own, COVERAGE_PRIOR);
  // (The message itself, stored before its search, holds all its words: it is no record to compare with.)
  const self = turns.slotOf(messageId) ?? -1;
  const coverage = (slot: number): number => (slot === self ? 0 : turns.coverage(slot, prepared));
  let best = 0;
  for (const { slot } of turns.topSlots(own, BEST_RECORDS + 1)) best = Math.max(best, coverage(slot));
  if (best === 0) return true;
  const rarest = held.reduce((a, b) => (turns.df(b) < turns.df(a) ? b : a));
  let topicBest = 0;
  for (const slot of turns.slotsWith(rarest, TOPIC_RECORDS)) {
    topicBest = Math.max(topicBest, coverage(slot), coverage(links.prev(slot)), coverage(links.next(slot)));
  }
  return topicBest >= TOPIC_MATCH_SHARE * best;
}

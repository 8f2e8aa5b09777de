/**
 * The retrieval query (seed 001 §3.4): the user's message, expanded with working-memory entities and resolved
 * dates. A bare "继续排查" or "try that again tomorrow" has almost nothing to match on; the entities the
 * conversation is about (the server's IP, the service) say what "that" is. Expansions weigh less than the
 * message's own words unless the message says too little to search on by itself and leans on what came before.
 */
import { intentTags, type IntentTag } from './intent.ts';
import { dateTerm } from './retrieval-index.ts';
import { onlyAsks, askingTerms } from './query-words.ts';
import { searchTerms, terms } from './text-terms.ts';

/** A working-memory item offered for expansion: its text, when it was last said, and its entity key if any. */
export interface Expansion {
  readonly text: string;
  readonly key?: string;
  readonly at: number;
}

export interface QueryInput {
  readonly message: string;
  /** Entity keys of the message itself (typed entities and key terms). */
  readonly entities: readonly string[];
  /** ISO dates the message mentions, resolved against its time. */
  readonly dates: readonly string[];
  /** Months the message names (`YYYY-MM`: July 2022, last month): a turn of that month matches its date. */
  readonly months?: readonly string[];
  /** Working memory's live items (entities, fact values), newest last or in any order. */
  readonly expansions?: readonly Expansion[];
  /**
   * The thing under discussion, for a message that names nothing itself (a follow-up: "门票多少钱？"): its
   * name is searched for as much as the message's own words (`topicWeight`), since the message is about it.
   */
  readonly topic?: string;
  /** Whether the message is a bare follow-up about the topic (it points back, or says too little by itself). */
  readonly followUp?: boolean;
}

export interface QueryOptions {
  /** Weight of an expansion term when the message carries enough words of its own. */
  readonly expansionWeight: number;
  /**
   * A message naming nothing, with at most this many distinct terms, that points back or goes on ("that", 继续:
   * `LEANS_BACK`) is "thin": expansions count as much as its own words.
   */
  readonly thinMessageTerms: number;
  /** Expansions lose half their weight per this many ms older than the newest one. */
  readonly expansionHalfLifeMs: number;
  /** Weight of the topic's terms in a follow-up (`QueryInput.topic`); 0 leaves the topic out. */
  readonly topicWeight: number;
  /** Weight of the topic's terms in a message that names nothing but is not a bare follow-up. */
  readonly topicLooseWeight: number;
}

export const DEFAULT_QUERY_OPTIONS: QueryOptions = Object.freeze({
  expansionWeight: 0.15,
  thinMessageTerms: 4,
  expansionHalfLifeMs: 60 * 60_000,
  topicWeight: 1,
  topicLooseWeight: 0.5,
});

/**
 * A message that points back or goes on: what it is about was said before ("try that again", "继续排查", 再试一下).
 * A short question that says its own subject ("What's the moving date now?", "what's my maximum rent?") does not:
 * expanding it with working memory at full weight let the newest items (another thread's dates) take its place.
 */
const LEANS_BACK =
  /它|这个|那个|这些|那些|这样|那样|继续|接着|再|重新|刚才|(?<![a-z])(?:it|its|that|this|these|those|them|they|there|again|continue|continuing|keep going|retry|same)(?![a-z])/i;

/**
 * A Chinese verb-object word asked with a particle inside it (搬的家, 吃了饭, 见过面, 洗个澡): the word itself, as a
 * turn that says it has it ("3月16号搬家"). The question's own bigrams (搬的, 的家) match nothing. Across a phrase it
 * also makes a bigram that is no word (完整的规则 → 整规); on the Chinese eval sets the words found outweighed those.
 */
const SPLIT_WORD = /(?<=(\p{sc=Han}))[的了过个](?=(\p{sc=Han}))/gu;
const splitWords = (message: string): string[] => [...message.matchAll(SPLIT_WORD)].map((m) => `~${m[1]}${m[2]}`);

export interface RetrievalQuery {
  readonly message: string;
  /** Term → weight, for BM25. */
  readonly terms: ReadonlyMap<string, number>;
  /** Entity keys of the message and of working memory. */
  readonly entities: ReadonlySet<string>;
  readonly dates: readonly string[];
  /** `YYYY-MM`, see `QueryInput.months`. */
  readonly months: readonly string[];
  readonly tags: readonly IntentTag[];
  /** What the vector side embeds: the message, then its expansions. */
  readonly vectorText: string;
  /** The expansion texts used, for the report. */
  readonly expandedWith: readonly string[];
  readonly thin: boolean;
}

export function buildQuery(input: QueryInput, options: QueryOptions = DEFAULT_QUERY_OPTIONS): RetrievalQuery {
  const weights = new Map<string, number>();
  const asking = askingTerms(input.message);
  // A split word is a word of the message's own, as much as the others (at half weight it scored lower on four
  // Chinese sets of six).
  for (const t of [...searchTerms(input.message), ...splitWords(input.message)]) if (!onlyAsks(t) && !asking.has(t)) weights.set(t, 1);
  // Thin: few words, nothing it names (an IP, a product, a person), and it leans on what came before — "继续排查",
  // "try that again tomorrow".
  const names = input.entities.filter((e) => !e.startsWith('date:') && !e.startsWith('time:'));
  const thin = names.length === 0 && weights.size <= options.thinMessageTerms && LEANS_BACK.test(input.message);
  for (const d of input.dates) weights.set(dateTerm(d), 1);
  const entities = new Set(input.entities);
  const expansions = [...(input.expansions ?? [])];
  const newest = expansions.reduce((m, e) => Math.max(m, e.at), -Infinity);
  const used: string[] = [];
  /** What the query's vector says beside the message: the topic, and working memory only for a thin message. */
  const spoken: string[] = [];
  for (const e of expansions) {
    // Times and sums of money say nothing about which thread is meant.
    if (e.key?.startsWith('time:') === true || e.key?.startsWith('amount:') === true) continue;
    const age = Math.max(0, newest - e.at);
    const weight = (thin ? 1 : options.expansionWeight) * 0.5 ** (age / options.expansionHalfLifeMs);
    if (weight < 0.02) continue;
    let added = false;
    // A date expands to its date key (what turns that mention the day are indexed by), not to "2023", "10".
    const expansionTerms = e.key?.startsWith('date:') === true ? [dateTerm(e.text)] : terms(e.text);
    for (const t of expansionTerms) {
      if ((weights.get(t) ?? 0) < weight) {
        weights.set(t, weight);
        added = true;
      }
    }
    // A message with words of its own is matched by them: what working memory holds weighs lightly in its terms,
    // and is neither an entity it shares nor words its vector says (a pasted log's timestamps, in memory because
    // they were the latest thing said, brought that log to every later question).
    if (e.key !== undefined && thin) entities.add(e.key);
    if (added) used.push(e.text);
    if (added && thin) spoken.push(e.text);
  }
  const topicWeight = input.followUp === true ? options.topicWeight : options.topicLooseWeight;
  if (input.topic !== undefined && topicWeight > 0) {
    let added = false;
    for (const t of terms(input.topic)) {
      if ((weights.get(t) ?? 0) < topicWeight) {
        weights.set(t, topicWeight);
        added = true;
      }
    }
    if (added) {
      used.unshift(input.topic);
      spoken.unshift(input.topic);
    }
  }
  return {
    message: input.message,
    terms: weights,
    entities,
    dates: [...new Set(input.dates)],
    months: [...new Set(input.months ?? [])],
    tags: intentTags(input.message),
    vectorText: spoken.length === 0 ? input.message : `${input.message}\n${spoken.join(' ')}`,
    expandedWith: used,
    thin,
  };
}

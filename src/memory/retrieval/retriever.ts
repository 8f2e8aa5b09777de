/**
 * One retrieval: candidates from the sessions the rules allow (and the docs), reranked, packed into the budget,
 * rendered with labels; heat updated from the outcome; every candidate reported with its features and fate.
 */
import type { DateMention } from '../../shared/date-mention.ts';
import { pieceIndex, type LineTable } from './line-text.ts';
import { answerKinds, asksForEarlierValues } from './answer-type.ts';
import { DEFAULT_PACK_OPTIONS, pack, type PackCandidate, type PackDecision, type PackOptions, type TokenCount } from './pack.ts';
import type { RetrievalQuery } from './query.ts';
import type { Piece } from './pieces.ts';
import type { DocEntry, HeatEntry, TurnEntry } from './records.ts';
import type { DocLine, RecordLabels, RecordLine } from './render.ts';
import { DEFAULT_RERANK_OPTIONS, rankCandidates, type Candidate, type Features, type RerankOptions } from './rerank.ts';
import type { RetrievalIndex, UserMemory } from './retrieval-index.ts';
import { LastMemo } from './search-memo.ts';
import { supersededPieces } from './supersede.ts';
import { answeredLater, NO_LATER_ANSWERS, OTHER_TURN_PIECES, type AnswerSource, type LaterAnswers } from './answered-later.ts';

/** Which memory this search may read (the session rules decide; see layered/session-gate.ts). */
export interface RetrievalScope {
  readonly userId: string;
  readonly sessionId: string;
  /** Other sessions of the same user (warm start closes them). */
  readonly otherSessions: boolean;
  readonly docs: boolean;
  /** The docs it may read, by doc id (a docs widget's `scope`), and a key naming that set; undefined: every doc. */
  readonly docIds?: DocScope;
}

export interface DocScope {
  readonly ids: readonly string[];
  readonly key: string;
}

export interface RetrieveRequest {
  readonly query: RetrievalQuery;
  readonly scope: RetrievalScope;
  /** Turns never to inject: already in the prompt, the message itself. */
  readonly exclude: ReadonlySet<string>;
  readonly budget: number;
  /**
   * The budget the docs pool is sized for (default: `budget`). A second pass over the same query keeps the first
   * pass's: the room it adds is for conversation records, and its docs ranking — which nothing it leaves out can
   * change — is then the one already made.
   */
  readonly docsPoolBudget?: number;
  /**
   * The largest budget a later pass over the same query may have (default: `budget`): the conversation's
   * searches are run deep enough for its pool once, and that pass only re-filters them.
   */
  readonly searchDepthBudget?: number;
  readonly now: number;
  readonly counter: TokenCount;
  readonly labels: RecordLabels;
  readonly offsetMinutes: number;
  /** The relative times a text written at `time` names (working memory's date rules); without it, none are noted. */
  readonly dateMentions?: (text: string, time: number) => readonly DateMention[];
  readonly rerank?: Partial<RerankOptions>;
  readonly pack?: Partial<PackOptions>;
}

export type CandidateFate = PackDecision;

export interface CandidateReport {
  readonly id: string;
  readonly namespace: 'conversation' | 'docs';
  /** Session id (conversation) or doc id. */
  readonly scope: string;
  readonly time?: number;
  readonly rank: number;
  readonly score: number;
  /** The query's share its words hold, absolute (`Candidate.match`): what the relevance gate reads. */
  readonly match: number;
  readonly sources: readonly string[];
  readonly features: Features;
  readonly fate: CandidateFate;
  /** Which sentences went in, or 'all'. */
  readonly pieces?: readonly number[] | 'all';
  readonly preview: string;
}

export interface RetrievalResult {
  /** The rendered sections (conversation records, then docs); '' when nothing fits or matches. */
  readonly text: string;
  readonly tokens: number;
  readonly candidates: readonly CandidateReport[];
  /** Chunk ids injected, by rank (paired turns last). */
  readonly injected: readonly string[];
  /** The injected candidates' scores, by rank (paired turns are not candidates). */
  readonly injectedScores: readonly number[];
  /** Heat after this search, for the chunks it touched (persist it). Worked out on first read: read it before any heat changes. */
  readonly heat: ReadonlyMap<string, HeatEntry>;
  /** Pieces injected per chunk id. */
  readonly chosen: ReadonlyMap<string, readonly number[] | 'all'>;
  /** The lines `text` renders (the memory block places them line by line). */
  readonly records: readonly RecordLine[];
  readonly docs: readonly DocLine[];
  /** Whether the block heads every day with its year (a question about when). */
  readonly yearEveryDay: boolean;
}

export function retrieve(index: RetrievalIndex, request: RetrieveRequest): RetrievalResult {
  const base: RerankOptions = { ...DEFAULT_RERANK_OPTIONS, ...request.rerank };
  const poolFor = (budget: number): RerankOptions => ({ ...base, poolSize: conversationPool(base.poolSize, budget) });
  const rerank: RerankOptions = { ...poolFor(request.budget), searchDepth: poolFor(Math.max(request.budget, request.searchDepthBudget ?? 0)).poolSize };
  let packOptions: PackOptions = { ...DEFAULT_PACK_OPTIONS, ...request.pack };
  // A question about when, or about what was true before, is answered by what later statements superseded.
  if (asksForEarlierValues(request.query.message)) packOptions = { ...packOptions, supersede: false };
  const { scope, query } = request;
  const memory = index.user(scope.userId);
  const excluded = new Set([...request.exclude, ...memory.deprecated]);
  const allow = scope.otherSessions ? undefined : (s: string): boolean => s === scope.sessionId;

  const conversation = rankCandidates(
    query,
    {
      shard: memory.shard,
      allow,
      scopes: scope.otherSessions ? undefined : [scope.sessionId],
      exclude: excluded,
      turnAt: (slot) => memory.turnAt(slot),
      links: memory.links,
      scopeKey: `${scope.sessionId}\u0000${String(scope.otherSessions)}`,
      now: request.now,
      tags: (slot) => memory.turnAt(slot)?.tags ?? [],
      selfStatement: (id) => memory.selfStatements.has(id),
      writtenOn: (days) => memory.slotsWrittenOn(days, request.offsetMinutes, scope.otherSessions ? undefined : scope.sessionId),
    },
    rerank,
    request.offsetMinutes,
  );
  const docs = scope.docs ? rankDocs(index, query, docsPoolFor(base, request.docsPoolBudget ?? request.budget), request) : [];

  const records: RecordSource = { index, memory, excluded, answeredLater: NO_LATER_ANSWERS };
  const items = mergeByScore(conversation, docs, records);
  if (packOptions.supersede) {
    // The question's answers given again later by the user: the earlier ones are superseded for this search.
    const turns = items.filter((item) => item.namespace === 'conversation').slice(0, ANSWERS_COMPARED);
    const sources: AnswerSource[] = [];
    for (const item of turns) {
      sources.push({ turn: item.turn!, pieces: item.pieces, best: pieceIndex(item.candidate.bestPiece, item.pieces.length) });
      // An assistant's "Changed: free shipping over $95" confirms what the user said just before: that is the answer.
      const asked = item.turn!.role === 'assistant' ? item.previous() : undefined;
      if (asked?.turn?.role === 'user' && !turns.some((t) => t.candidate.id === asked.candidate.id)) sources.push({ turn: asked.turn, pieces: asked.pieces.slice(0, OTHER_TURN_PIECES), best: 0, around: OTHER_TURN_PIECES });
    }
    // Their sentences' words as the index keeps them (not worked out again for every search).
    const shard = memory.shard;
    records.answeredLater = answeredLater(query.message, sources, {
      termIdOf: (term) => shard.pieces.termIdOf(term),
      of: (turn) => shard.chunks.get(turn.id)?.pieceTermIds,
    });
  }
  const speakerOf = (turn: TurnEntry): string => turn.speaker ?? (turn.role === 'user' ? request.labels.user : request.labels.assistant);
  // A question about when is answered by a date: every day heading then carries its year, and each record says
  // what its relative times (yesterday, 上周) meant on the day it was written.
  const yearEveryDay = answerKinds(query.message).includes('when');
  const dateMentions = yearEveryDay ? request.dateMentions : undefined;
  const packed = pack(items, request.budget, { counter: request.counter, labels: request.labels, offsetMinutes: request.offsetMinutes, speakerOf, yearEveryDay, ...(dateMentions === undefined ? {} : { dateMentions }) }, packOptions);

  const reportOf = (): CandidateReport[] => items.map(({ candidate, namespace, turn, doc, text }, rank) => {
    const pieces = packed.chosen.get(candidate.id);
    const report: { -readonly [K in keyof CandidateReport]: CandidateReport[K] } = {
      id: candidate.id,
      namespace,
      scope: turn?.sessionId ?? doc?.docId ?? '',
      rank: rank + 1,
      score: candidate.score,
      match: candidate.match,
      sources: candidate.sources,
      features: candidate.features,
      fate: packed.decisions.get(candidate.id) ?? 'over-budget',
      preview: text.length > 80 ? `${text.slice(0, 77)}…` : text,
    };
    if (turn !== undefined) report.time = turn.time;
    if (pieces !== undefined) report.pieces = pieces;
    return report;
  });

  // Heat: every candidate had a chance; the injected ones were recalled.
  const heatAfter = (): Map<string, HeatEntry> => {
    const heat = new Map<string, HeatEntry>();
    for (const { candidate, namespace } of items) {
      const shard = namespace === 'docs' ? index.docs : memory.shard;
      const before = shard.heatOf(candidate.id);
      const recalled = packed.chosen.has(candidate.id);
      heat.set(candidate.id, {
        chances: before.chances + 1,
        recalls: before.recalls + (recalled ? 1 : 0),
        missStreak: recalled ? 0 : before.missStreak + 1,
        lastRecalledAt: recalled ? request.now : before.lastRecalledAt,
      });
    }
    return heat;
  };
  const chosenRanked = items.filter((r) => packed.chosen.has(r.candidate.id));
  const rankedIds = new Set(chosenRanked.map((r) => r.candidate.id));
  const injected = [...rankedIds, ...packed.paired.filter((id) => !rankedIds.has(id))];
  let candidates: CandidateReport[] | null = null;
  let heat: Map<string, HeatEntry> | null = null;
  // The report and the heat are worked out when asked for: a pass the pipeline redoes never needs them.
  return {
    text: packed.text,
    tokens: packed.tokens,
    get candidates() {
      return (candidates ??= reportOf());
    },
    injected,
    injectedScores: chosenRanked.map((r) => r.candidate.score),
    get heat() {
      return (heat ??= heatAfter());
    },
    chosen: packed.chosen,
    records: packed.records,
    docs: packed.docs,
    yearEveryDay,
  };
}

const NO_PIECES: ReadonlySet<number> = new Set();
/** The best conversation candidates whose answers to the question are compared (answered-later.ts). */
const ANSWERS_COMPARED = 12;

/** Where ranked items find their records. */
interface RecordSource {
  readonly index: RetrievalIndex;
  readonly memory: UserMemory;
  readonly excluded: ReadonlySet<string>;
  /** Per turn, its sentences that answer this search's question with a value the user gave again later (answered-later.ts). */
  answeredLater: LaterAnswers;
}

/** A turn's superseded sentences: by a later restatement (any search), or by a later answer (this search's). */
function supersededOf(source: RecordSource, turn: TurnEntry, pieces: readonly Piece[]): ReadonlySet<number> {
  const restated = supersededPieces(source.memory, turn, pieces);
  const answered = source.answeredLater.of(turn, pieces);
  return answered === undefined ? restated : new Set([...restated, ...answered]);
}

/** The turn `step` from `turn` in its session, as packing sees it (it has neighbours too: a question's answer, then what the user decided). */
function neighbourOf(source: RecordSource, turn: TurnEntry, step: -1 | 1): PackCandidate | undefined {
  const { memory, excluded } = source;
  const other = memory.neighbour(turn.id, step);
  if (other === undefined || excluded.has(other.id)) return undefined;
  const chunk = memory.shard.chunks.get(other.id);
  if (chunk === undefined) return undefined;
  return {
    candidate: pairCandidate(other.id),
    turn: other,
    text: other.text,
    pieces: chunk.pieces,
    superseded: () => supersededOf(source, other, chunk.pieces),
    previous: () => neighbourOf(source, other, -1),
    next: () => neighbourOf(source, other, 1),
  };
}

/**
 * A ranked candidate as packing sees it. Its record (turn or doc entry, text, pieces) is looked up when first
 * read: packing stops reading candidates once the budget is full, and most of a search's come after that.
 */
class RankedItem implements PackCandidate {
  readonly candidate: Candidate;
  readonly namespace: 'conversation' | 'docs';
  readonly lineTable: LineTable;
  readonly lineSlot: number;
  private readonly _source: RecordSource;
  private _record: TurnEntry | DocEntry | null = null;
  private _pieces: readonly Piece[] | null = null;

  constructor(candidate: Candidate, namespace: 'conversation' | 'docs', source: RecordSource) {
    this.candidate = candidate;
    this.namespace = namespace;
    this._source = source;
    this.lineTable = (namespace === 'docs' ? source.index.docs : source.memory.shard).lineCaches;
    this.lineSlot = candidate.slot;
  }

  get turn(): TurnEntry | undefined {
    return this.namespace === 'conversation' ? (this._resolve() as TurnEntry) : undefined;
  }

  get doc(): DocEntry | undefined {
    return this.namespace === 'docs' ? (this._resolve() as DocEntry) : undefined;
  }

  get text(): string {
    return this._resolve().text;
  }

  /** Looked up apart from the record: ruling a candidate out reads only the record (its counts are kept with it). */
  get pieces(): readonly Piece[] {
    if (this._pieces === null) {
      const shard = this.namespace === 'docs' ? this._source.index.docs : this._source.memory.shard;
      this._pieces = shard.chunks.get(this.candidate.id)!.pieces;
    }
    return this._pieces;
  }

  /** Its sentences a later user message restates, or answers again, with another value; docs have none. */
  superseded(): ReadonlySet<number> {
    const turn = this.turn;
    return turn === undefined ? NO_PIECES : supersededOf(this._source, turn, this.pieces);
  }

  /** The turn before it in its session (pairing), when allowed; docs have none. */
  previous(): PackCandidate | undefined {
    return this._neighbour(-1);
  }

  /** The turn after it in its session (a question's answer), when allowed. */
  next(): PackCandidate | undefined {
    return this._neighbour(1);
  }

  private _neighbour(step: -1 | 1): PackCandidate | undefined {
    const turn = this.turn;
    return turn === undefined ? undefined : neighbourOf(this._source, turn, step);
  }

  private _resolve(): TurnEntry | DocEntry {
    const { slot } = this.candidate;
    return (this._record ??= this.namespace === 'docs' ? this._source.index.docAt(slot)! : this._source.memory.turnAt(slot)!);
  }
}

/**
 * Two rankings (each best first) as one, best first, as the items packing reads; on a tie the conversation's
 * first. The same order as a stable sort of the two lists one after the other, in one pass.
 */
function mergeByScore(conversation: readonly Candidate[], docs: readonly Candidate[], records: RecordSource): RankedItem[] {
  const out: RankedItem[] = [];
  let i = 0;
  let j = 0;
  while (i < conversation.length || j < docs.length) {
    if (j >= docs.length || (i < conversation.length && conversation[i]!.score >= docs[j]!.score)) out.push(new RankedItem(conversation[i++]!, 'conversation', records));
    else out.push(new RankedItem(docs[j++]!, 'docs', records));
  }
  return out;
}

/**
 * The conversation's pool per search. Seed 001 takes 20 candidates for 5 slots of 500–800-token exchanges; the
 * block holds a few whole turns (about 7 at the 1,024 window's 480 tokens), so one candidate per 12 tokens of
 * budget (40 there, at most 400), and never fewer than 40. Measured over the twelve long chats, the six Chinese ops
 * sets and LoCoMo (roles only and named), at 480 tokens: mean `lenient` 0.770 with 40 and with 120 (one per 4
 * tokens, before), 0.769 with 60, 0.767 with 20; leave-one-set-out picks 40 in 20 of 22 folds. Below 480 the floor
 * keeps 40: at 160 tokens a pool of 20 lost `answerShare` (zh-3 0.435 → 0.391, zh-ops dev 0.750 → 0.729). At 480
 * a message's conversation ranking then works out features for about 100 candidates, not 250.
 */
export function conversationPool(seedPool: number, budget: number): number {
  return Math.max(seedPool, CONVERSATION_POOL_FLOOR, Math.min(400, Math.ceil(budget / TOKENS_PER_CANDIDATE)));
}
const CONVERSATION_POOL_FLOOR = 40;
const TOKENS_PER_CANDIDATE = 12;

/**
 * The docs pool: one candidate per 12 tokens of budget, as the conversation's, but at least the seed's 20 only.
 * A doc chunk is a page's section, found whole by its words; it has no exchange or thread to be lifted by, so a
 * deep pool only adds candidates that never reach the block. Docs recall is the same with 40 as with 120 at the
 * 1,024 window's 480 tokens (travel 0.832, our follow-ups 1.000, held-out follow-ups 0.797), and the docs
 * ranking of every new message costs a third as many candidates' features.
 */
function docsPoolFor(base: RerankOptions, budget: number): RerankOptions {
  return { ...base, poolSize: Math.max(base.poolSize, Math.min(400, Math.ceil(budget / TOKENS_PER_CANDIDATE))) };
}

/** The last docs ranking per index, under everything it depends on (docs leave nothing out). */
const docsRankings = new WeakMap<RetrievalIndex, LastMemo<Candidate[]>>();

function rankDocs(index: RetrievalIndex, query: RetrievalQuery, rerank: RerankOptions, request: RetrieveRequest): Candidate[] {
  const only = request.scope.docIds;
  const key = [query, index.docs.version, index.docs.heatRevision, rerank.poolSize, request.rerank, request.now, request.offsetMinutes, only?.key];
  let memo = docsRankings.get(index);
  if (memo === undefined) docsRankings.set(index, (memo = new LastMemo()));
  const last = memo.get(key);
  if (last !== undefined) return last;
  const ranked = rankCandidates(
    query,
    {
      shard: index.docs,
      allow: only === undefined ? undefined : allowOf(only),
      scopes: only?.ids,
      scopeKey: only === undefined ? 'docs' : `docs\u0000${only.key}`,
      exclude: new Set(),
      now: request.now,
      tags: (slot) => index.docTagsAt(slot),
    },
    rerank,
    request.offsetMinutes,
  );
  memo.set(key, ranked);
  return ranked;
}

/** A doc scope as a membership test (made once per scope: a search may run on every keystroke). */
const allowed = new WeakMap<DocScope, (docId: string) => boolean>();
export function allowOf(scope: DocScope): (docId: string) => boolean {
  let test = allowed.get(scope);
  if (test === undefined) {
    const ids = new Set(scope.ids);
    allowed.set(scope, (test = (docId) => ids.has(docId)));
  }
  return test;
}

/** Heat changes are applied by the caller (so a probe, like the eval's questions, leaves no trace). */
export function applyHeat(index: RetrievalIndex, userId: string, heat: ReadonlyMap<string, HeatEntry>): void {
  const memory = index.user(userId);
  for (const [id, h] of heat) (index.docEntries.has(id) ? index.docs : memory.shard).setHeat(id, h);
}

const ZERO: Features = Object.freeze({
  lexical: 0, context: 0, sentence: 0, vector: 0, entities: 0, speaker: 0, date: 0, thread: 0, recency: 0, cold: 0, intent: 0, persona: 0, coverage: 0, stated: 0,
});

function pairCandidate(id: string): Candidate {
  return { id, sources: ['paired'], features: ZERO, score: 0, match: 0, bestPiece: -1, slot: -1 };
}

/**
 * The layered memory pipeline, once per user message (seed 001 §3, ARCHITECTURE "the data path of one turn"):
 *   1. write the message first (store + index), so what the user just said is searchable;
 *   2. update working memory from it (rules, no model call); void deprecated topics;
 *   3. decide which memory this session may read (isolation, warm start);
 *   4. build the query (message + working-memory entities + resolved dates) and retrieve within the budget;
 *   5. assemble with the context engine: the memory block (working memory, conversation records, docs, each
 *      labelled) rides in the newest user message, carrying only what the prompt does not already hold —
 *      earlier blocks stay verbatim in the history, so the prompt only grows at its end; a compaction slides
 *      the oldest messages out (kept ones stay verbatim, so an engine with KV chunk reuse shifts them).
 * A turn the prompt's history already holds is never retrieved again: if the first assembly shows one, the
 * block is rebuilt without it (a second pass). Replies are recorded with `recordReply`.
 */
import { sessionKey } from './session-key.ts';
import { appendedPrefix, assemble, type ContextState } from '../../context/assemble.ts';
import { keptState, restoredState } from '../../context/kept-state.ts';
import { GENERATION_PROMPT_TOKENS } from '../../context/chatml.ts';
import { configKey, resolveConfig, type ContextConfig } from '../../context/config.ts';
import { isBlank, sanitizeText } from '../../shared/sanitize.ts';
import { MemoCounter, type TokenCounter } from '../../context/tokens.ts';
import type { ChatMessage } from '../../engine/protocol.ts';
import { AssistantError } from '../../shared/errors.ts';
import { yieldToPage } from '../../shared/yield.ts';
import { applyHeat, buildQuery, DEFAULT_QUERY_OPTIONS, intentTags, keyTerms, RetrievalIndex, retrieve, terms, type ChunkStore, type DocEntry, type HeatEntry, type PackOptions, type QueryOptions, type RerankOptions, type RetrievalQuery, type RetrievalResult, type DocScope, type SessionEntry, type TurnEntry, type TurnRole } from '../retrieval/index.ts';
import { sectionBudgets, validateBudgets, type SectionBudgets } from './budgets.ts';
import { voidedTurns } from './deprecation.ts';
import { docNames, followsUp, messageMeetsTopic, namesSomeone, pointsBack, topicNamed } from './discussion-topic.ts';
import { BASE_SYSTEM_PROMPT, LABELS, detectLang, systemPrompt, type Lang } from './labels.ts';
import { deferLowValue, needsAllMemory } from './defer.ts';
import { blockDelta, blockText, selectWorking, type BlockParts } from './memory-block.ts';
import type { LayeredReport, MemoryReport } from './report.ts';
import { DEFAULT_GATE_OPTIONS, gate, type GateOptions } from './session-gate.ts';
import { SessionHistories, type SessionHistory } from './session-history.ts';
import { recallCue } from './recall-request.ts';
import { SessionWorkingMemory, isoAt, renderWmLine, type Observation, type WmItem, type WorkingMemoryPort } from './working-memory.ts';
import { dateMentions, entitiesWithPassingDates, monthsNamed, type DateMention, type Extraction } from '../working-memory/index.ts';

export interface LayeredMemoryOptions {
  readonly store: ChunkStore;
  /** The context engine's counter (exact Qwen counts in the app and the eval). */
  readonly counter: TokenCounter;
  /** The model's whole window: prompt and answer. */
  readonly window: number;
  /** Section budgets; the defaults for `window` when absent. */
  readonly budgets?: SectionBudgets;
  readonly workingMemory?: WorkingMemoryPort;
  readonly index?: RetrievalIndex;
  /** The docs its retrieval may read (a docs widget's `scope`); absent: every doc. */
  readonly docScope?: DocScope;
  /** The base system prompt per language (the memory rule is appended). */
  readonly systemPrompt?: Partial<Record<Lang, string>>;
  /** Force the labels' language; otherwise a session takes its first message's. */
  readonly lang?: Lang;
  /** The user's UTC offset (dates shown and relative dates resolved in it). */
  readonly offsetMinutes?: number;
  readonly gate?: Partial<GateOptions>;
  readonly query?: Partial<QueryOptions>;
  readonly rerank?: Partial<RerankOptions>;
  readonly pack?: Partial<PackOptions>;
  /**
   * Whether records may use the part of the input section a compaction left unused (default true: the recent
   * turns it took out come back as records). The eval's `--retrieval-budget` turns it off to measure a section size.
   */
  readonly borrowSpareInput?: boolean;
  /** Other context-engine settings (recent exchanges, word lists, cache awareness). */
  readonly context?: Partial<ContextConfig>;
  /**
   * Called with the text the search will embed, before it runs: an embedder that answers from a cache
   * (engine-vectors.ts) embeds the query then. It never throws; without a vector the search has keyword scores.
   */
  readonly prepareQuery?: (text: string) => Promise<unknown>;
}

export interface MessageInput {
  readonly userId: string;
  readonly sessionId: string;
  readonly text: string;
  /** Epoch ms. */
  readonly time: number;
  readonly speaker?: string;
  readonly id?: string;
}

export interface HandleOptions {
  /** false: a probe — nothing is written, no state moves (the eval's questions). Default true. */
  readonly commit?: boolean;
}

export interface TurnResult {
  /** What to send to the engine. */
  readonly messages: ChatMessage[];
  readonly report: LayeredReport;
  /** The memory block placed in the newest user message: only what the prompt did not already hold ('' when none). */
  readonly extras: string;
  /** The turn's whole memory block (working memory, records, docs), held already or sent now. */
  readonly memory: string;
  readonly turn: TurnEntry;
}

interface SessionRuntime {
  lang: Lang | null;
  context: ContextState | null;
  /**
   * The read of the state kept in the store (once, when the session is first prompted or warmed; a warm-up and the
   * message sent during it share it).
   */
  keptRead: Promise<void> | null;
  lastVoidAt: number;
}

/** Messages at least this long are handled in several tasks (see `handleUserMessage`). */
const LONG_MESSAGE_CHARS = 2_000;

const key = sessionKey;

/** Checked before anything is written: a bad message must not reach the store. Replies may be empty (aborted). */
function checkMessage(input: MessageInput, reply = false): void {
  const bad = (what: string): never => {
    throw new AssistantError('invalid_input', what);
  };
  if (typeof input !== 'object' || input === null) bad('The message is missing.');
  if (typeof input.userId !== 'string' || input.userId === '') bad('The message has no user.');
  if (typeof input.sessionId !== 'string' || input.sessionId === '') bad('The message has no session.');
  if (typeof input.text !== 'string') bad('The message must be text.');
  if (!reply && isBlank(input.text)) bad('The message is empty.');
  if (!Number.isFinite(input.time)) bad('The message has no valid time.');
}

export class LayeredMemory {
  readonly index: RetrievalIndex;
  readonly budgets: SectionBudgets;
  private readonly _o: LayeredMemoryOptions;
  private readonly _wm: WorkingMemoryPort;
  private readonly _sessions = new Map<string, SessionEntry>();
  private readonly _runtime = new Map<string, SessionRuntime>();
  /** Date mentions by record line and time: a question about when notes mostly the same records again. */
  private _dateMentions = new Map<string, readonly DateMention[]>();
  private readonly _histories = new SessionHistories();
  private readonly _configs = new Map<Lang, ContextConfig>();
  private readonly _offset: number;

  constructor(options: LayeredMemoryOptions) {
    this._o = options;
    this.budgets = options.budgets ?? sectionBudgets(options.window);
    validateBudgets(this.budgets);
    if (this.budgets.window !== options.window) throw new AssistantError('invalid_config', 'The budgets are for another window.');
    this._offset = options.offsetMinutes ?? 0;
    this.index = options.index ?? new RetrievalIndex();
    this._wm = options.workingMemory ?? new SessionWorkingMemory({ offsetMinutes: this._offset });
  }

  /** Rebuilds a user's memory from the store (start-up). Working memory is not rebuilt: it lives 24 h. */
  async loadUser(userId: string): Promise<void> {
    const turns = await this._o.store.listTurns(userId);
    const heat = await this._o.store.listHeat(turns.map((t) => t.id));
    this.index.load(turns, heat);
    await this._loadGates(userId);
  }

  /**
   * Start-up with an index restored from a snapshot (`options.index`, holding the user's turns already): only
   * what the snapshot leaves to the records is read — each turn's heat and each session's gate state.
   */
  async restoreUser(userId: string): Promise<void> {
    const memory = this.index.user(userId);
    const heat = await this._o.store.listHeat([...memory.turns.keys()]);
    for (const [id, h] of heat) memory.shard.setHeat(id, h);
    await this._loadGates(userId);
  }

  private async _loadGates(userId: string): Promise<void> {
    for (const s of await this._o.store.listSessions(userId)) this._sessions.set(key(userId, s.sessionId), s);
  }

  /**
   * The session's context state; the first time, the one kept in the store from before the page load, rebuilt for
   * its history now (read per session when it is needed: a page load reads none).
   */
  private async _contextOf(userId: string, sessionId: string, runtime: SessionRuntime, history: readonly ChatMessage[]): Promise<ContextState | null> {
    runtime.keptRead ??= (async () => {
      // A store that cannot be read costs only the continuation: the prompt is selected afresh.
      const kept = await Promise.resolve(this._o.store.getContext?.(userId, sessionId)).catch(() => null);
      if (kept != null && runtime.context === null) runtime.context = restoredState(kept, history);
    })();
    await runtime.keptRead;
    return runtime.context;
  }

  /**
   * Turns the user no longer sees (a reply replaced by a regenerate, the turns after an edited message, a deleted
   * conversation) leave the memory in place, without a rebuild: out of the index, and the session's prompt
   * assembly starts afresh (its last prompt held them). Other sessions keep theirs.
   */
  forgetTurns(userId: string, sessionId: string, ids: Iterable<string>): void {
    this.index.removeTurns(userId, ids);
    this._runtime.delete(key(userId, sessionId));
    // Its kept state too: a page load must not continue a prompt that held them.
    void this._o.store.putContext?.(userId, sessionId, null).catch(() => {});
  }

  /**
   * A session changed elsewhere (another tab wrote to it): its turns in the memory are replaced, in place, by the
   * ones stored now, with their heat and the session's gate state as stored; the other sessions are untouched.
   * `turns` are the session's records in order, numbered as `loadUser` numbers them.
   */
  replaceSession(userId: string, sessionId: string, turns: readonly TurnEntry[], heat: ReadonlyMap<string, HeatEntry>, gate: SessionEntry | undefined): void {
    // The other tab's prompt is its own: this one's next prompt for the session starts afresh, and the state that
    // tab kept in the store stays.
    this.index.removeTurns(userId, [...(this.index.user(userId).sessions.get(sessionId) ?? [])]);
    this._runtime.set(key(userId, sessionId), { lang: null, context: null, keptRead: Promise.resolve(), lastVoidAt: 0 });
    const shard = this.index.user(userId).shard;
    for (const turn of turns) {
      this.index.addTurn(turn);
      const h = heat.get(turn.id);
      if (h !== undefined) shard.setHeat(turn.id, h);
    }
    if (gate !== undefined) this._sessions.set(key(userId, sessionId), gate);
  }

  /** A deleted conversation leaves the memory in place: its turns, its gate state and its prompt assembly. */
  forgetSession(userId: string, sessionId: string): void {
    this.forgetTurns(userId, sessionId, [...(this.index.user(userId).sessions.get(sessionId) ?? [])]);
    this._sessions.delete(key(userId, sessionId));
  }

  async addDoc(doc: DocEntry): Promise<void> {
    await this._o.store.putDoc(doc);
    this.index.addDoc(doc);
  }

  /** The context state of a session (persist it with the conversation to keep the KV-cache path). */
  contextState(userId: string, sessionId: string): ContextState | null {
    return this._runtime.get(key(userId, sessionId))?.context ?? null;
  }

  /** The configuration the context engine runs with for a language. */
  contextConfig(lang: Lang): ContextConfig {
    let config = this._configs.get(lang);
    if (config === undefined) {
      const b = this.budgets;
      const promptLimit = b.window - b.reserve;
      config = resolveConfig({
        ...this._o.context,
        systemPrompt: systemPrompt(lang, this._o.systemPrompt?.[lang] ?? BASE_SYSTEM_PROMPT[lang]),
        budgetTokens: b.window,
        reserveTokens: b.reserve,
        // The block may borrow the input section's spare room (a second pass, below): a cap of working + retrieval
        // alone cut such a block at its end, with a marker, and lost its newest records.
        maxExtrasTokens: b.working + b.retrieval + b.input + 4,
        // Earlier memory blocks stay in the history; an over-budget prompt slides its oldest messages out.
        compaction: 'slide',
        // After a compaction the input section stays free, so the next few turns and their deltas append.
        lowWaterRatio: Math.min(1, Math.max(0.5, (promptLimit - b.input) / promptLimit)),
      });
      this._configs.set(lang, config);
    }
    return config;
  }

  /**
   * The messages the session's next prompt will start with, before its message exists: the previous prompt (kept
   * across page loads) and the reply when the next one appends to it, else the system message alone. An engine
   * prefills them while the user types. A new session's language is not known yet: `langHint` (the page's) stands
   * in for it.
   */
  async nextPrefix(userId: string, sessionId: string | null, langHint: Lang): Promise<ChatMessage[]> {
    const runtime = sessionId === null ? undefined : this._runtimeOf(key(userId, sessionId));
    const lang = runtime?.lang ?? this._o.lang ?? (sessionId === null ? null : this._sessionLang(userId, sessionId)) ?? langHint;
    const config = this.contextConfig(lang);
    const system: ChatMessage = { role: 'system', content: sanitizeText(config.systemPrompt) };
    if (runtime === undefined || sessionId === null) return [system];
    const seq = (this.index.user(userId).sessions.get(sessionId)?.length ?? 0) + 1;
    const history = this._history(userId, sessionId, seq).messages;
    const state = await this._contextOf(userId, sessionId, runtime, history);
    return state === null ? [system] : (appendedPrefix(state, history, config) ?? [system]);
  }

  /**
   * A session keeps its first message's language, across page loads too: its system prompt, and so the start of
   * every prompt, stays the same (null for a session with no user message yet).
   */
  private _sessionLang(userId: string, sessionId: string): Lang | null {
    const memory = this.index.user(userId);
    for (const id of memory.sessions.get(sessionId) ?? []) {
      const turn = memory.turns.get(id);
      if (turn?.role === 'user') return detectLang(turn.text);
    }
    return null;
  }

  /** Steps 1–5 for one user message. */
  async handleUserMessage(input: MessageInput, options: HandleOptions = {}): Promise<TurnResult> {
    checkMessage(input);
    const commit = options.commit ?? true;
    const sk = key(input.userId, input.sessionId);
    const runtime = this._runtimeOf(sk);
    runtime.lang ??= this._o.lang ?? this._sessionLang(input.userId, input.sessionId) ?? detectLang(input.text);
    const lang = runtime.lang;
    const memory = this.index.user(input.userId);
    const wmKey = sk;

    // 1–2. Write first; working memory (with the thing the message names, if any); void topics.
    const extracted = this._wm.extract(input.text, input.time);
    // What it is about: a thing of the docs or an identifier it names, else a product it names (Redis, Caddy).
    const named = topicNamed(input.text, docNames(this.index)) ?? extracted.mentions?.[0] ?? null;
    const extraction: Observation = { ...extracted, ...(named === null ? {} : { topic: named }) };
    // A message the memory read from the store already (the app stores it before planning) keeps its place.
    const known = input.id === undefined ? undefined : memory.turns.get(input.id);
    const seq = known?.sessionId === input.sessionId ? known.seq : (memory.sessions.get(input.sessionId)?.length ?? 0) + 1;
    const turn = this._turnEntry(input, 'user', extraction, seq);
    let voided: string[] = [];
    if (commit) {
      await this._o.store.putTurn(turn);
      this.index.addTurn(turn);
      this._wm.observe(wmKey, extraction, input.time, turn.id);
      for (const topic of extraction.deprecate) {
        voided = [...voided, ...voidedTurns(topic, turn, memory.turns.values(), runtime.lastVoidAt)];
      }
      if (extraction.deprecate.length > 0) runtime.lastVoidAt = input.time;
      for (const id of new Set(voided)) {
        const t = memory.turns.get(id);
        if (t === undefined || t.deprecatedAt !== undefined) continue;
        const marked: TurnEntry = { ...t, deprecatedAt: input.time };
        await this._o.store.putTurn(marked);
        this.index.addTurn(marked);
      }
    }

    // A long message (a paste) costs tens of milliseconds per step: the page gets a turn between them.
    const pause = input.text.length >= LONG_MESSAGE_CHARS ? yieldToPage : async () => {};
    await pause();
    const history = this._history(input.userId, input.sessionId, turn.seq);
    await this._contextOf(input.userId, input.sessionId, runtime, history.messages);

    // 3. Which memory this session may read.
    const session = this._sessionAfter(input.userId, input.sessionId, input.time, turn, true);
    const recall = recallCue(input.text, turn.dates, isoAt(session.startedAt, this._offset).slice(0, 10));
    const decision = gate(session, this._userSessions(input.userId), { ...DEFAULT_GATE_OPTIONS, ...this._o.gate }, this._topicOverlap(input, commit), recall);
    if (commit) {
      this._sessions.set(sk, decision.session);
      await this._o.store.putSession(decision.session);
    }

    // 4. Query and budgets.
    const wmItems = this._wm.items(wmKey, input.time);
    // A follow-up that names nothing is about the topic named earlier.
    const followUp = followsUp(input.text);
    const queryFor = (topic: WmItem | undefined): RetrievalQuery =>
      buildQuery(
        {
          message: input.text,
          entities: turn.entities,
          dates: turn.dates,
          months: monthsNamed(input.text, isoAt(input.time, this._offset)),
          expansions: wmItems.filter((i) => i.kind !== 'topic').map((i) => ({ text: i.value, at: i.lastAt, ...(i.key === undefined ? {} : { key: i.key }) })),
          ...(topic === undefined ? {} : { topic: topic.value, followUp }),
        },
        { ...DEFAULT_QUERY_OPTIONS, ...this._o.query },
      );
    let topicItem = named === null && !namesSomeone(input.text) ? wmItems.find((i) => i.kind === 'topic') : undefined;
    let query = queryFor(topicItem);
    // A message that moved on (its words are met by other records than the topic's) leaves the topic out.
    if (topicItem !== undefined && !pointsBack(input.text) && !query.thin) {
      const bare = queryFor(undefined);
      const own = new Map<string, number>([...bare.terms].filter(([t, w]) => w >= 1 && !t.startsWith('@')));
      if (!messageMeetsTopic(this.index, input.userId, topicItem.value, own, turn.id)) {
        topicItem = undefined;
        query = bare;
      }
    }
    if (this._o.prepareQuery !== undefined) await this._o.prepareQuery(query.vectorText);
    const config = this.contextConfig(lang);
    // One message's counts are remembered for its passes and fitting loops (the same block text recurs).
    const counter = new MemoCounter(this._o.counter);
    const b = this.budgets;
    const labels = LABELS[lang];
    const systemTokens = counter.messageTokens({ role: 'system', content: config.systemPrompt });
    const inputTokens = counter.messageTokens({ role: 'user', content: input.text }) + 2;
    const extrasRoom = Math.max(0, b.window - b.reserve - Math.max(systemTokens, b.system) - GENERATION_PROMPT_TOKENS - Math.max(inputTokens, b.input));
    const wm = selectWorking(this._wm.lines(wmKey, lang, input.time), labels.working, Math.min(b.working, extrasRoom), counter);
    const retrievalBudget = Math.max(0, Math.min(b.retrieval, extrasRoom - wm.tokens - (wm.tokens > 0 ? 2 : 0)));

    // 4–5. Retrieve, assemble; again without turns the history turned out to hold.
    const scope = { userId: input.userId, sessionId: input.sessionId, otherSessions: decision.otherSessions, docs: decision.docs, ...(this._o.docScope === undefined ? {} : { docIds: this._o.docScope }) };
    // Turns the history will surely hold are left out from the start (the second pass is then rare): what the
    // previous prompt sent (kept when appending) and the newest turns that fit the input section.
    const exclude = new Set<string>([turn.id, ...this._likelyInHistory(history, runtime.context, Math.max(0, b.input - inputTokens))]);
    const state = runtime.context;
    // Tokens the memory block may take and the turn still append to the previous prompt (null: it compacts anyway).
    const appendRoom = (): number | null => {
      if (state === null || state.configKey !== configKey(config) || state.historyLength >= history.messages.length) return null;
      const added = history.messages.slice(state.historyLength + 1).reduce((n, m) => n + counter.messageTokens(m), 0);
      const used = state.sentTokens.reduce((n, t) => n + t, 0) + added + GENERATION_PROMPT_TOKENS + inputTokens;
      return b.window - b.reserve - used;
    };
    await pause();
    const needsAll = needsAllMemory(input.text);
    const run = (ex: Set<string>, budget = retrievalBudget): { r: RetrievalResult; parts: BlockParts; deferred: string[] } => {
      const r = retrieve(this.index, {
        query,
        scope,
        exclude: ex,
        budget,
        // The second pass's extra room is for records: its docs pool stays the first's, and so does their ranking.
        docsPoolBudget: retrievalBudget,
        // A second pass may add the input section's spare room (below): search once as deep as it could need.
        searchDepthBudget: retrievalBudget + (this._o.borrowSpareInput === false ? 0 : Math.max(0, b.input - inputTokens)),
        now: input.time,
        // The shared counter: retrieval keeps its own memo of counts per counter, across messages.
        counter: this._o.counter,
        labels,
        offsetMinutes: this._offset,
        dateMentions: (text, time) => this._mentionsIn(text, time),
        ...(this._o.rerank === undefined ? {} : { rerank: this._o.rerank }),
        ...(this._o.pack === undefined ? {} : { pack: this._o.pack }),
      });
      const parts: BlockParts = {
        labels,
        offsetMinutes: this._offset,
        working: wm.lines,
        records: r.records,
        docs: r.docs,
        rank: new Map(r.injected.map((id, i) => [id, i])),
        yearEveryDay: r.yearEveryDay,
      };
      return { r, ...deferLowValue(parts, r, state?.sent ?? null, appendRoom(), counter, needsAll) };
    };
    const historyIds = history.ids;
    // The block is built for the messages it will follow: only what they lack is sent.
    const doAssemble = (parts: BlockParts) =>
      assemble(
        state,
        { history: history.messages, input: input.text, extras: (held) => blockText(parts, held) },
        config,
        counter,
      );
    let passes = 1;
    let spare = 0;
    let { r, parts, deferred } = run(exclude);
    let result = doAssemble(parts);
    const inHistory = result.report.turns.filter((t) => t.included && t.index < historyIds.length).map((t) => historyIds[t.index]!);
    // Second pass when the block repeats a turn the history holds, or left out one the history does not hold.
    const held = new Set(inHistory);
    if (r.injected.some((id) => held.has(id)) || [...exclude].some((id) => id !== turn.id && !held.has(id))) {
      passes = 2;
      // Recent turns the compaction took out of the history come back as records: they may use the part of the
      // input section (the message and recent turns) the history no longer fills.
      const inputUsed = result.report.promptTokens - systemTokens - result.report.sections.extras.tokens - GENERATION_PROMPT_TOKENS - carriedTokens(result.nextState, counter);
      spare = this._o.borrowSpareInput === false ? 0 : Math.max(0, b.input - Math.max(inputUsed, inputTokens));
      ({ r, parts, deferred } = run(new Set([turn.id, ...inHistory]), retrievalBudget + spare));
      result = doAssemble(parts);
    }
    const delta = blockDelta(parts, result.messages.slice(0, -1), counter);
    const memoryText = blockText(parts, []);
    const carried = carriedTokens(result.nextState, counter);

    if (commit) {
      runtime.context = result.nextState;
      // Kept, so the prompt after a page load continues this one.
      await this._o.store.putContext?.(input.userId, input.sessionId, keptState(result.nextState));
      applyHeat(this.index, input.userId, r.heat);
      await this._o.store.putHeat(r.heat);
    }
    const memoryReport: MemoryReport = {
      lang,
      budgets: b,
      sections: {
        system: { tokens: systemTokens, budget: b.system },
        working: { tokens: delta.workingTokens, budget: b.working, selected: wm.tokens },
        retrieval: { tokens: delta.retrievalTokens, budget: b.retrieval + spare, selected: r.tokens },
        input: { tokens: result.report.promptTokens - systemTokens - result.report.sections.extras.tokens - GENERATION_PROMPT_TOKENS - carried, budget: b.input },
        reserve: { tokens: b.window - result.report.promptTokens, budget: b.reserve },
      },
      block: { held: delta.held, sent: delta.sent, deferred, carriedTokens: carried },
      gate: { otherSessions: decision.otherSessions, docs: decision.docs, reason: decision.reason },
      query: {
        terms: [...query.terms].sort((x, y) => y[1] - x[1]).slice(0, 24),
        entities: [...query.entities],
        dates: query.dates,
        tags: query.tags,
        expandedWith: query.expandedWith,
        thin: query.thin,
        topic:
          named !== null
            ? { value: named, why: 'named', sourceTurnId: turn.id }
            : topicItem === undefined
              ? null
              : { value: topicItem.value, why: 'carried', sourceTurnId: topicItem.sourceTurnId },
      },
      retrieval: {
        // Built when read (the inspector, the eval): a message nobody inspects never builds the candidate list.
        get candidates() {
          return r.candidates;
        },
        injected: r.injected,
        inHistory,
        passes,
      },
      working: { text: wm.lines.map(renderWmLine).join('\n'), tokens: wm.tokens, cut: wm.cut },
      voided: [...new Set(voided)],
      probe: !commit,
    };
    return { messages: result.messages, report: { ...result.report, memory: memoryReport }, extras: delta.text, memory: memoryText, turn };
  }

  /** Stores the assistant's reply (or the other speaker's turn of a transcript). */
  async recordReply(input: MessageInput): Promise<TurnEntry> {
    checkMessage(input, true);
    const memory = this.index.user(input.userId);
    const extraction = this._wm.extract(input.text, input.time);
    const turn = this._turnEntry(input, 'assistant', extraction, (memory.sessions.get(input.sessionId)?.length ?? 0) + 1);
    await this._o.store.putTurn(turn);
    this.index.addTurn(turn);
    const session = this._sessionAfter(input.userId, input.sessionId, input.time, turn, false);
    this._sessions.set(key(input.userId, input.sessionId), session);
    await this._o.store.putSession(session);
    return turn;
  }

  private _mentionsIn(text: string, time: number): readonly DateMention[] {
    const key = `${time}\u0000${text}`;
    let found = this._dateMentions.get(key);
    if (found === undefined) {
      found = dateMentions(text, isoAt(time, this._offset));
      if (this._dateMentions.size >= 5_000) this._dateMentions = new Map();
      this._dateMentions.set(key, found);
    }
    return found;
  }

  private _runtimeOf(sk: string): SessionRuntime {
    let runtime = this._runtime.get(sk);
    if (runtime === undefined) this._runtime.set(sk, (runtime = { lang: null, context: null, keptRead: null, lastVoidAt: 0 }));
    return runtime;
  }

  private _turnEntry(input: MessageInput, role: TurnRole, extraction: Extraction, seq: number): TurnEntry {
    const entities = entitiesWithPassingDates(extraction);
    const typed = entities.map((e) => `${e.type}:${e.value.toLowerCase()}`);
    const dates = entities.filter((e) => e.type === 'date').map((e) => e.value);
    return {
      id: input.id ?? `${input.sessionId}/${seq}`,
      userId: input.userId,
      sessionId: input.sessionId,
      seq,
      role,
      time: input.time,
      text: input.text,
      entities: [...new Set([...typed, ...keyTerms(input.text)])],
      dates: [...new Set(dates)],
      tags: intentTags(input.text),
      ...(input.speaker === undefined ? {} : { speaker: input.speaker }),
    };
  }

  /** The session record with this turn counted (not stored here). */
  private _sessionAfter(userId: string, sessionId: string, time: number, turn: TurnEntry, isUser: boolean): SessionEntry {
    const old = this._sessions.get(key(userId, sessionId));
    const entities = new Set(old?.entities ?? []);
    for (const e of turn.entities) entities.add(e);
    return {
      ...(old ?? { userId, sessionId, startedAt: time, historyOpen: false }),
      lastAt: time,
      userTurns: (old?.userTurns ?? 0) + (isUser ? 1 : 0),
      entities: [...entities],
    } as SessionEntry;
  }

  private _likelyInHistory(history: { messages: ChatMessage[]; ids: string[] }, state: ContextState | null, room: number): string[] {
    const out: string[] = [];
    for (const from of state?.sentFrom ?? []) if (from >= 0 && from < history.ids.length) out.push(history.ids[from]!);
    let used = 0;
    for (let i = history.messages.length - 1; i >= 0; i--) {
      used += this._o.counter.messageTokens(history.messages[i]!);
      if (used > room) break;
      out.push(history.ids[i]!);
    }
    return out;
  }

  /** Distinctive topic words the session (with the message) shares with another session, as `t:` keys. */
  private _topicOverlap(input: MessageInput, committed: boolean): (other: SessionEntry) => string[] {
    let mine: string[] | null = null;
    return (other) => {
      const memory = this.index.user(input.userId);
      if (mine === null) {
        const own = new Set(memory.sessionTerms.get(input.sessionId) ?? []);
        if (!committed) for (const t of terms(input.text)) own.add(t);
        mine = [...own].filter((t) => memory.isDistinctive(t));
      }
      const theirs = memory.sessionTerms.get(other.sessionId);
      return theirs === undefined ? [] : mine.filter((t) => theirs.has(t)).map((t) => `t:${t}`);
    };
  }

  private _userSessions(userId: string): SessionEntry[] {
    const out: SessionEntry[] = [];
    for (const s of this._sessions.values()) if (s.userId === userId) out.push(s);
    return out;
  }

  /** The session's turns before `seq`, as chat messages (what the engine's history is). */
  private _history(userId: string, sessionId: string, seq: number): SessionHistory {
    return this._histories.before(this.index.user(userId), key(userId, sessionId), sessionId, seq);
  }
}

/** Tokens of the memory blocks that earlier user messages in the prompt still carry (sent with them, kept verbatim). */
function carriedTokens(state: ContextState, counter: TokenCounter): number {
  let n = 0;
  for (let j = 1; j < state.sent.length - 1; j++) {
    const m = state.sent[j]!;
    const source = state.sourceContent[j]!;
    if (m.role !== 'user' || m.content === source || !m.content.endsWith(source)) continue;
    n += state.sentTokens[j]! - counter.messageTokens({ role: 'user', content: source });
  }
  return n;
}
